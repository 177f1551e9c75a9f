/**
 * Companion indexes for FerretDB 1.24 on PostgreSQL: why this module exists, and when to delete it.
 *
 * FerretDB sends every top-level scalar equality of a filter (`$eq` included) to PostgreSQL as
 * `_jsonb->'field' @> value`. Its own indexes are btree on `(_jsonb->'field')`, which cannot serve
 * `@>`, so every lookup is a sequential scan and grows with the collection (findOne by `_id`: 1.6 /
 * 4.2 / 24 ms at 1k / 10k / 50k documents). A GIN `jsonb_path_ops` index on the same expression
 * serves it: about 1 ms at any size. FerretDB does not know these indexes (listIndexes does not show
 * them) and PostgreSQL keeps them across FerretDB restarts.
 *
 * The mongoose schemas stay the one list of indexes: for every field named in a declared index
 * (and `_id`) this module adds one GIN index on the collection's table. It runs at every connect
 * (`ensureIndexes`) and again on the scheduler's tick, so a collection created later or dropped and
 * recreated gets its indexes back. It changes nothing on a real MongoDB, on FerretDB's SQLite
 * backend, or on a PostgreSQL that does not hold this FerretDB's collections: it matches
 * collections on the UUID FerretDB keeps in both places before it touches anything.
 *
 * Delete it when the store uses its own indexes for these lookups (MongoDB in production does;
 * FerretDB 2 on DocumentDB does).
 */
import crypto from 'node:crypto';
import type { Db } from 'mongodb';
import pg from 'pg';

/** Mongo collection name -> top-level fields to serve equality lookups on. */
export type IndexedFields = Map<string, string[]>;

export type CompanionOutcome =
  | { status: 'not-ferretdb' }
  | { status: 'not-this-postgresql'; reason: string }
  | { status: 'ensured'; created: string[]; present: number };

/** FerretDB's table of collections in each database's schema. */
const METADATA_TABLE = '_ferretdb_database_metadata';
const MAX_IDENTIFIER = 63;

interface CollectionRow {
  name: string;
  uuid: string;
  table: string;
}

const isFerretByDb = new WeakMap<Db, boolean>();

async function isFerretDB(db: Db): Promise<boolean> {
  const known = isFerretByDb.get(db);
  if (known !== undefined) return known;
  const info = await db.admin().command({ buildInfo: 1 });
  const answer = typeof info.ferretdbVersion === 'string';
  isFerretByDb.set(db, answer);
  return answer;
}

/** Index name on a table: readable when it fits PostgreSQL's 63 bytes, else shortened with a hash. */
export function companionIndexName(table: string, field: string): string {
  const name = `${table}_gin_${field.replace(/[^A-Za-z0-9_]/g, '_')}`;
  if (name.length <= MAX_IDENTIFIER) return name;
  const hash = crypto.createHash('sha256').update(`${table}\0${field}`).digest('hex').slice(0, 10);
  return `${name.slice(0, MAX_IDENTIFIER - hash.length - 1)}_${hash}`;
}

