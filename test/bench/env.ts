/**
 * Imported first by the bench runner: its own database and queue prefix (inherited by every
 * process it starts), so a bench never reads or writes a developer's or a test's data.
 */
import crypto from 'node:crypto';

const suffix = crypto.randomBytes(4).toString('hex');
export const BENCH_DB = `bench_${suffix}`;
export const BENCH_QUEUE_PREFIX = `bench${suffix}`;

const mongoBase = process.env.BENCH_MONGODB_BASE || 'mongodb://127.0.0.1:27017';
process.env.MONGODB_URI = `${mongoBase}/${BENCH_DB}`;
process.env.QUEUE_PREFIX = BENCH_QUEUE_PREFIX;
process.env.NODE_ENV = 'test';
process.env.LOG_LEVEL = 'warn';
// The bench reads every process's /metrics (basic auth) several times per side, and each password
// check counts against the per-IP, per-account and per-pair password limits
// (src/auth/password-guessing.ts): raised for every process.
process.env.TOKEN_RATE_LIMIT = '100000000';
process.env.PASSWORD_ACCOUNT_RATE_LIMIT = '100000000';
process.env.PASSWORD_CONSECUTIVE_FAILURE_LIMIT = '100000000';
process.env.PASSWORD_ADDRESS_FAILURE_LIMIT = '100000000';
