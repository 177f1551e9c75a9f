import '../helpers/env';
import test from 'ava';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { MongoClient } from 'mongodb';
import { ROOT, deadline, eventually, freePort, runCli } from '../helpers/processes';
import { TEST_DB, TEST_QUEUE_PREFIX } from '../helpers/env';
import {
  DEFAULT_MONGODB_URI,
  DEFAULT_REDIS_URL,
  ensureServices,
  stopService,
  type StartedService,
} from '../../src/devstack/services';
import { listenerPid, ownerOf } from '../../src/devstack/listeners';
import { describeServices } from '../../src/devstack/start-log';
import { DEFAULT_PORT } from '../../config/variables';
import { DEFAULT_SANDBOX_PORT } from '../../config/acquirer-variables';
import { instancePortOffset } from '../../config/formats';
import { LINK_WEBHOOK_QUEUE } from '../../jobs/link-webhook';
import { callJson, send } from '../helpers/http';
import { bearer } from '../helpers/identity';

test('the services script is idempotent: a second run only confirms', (t) => {
  const run = () =>
    spawnSync(process.execPath, ['--import', 'tsx', 'src/devstack/services.ts'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 120_000,
    });
  run();
  const second = run();
  t.is(second.status, 0, second.stderr);
  t.regex(second.stdout, /MongoDB protocol: answering at .* \(already running\)/);
  t.regex(second.stdout, /Redis: answering at .* \(already running\)/);
  // Found, each says who started it; this run started nothing.
  t.notRegex(second.stdout, / started at |building/);
});

test('a dead redis url on loopback gets a redis-server started there', async (t) => {
  const port = await freePort();
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

test.serial('two runs starting the same services at once: one starts each, the other says it found it', async (t) => {
  const [mongoPort, redisPort] = [await freePort(), await freePort()];
  const urls = { mongodbUri: `mongodb://127.0.0.1:${mongoPort}/race`, redisUrl: `redis://127.0.0.1:${redisPort}` };
  // What the two runs print (both in this process), as two npm start would.
  const said: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string) => (said.push(String(chunk)), true)) as typeof process.stdout.write;
  const runs = await Promise.allSettled([ensureServices(false, urls), ensureServices(false, urls)]);
  process.stdout.write = write;
  const started = runs.flatMap((run) => (run.status === 'fulfilled' ? run.value : []));
  try {
    t.deepEqual(
      runs.map((run) => run.status),
      ['fulfilled', 'fulfilled'],
      runs.map((run) => (run.status === 'rejected' ? String(run.reason) : '')).join(' '),
    );
    // Each service started once, and the child each run kept is what listens.
    t.deepEqual(started.map((service) => service.name).sort(), ['ferretdb', 'redis'], said.join(''));
    t.deepEqual(
      started.map((service) => listenerPid(service.name === 'redis' ? redisPort : mongoPort)),
      started.map((service) => service.child.pid),
    );
    const lines = said.join('').split('\n');
    const saying = (pattern: RegExp) => lines.filter((line) => pattern.test(line)).length;
    t.is(saying(/FerretDB .* started at/), 1, said.join(''));
    t.is(saying(/redis-server started at/), 1, said.join(''));
    t.is(saying(new RegExp(`MongoDB protocol: answering at mongodb://127.0.0.1:${mongoPort}/race`)), 1, said.join(''));
    t.is(saying(new RegExp(`Redis: answering at redis://127.0.0.1:${redisPort}`)), 1, said.join(''));
    // Who started the one found: the winner's parent, this process.
    const owner = `started by pid ${process.pid}: `;
    t.is(saying(new RegExp(`answering at mongodb://127.0.0.1:${mongoPort}/race .*; pid \\d+, ${owner}`)), 1);
    t.is(saying(new RegExp(`answering at redis://127.0.0.1:${redisPort} .*; pid \\d+, ${owner}`)), 1);
  } finally {
    for (const service of started as StartedService[]) await stopService(service);
  }
});

