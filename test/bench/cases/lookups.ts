/**
 * The database's cost of one read by `_id` as a collection grows: the same lookup (a lean
 * findOne by integer `_id`, as every route and job does) in a collection of BENCH_LOOKUP_DOCS
 * documents (default 20,000) beside one of 1,000. On MongoDB both use the `_id` index and the
 * ratio is about 1; a ratio well below 1 means each read scans the collection, and then every
 * per-item figure above (charges above all) falls as data grows. FerretDB 1.24 is such a store:
 * its SQLite backend pushes no numeric `_id` filter down and PostgreSQL's pushed-down filter
 * (`_jsonb->$1 @> $2`) matches no index (explain shows a Seq Scan).
 */
import mongoose from 'mongoose';
import type { Side, ThroughputCase } from './types';

const LARGE = Number(process.env.BENCH_LOOKUP_DOCS || 20_000);
const SMALL = 1_000;
const LOOKUPS = 200;
const PADDING = 'x'.repeat(400); // about the size of a subscription document

async function fill(name: string, count: number): Promise<mongoose.mongo.Collection> {
  const collection = mongoose.connection.db!.collection<{ _id: number }>(name);
  await collection.drop().catch(() => undefined);
  for (let i = 0; i < count; i += 1000) {
    const size = Math.min(1000, count - i);
    await collection.insertMany(Array.from({ length: size }, (_, j) => ({ _id: i + j + 1, status: 'active', padding: PADDING })));
  }
  return collection as unknown as mongoose.mongo.Collection;
}

async function lookupsPerSecond(collection: mongoose.mongo.Collection, count: number): Promise<Side> {
  const latencies: number[] = [];
  let found = 0;
  const started = performance.now();
  for (let i = 0; i < LOOKUPS; i++) {
    const before = performance.now();
    if (await collection.findOne({ _id: 1 + Math.floor(Math.random() * count) } as object)) found++;
    latencies.push(performance.now() - before);
  }
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] * 100) / 100;
  return { requestsPerSecond: Math.round((LOOKUPS / seconds) * 10) / 10, p50Ms: at(0.5), p99Ms: at(0.99), requests: LOOKUPS, statusCodes: {}, errors: LOOKUPS - found, valid: found === LOOKUPS };
}

export const lookupsCase: ThroughputCase = {
  name: 'lookups',
  route: `findOne by _id, ${LARGE.toLocaleString('en')} documents`,
  baseline: `the same findOne in a collection of ${SMALL.toLocaleString('en')} documents`,
  async measure() {
    const small = await fill('bench_lookups_small', SMALL);
    const large = await fill('bench_lookups_large', LARGE);
    const baseline = await lookupsPerSecond(small, SMALL);
    const subject = await lookupsPerSecond(large, LARGE);
    await small.drop();
    await large.drop();
    const growth = LARGE / SMALL;
    return {
      subject,
      baseline,
      note: `${growth}x the documents made a read ${(subject.p50Ms! / baseline.p50Ms!).toFixed(1)}x slower at the median (an index keeps it near 1x; a scan near ${growth}x)`,
    };
  },
};
