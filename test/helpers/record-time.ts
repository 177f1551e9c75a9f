/**
 * Loaded by ava into every test file's worker process before the file (package.json's ava.require), so
 * every file, whether it imports test/helpers/env.ts or not, has its time in npm test's report.
 */
import { recordTimeAtExit } from './test-times';

recordTimeAtExit();
