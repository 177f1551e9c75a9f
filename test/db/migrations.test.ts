/**
 * The release's migration run (workers/migrate.ts on src/db/migrations/) as real processes on the real store:
 * migration 0001 gives documents stored in older shapes their sweep flags once; a rerun reads and writes nothing;
 * a run killed half-way is resumed by the next one and ends as a clean run does; two runs at once take turns on the
 * lock; a run whose lock was taken over stops; and a production process refuses to start while one is pending.
 *
 * Each test seeds its own database (beside this file's, dropped with it) through the driver, in the shapes older
 * releases stored: no model casts them.
 */
import '../helpers/env';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { MongoClient, type Db, type Document } from 'mongodb';
import { ConfigError, EXIT_BAD_CONFIGURATION, loadConfig } from '../../config';
import { SWEEP_FLAG_STEPS } from '../../src/db/migrations/0001-sweep-flags';
import { TEST_DB } from '../helpers/env';
import { productionEnvironment } from '../helpers/production';
import {
  deadline,
  eventually,
  nodeArgumentsFor,
  ROOT,
  runCommand,
  startProcess,
  stopAll,
  type CommandResult,
} from '../helpers/processes';
import { newLogFile } from '../helpers/test-logs';

const SERVER = process.env.MONGODB_URI!.replace(/\/[^/]*$/, '');
/** Short enough for a test to wait out, long enough for a renewal every third of it on a busy machine. */
const LEASE_MS = deadline(2000);
const FLAGGED_COLLECTIONS = [...new Set(SWEEP_FLAG_STEPS.map((step) => step.collection))];

let client: MongoClient;
test.before(async () => {
  client = await MongoClient.connect(SERVER);
});
test.after.always(async () => {
  await stopAll();
  await client?.close();
});

/** A database of this test file's own (its name starts with the file's, so the suite drops it). */
const databaseNamed = (label: string) => `${TEST_DB}_${label}`;
const storeOf = (label: string): Db => client.db(databaseNamed(label));

/** Runs the release command to its end on a database; its output goes to the test's logs. */
async function runMigrate(label: string, env: Record<string, string> = {}): Promise<CommandResult> {
  const result = await runCommand(process.execPath, nodeArgumentsFor('workers/migrate.ts'), {
    env: {
      ...process.env,
      LOG_LEVEL: 'info',
      PROCESS_NAME: 'migrate',
      MONGODB_URI: `${SERVER}/${databaseNamed(label)}`,
      ...env,
    },
  });
  fs.writeFileSync(newLogFile(`migrate-${label}`), result.stdout + result.stderr);
  return result;
}

const since = new Date('2026-01-05T10:00:00Z');
const underReconciliation = { operation: 'capture', fromStatus: 'PRE_CAPTURED', since, reason: 'acquirer timeout' };

/**
 * Documents as older releases stored them, and some 0001 must leave alone. `salesToMark` sales under reconciliation
 * without `reconciling` (the step a killed run stops in).
 */
async function seedOldShapes(db: Db, salesToMark = 2): Promise<void> {
  await db.collection('online_sales').insertMany([
    ...Array.from({ length: salesToMark }, (_, i) => ({
      _id: 100 + i,
      paymentMethod: 'card',
      status: 'PRE_CAPTURED',
      reconciliation: underReconciliation,
    })),
    { _id: 200, paymentMethod: 'card', status: 'CONFIRMED', reconciliation: null },
    {
      _id: 201,
      paymentMethod: 'card',
      status: 'PRE_CAPTURED',
      reconciliation: underReconciliation,
      reconciling: false,
    },
  ] as Document[]);
  await db.collection('acquirer_payment_notices').insertMany([
    { _id: 'old-unapplied', raw: '{}', paymentId: 'p1', changeType: 1, receivedAt: since, appliedAt: null },
    { _id: 'old-applied', raw: '{}', paymentId: 'p2', changeType: 1, receivedAt: since, appliedAt: since },
  ] as Document[]);
  await db.collection('payment_link_claims').insertMany([
    { _id: 300, attemptKey: 'a300', merchantOrderId: 'PL300Ta', state: 'paid', startedAt: since, notifiedAt: null },
    { _id: 301, attemptKey: 'a301', merchantOrderId: 'PL301Ta', state: 'paid', startedAt: since, notifiedAt: since },
    { _id: 302, attemptKey: 'a302', merchantOrderId: 'PL302Ta', state: 'charging', startedAt: since, notifiedAt: null },
  ] as Document[]);
  await db.collection('chargeback_notices').insertMany([
    { _id: 'cb-old-unapplied', kind: 'new', raw: '{}', receivedAt: since, appliedAt: null },
    { _id: 'cb-old-applied', kind: 'new', raw: '{}', receivedAt: since, appliedAt: since },
  ] as Document[]);
}

