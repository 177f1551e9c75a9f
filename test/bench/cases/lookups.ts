/**
 * The store's cost of one indexed read as a collection grows: the same lookups (a findOne by
 * integer `_id`, as every route and job does, and a findOne by an indexed secondary field) in a
 * collection of BENCH_LOOKUP_DOCS documents (default 100,000) beside one of 1,000, BENCH_LOOKUPS
 * each (default 500), alternating between the two, sequential. The figure is
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
import { sideOfLatencies } from '../latencies';
import type { Side, ThroughputCase } from './types';

const LARGE = Number(process.env.BENCH_LOOKUP_DOCS || 100_000);
const SMALL = 1_000;
const LOOKUPS = Number(process.env.BENCH_LOOKUPS || 500);
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

interface Filled {
  collection: mongoose.mongo.Collection<LookupDoc>;
  count: number;
  indexes: string;
}

async function fill(name: string, count: number): Promise<Filled> {
  const db = mongoose.connection.db!;
  const collection = db.collection<LookupDoc>(name);
  await collection.drop().catch(() => undefined);
  for (let i = 0; i < count; i += BATCH) {
    const size = Math.min(BATCH, count - i);
    await collection.insertMany(
      Array.from({ length: size }, (_, j) => ({
        _id: i + j + 1,
        ref: `ref-${i + j + 1}`,
        status: 'active',
        padding: PADDING,
      })),
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
  return { collection, count, indexes };
}

/**
 * LOOKUPS reads in each collection, alternating small and large, so a burst of load from other
 * processes on this machine falls on both sides alike.
 */
async function lookups(small: Filled, large: Filled, by: '_id' | 'ref'): Promise<{ small: Side; large: Side }> {
  const sides = [small, large].map((filled) => ({ filled, latencies: [] as number[], found: 0 }));
  for (let i = 0; i < LOOKUPS; i++) {
    for (const side of sides) {
      const n = 1 + Math.floor(Math.random() * side.filled.count);
      const before = performance.now();
      if (await side.filled.collection.findOne(by === '_id' ? { _id: n } : { ref: `ref-${n}` })) side.found++;
      side.latencies.push(performance.now() - before);
    }
  }
  const [a, b] = sides.map((side) => sideOfLatencies(side.latencies, side.found));
  return { small: a, large: b };
}

export const lookupsCase: ThroughputCase = {
  name: 'lookups',
  route: `findOne by _id, ${LARGE.toLocaleString('en')} documents`,
  baseline: `the same findOne in a collection of ${SMALL.toLocaleString('en')} documents`,
  async measure() {
    const small = await fill('bench_lookups_small', SMALL);
    const large = await fill('bench_lookups_large', LARGE);
    await lookups(small, large, '_id'); // untimed: both caches warm before the figures
    const bench = [{ name: 'bench' }];
    const before = await snapshot(bench);
    const byId = await lookups(small, large, '_id');
    const dbCommands = await commandsSince(before, bench, 2 * LOOKUPS);
    const byRef = await lookups(small, large, 'ref');
    await small.collection.drop();
    await large.collection.drop();
    const [subject, baseline] = [byId.large, byId.small];
    const ratio = (a: Side, b: Side) => (a.p50Ms! / Math.max(b.p50Ms!, 0.01)).toFixed(2);
    return {
      subject,
      baseline,
      dbCommands,
      note:
        `median latency ${LARGE.toLocaleString('en')}/${SMALL.toLocaleString('en')} documents: by _id ` +
        `${ratio(subject, baseline)}x (${subject.p50Ms} / ${baseline.p50Ms} ms), ` +
        (`by an indexed secondary field ${ratio(byRef.large, byRef.small)}x (${byRef.large.p50Ms} / ` +
          `${byRef.small.p50Ms} ms); goal at most 1.3x (an index keeps it near 1x, a scan near ` +
          `${LARGE / SMALL}x); ${large.indexes}`),
    };
  },
};
