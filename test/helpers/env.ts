/**
 * Import first in every test file: gives the file (one ava worker process) its own database and
 * queue prefix so files run in parallel without seeing each other's data. Child processes the
 * test starts inherit these variables.
 */
import crypto from 'node:crypto';
import { newLogFile, printLogsOfFailedTests } from './test-logs';

const suffix = crypto.randomBytes(4).toString('hex');
// Under npm test the run's id prefixes every database, so the run drops exactly its own when it ends.
export const TEST_DB = `t_${process.env.TEST_RUN_ID ? `${process.env.TEST_RUN_ID}_` : ''}${suffix}`;
export const TEST_QUEUE_PREFIX = `t${suffix}`;

const mongoBase = process.env.TEST_MONGODB_BASE || 'mongodb://127.0.0.1:27017';
process.env.MONGODB_URI = `${mongoBase}/${TEST_DB}`;
process.env.QUEUE_PREFIX = TEST_QUEUE_PREFIX;
process.env.NODE_ENV = 'test';
process.env.LOG_LEVEL = process.env.TEST_LOG_LEVEL || 'warn';
// Every test of one file comes from 127.0.0.1: the checkout tests make more card payments than the
// production default allows one address. The limit itself is tested with its own low value.
process.env.CHECKOUT_PAY_RATE_LIMIT ??= '100000';
// This process's logs go to a file, printed only under a test that fails. Its child processes log
// to their stdout, read by their starters (test/helpers/processes.ts also keeps a file per process).
process.env.TEST_LOG_FILE = newLogFile('in-process');
process.env.TEST_LOG_PID = String(process.pid);
printLogsOfFailedTests();

/**
 * Points every acquirer URL at a closed port; call it before the config loads (before the app starts).
 * Requests that pass validation then reach no acquirer and answer 502, for tests that must not charge.
 */
export function pointAcquirerNowhere(): void {
  const nowhere = 'http://127.0.0.1:9';
  Object.assign(process.env, {
    ACQUIRER_BASE_URL: nowhere,
    ACQUIRER_QUERY_URL: nowhere,
    ACQUIRER_CHARGEBACK_BASE_URL: nowhere,
    ACQUIRER_CHARGEBACK_AUTH_URL: `${nowhere}/token`,
  });
}