test('a service whose parent is an npm start belongs to that stack, which stops it when it stops', async (t) => {
  // A parent whose command line is npm start's, and its child standing for the service it started.
  const parent = spawn(
    process.execPath,
    ['-e', "const c = require('child_process').spawn('sleep', ['30']); console.log(c.pid)", 'src/devstack/start.ts'],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  try {
    const service = Number(await new Promise<string>((resolve) => parent.stdout.once('data', resolve)));
    t.deepEqual(ownerOf('ferretdb', service), {
      owner: `another npm start (pid ${parent.pid}), which stops it when it stops`,
      ownedByAnotherStack: true,
    });
    t.false(ownerOf('ferretdb', parent.pid!).ownedByAnotherStack, "the stack's own parent is not a stack");
    process.kill(service, 'SIGKILL');
  } finally {
    parent.kill('SIGKILL');
  }
});

test('the start log tells started services from found ones, and warns when another stack owns one', (t) => {
  const child = { pid: 4100 } as ChildProcess;
  const log = describeServices({
    started: [{ name: 'redis', child }],
    found: [
      {
        name: 'ferretdb',
        url: 'mongodb://127.0.0.1:27017/payments-two',
        pid: 4000,
        owner: 'another npm start (pid 3999), which stops it when it stops',
        ownedByAnotherStack: true,
      },
    ],
  });
  t.is(
    log,
    '[start] started Redis (pid 4100): this stack stops it when it stops\n' +
      '[start] found FerretDB at mongodb://127.0.0.1:27017/payments-two, pid 4000, started by another npm start ' +
      "(pid 3999), which stops it when it stops; not this stack's to stop\n" +
      '[start] warning: FerretDB goes away when the stack that started it stops, and this stack then loses its ' +
      'database or queues; to keep shared services for every stack, run `npm run services` first (they run until ' +
      '`npm run services -- stop`)\n',
  );
});

/**
 * Runs `npm start`'s entry point on free ports (a random one in the kernel's ephemeral range can be
 * held by an outgoing connection: the web process then never listens); resolves once /readyz is
 * 200, or fails with what the stack printed.
 */
async function startDevStack(through: 'entry point' | 'npm' = 'entry point') {
  const [port, sandboxPort] = [await freePort(), await freePort()];
  // The URLs built on them follow the two ports.
  return startDevStackWith(through, { PORT: String(port), SANDBOX_PORT: String(sandboxPort) }, port, sandboxPort);
}

function spawnDevStack(through: 'entry point' | 'npm', env: NodeJS.ProcessEnv) {
  const [command, args] =
    through === 'npm' ? ['npm', ['start']] : [process.execPath, ['--import', 'tsx', 'src/devstack/start.ts']];
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stack = { child, output: '', pids: [] as number[] };
  child.stdout.on('data', (c) => (stack.output += c));
  child.stderr.on('data', (c) => (stack.output += c));
  return stack;
}

async function startDevStackWith(
  through: 'entry point' | 'npm',
  env: NodeJS.ProcessEnv,
  port: number,
  sandboxPort: number,
) {
  // The same object: its output grows as the stack prints.
  const stack = Object.assign(spawnDevStack(through, env), { port, sandboxPort });
  const { child } = stack;
  await eventually(
    async () => (await send({ url: `http://127.0.0.1:${port}` }, 'GET', '/readyz')).status === 200,
    90_000,
    500,
  ).catch((error: Error) => {
    child.kill('SIGKILL');
    throw new Error(`${error.message}; npm start printed:\n${stack.output.slice(-4000)}`);
  });
  stack.pids = [...stack.output.matchAll(/\[start\] \S+ started \(pid (\d+)\)/g)].map((m) => Number(m[1]));
  return stack;
}

function alivePids(pids: number[]): number[] {
  return pids.filter((pid) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  });
}

test.serial('npm start brings every procfile process up and ctrl-c leaves none behind', async (t) => {
  const stack = await startDevStack();
  try {
    await eventually(
      () =>
        /worker\s+\|.*worker ready/.test(stack.output) &&
        /scheduler\s+\|.*scheduler ready/.test(stack.output) &&
        /sandbox\s+\|.*listening/.test(stack.output),
      30_000,
    );
    const sandbox = await send({ url: `http://127.0.0.1:${stack.sandboxPort}` }, 'GET', '/health');
    t.is(sandbox.status, 200);
    t.is(stack.pids.length, 4, stack.output);
    const [web, sandboxUrl] = [`http://127.0.0.1:${stack.port}`, `http://127.0.0.1:${stack.sandboxPort}`];
    t.true(stack.output.includes(`[start] service ${web} (PUBLIC_BASE_URL), acquirer ${sandboxUrl}, `), stack.output);
    // Written to a pipe, not a terminal: no colour codes.
    t.false(stack.output.includes('\x1b['), stack.output);
    stack.child.kill('SIGINT');
    const code = await new Promise((resolve) => stack.child.once('exit', resolve));
    t.is(code, 0, stack.output);
    t.deepEqual(alivePids(stack.pids), []);
  } finally {
    if (stack.child.exitCode === null) stack.child.kill('SIGKILL');
  }
});

