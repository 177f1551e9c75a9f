/**
 * The release's migration run (workers/migrate.ts, src/db/migrations/): how long its lock lasts unrenewed, and the
 * two test-only switches that let a test stop a run half-way or hold its lock (production refuses both,
 * config/production.ts).
 */
import { Joi } from 'celebrate';
import { variable } from './declare';

export const MIGRATION_VARIABLES = {
  lockLeaseMs: variable({
    env: 'MIGRATION_LOCK_LEASE_MS',
    schema: Joi.number().integer().min(1000).max(3_600_000),
    default: 60000,
    doc:
      'How long the migration lock lasts unrenewed (the run renews it every third of this): a second run waits ' +
      'for it, and takes over a run that died once it is over',
    see: '[releases and migrations](deploy.md#releases-and-migrations)',
  }),
  testKillAfter: variable({
    env: 'MIGRATION_TEST_KILL_AFTER',
    schema: Joi.number().integer().min(0),
    default: 0,
    doc:
      'Tests only: the migration run SIGKILLs itself once it has written this many documents in one step, so a ' +
      'test can resume a run killed half-way (0 = never)',
  }),
  testHoldMs: variable({
    env: 'MIGRATION_TEST_HOLD_MS',
    schema: Joi.number().integer().min(0).max(60000),
    default: 0,
    doc:
      'Tests only: the migration run holds its lock this long before its first migration, so a test can start ' +
      'a second run meanwhile, or take the lock away (0 = never)',
  }),
};
