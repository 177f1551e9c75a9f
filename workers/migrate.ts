/**
 * Procfile `release` (`npm run migrate` from the source): runs the pending migrations once, logging each, and exits
 * 0; on a failure it says why on stderr and exits 1. Not a long-running process: a release runs it to its end after
 * stopping the old processes and before starting the new ones (docs/deploy.md#releases-and-migrations), and
 * `npm start` runs it before the others. Two runs at once are safe: the second waits for the first's lock
 * (src/db/migrations/lock.ts), then finds nothing pending.
 *
 * SIGTERM (or SIGINT) stops the run between two writes and releases the lock; a second signal exits at once. A run
 * killed outright is resumed by the next one once its lock's lease is over.
 */
// First: traces, when on, must patch mongodb before it loads.
import '../src/platform/tracing-preload';
import fs from 'node:fs';
import { getConfig } from '../config';
import { connectDatabase, disconnectDatabase } from '../src/db/connection';
import { runMigrations } from '../src/db/migrations/runner';
import { logger } from '../src/platform/logger';
import { stopTracing } from '../src/platform/tracing';

/** MIGRATION_TEST_KILL_AFTER: dies as a crash would, once a step has written that many documents (tests only). */
function killAfter(documents: number) {
  if (!documents) return undefined;
  return (step: string, writtenInStep: number) => {
    if (writtenInStep < documents) return;
    // Written synchronously: the logger's stream writes a moment later, and SIGKILL would drop the line (a loaded
    // machine lost it), while the test reads it to know the run died where it was told to.
    const msg = `MIGRATION_TEST_KILL_AFTER=${documents}: killing this run (SIGKILL)`;
    fs.writeSync(process.stdout.fd, `${JSON.stringify({ level: 'warn', step, writtenInStep, msg })}\n`);
    process.kill(process.pid, 'SIGKILL');
  };
}

export async function migrate(): Promise<string[]> {
  const config = getConfig();
  let stopRequested = false;
  const stop = (signal: string) => {
    if (stopRequested) process.exit(1);
    stopRequested = true;
    logger.warn({ signal }, 'migrate: stopping between two writes (a second signal exits at once)');
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  await connectDatabase(config.mongodbUri);
  try {
    const { ran } = await runMigrations({
      leaseMs: config.migrations.lockLeaseMs,
      holdMs: config.migrations.testHoldMs,
      onDocumentWritten: killAfter(config.migrations.testKillAfter),
      stopRequested: () => stopRequested,
    });
    return ran;
  } finally {
    await disconnectDatabase();
  }
}

if (require.main === module) {
  migrate()
    .then(stopTracing)
    .then(
      () => process.exit(0),
      (error: Error) => {
        logger.error({ err: error }, 'migrate: failed');
        process.stderr.write(
          `migrate: failed: ${error.message}\nA migration that did not finish is not logged: the next run runs it ` +
            'again (each is idempotent)\n',
        );
        process.exit(1);
      },
    );
}
