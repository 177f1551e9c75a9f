/**
 * Local services for development and tests: FerretDB (our MongoDB-protocol server) and Redis; Jaeger (a trace
 * store, for OpenTelemetry traces) when asked: `npm run services -- jaeger`.
 *
 * Idempotent: builds what is missing, starts what is not answering, waits until each answers
 * and prints where each is. A second run only confirms. Run directly (`npm run services`) the
 * services it starts keep running after it exits; `npm start` imports it and stops what it
 * started on Ctrl-C.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import Redis from 'ioredis';
import pg from 'pg';
import { DEFAULT_FERRETDB_POSTGRESQL_URL, DEFAULT_MONGODB_SERVER, PROJECT_ROOT } from '../../config';
import { commandLineOf, listenerPid, ownerOf } from './listeners';

export const FERRETDB_VERSION = 'v1.24.2';
/** The version of github.com/jaegertracing/jaeger the Go module proxy serves; ./cmd/jaeger is Jaeger v2 all-in-one. */
export const JAEGER_VERSION = 'v1.76.0';
const DATA_DIR = path.join(PROJECT_ROOT, '.data');

export interface StartedService {
  name: string;
  child: ChildProcess;
}

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

/** A service started detached leaves its pid here, so `npm run services -- stop` can stop it later. */
function pidFile(name: string): string {
  return path.join(DATA_DIR, `${name}.pid`);
}

function remember(name: string, child: ChildProcess, detached: boolean): StartedService {
  if (detached) {
    child.unref();
    fs.writeFileSync(pidFile(name), String(child.pid));
  }
  return { name, child };
}

/** SIGTERM, then wait for the exit (SIGKILL after 15 s); false when it had exited already (nothing stopped). */
export async function stopService(service: StartedService): Promise<boolean> {
  const { child } = service;
  if (child.exitCode !== null || child.signalCode) return false;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
  fs.rmSync(pidFile(service.name), { force: true });
  return true;
}

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

function say(message: string): void {
  process.stdout.write(`[services] ${message}\n`);
}

/** Where a Go service built here is kept, once per machine: ~/.cache/payments-platform/<name>. */
function cacheDirOf(name: string): string {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'payments-platform', name);
}

/**
 * Our local FerretDB is v1.24.2 with one patch (ferretdb-atomic-updates.patch): FerretDB applies an update as a
 * read, then a write of the whole document, so two concurrent updates of one document could lose one of them
 * (measured here: 220 of 300 pairs of `$set` of different fields lost one; conditional updates both won 26 times
 * in 50). MongoDB, which production runs, applies each single-document update atomically; the patch serialises
 * updates in FerretDB the same way (docs/store.md). The cache folder names the patch's hash, so a machine that
 * built FerretDB without it builds it again.
 */
const FERRETDB_PATCH = path.join(__dirname, 'ferretdb-atomic-updates.patch');

function ferretBuildName(): string {
  const hash = crypto.createHash('sha256').update(fs.readFileSync(FERRETDB_PATCH)).digest('hex').slice(0, 10);
  return `ferretdb-${FERRETDB_VERSION}-${hash}`;
}

interface GoBuild {
  module: string;
  version: string;
  /** The package to build, in the module (./cmd/...). */
  pkg: string;
  binary: string;
  /** Before the build, in the writable copy of the module. */
  prepare?: (source: string) => void;
}

/**
 * Downloads a Go module through the module proxy and builds one of its commands into `binary`. The module
 * cache is read-only and the builds write beside the sources, so the build runs in a writable copy.
 */
