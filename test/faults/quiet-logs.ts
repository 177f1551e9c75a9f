/**
 * Import right after ../helpers/env in a test that stops a service on purpose: the test process's
 * own connection warnings are expected there, not worth printing. (A module, because imports run
 * before any statement of the importing file.) Child processes keep their own LOG_LEVEL.
 */
process.env.LOG_LEVEL = 'error';
