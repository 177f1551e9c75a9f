/**
 * One migration run at a time: the run holds the claim `_id: 'migrations'` in `migration_lock` (our one claim
 * primitive, src/db/claims.ts) and renews its lease every third of it while it runs. A second run waits until the
 * claim is released, then finds nothing pending; a run that died (SIGKILL, a lost machine) leaves its claim, which
 * the next run takes over once the lease is over. A run whose claim was taken over meanwhile (it stalled longer
 * than its lease) stops before its next document or migration: another run owns the work now.
 *
 * The lease is stored in the claim, so a waiting run judges the holder by the holder's own lease (a test's short
 * one, or production's 60 s), not by its own setting.
 */
import mongoose from 'mongoose';
import { Claims, type ClaimDocument, type HeldClaim } from '../claims';
import type { Logger } from '../../platform/logger';
import { MigrationRunStopped } from './migration';

export interface MigrationLock extends ClaimDocument {
  _id: string;
  holder?: string | null;
  startedAt: Date;
  leaseMs: number;
}

const lockSchema = new mongoose.Schema<MigrationLock>(
  {
    _id: { type: String, required: true },
    holder: { type: String, default: null },
    startedAt: { type: Date, required: true },
    leaseMs: { type: Number, required: true },
  },
  { versionKey: false, collection: 'migration_lock' },
);

export const MigrationLockModel = mongoose.model<MigrationLock>('MigrationLock', lockSchema);

export const MIGRATION_LOCK_ID = 'migrations';

const locks = new Claims<MigrationLock>(MigrationLockModel, {
  startField: 'startedAt',
  leaseMs: (lock) => lock.leaseMs,
});

/** The run no longer holds the lock: another run took it over, so this one must write nothing more. */
export class MigrationLockLost extends Error {
  constructor() {
    super(
      'the migration lock was taken over by another run (this run did not renew it within its lease): stopped; ' +
        'the other run goes on with what is pending',
    );
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until this run holds the lock (however long the holder's run takes), then returns the claim. */
export async function takeMigrationLock(
  leaseMs: number,
  log: Logger,
  stopRequested: () => boolean = () => false,
): Promise<HeldClaim<MigrationLock>> {
  let toldWaiting = false;
  for (;;) {
    if (stopRequested()) throw new MigrationRunStopped();
    const outcome = await locks.claim(MIGRATION_LOCK_ID, () => ({ leaseMs }));
    if (outcome.claimed) {
      const dead = outcome.claim.takenOver;
      if (dead)
        log.warn(
          { deadHolder: dead.holder, since: dead.startedAt },
          'migration lock taken over from a run whose lease ran out (it died or stalled): its migration runs again',
        );
      else log.info('migration lock taken');
      return outcome.claim;
    }
    if (!toldWaiting && outcome.held) {
      toldWaiting = true;
      const end = locks.leaseEnd(outcome.held);
      log.info(
        { holder: outcome.held.holder, since: outcome.held.startedAt, leaseEnds: end },
        'another migration run holds the lock: waiting for it to finish',
      );
    }
    // A holder that finishes releases at once; one that died is taken over after its lease. Poll well within both.
    await sleep(Math.min(1000, leaseMs / 4));
  }
}

/**
 * Keeps a held lock's lease running: renews it every third of the lease, and knows when it was lost (a renewal
 * found the claim gone or another holder's, or no renewal succeeded for a whole lease, so another run may hold it).
 */
export class LeaseKeeper {
  private lost = false;
  private renewedAt: number;
  private timer: NodeJS.Timeout | undefined;
  private renewing: Promise<void> = Promise.resolve();

  constructor(
    private readonly lock: HeldClaim<MigrationLock>,
    private readonly leaseMs: number,
    private readonly log: Logger,
  ) {
    this.renewedAt = new Date(lock.document.startedAt).getTime();
    this.schedule();
  }

  private schedule(): void {
    this.timer = setTimeout(() => {
      this.renewing = this.renew().finally(() => {
        if (!this.lost && this.timer) this.schedule();
      });
    }, this.leaseMs / 3);
  }

  private async renew(): Promise<void> {
    const now = new Date();
    try {
      if (await this.lock.extend(now)) this.renewedAt = now.getTime();
      else this.lost = true;
    } catch (err) {
      // The store did not answer: the lease still runs from the last renewal, checked by assertHeld.
      this.log.warn({ err }, 'the migration lock could not be renewed; trying again');
    }
  }

  /** Throws MigrationLockLost when this run may no longer hold the lock. No database command. */
  assertHeld(): void {
    if (this.lost || Date.now() - this.renewedAt >= this.leaseMs) throw new MigrationLockLost();
  }

  /** Renews now and throws MigrationLockLost if the lock is no longer this run's: the check before each migration. */
  async renewNow(): Promise<void> {
    await this.renewing;
    await this.renew();
    this.assertHeld();
  }

  /** Stops renewing, then releases the lock if this run still holds it. */
  async release(): Promise<boolean> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.renewing;
    return this.lock.release();
  }
}
