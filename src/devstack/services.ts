/**
 * Local services for development and tests: FerretDB (our MongoDB-protocol server) and Redis; Jaeger (a trace
 * store, for OpenTelemetry traces) when asked: `npm run services -- jaeger`.
 *
 * Idempotent: builds what is missing, starts what is not answering, waits until each answers
 * and prints where each is. A second run only confirms. Run directly (`npm run services`) the
 * services it starts keep running after it exits; `npm start` imports it and stops what it
 * started on Ctrl-C.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import Redis from 'ioredis';
import { DEFAULT_MONGODB_SERVER } from '../../config';
import { commandLineOf, listenerPid, ownerOf } from './listeners';
import { ensureFerretBinary, FERRETDB_VERSION } from './go-builds';
import { ensurePostgresDatabase, ferretBackend, ferretPostgresUrl, redactPassword } from './ferretdb-backend';
import { DEFAULT_JAEGER_PORTS, startJaeger } from './jaeger';
import {
  cacheDirOf,
  DATA_DIR,
  isLoopback,
  openLog,
  pidFile,
  portOf,
  remember,
  say,
  tcpOpen,
  waitFor,
  type StartedService,
} from './service-kit';

export { ensureFerretBinary, ensureJaegerBinary, FERRETDB_VERSION, JAEGER_VERSION } from './go-builds';
export { DEFAULT_JAEGER_PORTS, jaegerConfig, startJaeger, type JaegerPorts, type StartedJaeger } from './jaeger';
export { stopService, type StartedService } from './service-kit';
export { ensurePostgresDatabase, ferretBackend, ferretPostgresUrl } from './ferretdb-backend';

/** A service that answered without this run starting it: its listener's pid when this machine says, and whose. */
export interface FoundService {
  name: string;
  url: string;
  pid: number | null;
  /** Who started it, as a phrase ("npm run services, which keeps it running until ..."). */
  owner: string;
  /** Whether another `npm start` started it: it then stops it when it stops. */
  ownedByAnotherStack: boolean;
}

/** What `npm start` (or a test run) did about each service: started it, or found it running. */
export interface ServicesOutcome {
  started: StartedService[];
  found: FoundService[];
}

/** The names people know the services by. */
export const SERVICE_LABELS: Readonly<Record<string, string>> = {
  ferretdb: 'FerretDB',
  redis: 'Redis',
  jaeger: 'Jaeger',
};

/** `npm run services -- stop`: stops what an earlier detached start (npm run services) left running. */
export async function stopDetachedServices(): Promise<string[]> {
  const stopped: string[] = [];
  for (const [name, binary] of [
    ['ferretdb', 'ferretdb'],
    ['redis', 'redis-server'],
    ['jaeger', 'jaeger'],
  ] as const) {
    const file = pidFile(name);
    if (!fs.existsSync(file)) continue;
    const pid = Number(fs.readFileSync(file, 'utf8'));
    fs.rmSync(file, { force: true });
    // A pid can be reused after a reboot: only signal the process if it is still ours.
    if (!pid || !commandLineOf(pid).includes(binary)) continue;
    process.kill(pid, 'SIGTERM');
    for (let i = 0; i < 60 && commandLineOf(pid); i++) await new Promise((r) => setTimeout(r, 250));
    stopped.push(`${name} (pid ${pid})`);
  }
  return stopped;
}

export async function mongoAnswers(uri: string): Promise<boolean> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 1500, connectTimeoutMS: 1500 });
  try {
    await client.connect();
    await client.db('admin').command({ ping: 1 });
    return true;
  } catch {
    return false;
  } finally {
    await client.close().catch(() => undefined);
  }
}

