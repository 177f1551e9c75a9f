/**
 * Typed jobs (issue 13): the web process takes queue names from the job definitions (jobs/<kind>.ts)
 * and loads no processor (jobs/processors/), so the worker's code and what it imports stay out of
 * it. Checked in a fresh node process, whose require.cache lists every module it loaded.
 */
import test from 'ava';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../helpers/processes';

const PROCESSORS = path.join(ROOT, 'jobs', 'processors');

/** The repository files (relative paths) a fresh process holds after running `script` (CommonJS). */
function modulesLoadedBy(script: string): string[] {
  const probe =
    `${script}\n` +
    `const loaded = Object.keys(require.cache).map((file) => require('node:path').relative(process.cwd(), file));\n` +
    `process.stdout.write(JSON.stringify(loaded));\n` +
    `process.exit(0);\n`;
  const output = execFileSync(process.execPath, ['--import', 'tsx', '-e', probe], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, LOG_LEVEL: 'silent' },
  });
  return JSON.parse(output) as string[];
}

const processorFiles = fs
  .readdirSync(PROCESSORS)
  .filter((name) => name.endsWith('.ts'))
  .map((name) => path.join('jobs', 'processors', name));

test('the web process, app built (dashboard and /metrics included), loads no job processor', (t) => {
  const loaded = modulesLoadedBy(`require('./src/web/app.ts').buildApp();`);
  t.true(loaded.includes(path.join('jobs', 'index.ts')), 'the app takes its queue names from the definitions');
  t.deepEqual(
    loaded.filter((file) => file.startsWith(path.join('jobs', 'processors'))),
    [],
  );
});

test('the worker process loads every processor (the probe sees them when they are loaded)', (t) => {
  const loaded = modulesLoadedBy(`require('./workers/worker.ts');`);
  t.true(processorFiles.length >= 6);
  t.deepEqual(
    processorFiles.filter((file) => !loaded.includes(file)),
    [],
  );
});

test('no production module imports from test/ (test instrumentation hooks in from outside, at run time)', (t) => {
  const sources = fs.readdirSync(path.join(ROOT, 'src'), { recursive: true, encoding: 'utf8' });
  const importsTest = (file: string) =>
    /(from|import|require\()\s*\(?['"`](\.\.\/)+test\//.test(fs.readFileSync(file, 'utf8'));
  t.deepEqual(
    sources.filter((file) => file.endsWith('.ts') && importsTest(path.join(ROOT, 'src', file))),
    [],
  );
});