function buildGoModule({ module, version, pkg, binary, prepare }: GoBuild): void {
  const info = JSON.parse(
    execFileSync('go', ['mod', 'download', '-json', `${module}@${version}`], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  ) as { Dir?: string; Error?: string };
  if (!info.Dir) throw new Error(`go mod download ${module}@${version} failed: ${info.Error ?? 'no Dir'}`);
  const source = fs.mkdtempSync(path.join(path.dirname(binary), 'src-'));
  try {
    fs.cpSync(info.Dir, source, { recursive: true });
    execFileSync('chmod', ['-R', 'u+w', source]);
    prepare?.(source);
    const partial = `${binary}.partial-${process.pid}`;
    execFileSync('go', ['build', '-trimpath', '-o', partial, pkg], {
      cwd: source,
      stdio: 'inherit',
      env: { ...process.env, CGO_ENABLED: '0' },
    });
    fs.renameSync(partial, binary); // atomic: a concurrent run never sees a half-written binary
  } finally {
    fs.rmSync(source, { recursive: true, force: true });
  }
}

/** Builds our FerretDB once per machine from the Go module proxy; returns the binary path. */
export function ensureFerretBinary(): string {
  const dir = cacheDirOf(ferretBuildName());
  const binary = path.join(dir, 'ferretdb');
  if (fs.existsSync(binary)) return binary;
  fs.mkdirSync(dir, { recursive: true });
  say(`building FerretDB ${FERRETDB_VERSION} with Go (once per machine, a few minutes)...`);
  buildGoModule({
    module: 'github.com/FerretDB/FerretDB',
    version: FERRETDB_VERSION,
    pkg: './cmd/ferretdb',
    binary,
    prepare: (source) => {
      // The module zip lacks build/version/version.txt, which the build embeds.
      fs.mkdirSync(path.join(source, 'build', 'version'), { recursive: true });
      fs.writeFileSync(path.join(source, 'build', 'version', 'version.txt'), FERRETDB_VERSION);
      execFileSync('git', ['apply', '-p1', FERRETDB_PATCH], { cwd: source, stdio: 'inherit' });
    },
  });
  say(`FerretDB built at ${binary}`);
  return binary;
}

/**
 * Builds Jaeger once per machine from the Go module proxy, as FerretDB is (`go install` refuses the module: its
 * go.mod has a replace directive); returns the binary path. A build another process has under way (a lock folder
 * naming a live pid) is waited for rather than repeated.
 */
export async function ensureJaegerBinary(waitForOtherBuildMs = 30 * 60_000): Promise<string> {
  const dir = cacheDirOf(`jaeger-${JAEGER_VERSION}`);
  const binary = path.join(dir, 'jaeger');
  if (fs.existsSync(binary)) return binary;
  fs.mkdirSync(dir, { recursive: true });
  const lock = path.join(dir, 'building');
  const deadline = Date.now() + waitForOtherBuildMs;
  // A build by hand (docs/deploy.md) writes jaeger.partial and renames it when done.
  const handPartial = `${binary}.partial`;
  const building = () => fs.existsSync(handPartial) && Date.now() - fs.statSync(handPartial).mtimeMs < 30 * 60_000;
  while (building() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2_000));
  if (fs.existsSync(binary)) return binary;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
      break;
    } catch {
      const pid = Number(fs.readFileSync(path.join(lock, 'pid'), { encoding: 'utf8', flag: 'a+' }));
      if (pid && !commandLineOf(pid)) fs.rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`Jaeger is still being built by pid ${pid} (${lock})`);
      else await new Promise((r) => setTimeout(r, 2_000));
      if (fs.existsSync(binary)) return binary;
    }
  }
  try {
    if (fs.existsSync(binary)) return binary;
    say(`building Jaeger ${JAEGER_VERSION} with Go (once per machine, 10-15 minutes on two cores)...`);
    buildGoModule({ module: 'github.com/jaegertracing/jaeger', version: JAEGER_VERSION, pkg: './cmd/jaeger', binary });
    say(`Jaeger built at ${binary}`);
    return binary;
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

export interface JaegerPorts {
  /** OTLP over HTTP (the SDK's OTEL_EXPORTER_OTLP_ENDPOINT). */
  otlpHttp: number;
  /** The query HTTP API and UI. */
  query: number;
  /** The query gRPC API (unused by us, but it listens). */
  queryGrpc: number;
}

export const DEFAULT_JAEGER_PORTS: JaegerPorts = { otlpHttp: 4318, query: 16686, queryGrpc: 16685 };

/**
 * Our Jaeger v2 configuration: the all-in-one's (cmd/jaeger/internal/all-in-one.yaml) cut down to an OTLP/HTTP
 * receiver, memory storage and the query API, on loopback ports of our choosing, without its own metrics listener.
 */
export function jaegerConfig(ports: JaegerPorts): string {
  return [
    'service:',
    '  extensions: [jaeger_storage, jaeger_query]',
    '  pipelines:',
    '    traces:',
    '      receivers: [otlp]',
    '      processors: [batch]',
    '      exporters: [jaeger_storage_exporter]',
    '  telemetry:',
    '    metrics:',
    '      level: none',
    '    logs:',
    '      level: warn',
    'extensions:',
    '  jaeger_query:',
    '    storage:',
    '      traces: memstore',
    '    http:',
    `      endpoint: 127.0.0.1:${ports.query}`,
    '    grpc:',
    `      endpoint: 127.0.0.1:${ports.queryGrpc}`,
    '  jaeger_storage:',
    '    backends:',
    '      memstore:',
    '        memory:',
    '          max_traces: 100000',
    'receivers:',
    '  otlp:',
    '    protocols:',
    '      http:',
    `        endpoint: 127.0.0.1:${ports.otlpHttp}`,
    'processors:',
    '  batch:',
    '    timeout: 200ms',
    'exporters:',
    '  jaeger_storage_exporter:',
    '    trace_storage: memstore',
    '',
  ].join('\n');
}

export interface StartedJaeger extends StartedService {
  /** OTEL_EXPORTER_OTLP_ENDPOINT for our processes. */
  otlpUrl: string;
  /** Query API and UI: /api/services, /api/traces?service=..., /search. */
  queryUrl: string;
}

/** Starts Jaeger (memory storage) on the given loopback ports and waits until its query API answers. */
export async function startJaeger(ports: JaegerPorts, detached: boolean): Promise<StartedJaeger> {
  const binary = await ensureJaegerBinary();
  fs.mkdirSync(DATA_DIR, { recursive: true });
  const config = path.join(DATA_DIR, `jaeger-${ports.otlpHttp}.yaml`);
  fs.writeFileSync(config, jaegerConfig(ports));
  const log = openLog(detached ? 'jaeger' : `jaeger-${ports.otlpHttp}`);
  const child = spawn(binary, ['--config', config], { stdio: ['ignore', log, log], detached });
  fs.closeSync(log);
  const queryUrl = `http://127.0.0.1:${ports.query}`;
  const answers = async () => {
    try {
      return (await fetch(`${queryUrl}/api/services`)).ok && (await tcpOpen('127.0.0.1', ports.otlpHttp));
    } catch {
      return false;
    }
  };
  await waitFor('Jaeger', answers, 30_000, child);
  say(`Jaeger ${JAEGER_VERSION} up: OTLP http://127.0.0.1:${ports.otlpHttp}, UI ${queryUrl} (pid ${child.pid})`);
  return { ...remember('jaeger', child, detached), otlpUrl: `http://127.0.0.1:${ports.otlpHttp}`, queryUrl };
}

function portOf(url: URL, fallback: number): number {
  return url.port ? Number(url.port) : fallback;
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || host.startsWith('127.');
}

async function tcpOpen(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 1000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
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

async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs: number,
  child?: ChildProcess,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null)
      throw new Error(`${what} exited with code ${child.exitCode} before answering`);
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what} did not answer within ${timeoutMs} ms`);
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
  return { name, url, pid: listener, ...ownerOf(name, listener) };
}

function openLog(name: string): number {
  fs.mkdirSync(DATA_DIR, { recursive: true });
  return fs.openSync(path.join(DATA_DIR, `${name}.log`), 'a');
}

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

function redactPassword(url: string): string {
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
