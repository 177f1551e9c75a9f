/**
 * Run by test-logs.test.ts (TEST_LOGS_FIXTURE=1) as a test file of its own: a passing test and a
 * failing one, both logging, one with a child process. In the suite itself it is one passing test.
 */
import '../helpers/env';
import test from 'ava';
import { logger } from '../../src/logger';
import { startProcess, stopAll } from '../helpers/processes';

if (process.env.TEST_LOGS_FIXTURE === '1') {
  test.after.always(() => stopAll());

  test.serial('passes while logging a warning and a deliberate fault', (t) => {
    logger.warn('fixture: a warning of a passing test');
    logger.error({ err: new Error('fixture: deliberate fault of a passing test') }, 'fixture: a fault on purpose');
    t.pass();
  });

  test.serial('fails after its process and this one logged', async (t) => {
    await startProcess('sandbox', { SANDBOX_PORT: '0' });
    logger.error({ err: new Error('fixture: the fault that fails the test') }, 'fixture: the failing test logged this');
    t.fail('fixture: failing on purpose');
  });
} else {
  test('fixture of test-logs.test.ts (its tests run only there)', (t) => t.pass());
}