// A process manager, an IDE's stop button or `kill -INT <pid>` signal the npm process alone, not its group.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  test.serial(`${signal} to the npm process alone stops every process of npm start`, async (t) => {
    const stack = await startDevStack('npm');
    try {
      t.is(stack.pids.length, 4, stack.output);
      stack.child.kill(signal);
      const exited = new Promise((resolve) => stack.child.once('exit', resolve));
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, deadline(20_000)))]);
      t.not(stack.child.exitCode ?? stack.child.signalCode, null, 'npm itself is still running');
      await eventually(() => alivePids(stack.pids).length === 0, 20_000, 250).catch(() => undefined);
      t.deepEqual(alivePids(stack.pids), [], stack.output);
    } finally {
      if (stack.child.exitCode === null) stack.child.kill('SIGKILL');
      for (const pid of alivePids(stack.pids)) process.kill(pid, 'SIGKILL');
    }
  });
}

test.serial('if npm start is killed outright its processes stop on their own', async (t) => {
  const stack = await startDevStack();
  t.is(stack.pids.length, 4, stack.output);
  stack.child.kill('SIGKILL');
  await eventually(() => alivePids(stack.pids).length === 0, 30_000, 250).catch(() => undefined);
  t.deepEqual(alivePids(stack.pids), []);
});

/** The queues' keys (by prefix) and the database a stack named INSTANCE made on the shared services. */
async function dropInstanceData(instance: string): Promise<void> {
  const mongo = new MongoClient(DEFAULT_MONGODB_URI);
  await mongo.db(`payments-${instance}`).dropDatabase();
  await mongo.close();
  const redis = new Redis(DEFAULT_REDIS_URL);
  for await (const keys of redis.scanStream({ match: `pay-${instance}:*`, count: 1000 }))
    if ((keys as string[]).length) await redis.del(...(keys as string[]));
  redis.disconnect();
}

async function liveWorkers(prefix: string): Promise<number> {
  const queue = new Queue(LINK_WEBHOOK_QUEUE, { prefix, connection: { host: '127.0.0.1', port: 6379 } });
  try {
    return await queue.getWorkersCount();
  } finally {
    await queue.close();
  }
}

/** How many users with this login a database has. */
async function usersNamed(database: string, login: string): Promise<number> {
  const mongo = new MongoClient(DEFAULT_MONGODB_URI);
  try {
    return await mongo.db(database).collection('users').countDocuments({ login });
  } finally {
    await mongo.close();
  }
}

/** What a CLI that ignored the running stacks would have left in the default database (the tag is this test's). */
async function removeFromDefaultDatabase(tag: string): Promise<void> {
  const mongo = new MongoClient(DEFAULT_MONGODB_URI);
  const db = mongo.db('payments');
  const users = await db
    .collection('users')
    .find({ login: new RegExp(tag) })
    .toArray();
  for (const user of users) {
    await db.collection('users').deleteOne({ _id: user._id });
    await db.collection('merchants').deleteOne({ _id: user.merchantId });
  }
  await mongo.close();
}

/** merchant:create's arguments for a merchant whose login and e-mail are this name. */
const merchantNamed = (login: string) => [
  'merchant:create',
  '--name',
  `Loja ${login}`,
  '--email',
  `${login}@example.com`,
  '--login',
  login,
  '--password',
  'correct horse battery',
];