const byId = (db: Db, collection: string, id: unknown) => db.collection(collection).findOne({ _id: id as never });

/** The flags of seedOldShapes's documents once 0001 ran: set where they were missing, and nowhere else. */
async function assertFlagsOnce(t: ExecutionContext, db: Db, salesToMark = 2): Promise<void> {
  for (let i = 0; i < salesToMark; i++) t.is((await byId(db, 'online_sales', 100 + i))?.reconciling, true);
  t.false('reconciling' in (await byId(db, 'online_sales', 200))!, 'a sale not under reconciliation is left as is');
  t.is((await byId(db, 'online_sales', 201))?.reconciling, false, 'a flag already there is kept');
  t.is((await byId(db, 'acquirer_payment_notices', 'old-unapplied'))?.applied, false);
  t.false('applied' in (await byId(db, 'acquirer_payment_notices', 'old-applied'))!);
  t.is((await byId(db, 'payment_link_claims', 300))?.eventOwed, true);
  t.false('eventOwed' in (await byId(db, 'payment_link_claims', 301))!, 'its event was sent');
  t.false('eventOwed' in (await byId(db, 'payment_link_claims', 302))!, 'not paid');
  t.is((await byId(db, 'chargeback_notices', 'cb-old-unapplied'))?.applied, false);
  t.false('applied' in (await byId(db, 'chargeback_notices', 'cb-old-applied'))!);
}

/** The changelog's names (each once, as `_id`s) and whether the lock is free. */
async function changelogOf(db: Db): Promise<string[]> {
  return (await db.collection('migrations').find({}).sort({ _id: 1 }).toArray()).map((record) => String(record._id));
}

/** Every collection 0001 writes, whole, sorted by `_id`: what two runs are compared by. */
async function flaggedDocuments(db: Db): Promise<Record<string, Document[]>> {
  const documents: Record<string, Document[]> = {};
  for (const name of FLAGGED_COLLECTIONS)
    documents[name] = await db.collection(name).find({}).sort({ _id: 1 }).toArray();
  return documents;
}

/** The collections a process's recorded filters named (test/instrumentation/query-shapes.ts), per command. */
function recordedReads(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const seen = new Set<string>();
  for (const file of fs.readdirSync(dir))
    for (const line of fs.readFileSync(path.join(dir, file), 'utf8').split('\n'))
      if (line.trim()) {
        const { collection, command } = JSON.parse(line) as { collection: string; command: string };
        seen.add(`${collection} ${command}`);
      }
  return [...seen].sort();
}

/** The recorders, preloaded as npm test does, writing to a directory of the caller's. */
function recordingInto(dir: string): Record<string, string> {
  const preload = `--require=${path.join(ROOT, 'test', 'instrumentation', 'preload.cjs')}`;
  return {
    DB_QUERY_SHAPES_DIR: dir,
    NODE_OPTIONS: [process.env.NODE_OPTIONS, preload].filter(Boolean).join(' '),
  };
}

