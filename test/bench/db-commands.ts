/**
 * Database commands (round trips) per operation, read from the same `db_commands_total` counters
 * that /metrics serves (src/db/monitoring.ts): the web process at GET /metrics, each worker at its
 * METRICS_PORT listener, the baseline server at its own /metrics, and this process's registry.
 *
 * Two corrections keep the count to the work measured:
 *  - A scrape of the web process runs the `needs_attention` counts (src/metrics/attention.ts), and
 *    those commands show in the NEXT scrape. So a snapshot scrapes each process twice and keeps the
 *    difference as that scrape's own cost, which the reading after the work subtracts.
 *  - Commands a process sends while it starts (create, createIndexes, listCollections, buildInfo,
 *    ...: connectDatabase's ensureIndexes) are never counted. A throughput case starts its worker
 *    processes after queueing the work, so their first jobs run before a snapshot could be taken:
 *    such a worker counts from zero, and its start-up commands must not land in the figure.
 */
import { getConfig } from '../../config';
import { dbCommands } from '../../src/metrics/registry';

/** Not per-operation work: schema and server chatter, sent at process start. */
const NOT_WORK = new Set(['create', 'createIndexes', 'listCollections', 'listIndexes', 'buildInfo', 'ping', 'hello', 'isMaster', 'ismaster', 'endSessions', 'drop', 'dropDatabase']);

/** "collection command" -> count */
export type CommandCounts = Map<string, number>;

export interface MeteredProcess {
  name: string;
  /** Base URL whose /metrics serves db_commands_total; undefined: this process (the bench's own registry). */
  metricsUrl?: string;
  /** 'web': a scrape of it costs database commands (needs_attention), so progress polls leave it alone. */
  role?: 'web' | 'worker';
}

export interface DbCommandFigure {
  /** Commands per operation, summed over every process metered. */
  perOperation: number;
  operations: number;
  total: number;
  byProcess: Record<string, number>;
  byCollection: Record<string, number>;
  /** "collection command" -> count, e.g. "online_sales insert": 812 */
  byCommand: Record<string, number>;
}

const LINE = /^db_commands_total\{([^}]*)\}\s+([0-9.eE+-]+)$/;

function labelsOf(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const match of text.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[match[1]] = match[2];
  return labels;
}

/** Parses db_commands_total out of a Prometheus text exposition (outcomes summed). */
export function parseDbCommands(exposition: string): CommandCounts {
  const counts: CommandCounts = new Map();
  for (const line of exposition.split('\n')) {
    const match = LINE.exec(line.trim());
    if (!match) continue;
    const labels = labelsOf(match[1]);
    if (NOT_WORK.has(labels.command)) continue;
    const key = `${labels.collection} ${labels.command}`;
    counts.set(key, (counts.get(key) ?? 0) + Number(match[2]));
  }
  return counts;
}

async function localCounts(): Promise<CommandCounts> {
  const counts: CommandCounts = new Map();
  for (const { labels, value } of (await dbCommands.get()).values) {
    if (NOT_WORK.has(String(labels.command))) continue;
    const key = `${labels.collection} ${labels.command}`;
    counts.set(key, (counts.get(key) ?? 0) + value);
  }
  return counts;
}

