/**
 * What a migration is: a name (its `_id` in the `migrations` changelog, never changed once released) and an `up`
 * that brings documents stored by older releases to the shape today's code reads. Forward only: a release that needs
 * to undo one ships a new migration.
 *
 * Each migration must be idempotent, because a run killed half-way runs it again whole (it is logged only once its
 * `up` returns): it skips documents already done, by its filter and by the condition of each write. It reads raw
 * driver documents (`context.db`), never through a model: casting would hide the old shapes it is there to find.
 */
import type { Db } from 'mongodb';
import type { Logger } from '../../platform/logger';

export interface MigrationContext {
  db: Db;
  log: Logger;
  /**
   * Called by a step after each document it wrote: counts it, and throws once the run must stop (its lock was
   * taken over, or it was asked to stop), so a run that lost its lock stops between two documents.
   */
  documentWritten(step: string): void;
}

export interface Migration {
  name: string;
  up(context: MigrationContext): Promise<void>;
}

/** The run stopped between two writes because it was asked to (SIGTERM): what it left, the next run finishes. */
export class MigrationRunStopped extends Error {
  constructor() {
    super('the migration run was asked to stop: stopped between two writes; run it again to finish');
  }
}