test.serial(
  'documents stored in older shapes get their flags once; a rerun reads and writes no document',
  async (t) => {
    const db = storeOf('once');
    await seedOldShapes(db);
    const recordings = fs.mkdtempSync(path.join(os.tmpdir(), 'migrations-'));
    try {
      const first = await runMigrate('once', recordingInto(path.join(recordings, 'first')));
      t.is(first.code, 0, first.stderr);
      t.regex(first.stdout, /migration 0001-sweep-flags: running/);
      t.regex(first.stdout, /migrations done: 1 run \(0001-sweep-flags\)/);
      await assertFlagsOnce(t, db);
      t.deepEqual(await changelogOf(db), ['0001-sweep-flags']);
      t.is(await db.collection('migration_lock').countDocuments(), 0, 'the lock released');
      t.true(
        recordedReads(path.join(recordings, 'first')).includes('online_sales find'),
        'the recorder sees what a run reads',
      );

      const before = await flaggedDocuments(db);
      const rerun = await runMigrate('once', recordingInto(path.join(recordings, 'rerun')));
      t.is(rerun.code, 0, rerun.stderr);
      t.regex(rerun.stdout, /no migration pending/);
      t.notRegex(rerun.stdout, /: running/);
      const touched = recordedReads(path.join(recordings, 'rerun'));
      t.true(touched.includes('migrations find'), touched.join(', '));
      t.deepEqual(
        touched.filter((read) => !/^(migrations|migration_lock) /.test(read)),
        [],
        'the rerun sends no command to a collection of the migrations',
      );
      t.deepEqual(await flaggedDocuments(db), before);
      t.deepEqual(await changelogOf(db), ['0001-sweep-flags'], 'logged once');
    } finally {
      fs.rmSync(recordings, { recursive: true, force: true });
    }
  },
);

test.serial('a run killed half-way is resumed once its lease is over, and ends as a clean run does', async (t) => {
  const [killed, clean] = [storeOf('killed'), storeOf('clean')];
  await seedOldShapes(killed, 5);
  await seedOldShapes(clean, 5);
  const lease = { MIGRATION_LOCK_LEASE_MS: String(LEASE_MS) };

  const dying = await runMigrate('killed', { ...lease, MIGRATION_TEST_KILL_AFTER: '2' });
  t.is(dying.code, null, `killed by its signal, not exited: ${dying.stderr}`);
  t.regex(dying.stdout, /MIGRATION_TEST_KILL_AFTER=2: killing this run/);
  const marked = await killed.collection('online_sales').countDocuments({ reconciling: true });
  t.is(marked, 2, 'half-way: two of the five sales marked');
  t.deepEqual(await changelogOf(killed), [], 'a migration killed half-way is not logged');
  t.truthy(await byId(killed, 'migration_lock', 'migrations'), 'the dead run left its lock');

  const resumed = await runMigrate('killed', lease);
  t.is(resumed.code, 0, resumed.stderr);
  t.regex(resumed.stdout, /migration lock taken over from a run whose lease ran out/);
  t.regex(resumed.stdout, /migrations done: 1 run \(0001-sweep-flags\)/);
  await assertFlagsOnce(t, killed, 5);

  const cleanRun = await runMigrate('clean', lease);
  t.is(cleanRun.code, 0, cleanRun.stderr);
  t.deepEqual(await flaggedDocuments(killed), await flaggedDocuments(clean));
  t.deepEqual(await changelogOf(killed), await changelogOf(clean));
  for (const db of [killed, clean]) t.is(await db.collection('migration_lock').countDocuments(), 0);
});

test.serial('two runs at once: one migrates, the other waits for the lock, then finds nothing pending', async (t) => {
  const db = storeOf('twice');
  await seedOldShapes(db);
  // Both processes start while another run holds the lock, so they overlap however slowly each one starts.
  const lock = db.collection('migration_lock');
  await lock.insertOne({ _id: 'migrations' as never, holder: 'this test', startedAt: new Date(), leaseMs: 600_000 });
  // The one that takes the lock holds it two leases: without its renewals the other would take it over meanwhile.
  const env = {
    MONGODB_URI: `${SERVER}/${databaseNamed('twice')}`,
    MIGRATION_LOCK_LEASE_MS: String(LEASE_MS),
    MIGRATION_TEST_HOLD_MS: String(2 * LEASE_MS),
  };
  const runs = await Promise.all([1, 2].map(() => startProcess('migrate', env, /waiting for it to finish/)));
  await lock.deleteOne({ _id: 'migrations' as never, holder: 'this test' });
  const ended = await Promise.all(runs.map((run) => run.exited));
  t.deepEqual(
    ended,
    [
      { code: 0, signal: null },
      { code: 0, signal: null },
    ],
    runs.map((r) => r.logs.join('')).join('\n'),
  );
  const [output, otherOutput] = runs.map((run) => run.logs.join(''));
  const migrated = [output, otherOutput].filter((logs) => /migrations done: 1 run \(0001-sweep-flags\)/.test(logs));
  const foundNothing = [output, otherOutput].filter((logs) => /no migration pending/.test(logs));
  t.is(migrated.length, 1, 'exactly one run migrated');
  t.is(foundNothing.length, 1, 'the other found nothing pending');
  t.notRegex(output + otherOutput, /taken over/, 'the holder renewed its lease while it held the lock');
  await assertFlagsOnce(t, db);
  t.deepEqual(await changelogOf(db), ['0001-sweep-flags']);
});

