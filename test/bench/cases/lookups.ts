/**
 * The store's cost of one indexed read as a collection grows: the same lookups (a findOne by
 * integer `_id`, as every route and job does, and a findOne by an indexed secondary field) in a
 * collection of BENCH_LOOKUP_DOCS documents (default 100,000) beside one of 1,000. The figure is
 * the median latency ratio large/small of the `_id` lookup: about 1 when an index serves it (the
 * goal is at most 1.3), about the size ratio when each read scans.
 *
 * FerretDB 1.24 on PostgreSQL serves these only through the GIN companion indexes of
 * src/db/companion-indexes.ts (its own btree indexes cannot serve the `@>` it sends), so both
 * collections get them here, for the fields looked up, exactly as the app's collections get them
 * from their declared indexes. On SQLite or when they cannot be made, the note says so.
 */
import mongoose from 'mongoose';
import { getConfig } from '../../../config';
import { ensureCompanionIndexes } from '../../../src/db/companion-indexes';
import { commandsSince, snapshot } from '../db-commands';
import type { Side, ThroughputCase } from './types';

const LARGE = Number(process.env.BENCH_LOOKUP_DOCS || 100_000);
const SMALL = 1_000;
const LOOKUPS = 200;
const BATCH = 1000;
const PADDING = 'x'.repeat(400); // about the size of a subscription document
/** The fields looked up: what a declared index would name. */
const LOOKED_UP = ['_id', 'ref'];

interface LookupDoc {
  _id: number;
  ref: string;
  status: string;
  padding: string;
}

async function fill(name: string, count: number): Promise<{ collection: mongoose.mongo.Collection<LookupDoc>; indexes: string }> {
  const db = mongoose.connection.db!;
  const collection = db.collection<LookupDoc>(name);
  await collection.drop().catch(() => undefined);
  for (let i = 0; i < count; i += BATCH) {
    const size = Math.min(BATCH, count - i);
    await collection.insertMany(
      Array.from({ length: size }, (_, j) => ({ _id: i + j + 1, ref: `ref-${i + j + 1}`, status: 'active', padding: PADDING })),
      { ordered: false },
    );
  }
  const outcome = await ensureCompanionIndexes(db, getConfig().ferretdb.postgresqlUrl, new Map([[name, LOOKED_UP]]));
  const indexes =
    outcome.status === 'ensured'
      ? `GIN companion indexes on ${LOOKED_UP.join(', ')}`
      : outcome.status === 'not-ferretdb'
        ? 'not FerretDB: its own indexes'
        : `NO companion indexes (${outcome.reason})`;
  return { collection, indexes };
}

function sideOf(latencies: number[], seconds: number, found: number): Side {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] * 100) / 100;
  return { requestsPerSecond: Math.round((sorted.length / seconds) * 10) / 10, p50Ms: at(0.5), p99Ms: at(0.99), requests: sorted.length, statusCodes: {}, errors: sorted.length - found, valid: found === sorted.length };
}

async function lookups(collection: mongoose.mongo.Collection<LookupDoc>, count: number, by: '_id' | 'ref'): Promise<Side> {
  const latencies: number[] = [];
  let found = 0;
  const started = performance.now();
  for (let i = 0; i < LOOKUPS; i++) {
    const n = 1 + Math.floor(Math.random() * count);
    const before = performance.now();
    if (await collection.findOne(by === '_id' ? { _id: n } : { ref: `ref-${n}` })) found++;
    latencies.push(performance.now() - before);
  }
  return sideOf(latencies, (performance.now() - started) / 1000, found);
}

export const lookupsCase: ThroughputCase = {
  name: 'lookups',
  route: `findOne by _id, ${LARGE.toLocaleString('en')} documents`,
  baseline: `the same findOne in a collection of ${SMALL.toLocaleString('en')} documents`,
  async measure() {
    const small = await fill('bench_lookups_small', SMALL);
    const large = await fill('bench_lookups_large', LARGE);
    // Each side once untimed first, so neither pays for a cold cache the other does not.
    await lookups(small.collection, SMALL, '_id');
    await lookups(large.collection, LARGE, '_id');
    const baseline = await lookups(small.collection, SMALL, '_id');
    const bench = [{ name: 'bench' }];
    const before = await snapshot(bench);
    const subject = await lookups(large.collection, LARGE, '_id');
    const dbCommands = await commandsSince(before, bench, LOOKUPS);
    const smallByRef = await lookups(small.collection, SMALL, 'ref');
    const largeByRef = await lookups(large.collection, LARGE, 'ref');
    await small.collection.drop();
    await large.collection.drop();
    const ratio = (a: Side, b: Side) => (a.p50Ms! / Math.max(b.p50Ms!, 0.01)).toFixed(2);
    return {
      subject,
      baseline,
      dbCommands,
      note:
        `median latency ${LARGE.toLocaleString('en')}/${SMALL.toLocaleString('en')} documents: by _id ${ratio(subject, baseline)}x (${subject.p50Ms} / ${baseline.p50Ms} ms), ` +
        `by an indexed secondary field ${ratio(largeByRef, smallByRef)}x (${largeByRef.p50Ms} / ${smallByRef.p50Ms} ms); goal at most 1.3x (an index keeps it near 1x, a scan near ${LARGE / SMALL}x); ${large.indexes}`,
    };
  },
};
