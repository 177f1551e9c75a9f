/**
 * `npm test`: starts the services the suite needs (FerretDB on PostgreSQL, Redis) unless they
 * answer already, runs ava with every process recording the filters it sends, checks those
 * filters against the declared indexes (test/query-shapes/check.ts), and stops the services it
 * started, whatever the outcome. Arguments go to ava.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureServices, stopService } from '../src/devstack/services';

const root = path.resolve(__dirname, '..');
const shapes = path.join(root, '.data', 'query-shapes');

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env, stdio: 'inherit' });
    child.once('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function main(): Promise<number> {
  const started = await ensureServices(false);
  try {
    fs.rmSync(shapes, { recursive: true, force: true });
    fs.mkdirSync(shapes, { recursive: true });
    const env = { ...process.env, DB_QUERY_SHAPES_DIR: shapes };
    const ava = await run(path.join(root, 'node_modules', '.bin', 'ava'), process.argv.slice(2), env);
    if (ava !== 0) return ava;
    // A partial run (arguments given) checks the filters of what it ran.
    return await run(process.execPath, ['--import', 'tsx', path.join(root, 'test', 'query-shapes', 'check.ts'), shapes], env);
  } finally {
    for (const service of started) {
      await stopService(service);
      process.stdout.write(`[test] stopped ${service.name}, started for this run\n`);
    }
  }
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    process.stderr.write(`test run failed: ${error.stack ?? error}\n`);
    process.exit(1);
  },
);