test.serial('a run whose lock was taken over stops before its next migration, writing nothing', async (t) => {
  const db = storeOf('lost');
  await seedOldShapes(db);
  const run = await startProcess(
    'migrate',
    {
      MONGODB_URI: `${SERVER}/${databaseNamed('lost')}`,
      MIGRATION_LOCK_LEASE_MS: String(LEASE_MS),
      MIGRATION_TEST_HOLD_MS: String(2 * LEASE_MS),
    },
    /holding the migration lock/,
  );
  // Another run takes the lock over, as one would from a run that stalled longer than its lease.
  const lock = db.collection('migration_lock');
  await lock.deleteOne({ _id: 'migrations' as never });
  await lock.insertOne({ _id: 'migrations' as never, holder: 'another run', startedAt: new Date(), leaseMs: 600_000 });
  const { code } = await run.exited;
  const output = run.logs.join('');
  t.is(code, 1, output);
  t.regex(output, /migrate: failed: the migration lock was taken over by another run/);
  t.notRegex(output, /: running/);
  t.is(await db.collection('online_sales').countDocuments({ reconciling: true }), 0, 'nothing written');
  t.deepEqual(await changelogOf(db), []);
  t.is((await byId(db, 'migration_lock', 'migrations'))?.holder, 'another run', "the taker's lock left alone");
});

/** A production environment on one of this file's databases, with this machine's Redis (as production-defences). */
const production = (label: string) =>
  productionEnvironment({
    MONGODB_URI: `${SERVER}/${databaseNamed(label)}`,
    REDIS_URL: 'redis://127.0.0.1:6379',
    REDIS_ALLOW_INSECURE: 'true',
  });

test.serial(
  'with NODE_ENV=production web refuses to start while a migration is pending (78), then starts',
  async (t) => {
    const env = production('production');
    const refused = await t.throwsAsync(startProcess('web', env));
    t.regex(refused!.message, new RegExp(`exited \\(${EXIT_BAD_CONFIGURATION}\\) before ready`));
    t.regex(
      refused!.message,
      /web not started: 1 migration pending \(0001-sweep-flags\)\. Run the release command once/,
    );

    const release = await runMigrate('production', env);
    t.is(release.code, 0, release.stderr);
    const web = await startProcess('web', env);
    try {
      t.is((await fetch(`${web.url}/readyz`)).status, 200);
    } finally {
      await web.stop();
    }
  },
);

test.serial('outside production a process starts with a migration pending, and warns', async (t) => {
  const web = await startProcess('web', { MONGODB_URI: `${SERVER}/${databaseNamed('development')}` });
  try {
    t.regex(web.logs.join(''), /1 migration pending \(0001-sweep-flags\): run npm run migrate/);
    await eventually(async () => (await fetch(`${web.url}/readyz`)).status === 200);
  } finally {
    await web.stop();
  }
});

test('the test-only switches of the migration run are refused in production', (t) => {
  for (const name of ['MIGRATION_TEST_KILL_AFTER', 'MIGRATION_TEST_HOLD_MS']) {
    const error = t.throws(() => loadConfig({ ...production('config'), [name]: '2' }), { instanceOf: ConfigError });
    t.regex(error!.message, new RegExp(`${name} is for tests only and must stay unset in production`));
  }
});
