import '../helpers/env';
import test from 'ava';
import { spawn, spawnSync } from 'node:child_process';
import { ROOT, eventually } from '../helpers/processes';

test('the services script is idempotent: a second run only confirms', (t) => {
  const run = () => spawnSync(process.execPath, ['--import', 'tsx', 'src/devstack/services.ts'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  run();
  const second = run();
  t.is(second.status, 0, second.stderr);
  t.regex(second.stdout, /MongoDB protocol: answering at .* \(already running\)/);
  t.regex(second.stdout, /Redis: answering at .* \(already running\)/);
  t.notRegex(second.stdout, /started|building/);
});

test('a dead redis url on loopback gets a redis-server started there', async (t) => {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/devstack/services.ts'], {
    cwd: ROOT,
    env: { ...process.env, REDIS_URL: `redis://127.0.0.1:${port}` },
    encoding: 'utf8',
    timeout: 60_000,
  });
  t.is(result.status, 0, result.stderr);
  const pid = Number(/redis-server started at .* \(pid (\d+)\)/.exec(result.stdout)?.[1]);
  t.true(pid > 0);
  const ping = spawnSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' });
  t.is(ping.stdout.trim(), 'PONG');
  process.kill(pid, 'SIGTERM');
  await eventually(() => spawnSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' }).status !== 0);
});

test.serial('npm start brings every procfile process up and ctrl-c leaves none behind', async (t) => {
  const port = 21000 + Math.floor(Math.random() * 10000);
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/devstack/start.ts'], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'info', PORT: String(port), SANDBOX_PORT: String(port + 1), PUBLIC_BASE_URL: `http://127.0.0.1:${port}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  try {
    const ready = await eventually(async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200, 90_000, 500);
    t.true(ready);
    await eventually(() => /worker\s+\|.*worker ready/.test(output) && /scheduler\s+\|.*scheduler ready/.test(output) && /sandbox\s+\|.*listening/.test(output), 30_000);
    const sandbox = await fetch(`http://127.0.0.1:${port + 1}/health`);
    t.is(sandbox.status, 200);
    const pids = [...output.matchAll(/\[start\] \S+ started \(pid (\d+)\)/g)].map((m) => Number(m[1]));
    t.is(pids.length, 4, output);
    child.kill('SIGINT');
    const code = await new Promise((resolve) => child.once('exit', resolve));
    t.is(code, 0, output);
    const alive = pids.filter((pid) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    });
    t.deepEqual(alive, []);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
});

test.serial('if npm start is killed outright its processes stop on their own', async (t) => {
  const port = 31000 + Math.floor(Math.random() * 10000);
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/devstack/start.ts'], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'info', PORT: String(port), SANDBOX_PORT: String(port + 1), PUBLIC_BASE_URL: `http://127.0.0.1:${port}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  await eventually(async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200, 90_000, 500);
  const pids = [...output.matchAll(/\[start\] \S+ started \(pid (\d+)\)/g)].map((m) => Number(m[1]));
  t.is(pids.length, 4, output);
  child.kill('SIGKILL');
  const alive = () =>
    pids.filter((pid) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    });
  await eventually(() => alive().length === 0, 30_000, 250).catch(() => undefined);
  t.deepEqual(alive(), []);
});
