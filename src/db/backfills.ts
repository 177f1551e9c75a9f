/**
 * Fields added so that a sweep or a count finds its documents by an indexed equality (FerretDB
 * filters `null`, `$exists` and ranges only after reading the whole collection). Documents stored
 * before such a field existed get it here: the scheduler runs every backfill once at its start,
 * before its first tick, so the sweeps that rely on the fields never miss an older document.
 *
 * Each backfill reads its collection whole, once per scheduler start. Delete an entry once every
 * store has run it. FerretDB writes an update back as a whole document, so a backfill racing a
 * write of the same document could undo that write: each entry only marks documents a sweep then
 * settles against the truth (the acquirer, the stored event), so a lost write is settled again.
 */
import mongoose, { type Model } from 'mongoose';
import { logger } from '../platform/logger';

export interface Backfill {
  name: string;
  model: () => Model<any>;
  filter: Record<string, unknown>;
  set: Record<string, unknown>;
}

const exists = (yes: boolean) => mongoose.trusted({ $exists: yes });
const present = () => mongoose.trusted({ $ne: null });

export const BACKFILLS: Backfill[] = [
  {
    name: 'sales under reconciliation: reconciling true (the stuck-reconciliation sweep and count)',
    model: () => mongoose.model('OnlineSale'),
    filter: { reconciliation: present(), reconciling: exists(false) },
    set: { reconciling: true },
  },
  {
    name: 'payment notices not applied: applied false (the unapplied-notice sweep and count)',
    model: () => mongoose.model('PaymentNotice'),
    filter: { appliedAt: null, applied: exists(false) },
    set: { applied: false },
  },
  {
    name: 'paid link claims whose event is owed: eventOwed true (the stale-payment sweep and count)',
    model: () => mongoose.model('PaymentClaim'),
    filter: { state: 'paid', notifiedAt: null, eventOwed: exists(false) },
    set: { eventOwed: true },
  },
  {
    name: 'chargeback notices not applied: applied false (the unapplied-notice sweep and count)',
    model: () => mongoose.model('ChargebackNotice'),
    filter: { appliedAt: null, applied: exists(false) },
    set: { applied: false },
  },
];

/** Runs every backfill whose model this process knows; returns how many documents each marked. */
export async function runBackfills(backfills: Backfill[] = BACKFILLS): Promise<Record<string, number>> {
  const marked: Record<string, number> = {};
  for (const backfill of backfills) {
    let model: Model<any>;
    try {
      model = backfill.model();
    } catch {
      continue; // a process that does not load this area has nothing to mark
    }
    const { modifiedCount } = await model.updateMany(backfill.filter, { $set: backfill.set });
    marked[backfill.name] = modifiedCount;
    if (modifiedCount) logger.info({ backfill: backfill.name, marked: modifiedCount }, 'older documents marked');
  }
  return marked;
}
