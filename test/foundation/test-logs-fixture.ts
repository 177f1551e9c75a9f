/**
 * Run only by test-logs.test.ts, as a test file of its own (its name is outside the suite's
 * `*.test.ts` glob; test-logs.ava.config.mjs selects it): a passing test and a failing one, both
 * logging, one with a child process.
 */
import '../helpers/env';
import test from 'ava';
import { logger } from '../../src/platform/logger';
import { startProcess, stopAll } from '../helpers/processes';

test.after.always(() => stopAll());

test.serial('passes while logging a warning and a deliberate fault', (t) => {
  logger.warn('fixture: a warning of a passing test');
  logger.error({ err: new Error('fixture: deliberate fault of a passing test') }, 'fixture: a fault on purpose');
  t.true(logger.isLevelEnabled('warn'), 'both lines were written to the log file');
});

test.serial('fails after its process and this one logged', async (t) => {
  await startProcess('sandbox', { SANDBOX_PORT: '0' });
  logger.error({ err: new Error('fixture: the fault that fails the test') }, 'fixture: the failing test logged this');
  t.fail('fixture: failing on purpose');
});
