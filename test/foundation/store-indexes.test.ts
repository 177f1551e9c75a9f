import '../helpers/env';
import test from 'ava';
import mongoose, { Schema } from 'mongoose';
import { connectDatabase, declaredIndexFields, disconnectDatabase, ensureIndexes } from '../../src/db/connection';
import pg from 'pg';
import { ensureCompanionIndexes } from '../../src/db/companion-indexes';

// A model of this file only, declared like ours: one compound and one unique index.
const probeSchema = new Schema(
  { _id: Number, merchantId: Number, orderId: String, createdAt: Date, note: String },
  { versionKey: false, collection: 'store_index_probes' },
);
probeSchema.index({ merchantId: 1, createdAt: -1 });
probeSchema.index({ orderId: 1 }, { unique: true });
const Probe = mongoose.model('StoreIndexProbe', probeSchema);

test.before(() => connectDatabase(process.env.MONGODB_URI!));
test.after.always(() => disconnectDatabase());

async function fill(from: number, to: number): Promise<void> {
  const docs = [];
  for (let i = from; i < to; i++)
    docs.push({ _id: i, merchantId: i % 500, orderId: `order-${i}`, createdAt: new Date(), note: `n${i % 7}` });
  for (let i = 0; i < docs.length; i += 1000) await Probe.collection.insertMany(docs.slice(i, i + 1000) as never[]);
}

/** The indexes the store's plan reads for a find (FerretDB's explain returns PostgreSQL's plan). */
async function indexesRead(filter: Record<string, unknown>): Promise<string[]> {
  const explained = (await Probe.collection.find(filter).explain()) as { queryPlanner?: { Plan?: unknown } };
  const names: string[] = [];
  const walk = (node: { 'Node Type'?: string; 'Index Name'?: string; Plans?: unknown[] } | undefined) => {
    if (!node) return;
    if (node['Index Name'] && /Index/.test(node['Node Type'] ?? '')) names.push(node['Index Name']);
    for (const child of node.Plans ?? []) walk(child as never);
  };
  walk(explained.queryPlanner?.Plan as never);
  return names;
}

const LOOKUPS: [string, Record<string, unknown>][] = [
  ['_id', { _id: 321 }],
  ['merchantId', { merchantId: 42 }],
  ['orderId', { orderId: 'order-321' }],
];

test.serial(
  'lookups by _id and by each indexed field read their index, at 1,000 and at 20,000 documents',
  async (t) => {
    t.deepEqual(declaredIndexFields().get('store_index_probes'), ['_id', 'merchantId', 'createdAt', 'orderId']);
    for (const size of [1_000, 20_000]) {
      await fill(await Probe.estimatedDocumentCount(), size);
      for (const [field, filter] of LOOKUPS) {
        const read = await indexesRead(filter);
        t.true(
          read.some((name) => name.endsWith(`_gin_${field}`)),
          `${field} at ${size}: ${read.join(', ') || 'no index (a scan)'}`,
        );
      }
      // The check can fail: a field no index declares is a scan.
      t.deepEqual(await indexesRead({ note: 'n3' }), [], `an undeclared field reads no index at ${size}`);
    }
  },
);

test.serial('a collection dropped and created again gets its indexes back', async (t) => {
  await Probe.collection.drop();
  t.deepEqual(await indexesRead({ orderId: 'order-1' }), []);
  await ensureIndexes();
  await fill(0, 2_000);
  t.true((await indexesRead({ orderId: 'order-1' })).some((name) => name.endsWith('_gin_orderId')));
});

test.serial('a PostgreSQL that does not hold this store is left alone', async (t) => {
  const outcome = await ensureCompanionIndexes(
    mongoose.connection.db!,
    'postgres://postgres@127.0.0.1:5432/postgres',
    declaredIndexFields(),
  );
  t.is(outcome.status, 'not-this-postgresql');
  const unreachable = await ensureCompanionIndexes(
    mongoose.connection.db!,
    'postgres://postgres@127.0.0.1:1/payments',
    declaredIndexFields(),
  );
  t.is(unreachable.status, 'not-this-postgresql');
});

test.serial('a second run finds every index present and creates none', async (t) => {
  const outcome = await ensureCompanionIndexes(
    mongoose.connection.db!,
    process.env.FERRETDB_POSTGRESQL_URL || 'postgres://postgres@127.0.0.1:5432/payments',
    declaredIndexFields(),
  );
  t.is(outcome.status, 'ensured');
  if (outcome.status !== 'ensured') return;
  t.deepEqual(outcome.created, []);
  t.true(outcome.present >= 4);
});

test.serial('companion indexes keep no pending list: every insert goes into the index itself', async (t) => {
  // With fastupdate on (PostgreSQL's default) new entries wait in a list that every lookup reads
  // through until a VACUUM, and autovacuum is off on this machine: a findOne by _id took 11 ms at 100,000.
  const client = new pg.Client({
    connectionString: process.env.FERRETDB_POSTGRESQL_URL || 'postgres://postgres@127.0.0.1:5432/payments',
  });
  await client.connect();
  try {
    const { rows } = await client.query<{ indexname: string; options: string[] | null }>(
      `SELECT c.relname AS indexname, c.reloptions AS options
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 AND c.relkind = 'i' AND c.relname LIKE '%\\_gin\\_%'`,
      [mongoose.connection.db!.databaseName],
    );
    t.true(rows.length >= 4, `companion indexes found: ${rows.length}`);
    t.deepEqual(
      rows.filter((r) => !(r.options ?? []).includes('fastupdate=off')).map((r) => r.indexname),
      [],
    );
  } finally {
    await client.end();
  }
});

test.serial('the store database plans every lookup with its field, so expression indexes stay in use', async (t) => {
  // FerretDB's lookups are prepared statements with the field as a parameter; a generic plan
  // matches no expression index (src/devstack/services.ts sets this when it prepares the database).
  const client = new pg.Client({
    connectionString: process.env.FERRETDB_POSTGRESQL_URL || 'postgres://postgres@127.0.0.1:5432/payments',
  });
  await client.connect();
  try {
    t.is(
      (await client.query<{ plan_cache_mode: string }>('SHOW plan_cache_mode')).rows[0].plan_cache_mode,
      'force_custom_plan',
    );
  } finally {
    await client.end();
  }
});