test.serial(
  'a second npm start named by INSTANCE runs beside the first, apart; without it, it says what to set; the CLI ' +
    'follows the one stack running and asks which of two',
  async (t) => {
    const instance = `t${crypto.randomBytes(3).toString('hex')}`;
    const tag = crypto.randomBytes(3).toString('hex');
    const first = await startDevStack();
    const moved = instancePortOffset({ INSTANCE: instance });
    const unset = { PORT: undefined, SANDBOX_PORT: undefined, MONGODB_URI: undefined, QUEUE_PREFIX: undefined };
    // The CLI told nothing: no INSTANCE, no MONGODB_URI.
    const untold = { ...process.env, INSTANCE: undefined, MONGODB_URI: undefined };
    let second: Awaited<ReturnType<typeof startDevStackWith>> | undefined;
    try {
      await eventually(async () => (await liveWorkers(TEST_QUEUE_PREFIX)) > 0, 30_000, 250);
      // One stack running: the CLI writes into its database, and says so.
      const followed = await runCli(merchantNamed(`one${tag}`), { env: untold });
      t.is(followed.code, 0, followed.stderr);
      t.true(
        followed.stderr.includes(
          `[cli] using the running stack, the default stack (INSTANCE unset): database ${TEST_DB}`,
        ),
        followed.stderr,
      );
      t.is(await usersNamed(TEST_DB, `one${tag}`), 1);
      // The same settings as the first: stopped before anything starts, told what to set.
      const clash = spawnDevStack('entry point', { PORT: String(first.port), SANDBOX_PORT: String(first.sandboxPort) });
      const code = await new Promise((resolve) => clash.child.once('exit', resolve));
      t.is(code, 1, clash.output);
      t.regex(clash.output, new RegExp(`port ${first.port} \\(PORT\\) is in use`));
      t.regex(clash.output, new RegExp(`port ${first.sandboxPort} \\(SANDBOX_PORT\\) is in use`));
      t.regex(clash.output, new RegExp(`workers of another stack are live on queue prefix '${TEST_QUEUE_PREFIX}'`));
      t.true(clash.output.includes('INSTANCE=two npm start'), clash.output);
      t.false(clash.output.includes('started (pid'), clash.output);

      // The second: INSTANCE alone, every other setting at its default.
      second = await startDevStackWith(
        'entry point',
        { ...unset, INSTANCE: instance },
        DEFAULT_PORT + moved,
        DEFAULT_SANDBOX_PORT + moved,
      );
      const web = `http://127.0.0.1:${second.port}`;
      t.true(
        second.output.includes(
          `[start] instance ${instance}: database payments-${instance}, queue prefix pay-${instance}`,
        ),
        second.output,
      );
      t.true(
        second.output.includes(
          `[start] service ${web} (PUBLIC_BASE_URL), acquirer http://127.0.0.1:${second.sandboxPort}`,
        ),
        second.output,
      );
      // Its own database: the demo merchant seeded there, which the first's database already had.
      t.true(second.output.includes('[seed]'), second.output);
      t.is((await send({ url: `http://127.0.0.1:${second.sandboxPort}` }, 'GET', '/health')).status, 200);
      t.is((await send({ url: `http://127.0.0.1:${first.port}` }, 'GET', '/readyz')).status, 200);
      // Its own queues: each stack's worker waits on its own prefix.
      await eventually(async () => (await liveWorkers(`pay-${instance}`)) > 0, 30_000, 250);
      t.true((await liveWorkers(TEST_QUEUE_PREFIX)) > 0);
      // It started no service: it says it found them, whose they are, and that they are not its to stop.
      for (const found of [
        `[start] found FerretDB at mongodb://127.0.0.1:27017/payments-${instance}, pid `,
        '[start] found Redis at redis://127.0.0.1:6379, pid ',
      ])
        t.true(second.output.includes(found), second.output);
      t.regex(second.output, /\[start\] found FerretDB at .*, started by .*; not this stack's to stop/);
      t.notRegex(second.output, /\[start\] started (FerretDB|Redis)/);
      // Webhooks may reach the developer's own receiver, and the log says so.
      t.true(
        second.output.includes('[start] webhooks: WEBHOOKS_ALLOW_LOCALHOST=true (npm start sets it unless you do)'),
        second.output,
      );
      const demo = JSON.parse(/\[seed\] (\{.*\})/.exec(second.output)![1]);
      const endpoint = await callJson({ url: web }, 'POST', '/api/v1/webhook-endpoints/', bearer(demo.merchant_token), {
        url: 'http://localhost:4781/webhooks',
        enabled_events: ['*'],
      });
      t.is(endpoint.status, 201, endpoint.text);

      // Two stacks running: the CLI told nothing names both and does nothing; told INSTANCE, it uses that one.
      const ambiguous = await runCli(merchantNamed(`two${tag}`), { env: untold });
      t.is(ambiguous.code, 1, ambiguous.stdout);
      const error = JSON.parse(ambiguous.stderr.trim()).error as string;
      t.true(error.includes(`INSTANCE=${instance}: database payments-${instance}, ${web}`), error);
      t.true(error.includes(`the default stack (INSTANCE unset): database ${TEST_DB}`), error);
      const chosen = await runCli(merchantNamed(`three${tag}`), { env: { ...untold, INSTANCE: instance } });
      t.is(chosen.code, 0, chosen.stderr);
      t.is(chosen.stderr, '');
      t.is(await usersNamed(`payments-${instance}`, `three${tag}`), 1);
      t.is(await usersNamed(`payments-${instance}`, `two${tag}`), 0);
      t.is(await usersNamed(TEST_DB, `two${tag}`), 0);

      // Stopped, it leaves the services it found running, and says so.
      second.child.kill('SIGINT');
      await new Promise((resolve) => second!.child.once('close', resolve));
      t.true(second.output.includes('[start] left FerretDB and Redis running: this stack did not start them'));
      t.notRegex(second.output, /stopped (ferretdb|redis|FerretDB|Redis)/);
    } finally {
      for (const stack of [second, first]) {
        if (!stack || stack.child.exitCode !== null) continue;
        stack.child.kill('SIGINT');
        await new Promise((resolve) => stack.child.once('exit', resolve));
      }
      await dropInstanceData(instance);
      await removeFromDefaultDatabase(tag);
    }
  },
);
