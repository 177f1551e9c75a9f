/**
 * FerretDB's storage: PostgreSQL (the machine's, a database created if missing, with custom plans so the companion
 * indexes are used) or, when asked, SQLite in .data/ferretdb/.
 */
import pg from 'pg';
import { DEFAULT_FERRETDB_POSTGRESQL_URL } from '../../config';
import { say } from './service-kit';

/**
 * FERRETDB_BACKEND: postgresql (default: indexed lookups with the companion indexes) or sqlite (embedded, every lookup
 * scans).
 */
export function ferretBackend(): 'postgresql' | 'sqlite' {
  const backend = process.env.FERRETDB_BACKEND || 'postgresql';
  if (backend !== 'postgresql' && backend !== 'sqlite')
    throw new Error(`FERRETDB_BACKEND must be postgresql or sqlite, got "${backend}"`);
  return backend;
}

export function ferretPostgresUrl(): string {
  return process.env.FERRETDB_POSTGRESQL_URL || DEFAULT_FERRETDB_POSTGRESQL_URL;
}

export function redactPassword(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}

/**
 * FerretDB needs its PostgreSQL database to exist. We use the machine's PostgreSQL (it runs on every
 * machine of this kind, before any session or CI run) rather than a cluster of our own under .data/:
 * one less server to initialise, start, stop and keep in step. Missing, it is a clear stop, never a
 * silent fall back to the scanning SQLite backend.
 */
export async function ensurePostgresDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const database = decodeURIComponent(target.pathname.replace(/^\//, '')) || 'postgres';
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString(), connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL does not answer at ${redactPassword(url)} (${(error as Error).message}). FerretDB stores our ` +
        `data there. ` +
        ('Start it (on Debian: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start), point ' +
          'FERRETDB_POSTGRESQL_URL at a running one, ') +
        ('or choose the embedded SQLite backend with FERRETDB_BACKEND=sqlite (every lookup then scans its whole ' +
          'collection: see docs/operations.md).'),
    );
  }
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (!rowCount) {
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`).catch((error: { code?: string }) => {
        if (error.code !== '42P04') throw error; // created by a concurrent start
      });
      say(`PostgreSQL: database ${database} created for FerretDB`);
    }
    // FerretDB sends every lookup as one prepared statement per table, `_jsonb->$1 @> $2`, with
    // the field as a parameter. After five runs PostgreSQL may switch such a statement to its
    // generic plan, where `_jsonb->$1` matches no expression index: every lookup of that table
    // became a sequential scan (seen at 40,000 charges: 37,000 scans of the whole table, the
    // charge rate falling from ~100/s to 26/s). Custom plans keep the companion indexes in use.
    // Two runs starting at once both set it: PostgreSQL refuses the second write of the same row meanwhile
    // ("tuple concurrently updated"); the first's write is the same setting, so one more try settles it.
    const setCustomPlans = () =>
      client.query(`ALTER DATABASE ${client.escapeIdentifier(database)} SET plan_cache_mode = force_custom_plan`);
    await setCustomPlans().catch((error: Error) => {
      if (!/tuple concurrently updated/.test(error.message)) throw error;
      return setCustomPlans();
    });
  } finally {
    await client.end();
  }
}

/** The catalog tables FerretDB's DDL writes: every database a test creates and drops adds and kills their rows. */
const CHURNED_CATALOG = [
  'pg_class',
  'pg_attribute',
  'pg_depend',
  'pg_index',
  'pg_type',
  'pg_constraint',
  'pg_statistic',
];

/**
 * After a run that created and dropped databases (npm test makes ~130): a plain VACUUM of the catalog tables their
 * tables and indexes churned, so the next run reuses that space. Autovacuum did not keep up: after a day of runs
 * pg_class held 53 MB for 410 live relations (184 kB once rewritten), and a fresh-clone suite took 24.5 minutes where
 * it took 9.5 before. Plain VACUUM takes no lock that stops other sessions. Nothing to do on the SQLite backend.
 */
export async function vacuumChurnedCatalog(url = ferretPostgresUrl()): Promise<void> {
  if (ferretBackend() !== 'postgresql') return;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    for (const table of CHURNED_CATALOG) await client.query(`VACUUM pg_catalog.${table}`);
  } finally {
    await client.end();
  }
}
