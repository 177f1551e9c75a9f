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
import { registry } from '../../src/platform/metrics-registry';

/** Not per-operation work: schema and server chatter, sent at process start. */
const NOT_WORK = new Set([
  'create',
  'createIndexes',
  'listCollections',
  'listIndexes',
  'buildInfo',
  'ping',
  'hello',
  'isMaster',
  'ismaster',
  'endSessions',
  'drop',
  'dropDatabase',
]);

/**
 * What a reading holds, by key: "n <collection> <command>" commands, "s <collection> <command>"
 * seconds spent in them (as the driver saw them), "a <operation>" seconds of acquirer calls.
 */
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
  /** Milliseconds spent in those commands per operation (summed latencies, not wall time). */
  msPerOperation: number;
  /** Milliseconds of acquirer calls per operation, for the cases that make them. */
  acquirerMsPerOperation: number;
  operations: number;
  total: number;
  byProcess: Record<string, number>;
  byCollection: Record<string, number>;
  /** "collection command" -> count, e.g. "online_sales insert": 812 */
  byCommand: Record<string, number>;
  /** "collection command" -> milliseconds spent */
  msByCommand: Record<string, number>;
}

const SERIES_NAMES = ['db_commands_total', 'db_command_duration_seconds_sum', 'acquirer_request_duration_seconds_sum'];
/** One sample line: name{labels} value. */
const SERIES = new RegExp(`^(${SERIES_NAMES.join('|')})\\{([^}]*)\\}\\s+([0-9.eE+-]+)$`);

function labelsOf(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const match of text.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[match[1]] = match[2];
  return labels;
}

/**
 * Reads the database command counters and durations (outcomes summed) and acquirer call time out of a Prometheus text
 * exposition.
 */
export function parseDbCommands(exposition: string): CommandCounts {
  const counts: CommandCounts = new Map();
  const add = (key: string, value: number) => counts.set(key, (counts.get(key) ?? 0) + value);
  for (const line of exposition.split('\n')) {
    const match = SERIES.exec(line.trim());
    if (!match) continue;
    const labels = labelsOf(match[2]);
    const value = Number(match[3]);
    if (match[1] === 'acquirer_request_duration_seconds_sum') add(`a ${labels.operation}`, value);
    else if (!NOT_WORK.has(labels.command))
      add(`${match[1] === 'db_commands_total' ? 'n' : 's'} ${labels.collection} ${labels.command}`, value);
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
  if (!process.metricsUrl) return parseDbCommands(await registry.metrics());
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
      if (labels.queue === queue && labels.outcome === 'completed')
        done += Number(line.slice(line.lastIndexOf(' ') + 1));
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
export async function commandsSince(
  before: DbSnapshot,
  processes: MeteredProcess[],
  operations: number,
): Promise<DbCommandFigure> {
  const byProcess: Record<string, number> = {};
  const byCollection: Record<string, number> = {};
  const byCommand: Record<string, number> = {};
  const msByCommand: Record<string, number> = {};
  let total = 0;
  let seconds = 0;
  let acquirerSeconds = 0;
  for (const p of processes) {
    const earlier = before.processes.get(p.name);
    const delta = minus(minus(await readCounts(p), earlier?.counts), earlier?.scrapeCost);
    let sum = 0;
    for (const [key, value] of delta) {
      if (value <= 0) continue;
      const [kind, rest] = [key.slice(0, 1), key.slice(2)];
      if (kind === 'a') acquirerSeconds += value;
      else if (kind === 's') {
        // The scrape's own commands cancel out in the counts but not in their durations, which vary: time only commands
        // counted.
        if (!((delta.get(`n ${rest}`) ?? 0) > 0)) continue;
        seconds += value;
        msByCommand[rest] = (msByCommand[rest] ?? 0) + value * 1000;
      } else {
        sum += value;
        byCommand[rest] = (byCommand[rest] ?? 0) + value;
        const collection = rest.split(' ')[0];
        byCollection[collection] = (byCollection[collection] ?? 0) + value;
      }
    }
    byProcess[p.name] = sum;
    total += sum;
  }
  return {
    perOperation: perOperation(total, operations),
    msPerOperation: perOperation(seconds * 1000, operations),
    acquirerMsPerOperation: perOperation(acquirerSeconds * 1000, operations),
    operations,
    total,
    byProcess,
    byCollection,
    byCommand,
    msByCommand: Object.fromEntries(Object.entries(msByCommand).map(([k, v]) => [k, Math.round(v * 10) / 10])),
  };
}

const perOperation = (amount: number, operations: number) =>
  operations > 0 ? Math.round((amount / operations) * 100) / 100 : NaN;

/** Sums figures of parts of one operation (e.g. scheduling and charging of one charge). */
export function addFigures(parts: DbCommandFigure[], operations: number): DbCommandFigure {
  const sum = (records: Record<string, number>[]) => {
    const out: Record<string, number> = {};
    for (const record of records) for (const [k, v] of Object.entries(record)) out[k] = (out[k] ?? 0) + v;
    return out;
  };
  const total = parts.reduce((n, p) => n + p.total, 0);
  const weighted = (pick: (p: DbCommandFigure) => number) =>
    perOperation(
      parts.reduce((n, p) => n + (pick(p) || 0) * p.operations, 0),
      operations,
    );
  return {
    perOperation: perOperation(total, operations),
    msPerOperation: weighted((p) => p.msPerOperation),
    acquirerMsPerOperation: weighted((p) => p.acquirerMsPerOperation),
    operations,
    total,
    byProcess: sum(parts.map((p) => p.byProcess)),
    byCollection: sum(parts.map((p) => p.byCollection)),
    byCommand: sum(parts.map((p) => p.byCommand)),
    msByCommand: sum(parts.map((p) => p.msByCommand)),
  };
}

/** "online_sales insert 1, users find 1" (per operation), largest first, for the table's detail. */
export function describePerOperation(figure: DbCommandFigure, limit = 8): string {
  const entries = Object.entries(figure.byCommand).sort((a, b) => b[1] - a[1]);
  const shown = entries
    .slice(0, limit)
    .map(([key, n]) => `${key} ${Math.round((n / Math.max(figure.operations, 1)) * 100) / 100}`);
  return shown.join(', ') + (entries.length > limit ? ', ...' : '');
}
