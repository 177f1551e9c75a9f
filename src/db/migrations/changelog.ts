/**
 * The `migrations` changelog: one document per migration run to its end, `{_id: name, executedAt}`. The name is the
 * `_id`, so a migration logged twice (two runs that both finished it, the second having lost its lock) is a
 * duplicate key, not a second row. umzug reads and writes it through `changelogStorage`, on its storage interface;
 * web, worker and scheduler read it once at start (pending.ts).
 */
import mongoose from 'mongoose';
import type { UmzugStorage } from 'umzug';
import { insertOnce } from '../claims';

export interface MigrationRecord {
  _id: string;
  executedAt: Date;
}

const recordSchema = new mongoose.Schema<MigrationRecord>(
  {
    _id: { type: String, required: true },
    executedAt: { type: Date, required: true },
  },
  { versionKey: false, collection: 'migrations' },
);

export const MigrationRecordModel = mongoose.model<MigrationRecord>('MigrationRecord', recordSchema);

/** The names of the migrations run to their end: the whole changelog (a few dozen rows at most), in one read. */
export async function executedMigrationNames(): Promise<string[]> {
  const records = await MigrationRecordModel.find({}, { _id: 1 }).lean<{ _id: string }[]>();
  return records.map((record) => record._id);
}

/** umzug's storage on our changelog. Forward only: nothing is ever unlogged. */
export const changelogStorage: UmzugStorage = {
  async logMigration({ name }) {
    await insertOnce(MigrationRecordModel, { _id: name, executedAt: new Date() });
  },
  async unlogMigration({ name }) {
    throw new Error(`migrations are forward only: ${name} is not reverted (ship a new migration instead)`);
  },
  executed: () => executedMigrationNames(),
};