export async function redisAnswers(url: string): Promise<boolean> {
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
    connectTimeout: 1500,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

/**
 * After spawning a service on a port: waits until the port answers, then says whether this run's child is what
 * answers ('started') or another process is ('found': two runs spawned at once and this one's child could not bind
 * the port; it is stopped if still alive). A child that exits is waited past while something else holds the port.
 */
async function startedOrFound(
  what: string,
  child: ChildProcess,
  answers: () => Promise<boolean>,
  port: number,
  timeoutMs: number,
): Promise<{ started: true } | { started: false; listener: number | null }> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await answers()) {
      const listener = listenerPid(port);
      const alive = child.exitCode === null && child.signalCode === null;
      // Where /proc does not say who listens, a child still alive once the port answers is taken to be it.
      if (listener === child.pid || (listener === null && alive)) return { started: true };
      if (alive) await stopChild(child);
      return { started: false, listener };
    }
    if (child.exitCode !== null && !(await tcpOpen('127.0.0.1', port)))
      throw new Error(`${what} exited with code ${child.exitCode} before answering`);
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what} did not answer within ${timeoutMs} ms`);
}

async function stopChild(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** A service this run found answering, with its listener and who started it. */
function found(name: string, url: string, port: number | null, listener = port === null ? null : listenerPid(port)) {
  if (port === null)
    return { name, url, pid: null, owner: 'whoever runs it on that machine', ownedByAnotherStack: false };
  return { name, url, pid: listener, ...ownerOf(name, listener) };
}

/**
 * A FerretDB of ours (a binary in our cache folder) listening on this port but built otherwise than this
 * checkout builds it (before a patch, or with an older one): its pid.
 */
function outdatedFerretDBOn(port: number): number | null {
  const ours = cacheDirOf('ferretdb-');
  for (const entry of fs.readdirSync('/proc')) {
    const pid = Number(entry);
    if (!pid) continue;
    let exe: string;
    try {
      exe = fs.readlinkSync(`/proc/${pid}/exe`);
    } catch {
      continue;
    }
    if (!exe.startsWith(ours) || !commandLineOf(pid).includes(`--listen-addr=127.0.0.1:${port} `)) continue;
    return exe === ensureFerretBinary() ? null : pid;
  }
  return null;
}

/** The connection string for people: its credentials hidden. */
const shownUri = (uri: string) => uri.replace(/\/\/[^@]*@/, '//***@');

/** A port on this machine's loopback, or null for a service elsewhere (whose listener /proc cannot show). */
const loopbackPort = (url: URL, fallback: number) => (isLoopback(url.hostname) ? portOf(url, fallback) : null);

export async function ensureFerretDB(uri: string, detached: boolean): Promise<StartedService | FoundService> {
  const outdated = isLoopback(new URL(uri).hostname) ? outdatedFerretDBOn(portOf(new URL(uri), 27017)) : null;
  if (outdated) {
    say(`FerretDB (pid ${outdated}) runs an earlier build of ours: restarting it on this checkout's build`);
    process.kill(outdated, 'SIGTERM');
    await waitFor('the earlier FerretDB to stop', async () => !(await mongoAnswers(uri)), 15_000);
  }
  const url = new URL(uri);
  const alreadyRunning = () => {
    const service = found('ferretdb', shownUri(uri), loopbackPort(url, 27017));
    say(`MongoDB protocol: answering at ${service.url} (already running)${describeListener(service)}`);
    return service;
  };
  if (await mongoAnswers(uri)) return alreadyRunning();
  if (!isLoopback(url.hostname))
    throw new Error(`MONGODB_URI ${url.host} does not answer and is not local: start it yourself`);
  const port = portOf(url, 27017);
  // A server another run is starting this moment holds the port before it answers: give it a few seconds.
  if (await tcpOpen(url.hostname, port)) {
    if (
      await waitFor('', () => mongoAnswers(uri), 10_000).then(
        () => true,
        () => false,
      )
    )
      return alreadyRunning();
    throw new Error(`port ${port} is taken by something that is not a MongoDB-protocol server`);
  }
  const binary = ensureFerretBinary();
  const backend = ferretBackend();
  const sqliteDir = path.join(DATA_DIR, 'ferretdb', 'sqlite') + '/';
  const stateDir = path.join(DATA_DIR, 'ferretdb', 'state');
  fs.mkdirSync(stateDir, { recursive: true });
  const args = [
    `--listen-addr=127.0.0.1:${port}`,
    `--state-dir=${stateDir}`,
    '--telemetry=disable',
    '--log-level=warn',
    '--debug-addr=-',
  ];
  if (backend === 'postgresql') {
    const postgresUrl = ferretPostgresUrl();
    await ensurePostgresDatabase(postgresUrl);
    args.push('--handler=postgresql', `--postgresql-url=${postgresUrl}`);
  } else {
    fs.mkdirSync(sqliteDir, { recursive: true });
    args.push('--handler=sqlite', `--sqlite-url=file:${sqliteDir}`);
  }
  const log = openLog('ferretdb');
  const child = spawn(binary, args, { detached, stdio: ['ignore', log, log] });
  const outcome = await startedOrFound('FerretDB', child, () => mongoAnswers(uri), port, 30_000);
  if (!outcome.started) {
    const service = found('ferretdb', shownUri(uri), port, outcome.listener);
    say(
      `MongoDB protocol: answering at ${service.url} (another run's FerretDB took the port first; this run's ` +
        `is gone)${describeListener(service)}`,
    );
    return service;
  }
  const started = remember('ferretdb', child, detached);
  const storage =
    backend === 'postgresql'
      ? `PostgreSQL backend, ${redactPassword(ferretPostgresUrl())}`
      : 'SQLite backend: every lookup scans, see docs';
  say(
    `MongoDB protocol: FerretDB ${FERRETDB_VERSION} (${storage}) started at ${uri} ` +
      `(pid ${child.pid}, log .data/ferretdb.log)`,
  );
  return started;
}

