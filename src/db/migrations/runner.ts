/**
 * Runs the pending migrations (index.ts) on umzug: umzug keeps the order and the pending/executed bookkeeping on our
 * changelog (changelog.ts); the lock is ours (lock.ts), since umzug has none. Pending migrations are read only once
 * the lock is held, so a run that waited for another finds what that one left: nothing, when it finished.
 *
 * A migration is logged when its `up` returns, never before, so a run stopped half-way (killed, its lock lost, a
 * failed write) runs that migration again whole next time; each one is idempotent (migration.ts).
 */
import mongoose from 'mongoose';
import { MigrationError, Umzug } from 'umzug';
import { logger as processLogger, type Logger } from '../../platform/logger';
import { changelogStorage } from './changelog';
import { MIGRATIONS } from './index';
import { LeaseKeeper, MigrationLockLost, takeMigrationLock } from './lock';
import { MigrationRunStopped, type Migration, type MigrationContext } from './migration';

export interface MigrationRunOptions {
  /** How long the lock lasts unrenewed (MIGRATION_LOCK_LEASE_MS). */
  leaseMs: number;
  log?: Logger;
  migrations?: readonly Migration[];
  /** Told after each document a step wrote, with how many that step has written: the test switch that kills a run. */
  onDocumentWritten?: (step: string, writtenInStep: number) => void;
  /** Tests only: how long to hold the lock before the first migration (MIGRATION_TEST_HOLD_MS). */
  holdMs?: number;
  /** True once the run should stop (a SIGTERM): checked between documents and between migrations. */
  stopRequested?: () => boolean;
}

export interface MigrationRunOutcome {
  /** The migrations this run ran, in order; empty when none was pending. */
  ran: string[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runMigrations(options: MigrationRunOptions): Promise<MigrationRunOutcome> {
  const { leaseMs, log = processLogger, migrations = MIGRATIONS, onDocumentWritten, holdMs = 0 } = options;
  const stopRequested = options.stopRequested ?? (() => false);
  const db = mongoose.connection.db;
  if (!db) throw new Error('runMigrations needs the database connected (connectDatabase)');
  const lock = await takeMigrationLock(leaseMs, log, stopRequested);
  const lease = new LeaseKeeper(lock, leaseMs, log);
  try {
    if (holdMs) {
      log.info({ holdMs }, `holding the migration lock ${holdMs} ms before migrating (MIGRATION_TEST_HOLD_MS)`);
      await sleep(holdMs);
    }
    const goOn = () => {
      lease.assertHeld();
      if (stopRequested()) throw new MigrationRunStopped();
    };
    const writtenPerStep = new Map<string, number>();
    const context: MigrationContext = {
      db,
      log,
      documentWritten(step) {
        const written = (writtenPerStep.get(step) ?? 0) + 1;
        writtenPerStep.set(step, written);
        onDocumentWritten?.(step, written);
        goOn();
      },
    };
    const umzug = new Umzug<MigrationContext>({
      migrations: migrations.map((migration) => ({ name: migration.name, up: () => migration.up(context) })),
      context,
      storage: changelogStorage,
      logger: undefined, // each migration is logged below, through our logger
    });
    const startedAt = new Map<string, number>();
    umzug.on('migrating', async ({ name }) => {
      if (stopRequested()) throw new MigrationRunStopped();
      // One renewal before each migration: a run that lost its lock stops here, before writing anything more.
      await lease.renewNow();
      startedAt.set(name, Date.now());
      log.info({ migration: name }, `migration ${name}: running`);
    });
    umzug.on('migrated', ({ name }) => {
      const ms = Date.now() - (startedAt.get(name) ?? Date.now());
      log.info({ migration: name, ms }, `migration ${name}: done in ${ms} ms`);
    });
    const ran = (await umzug.up()).map((migration) => migration.name);
    if (ran.length) log.info({ ran }, `migrations done: ${ran.length} run (${ran.join(', ')})`);
    else log.info('no migration pending');
    return { ran };
  } catch (error) {
    // A stop we asked for is told as itself, not as the migration's failure that umzug wraps it in.
    const cause = error instanceof MigrationError ? error.cause : undefined;
    if (cause instanceof MigrationLockLost || cause instanceof MigrationRunStopped) throw cause;
    throw error;
  } finally {
    const released = await lease.release().catch((err) => {
      log.warn({ err }, 'the migration lock could not be released: the next run takes it over after its lease');
      return true;
    });
    if (!released) log.warn("the migration lock was no longer this run's when it ended (another run took it over)");
  }
}