/** GET <metricsUrl>/metrics with the dashboard's basic auth. */
export async function scrape(process: MeteredProcess & { metricsUrl: string }): Promise<string> {
  const { user, password } = getConfig().dashboard;
  const res = await fetch(`${process.metricsUrl}/metrics`, {
    headers: { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` },
    signal: AbortSignal.timeout(30_000),
  });
  if (res.status !== 200) throw new Error(`${process.name}: GET ${process.metricsUrl}/metrics answered ${res.status}`);
  return res.text();
}

export async function readCounts(process: MeteredProcess): Promise<CommandCounts> {
  if (!process.metricsUrl) return localCounts();
  return parseDbCommands(await scrape(process as MeteredProcess & { metricsUrl: string }));
}

/**
 * Jobs of `queue` these worker processes completed, from their job_duration_seconds histogram:
 * progress read without a database query (a count in the store would load it while it works).
 */
export async function completedJobs(processes: MeteredProcess[], queue: string): Promise<number> {
  let done = 0;
  for (const p of processes) {
    if (!p.metricsUrl || p.role === 'web') continue;
    const text = await scrape(p as MeteredProcess & { metricsUrl: string });
    for (const line of text.split('\n')) {
      if (!line.startsWith('job_duration_seconds_count{')) continue;
      const labels = labelsOf(line.slice(line.indexOf('{') + 1, line.lastIndexOf('}')));
      if (labels.queue === queue && labels.outcome === 'completed') done += Number(line.slice(line.lastIndexOf(' ') + 1));
    }
  }
  return done;
}

function minus(a: CommandCounts, b: CommandCounts | undefined): CommandCounts {
  const out: CommandCounts = new Map();
  for (const [key, value] of a) {
    const delta = value - (b?.get(key) ?? 0);
    if (delta !== 0) out.set(key, delta);
  }
  return out;
}

export interface DbSnapshot {
  /** process name -> its counts at the snapshot and what the snapshot's own scrape will add. */
  processes: Map<string, { counts: CommandCounts; scrapeCost: CommandCounts }>;
}

/** Counts of these processes now (each scraped twice: see the header). */
export async function snapshot(processes: MeteredProcess[]): Promise<DbSnapshot> {
  const entries = await Promise.all(
    processes.map(async (p) => {
      const first = await readCounts(p);
      const second = await readCounts(p);
      return [p.name, { counts: second, scrapeCost: minus(second, first) }] as const;
    }),
  );
  return { processes: new Map(entries) };
}

/**
 * Commands these processes sent since `before`, divided by `operations`. A process absent from
 * `before` (started since) counts from zero; one gone since is not counted (take the reading
 * before stopping a process).
 */
export async function commandsSince(before: DbSnapshot, processes: MeteredProcess[], operations: number): Promise<DbCommandFigure> {
  const byProcess: Record<string, number> = {};
  const byCollection: Record<string, number> = {};
  const byCommand: Record<string, number> = {};
  let total = 0;
  for (const p of processes) {
    const earlier = before.processes.get(p.name);
    const delta = minus(minus(await readCounts(p), earlier?.counts), earlier?.scrapeCost);
    let sum = 0;
    for (const [key, value] of delta) {
      if (value <= 0) continue;
      sum += value;
      byCommand[key] = (byCommand[key] ?? 0) + value;
      const collection = key.split(' ')[0];
      byCollection[collection] = (byCollection[collection] ?? 0) + value;
    }
    byProcess[p.name] = sum;
    total += sum;
  }
  return { perOperation: operations > 0 ? Math.round((total / operations) * 100) / 100 : NaN, operations, total, byProcess, byCollection, byCommand };
}

/** Sums figures of parts of one operation (e.g. scheduling and charging of one charge). */
export function addFigures(parts: DbCommandFigure[], operations: number): DbCommandFigure {
  const sum = (records: Record<string, number>[]) => {
    const out: Record<string, number> = {};
    for (const record of records) for (const [k, v] of Object.entries(record)) out[k] = (out[k] ?? 0) + v;
    return out;
  };
  const total = parts.reduce((n, p) => n + p.total, 0);
  return {
    perOperation: operations > 0 ? Math.round((total / operations) * 100) / 100 : NaN,
    operations,
    total,
    byProcess: sum(parts.map((p) => p.byProcess)),
    byCollection: sum(parts.map((p) => p.byCollection)),
    byCommand: sum(parts.map((p) => p.byCommand)),
  };
}

/** "online_sales insert 1, users find 1" (per operation), largest first, for the table's detail. */
export function describePerOperation(figure: DbCommandFigure, limit = 8): string {
  const entries = Object.entries(figure.byCommand).sort((a, b) => b[1] - a[1]);
  const shown = entries.slice(0, limit).map(([key, n]) => `${key} ${Math.round((n / Math.max(figure.operations, 1)) * 100) / 100}`);
  return shown.join(', ') + (entries.length > limit ? ', ...' : '');
}