export async function ensureRedis(redisUrl: string, detached: boolean): Promise<StartedService | FoundService> {
  const url = new URL(redisUrl);
  if (await redisAnswers(redisUrl)) {
    const service = found('redis', shownUri(redisUrl), loopbackPort(url, 6379));
    say(`Redis: answering at ${service.url} (already running)${describeListener(service)}`);
    return service;
  }
  if (!isLoopback(url.hostname))
    throw new Error(`REDIS_URL ${url.host} does not answer and is not local: start it yourself`);
  const port = portOf(url, 6379);
  const log = openLog(`redis-${port}`);
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--maxmemory-policy',
      'noeviction',
    ],
    {
      detached,
      stdio: ['ignore', log, log],
    },
  );
  const outcome = await startedOrFound('redis-server', child, () => redisAnswers(redisUrl), port, 15_000);
  if (!outcome.started) {
    const service = found('redis', shownUri(redisUrl), port, outcome.listener);
    say(
      `Redis: answering at ${service.url} (another run's redis-server took the port first; this run's is ` +
        `gone)${describeListener(service)}`,
    );
    return service;
  }
  const started = remember('redis', child, detached);
  say(`Redis: redis-server started at ${redisUrl} (pid ${child.pid})`);
  return started;
}

/** ", pid N: started by ..." for a found service, or nothing when this machine does not say. */
function describeListener(service: FoundService): string {
  return service.pid === null ? '' : `; pid ${service.pid}, started by ${service.owner}`;
}

export const DEFAULT_MONGODB_URI = `${DEFAULT_MONGODB_SERVER}/payments`;
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

/**
 * Starts what does not answer at the given URLs: by default MONGODB_URI and REDIS_URL as set; `npm start` passes its
 * configuration's, whose database follows INSTANCE.
 */
export async function startOrFindServices(
  detached: boolean,
  urls: { mongodbUri: string; redisUrl: string } = {
    mongodbUri: process.env.MONGODB_URI || DEFAULT_MONGODB_URI,
    redisUrl: process.env.REDIS_URL || DEFAULT_REDIS_URL,
  },
): Promise<ServicesOutcome> {
  const outcome: ServicesOutcome = { started: [], found: [] };
  for (const service of [await ensureFerretDB(urls.mongodbUri, detached), await ensureRedis(urls.redisUrl, detached)])
    if ('child' in service) outcome.started.push(service);
    else outcome.found.push(service);
  return outcome;
}

/** The services this run started (those it found are not its to stop). */
export async function ensureServices(
  detached: boolean,
  urls?: { mongodbUri: string; redisUrl: string },
): Promise<StartedService[]> {
  return (await startOrFindServices(detached, urls)).started;
}

if (require.main === module && process.argv[2] === 'stop') {
  stopDetachedServices().then(
    (stopped) => {
      say(stopped.length ? `stopped ${stopped.join(', ')}` : 'nothing started by npm run services is running');
      process.exit(0);
    },
    (error: Error) => {
      process.stderr.write(`[services] ${error.message}\n`);
      process.exit(1);
    },
  );
} else if (require.main === module && process.argv[2] === 'jaeger') {
  // Traces for a local stack: then start it with OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 (docs/deploy.md).
  startJaeger(DEFAULT_JAEGER_PORTS, true).then(
    () => process.exit(0),
    (error: Error) => {
      process.stderr.write(`[services] ${error.message}\n`);
      process.exit(1);
    },
  );
} else if (require.main === module) {
  ensureServices(true).then(
    () => process.exit(0),
    (error: Error) => {
      process.stderr.write(`[services] ${error.message}\n`);
      process.exit(1);
    },
  );
}
