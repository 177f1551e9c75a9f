/** Imported right after helpers/env by test files that reach the per-IP limit in-process. */
process.env.TOKEN_RATE_LIMIT = '4';
process.env.TOKEN_RATE_WINDOW_SECONDS = '600';
