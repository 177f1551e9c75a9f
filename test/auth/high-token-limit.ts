/**
 * Imported right after helpers/env by in-process test files that call the token endpoints many
 * times: their limits are not what they test (test/auth/rate-limit.test.ts and
 * password-guessing.test.ts are), per address, per account nor per both.
 */
process.env.TOKEN_RATE_LIMIT = '100000';
process.env.PASSWORD_ACCOUNT_RATE_LIMIT = '100000';
process.env.PASSWORD_CONSECUTIVE_FAILURE_LIMIT = '100000';
process.env.PASSWORD_ADDRESS_FAILURE_LIMIT = '100000';
