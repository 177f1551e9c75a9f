/**
 * Migration 0001: the flags the sweeps and the `needs_attention` counts find their documents by. Each flag was added
 * so that a sweep reads by an indexed equality (FerretDB filters `null`, `$exists` and ranges only after reading the
 * whole collection); documents stored before it existed get it here. Until this migration, the scheduler marked
 * them at every start (the former src/db/backfills.ts); now the release marks them once.
 *
 * Each step reads its collection once (one unsorted cursor, the `_id` only) and marks each document found with an
 * update naming it by `_id` that still requires the flag to be absent, so a rerun, or a resumed run, writes only
 * what is missing. The writes go through the driver: no model casts the old document, and nothing moves
 * `updatedAt` (a sale's refund window counts from its dates).
 */
import type { Document } from 'mongodb';
import type { Migration, MigrationContext } from './migration';

/** Documents of `collection` matching `filter` (stored before `flag` existed) get `flag: value`. */
export interface FlagStep {
  name: string;
  collection: string;
  filter: Document;
  flag: string;
  value: unknown;
}

export const SWEEP_FLAG_STEPS: readonly FlagStep[] = [
  {
    name: 'sales under reconciliation: reconciling true (the stuck-reconciliation sweep and count)',
    collection: 'online_sales',
    filter: { reconciliation: { $ne: null }, reconciling: { $exists: false } },
    flag: 'reconciling',
    value: true,
  },
  {
    name: 'payment notices not applied: applied false (the unapplied-notice sweep and count)',
    collection: 'acquirer_payment_notices',
    filter: { appliedAt: null, applied: { $exists: false } },
    flag: 'applied',
    value: false,
  },
  {
    name: 'paid link claims whose event is owed: eventOwed true (the stale-payment sweep and count)',
    collection: 'payment_link_claims',
    filter: { state: 'paid', notifiedAt: null, eventOwed: { $exists: false } },
    flag: 'eventOwed',
    value: true,
  },
  {
    name: 'chargeback notices not applied: applied false (the unapplied-notice sweep and count)',
    collection: 'chargeback_notices',
    filter: { appliedAt: null, applied: { $exists: false } },
    flag: 'applied',
    value: false,
  },
];

async function markFlag(context: MigrationContext, step: FlagStep): Promise<number> {
  const collection = context.db.collection(step.collection);
  let marked = 0;
  for await (const { _id } of collection.find(step.filter, { projection: { _id: 1 } })) {
    const { modifiedCount } = await collection.updateOne(
      { _id, [step.flag]: { $exists: false } },
      { $set: { [step.flag]: step.value } },
    );
    if (!modifiedCount) continue;
    marked++;
    context.documentWritten(step.name);
  }
  return marked;
}

export const sweepFlags: Migration = {
  name: '0001-sweep-flags',
  async up(context) {
    for (const step of SWEEP_FLAG_STEPS) {
      const marked = await markFlag(context, step);
      context.log.info({ step: step.name, marked }, `step done: ${marked} older documents marked`);
    }
  },
};
