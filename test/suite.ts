/**
 * `npm test`: starts the services the suite needs (FerretDB on PostgreSQL, Redis) unless they
 * answer already, runs ava with every process recording the filters it sends and the answers it
 * gives, checks those filters against the declared indexes (test/query-shapes/check.ts) and those
 * answers against the served Swagger document (test/response-schemas/check.ts), drops the
 * databases of this run (one per test file: a PostgreSQL schema of some 30 tables each) and stops
 * the services it started, whatever the outcome. Arguments go to ava.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { DEFAULT_MONGODB_URI, ensureJaegerBinary, ensureServices, stopService } from '../src/devstack/services';

const root = path.resolve(__dirname, '..');
const shapes = path.join(root, '.data', 'query-shapes');
const answers = path.join(root, '.data', 'response-schemas');

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env, stdio: 'inherit' });
    child.once('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** Runs ava, passing its output through, and returns its exit code with what it printed. */
function runAva(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(path.join(root, 'node_modules', '.bin', 'ava'), args, {
      cwd: root,
      env,
      stdio: ['inherit', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => ((output += chunk), process.stdout.write(chunk)));
    child.stderr.on('data', (chunk: Buffer) => ((output += chunk), process.stderr.write(chunk)));
    child.once('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
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

const FILE_NAMED = new RegExp(
  '(?:Uncaught exception in|Unhandled rejection in|were pending in|Failed to exit when running|remaining in|^\\s*✘) ' +
    '(\\S+\\.test\\.ts)\\b',
);

/**
 * The test files ava's output names as failing, or null when some failure cannot be traced to a file (a
 * crash of ava itself, an unknown kind of line): then nothing is run again. Ava prefixes a failed test's
 * title with its file's path below the files' common folder (folders joined by ' › ', `.test.ts` dropped),
 * and names a file by its path for an uncaught exception, a timeout, a crash or a file that failed to exit.
 */
export function failedTestFiles(output: string, files: string[]): string[] | null {
  const named = new Set<string>();
  for (const line of output.replace(/\x1b\[[0-9;]*m/g, '').split('\n')) {
    const failedTest = /^\s*✘ \[(?:fail|unexpected pass)\]: (.*)$/.exec(line);
    const aboutFile = FILE_NAMED.exec(line);
    if (failedTest) {
      // A title two files could begin (one file run alone, the other in a folder of that name) runs both.
      const candidates = filesOfTitle(failedTest[1], files);
      if (!candidates.length) return null;
      for (const file of candidates) named.add(file);
    } else if (aboutFile) {
      if (!files.includes(aboutFile[1])) return null;
      named.add(aboutFile[1]);
    } else if (/^\s*✘/.test(line) && !/^\s*✘ Timed out while running tests/.test(line)) {
      return null;
    }
  }
  return named.size ? [...named].sort() : null;
}

/** The files whose path (any tail of its folders, then its name) begins the title, the longest such tails. */
function filesOfTitle(title: string, files: string[]): string[] {
  let best: string[] = [];
  let length = 0;
  for (const file of files) {
    const parts = file.replace(/\.test\.ts$/, '').split('/');
    for (let start = 0; start < parts.length; start++) {
      const prefix = `${parts.slice(start).join(' › ')} › `;
      if (!title.startsWith(prefix) || prefix.length < length) continue;
      if (prefix.length > length) ((best = []), (length = prefix.length));
      best.push(file);
    }
  }
  return best;
}

function listTestFiles(dir = path.join(root, 'test')): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : listTestFiles(full);
    return entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

async function main(): Promise<number> {
  const started = await ensureServices(false);
  // test/traces/ starts a Jaeger: built here once per machine (minutes), not under a test's 120 s timeout.
  const files = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
  if (!files.length || files.some((file) => file.includes('traces'))) await ensureJaegerBinary();
  const runId = crypto.randomBytes(3).toString('hex');
  try {
    for (const dir of [shapes, answers]) {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(dir, { recursive: true });
    }
    // Processes the tests start inherit both variables and the recorders' preload, so their filters and
    // answers are checked too.
    const preload = `--require=${path.join(root, 'test', 'instrumentation', 'preload.cjs')}`;
    const env = {
      ...process.env,
      NODE_OPTIONS: [process.env.NODE_OPTIONS, preload].filter(Boolean).join(' '),
      DB_QUERY_SHAPES_DIR: shapes,
      RESPONSE_SCHEMAS_DIR: answers,
      TEST_RUN_ID: runId,
    };
    const first = await runAva(process.argv.slice(2), env);
    if (first.code !== 0) {
      // A test file that failed is run once more on its own, and the run passes only if it passes then and
      // every failure of the first run is accounted for by such a file. Most of these tests start processes
      // and time real services on two cores: a file that fails once under the whole suite's load and passes
      // alone is named below as flaky (to be mended), not hidden; one that fails twice fails the run.
      const failed = failedTestFiles(
        first.output,
        listTestFiles().map((file) => path.relative(root, file)),
      );
      if (!failed) return first.code;
      process.stdout.write(
        `\n[test] ${failed.length} file(s) failed; running them again alone:\n  ${failed.join('\n  ')}\n`,
      );
      const second = await runAva(['--concurrency=1', ...failed], env);
      if (second.code !== 0) return second.code;
      process.stdout.write(`[test] FLAKY (failed under load, passed alone): ${failed.join(', ')}\n`);
    }
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
