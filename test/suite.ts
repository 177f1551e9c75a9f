/**
 * `npm test`: starts the services the suite needs (FerretDB on PostgreSQL, Redis) unless they
 * answer already, runs ava with every process recording the filters it sends and the answers it
 * gives, checks those filters against the declared indexes (test/query-shapes/check.ts) and those
 * answers against the served Swagger document (test/response-schemas/check.ts), drops the
 * databases of this run (one per test file: a PostgreSQL schema of some 30 tables each) and stops
 * the services it started, whatever the outcome. A failing test fails the run. After ava it prints how
 * long each test file took and the slowest ten (test/helpers/test-times.ts). Arguments go to ava.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { DEFAULT_MONGODB_URI, ensureJaegerBinary, ensureServices, stopService } from '../src/devstack/services';
import { vacuumChurnedCatalog } from '../src/devstack/ferretdb-backend';
import { DEADLINE_SCALE } from './helpers/processes';
import { formatTimes, readTimes } from './helpers/test-times';

const root = path.resolve(__dirname, '..');
const shapes = path.join(root, '.data', 'query-shapes');
const answers = path.join(root, '.data', 'response-schemas');
const times = path.join(root, '.data', 'test-times');
// What `npm test` compiled before this script (tsconfig.test-build.json): the tests' child processes run it.
const build = path.join(root, '.data', 'build');

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env, stdio: 'inherit' });
    child.once('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** Every database whose name the run's id prefixes (test/helpers/env.ts). */
async function dropDatabasesOfRun(runId: string): Promise<number> {
  const server = new URL(process.env.MONGODB_URI || DEFAULT_MONGODB_URI);
  const base = process.env.TEST_MONGODB_BASE || `${server.protocol}//${server.host}`;
  const client = await MongoClient.connect(base, { serverSelectionTimeoutMS: 3000 });
  try {
    const { databases } = await client.db('admin').admin().listDatabases({ nameOnly: true });
    const ours = databases.map((d) => d.name).filter((name) => name.startsWith(`t_${runId}_`));
    for (const name of ours) await client.db(name).dropDatabase();
    return ours.length;
  } finally {
    await client.close();
  }
}

/** npm test's build is there and no TypeScript file changed since it was written (else a test would run old code). */
function buildIsCurrent(): boolean {
  const built = fs.statSync(path.join(build, '.tsbuildinfo'), { throwIfNoEntry: false });
  if (!built || !fs.existsSync(path.join(build, 'src', 'web', 'server.js'))) return false;
  const newest = (dir: string): number =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .map((entry) => {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) return newest(full);
        return entry.name.endsWith('.ts') ? fs.statSync(full).mtimeMs : 0;
      })
      .reduce((a, b) => Math.max(a, b), 0);
  return ['config', 'src', 'workers', 'jobs', 'test'].every((dir) => newest(path.join(root, dir)) <= built.mtimeMs);
}

async function main(): Promise<number> {
  const started = await ensureServices(false);
  // test/traces/ starts a Jaeger: built here once per machine (minutes), not under a test's 120 s timeout.
  const files = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
  if (!files.length || files.some((file) => file.includes('traces'))) await ensureJaegerBinary();
  const runId = crypto.randomBytes(3).toString('hex');
  try {
    for (const dir of [shapes, answers, times]) {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(dir, { recursive: true });
    }
    // Processes the tests start inherit both variables and the recorders' preload, so their filters and
    // answers are checked too.
    const preload = `--require=${path.join(root, 'test', 'instrumentation', 'preload.cjs')}`;
    // The compiled checkout reads its page from beside its code, as dist/ does (npm run build copies it too).
    const hasBuild = buildIsCurrent();
    if (!hasBuild)
      process.stdout.write('[test] .data/build is missing or older than the source: processes run under tsx\n');
    if (hasBuild)
      fs.cpSync(path.join(root, 'src', 'checkout', 'public'), path.join(build, 'src', 'checkout', 'public'), {
        recursive: true,
      });
    const env = {
      ...process.env,
      ...(hasBuild ? { TEST_BUILD_DIR: build } : {}),
      NODE_OPTIONS: [process.env.NODE_OPTIONS, preload].filter(Boolean).join(' '),
      DB_QUERY_SHAPES_DIR: shapes,
      RESPONSE_SCHEMAS_DIR: answers,
      TEST_RUN_ID: runId,
      TEST_TIMES_DIR: times,
    };
    // A failing test fails the run, here and under CI=true: no file is run a second time. A test that fails
    // only under the suite's load is bound to the machine's speed, or shows a real race (two earlier such
    // "flakes" were): either way it is to be mended, not passed (docs/testing.md).
    const avaStarted = Date.now();
    // TEST_DEADLINE_SCALE stretches ava's timeout per test (package.json's, in seconds) as it does every wait.
    const args = process.argv.slice(2);
    if (DEADLINE_SCALE !== 1 && !args.some((arg) => arg.startsWith('--timeout'))) {
      const { ava: avaConfig } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
      args.unshift(`--timeout=${Math.round(parseInt(avaConfig.timeout, 10) * DEADLINE_SCALE)}s`);
    }
    const ava = await run(path.join(root, 'node_modules', '.bin', 'ava'), args, env);
    // The suite's own report, pass or fail: time per file and the slowest files (test/helpers/test-times.ts).
    process.stdout.write(`\n${formatTimes(readTimes(times), Date.now() - avaStarted)}`);
    if (ava !== 0) return ava;
    // A partial run (arguments given) checks what it ran; a full run also that nothing was left out.
    const scope = process.argv.length > 2 ? [] : ['full'];
    const check = (script: string, dir: string) =>
      run(process.execPath, ['--import', 'tsx', path.join(root, 'test', script), dir, ...scope], env);
    // Both checks run, so one failing run names the findings of both.
    const queryShapes = await check(path.join('query-shapes', 'check.ts'), shapes);
    const responseSchemas = await check(path.join('response-schemas', 'check.ts'), answers);
    return queryShapes || responseSchemas;
  } finally {
    const dropped = await dropDatabasesOfRun(runId).catch(
      (error: Error) => (process.stderr.write(`[test] could not drop this run's databases: ${error.message}\n`), 0),
    );
    process.stdout.write(`[test] dropped the ${dropped} databases of this run\n`);
    // Their tables' rows in PostgreSQL's catalog are dead now: vacuumed, so runs after this one do not slow down.
    await vacuumChurnedCatalog().catch((error: Error) =>
      process.stderr.write(`[test] could not vacuum PostgreSQL's catalog: ${error.message}\n`),
    );
    for (const service of started) {
      await stopService(service);
      process.stdout.write(`[test] stopped ${service.name}, started for this run\n`);
    }
  }
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (error: Error) => {
      process.stderr.write(`test run failed: ${error.stack ?? error}\n`);
      process.exit(1);
    },
  );
}
