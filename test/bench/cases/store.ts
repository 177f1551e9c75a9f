/**
 * What each kind of command costs the store, so a case held by its round trips can say by how
 * much: in a collection of BENCH_RECORDS documents (with the GIN companion index on `_id`, as the
 * app's collections have), BENCH_STORE_OPS sequential commands of each kind the hot paths send:
 * insertOne (a write-ahead record, a notice, an event), findOne by `_id` (a credential, a link),
 * updateOne by `_id` (a sale or charge recording its outcome) and findOneAndUpdate by `_id` (the
 * same, answering the document). For each: the median latency and the CPU per command of FerretDB
 * and of PostgreSQL (test/bench/cpu.ts), rounds of the four kinds in turn so a drift of the
 * machine falls on all. The table's subject is the update, its baseline the insert: the floors of
 * pre-capture and of the chargeback intake are one insert each.
 */
import mongoose from 'mongoose';
import { getConfig } from '../../../config';
import { ensureCompanionIndexes } from '../../../src/db/companion-indexes';
import { BENCH_RECORDS } from '../fill';
import { cpuPerOperation, readCpu } from '../cpu';
import { sideOfLatencies } from '../latencies';
import type { ThroughputCase } from './types';

const OPS = Number(process.env.BENCH_STORE_OPS || 400);
const ROUNDS = 4;
/** Commands of each kind per round (BENCH_STORE_OPS rounded up to whole rounds). */
const PER_ROUND = Math.ceil(OPS / ROUNDS);
const PADDING = 'x'.repeat(400); // about a sale's size
const COLLECTION = 'bench_store';

interface StoreDoc {
  _id: number;
  status: string;
  amountCents: number;
  padding: string;
  updatedAt: Date;
}

type Kind = 'insert' | 'find' | 'update' | 'findAndModify';
const KINDS: Kind[] = ['insert', 'find', 'update', 'findAndModify'];

interface Figures {
  latencies: number[];
  storeMs: number;
}

export const storeCase: ThroughputCase = {
  name: 'store',
  route: 'updateOne by _id (one command, store alone)',
  baseline: 'insertOne into the same collection (one command, store alone)',
  async measure() {
    const db = mongoose.connection.db!;
    const collection = db.collection<StoreDoc>(COLLECTION);
    await collection.drop().catch(() => undefined);
    const doc = (_id: number): StoreDoc => ({
      _id,
      status: 'PROCESSING',
      amountCents: 15990,
      padding: PADDING,
      updatedAt: new Date(),
    });
    for (let i = 0; i < BENCH_RECORDS; i += 1000)
      await collection.insertMany(Array.from({ length: Math.min(1000, BENCH_RECORDS - i) }, (_, j) => doc(i + j + 1)));
    const outcome = await ensureCompanionIndexes(
      db,
      getConfig().ferretdb.postgresqlUrl,
      new Map([[COLLECTION, ['_id']]]),
    );
    let next = BENCH_RECORDS;
    const existing = () => 1 + Math.floor(Math.random() * BENCH_RECORDS);
    const send: Record<Kind, () => Promise<unknown>> = {
      insert: () => collection.insertOne(doc(++next)),
      find: () => collection.findOne({ _id: existing() }),
      update: () => collection.updateOne({ _id: existing() }, { $set: { status: 'APPROVED', updatedAt: new Date() } }),
      findAndModify: () =>
        collection.findOneAndUpdate(
          { _id: existing() },
          { $set: { status: 'APPROVED', updatedAt: new Date() } },
          { returnDocument: 'after' },
        ),
    };
    const figures = Object.fromEntries(KINDS.map((kind) => [kind, { latencies: [], storeMs: 0 } as Figures])) as Record<
      Kind,
      Figures
    >;
    for (const kind of KINDS) for (let i = 0; i < 50; i++) await send[kind](); // untimed warm-up
    for (let round = 0; round < ROUNDS; round++) {
      for (const kind of round % 2 ? [...KINDS].reverse() : KINDS) {
        const figure = figures[kind];
        const before = readCpu([]);
        for (let i = 0; i < PER_ROUND; i++) {
          const started = performance.now();
          await send[kind]();
          figure.latencies.push(performance.now() - started);
        }
        const cpu = cpuPerOperation(before, readCpu([]), 1);
        figure.storeMs += (cpu.ferretdb ?? 0) + (cpu.postgres ?? 0);
      }
    }
    await collection.drop();
    const sideOf = (figure: Figures) => sideOfLatencies(figure.latencies);
    const describe = (kind: Kind) => {
      const { storeMs, latencies } = figures[kind];
      return `${kind} ${(storeMs / latencies.length).toFixed(2)} ms (p50 ${sideOf(figures[kind]).p50Ms} ms)`;
    };
    return {
      subject: sideOf(figures.update),
      baseline: sideOf(figures.insert),
      note:
        `store CPU (FerretDB + PostgreSQL) per command, ${PER_ROUND * ROUNDS} sequential each in a collection of ` +
        `${BENCH_RECORDS.toLocaleString('en')} documents: ${KINDS.map(describe).join(', ')}; ` +
        (outcome.status === 'ensured' ? 'GIN companion index on _id' : `companion index: ${outcome.status}`),
    };
  },
};