function uuidOf(info: unknown): string | undefined {
  const raw = (info as { uuid?: { toString(format: string): string; buffer?: Uint8Array } } | undefined)?.uuid;
  if (!raw) return undefined;
  const hex = raw.toString('hex');
  return /^[0-9a-f]{32}$/.test(hex)
    ? `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
    : undefined;
}

/**
 * Adds the missing companion indexes of `wanted` on the PostgreSQL at `postgresqlUrl`; idempotent,
 * safe when several processes run it at once.
 */
export async function ensureCompanionIndexes(
  db: Db,
  postgresqlUrl: string,
  wanted: IndexedFields,
): Promise<CompanionOutcome> {
  if (!(await isFerretDB(db))) return { status: 'not-ferretdb' };
  const collections = await db.listCollections({}, { nameOnly: false }).toArray();
  const uuids = new Map(collections.flatMap((c) => (uuidOf(c.info) ? [[uuidOf(c.info)!, c.name] as const] : [])));
  if (!uuids.size) return { status: 'ensured', created: [], present: 0 };

  const client = new pg.Client({ connectionString: postgresqlUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
  } catch (error) {
    return {
      status: 'not-this-postgresql',
      reason:
        `PostgreSQL at ${postgresqlUrl.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@')} ` +
        `does not answer: ${(error as Error).message}`,
    };
  }
  try {
    const schema = db.databaseName;
    const metadata = `${client.escapeIdentifier(schema)}.${client.escapeIdentifier(METADATA_TABLE)}`;
    let rows: CollectionRow[];
    try {
      rows = (
        await client.query<CollectionRow>(
          `SELECT _jsonb->>'_id' AS name, _jsonb->>'uuid' AS uuid, _jsonb->>'table' AS table FROM ${metadata}`,
        )
      ).rows;
    } catch (error) {
      if ((error as { code?: string }).code === '42P01')
        return { status: 'not-this-postgresql', reason: `no FerretDB database ${schema} in this PostgreSQL` };
      throw error;
    }
    // Same name is not enough (a stale schema of an earlier run could hold it): the UUID proves it is this store.
    const tables = rows.filter((row) => uuids.get(row.uuid) === row.name);
    if (!tables.length)
      return {
        status: 'not-this-postgresql',
        reason: `the collections of ${schema} are not stored in this PostgreSQL`,
      };

    const existing = new Set(
      (
        await client.query<{ indexname: string }>('SELECT indexname FROM pg_indexes WHERE schemaname = $1', [schema])
      ).rows.map((r) => r.indexname),
    );
    // fastupdate off: with it on (PostgreSQL's default) new entries wait in a pending list that every
    // lookup reads through, and only VACUUM (autovacuum is off on these machines) or a 4 MB list
    // flushes it: findOne by _id took 11 ms at 100,000 documents, 0.1 ms once flushed. Indexes
    // made before this setting are switched and flushed here.
    const pending = await client.query<{ indexname: string }>(
      `SELECT c.relname AS indexname FROM pg_class c
        JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_am a ON a.oid = c.relam
        WHERE n.nspname = $1 AND c.relkind = 'i' AND a.amname = 'gin'
          AND NOT coalesce(c.reloptions @> ARRAY['fastupdate=off'], false)`,
      [schema],
    );
    for (const { indexname } of pending.rows) {
      const qualified = `${client.escapeIdentifier(schema)}.${client.escapeIdentifier(indexname)}`;
      await client.query(`ALTER INDEX ${qualified} SET (fastupdate = off)`).catch(() => undefined);
      await client
        .query(`SELECT gin_clean_pending_list(${client.escapeLiteral(qualified)}::regclass)`)
        .catch(() => undefined);
    }
    const created: string[] = [];
    let present = 0;
    for (const { name, table } of tables) {
      for (const field of wanted.get(name) ?? []) {
        const index = companionIndexName(table, field);
        if (existing.has(index)) {
          present++;
          continue;
        }
        try {
          await client.query(
            `CREATE INDEX IF NOT EXISTS ${client.escapeIdentifier(index)} ON ` +
              `${client.escapeIdentifier(schema)}.${client.escapeIdentifier(table)} ` +
              `USING gin ((_jsonb->${client.escapeLiteral(field)}) jsonb_path_ops) WITH (fastupdate = off)`,
          );
          created.push(`${name}.${field}`);
        } catch (error) {
          const code = (error as { code?: string }).code;
          // 23505/42P07: a concurrent process created it first; 42P01: the collection was dropped meanwhile.
          if (code !== '23505' && code !== '42P07' && code !== '42P01') throw error;
        }
      }
    }
    return { status: 'ensured', created, present };
  } finally {
    await client.end().catch(() => undefined);
  }
}
