/**
 * Imported right after helpers/env by in-process test files that call the token endpoints many
 * times: their limit is not what they test (test/auth/rate-limit.test.ts is).
 */
process.env.TOKEN_RATE_LIMIT = '100000';
