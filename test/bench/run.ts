/**
 * npm run bench: each case against its in-run baseline (and, where the bare baseline is not the
 * same work, the floor of that work), on collections pre-filled to BENCH_RECORDS documents each.
 * HTTP cases are loaded with autocannon at a fixed concurrency and no pipelining; throughput cases
 * time a batch of work. Prints a markdown table (rate, p50, p99, database commands per operation,
 * ratios), the commands by collection, the memory of each process, and writes the figures to
 * test/bench/results/ (git-ignored). Method: docs/benchmarks.md.
 *
 *   BENCH_RECORDS      documents per business collection before the cases run (default 10000)
 *   BENCH_CONNECTIONS  concurrent connections (default 10)
 *   BENCH_SECONDS      measured seconds per side and round of an HTTP case (default 3)
 *   BENCH_WARMUP_SECONDS  warm-up load of each side of an HTTP case before its first round (default 10)
 *   BENCH_ROUNDS       rounds of an HTTP case, each measuring every side once, order alternating (default 3)
 *   BENCH_WARMUP_ROUNDS  rounds run the same way before them, printed, left out of the figures (default 3)
 *   BENCH_CASES        comma-separated case names to run (default: all)
 *   BENCH_LOG_LEVEL    LOG_LEVEL of the web process (default warn: per-request info lines cost CPU
 *                      the bare baseline does not spend; set info to measure with them)
 *
 * Figures are for comparing runs on one machine, never asserted by a test.
 */
import './env';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import mongoose from 'mongoose';
import { connectDatabase, disconnectDatabase } from '../../src/db/connection';
import { closeQueues } from '../../src/queue/queues';
import { getProducerConnection, waitForRedis } from '../../src/platform/redis';
import { ensureServices, startJaeger, stopService, type StartedJaeger } from '../../src/devstack/services';
import { benchCases } from './cases';
import { isThroughputCase, type BenchCase, type BenchContext, type BenchTarget, type Side } from './cases/types';
import { freePort } from '../helpers/processes';
import { LISTENING, memoryOf, startBenchProcess, startWebProcess, type BenchProcess } from './processes';
import { BENCH_DB, BENCH_QUEUE_PREFIX } from './env';
import { cpuPerOperation, describeCpu, readCpu, type CpuReading } from './cpu';
import { CONNECTIONS, load } from './load';
import {
  addFigures,
  commandsSince,
  describePerOperation,
  snapshot,
  type DbCommandFigure,
  type MeteredProcess,
} from './db-commands';
import { BENCH_RECORDS, fillCollections, type FillReport } from './fill';
import { pointAtSandbox } from '../helpers/acquirer';

const SECONDS = Number(process.env.BENCH_SECONDS || 3);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS || 3));
/**
 * Each side's warm-up load before its first round. Measured: with 1 s, the web process's rounds
 * still rose for about 10 s of load (`me` 0.63, 0.75 in the first rounds, then 0.88-0.95), as V8
 * optimised the longer code path of a real route; the baseline's short path warms sooner.
 */
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS || 10);
/**
 * Rounds run, measured and printed like the others after the warm-up load, but left out of the
 * figures. Measured (`me`, `checkout`, six rounds): the web process's rounds still rose through the
 * first three (`me` 0.69, 0.73, 0.70, then 0.80, 0.95, 0.90; `checkout` 0.72, 0.84, 0.97, then 0.94,
 * 0.95, 0.89), with 10 s or with 30 s of continuous warm-up load alike: a real route's process
 * reaches its steady state over about a minute of rounds, the bare route's within its warm-up.
 */
const WARMUP_ROUNDS = Math.max(0, Number(process.env.BENCH_WARMUP_ROUNDS ?? 3));
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL || 'warn';
const RESULTS_DIR = path.join(__dirname, 'results');

interface CaseResult {
  name: string;
  kind: 'http' | 'throughput';
  route: string;
  baseline: string;
  floor?: string;
  subject: Side;
  baselineSide: Side;
  floorSide?: Side;
  ratio: {
    rate: number;
    p50?: number;
    p99?: number;
    rateVsFloor?: number;
    /** HTTP cases: the rate ratio of each round (subject / baseline of the same round), and vs the floor. */
    rounds?: number[];
    roundsVsFloor?: number[];
    /** The warm-up rounds' ratios (BENCH_WARMUP_ROUNDS), printed, not in the figures. */
    warmupRounds?: number[];
  };
  /** HTTP cases: CPU milliseconds per operation by process role, for each side (cpu.ts). */
  cpuMsPerOperation?: Record<'subject' | 'baseline' | 'floor', Record<string, number> | undefined>;
  /** Database commands of the measured side, per operation, with the breakdown (db-commands.ts). */
  dbCommands?: DbCommandFigure;
  baselineDbCommands?: DbCommandFigure;
  floorDbCommands?: DbCommandFigure;
  note?: string;
  memoryMB: Record<string, { rssMB: number; peakMB: number } | undefined>;
}

/** One request before the load, so a case set up wrong fails with the answer rather than with a table of errors. */
async function probe(caseName: string, base: string, target: BenchTarget): Promise<void> {
  const started = performance.now();
  const res = await fetch(`${base}${target.path}`, {
    method: target.method,
    headers: target.headers,
    body: target.body,
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  if (res.status !== target.expectStatus)
    throw new Error(
      `case ${caseName}: ${target.method} ${target.path} answered ${res.status}, expected ` +
        `${target.expectStatus}: ${text.slice(0, 300)}`,
    );
  process.stdout.write(
    `    probe ${target.method} ${target.path}: ${res.status} in ${Math.round(performance.now() - started)} ms\n`,
  );
}

const round2 = (n: number) => Math.round(n * 100) / 100;

class Stack {
  readonly processes: BenchProcess[] = [];
  workers: BenchProcess[] = [];
  constructor(readonly env: Record<string, string>) {}

  add(process: BenchProcess): BenchProcess {
    this.processes.push(process);
    return process;
  }

  async setWorkers(count: number, extra: Record<string, string> = {}): Promise<void> {
    await Promise.all(this.workers.map((w) => w.stop()));
    this.processes.splice(0, this.processes.length, ...this.processes.filter((p) => !this.workers.includes(p)));
    this.workers = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        startBenchProcess(
          `worker${i + 1}`,
          'worker',
          { ...this.env, ...extra, LOG_LEVEL: 'info', METRICS_PORT: '0', HOST: '127.0.0.1' },
          /worker ready/,
        ),
      ),
    );
    this.processes.push(...this.workers);
  }

  /** Web and the running workers, each under a key that changes when the process is restarted. */
  metered(web: BenchProcess): MeteredProcess[] {
    return [web, ...this.workers].map((p) => {
      if (p !== web && !p.metricsUrl) throw new Error(`${p.name} announced no metrics listener (METRICS_PORT)`);
      return {
        name: `${p.name}[${p.child.pid}]`,
        metricsUrl: p === web ? p.url : p.metricsUrl,
        role: p === web ? ('web' as const) : ('worker' as const),
      };
    });
  }

  /** Our processes' pids by role (worker1 and worker2 are both "worker"), for the CPU readings. */
  pids(): Array<[string, number | undefined]> {
    return this.processes.map((p) => [p.name.replace(/\d+$/, ''), p.child.pid]);
  }

  memory(): CaseResult['memoryMB'] {
    const memoryMB = Object.fromEntries(this.processes.map((p) => [p.name, memoryOf(p.child.pid)]));
    memoryMB.bench = memoryOf(process.pid);
    return memoryMB;
  }

  async stop(): Promise<void> {
    await Promise.all(this.processes.map((p) => p.stop()));
  }
}

const ratio = (a: number, b: number) => round2(a / Math.max(b, 0.01));
/** Lets requests cut off at the end of a load finish before the counters are read. */
const settle = () => new Promise((r) => setTimeout(r, 1000));
/** The operations a load made the server do: every request sent (those cut off at the end were still worked on). */
const operationsOf = (side: Side) => side.sent ?? Object.values(side.statusCodes).reduce((n, c) => n + c, 0);

async function runCase(
  benchCase: BenchCase,
  stack: Stack,
  context: BenchContext,
  baselineServer: MeteredProcess,
): Promise<CaseResult> {
  const common = { name: benchCase.name, route: benchCase.route, baseline: benchCase.baseline, floor: benchCase.floor };
  if (isThroughputCase(benchCase)) {
    const { subject, baseline, floor, note, dbCommands, floorDbCommands } = await benchCase.measure(context);
    return {
      ...common,
      kind: 'throughput',
      subject,
      baselineSide: baseline,
      floorSide: floor,
      ratio: {
        rate: ratio(subject.requestsPerSecond, baseline.requestsPerSecond),
        p50:
          subject.p50Ms !== undefined && baseline.p50Ms !== undefined
            ? ratio(subject.p50Ms, baseline.p50Ms)
            : undefined,
        p99:
          subject.p99Ms !== undefined && baseline.p99Ms !== undefined
            ? ratio(subject.p99Ms, baseline.p99Ms)
            : undefined,
        rateVsFloor: floor ? ratio(subject.requestsPerSecond, floor.requestsPerSecond) : undefined,
      },
      dbCommands,
      floorDbCommands,
      note,
      memoryMB: stack.memory(),
    };
  }
  const { subject, baseline, floor } = await benchCase.prepare(context);
  const urlOf = (target: BenchTarget, fallback: 'web' | 'baseline') => {
    const on = target.on ?? fallback;
    const url = on === 'web' ? context.webUrl : on === 'baseline' ? context.baselineUrl : context.sandboxUrl;
    if (!url) throw new Error(`case ${benchCase.name} needs the ${on} process`);
    return url;
  };
  await probe(benchCase.name, urlOf(baseline, 'baseline'), baseline);
  if (floor) await probe(benchCase.name, urlOf(floor, 'baseline'), floor);
  await probe(benchCase.name, urlOf(subject, 'web'), subject);
  await load(urlOf(baseline, 'baseline'), baseline, WARMUP_SECONDS);
  if (floor) await load(urlOf(floor, 'baseline'), floor, WARMUP_SECONDS);
  await benchCase.drained?.(context, await load(urlOf(subject, 'web'), subject, WARMUP_SECONDS));
  const roundsOfEachSide = () => ({ baseline: new RoundsOf(), floor: new RoundsOf(), subject: new RoundsOf() });
  const sides = roundsOfEachSide();
  const warmup = roundsOfEachSide();
  /**
   * One side for one round: its load, then (subject) the work it queued, with the database commands
   * of the process(es) that did it and the CPU of every process meanwhile. A baseline or floor sent
   * to the sandbox has no commands of ours to count.
   */
  const measureSide = async (name: keyof typeof sides, target: BenchTarget, into: typeof sides) => {
    const onWeb = name === 'subject';
    const metered = onWeb ? context.metered() : (target.on ?? 'baseline') === 'baseline' ? [baselineServer] : [];
    const before = await snapshot(metered);
    const cpuBefore = readCpu(stack.pids());
    const side = await load(urlOf(target, onWeb ? 'web' : 'baseline'), target, SECONDS);
    await settle();
    if (onWeb) await benchCase.drained?.(context, side);
    const cpuAfter = readCpu(stack.pids());
    const figure = metered.length ? await commandsSince(before, metered, operationsOf(side)) : undefined;
    into[name].add(side, figure, cpuBefore, cpuAfter);
  };
  // Rounds alternate the order (baseline, floor, subject, then subject, floor, baseline), so a drift
  // of the machine over the case (another process waking, the store's caches) falls on both sides.
  // The warm-up rounds come first, the same way (see WARMUP_ROUNDS).
  for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
    const order: Array<[keyof typeof sides, BenchTarget | undefined]> = [
      ['baseline', baseline],
      ['floor', floor],
      ['subject', subject],
    ];
    const into = round < WARMUP_ROUNDS ? warmup : sides;
    for (const [name, target] of round % 2 ? order.reverse() : order) if (target) await measureSide(name, target, into);
  }
  const subjectSide = sides.subject.merged();
  const baselineSide = sides.baseline.merged();
  const floorSide = floor ? sides.floor.merged() : undefined;
  const verified = benchCase.verify ? await benchCase.verify(context, subjectSide, baselineSide) : undefined;
  return {
    ...common,
    kind: 'http',
    subject: subjectSide,
    baselineSide,
    floorSide,
    ratio: {
      rate: ratio(subjectSide.requestsPerSecond, baselineSide.requestsPerSecond),
      p50: ratio(subjectSide.p50Ms!, baselineSide.p50Ms!),
      p99: ratio(subjectSide.p99Ms!, baselineSide.p99Ms!),
      rateVsFloor: floorSide ? ratio(subjectSide.requestsPerSecond, floorSide.requestsPerSecond) : undefined,
      rounds: sides.subject.ratiosTo(sides.baseline),
      warmupRounds: warmup.subject.ratiosTo(warmup.baseline),
      roundsVsFloor: floor ? sides.subject.ratiosTo(sides.floor) : undefined,
    },
    dbCommands: sides.subject.figure(),
    baselineDbCommands: sides.baseline.figure(),
    floorDbCommands: floor ? sides.floor.figure() : undefined,
    cpuMsPerOperation: { subject: sides.subject.cpu(), baseline: sides.baseline.cpu(), floor: sides.floor.cpu() },
    note: verified?.note,
    memoryMB: stack.memory(),
  };
}

/**
 * The rounds of one side of an HTTP case, merged: the rate is the mean of the rounds' rates, p50 and
 * p99 the median of the rounds' (each round's percentiles are autocannon's), counts are summed.
 */
class RoundsOf {
  readonly sides: Side[] = [];
  readonly figures: DbCommandFigure[] = [];
  readonly cpuUsed = new Map<string, number>();

  add(side: Side, figure: DbCommandFigure | undefined, cpuBefore: CpuReading, cpuAfter: CpuReading): void {
    this.sides.push(side);
    if (figure) this.figures.push(figure);
    for (const [role, seconds] of cpuAfter)
      this.cpuUsed.set(role, (this.cpuUsed.get(role) ?? 0) + seconds - (cpuBefore.get(role) ?? 0));
  }

  /** Each round's rate over the same round's rate of `other`. */
  ratiosTo(other: RoundsOf): number[] {
    return this.sides.map((side, i) => ratio(side.requestsPerSecond, other.sides[i].requestsPerSecond));
  }

  get operations(): number {
    return this.sides.reduce((n, side) => n + operationsOf(side), 0);
  }

  merged(): Side {
    const median = (values: Array<number | undefined>) => {
      const sorted = values.filter((v): v is number => v !== undefined).sort((a, b) => a - b);
      return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)] : undefined;
    };
    const statusCodes: Record<string, number> = {};
    for (const side of this.sides)
      for (const [code, count] of Object.entries(side.statusCodes))
        statusCodes[code] = (statusCodes[code] ?? 0) + count;
    const sum = (pick: (side: Side) => number | undefined) => this.sides.reduce((n, side) => n + (pick(side) ?? 0), 0);
    return {
      requestsPerSecond: Math.round((sum((s) => s.requestsPerSecond) / this.sides.length) * 10) / 10,
      p50Ms: median(this.sides.map((s) => s.p50Ms)),
      p99Ms: median(this.sides.map((s) => s.p99Ms)),
      requests: sum((s) => s.requests),
      sent: this.sides.every((s) => s.sent !== undefined) ? sum((s) => s.sent) : undefined,
      statusCodes,
      errors: sum((s) => s.errors),
      valid: this.sides.every((s) => s.valid),
    };
  }

  /** Database commands per operation over every round. */
  figure(): DbCommandFigure | undefined {
    return this.figures.length ? addFigures(this.figures, this.operations) : undefined;
  }

  cpu(): Record<string, number> | undefined {
    return this.sides.length ? cpuPerOperation(new Map(), this.cpuUsed, this.operations) : undefined;
  }
}

function machine() {
  return {
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.cpus().length,
    memoryGB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    loadAverageAtStart: os.loadavg().map(round2),
  };
}

const cell = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? '-' : String(n));
const valid = (r: CaseResult) => r.subject.valid && r.baselineSide.valid && (r.floorSide?.valid ?? true);

/** A table's opening lines: a blank line, its caption, a blank line, the header row and the alignment row. */
function tableHead(caption: string, columns: string[], alignment: string[]): string[] {
  return ['', caption, '', `| ${columns.join(' | ')} |`, `|${alignment.join('|')}|`];
}

function markdown(results: CaseResult[], info: ReturnType<typeof machine>, fill: FillReport): string {
  const lines = [
    `Machine: ${info.cpu}, ${info.cores} cores, ${info.memoryGB} GB, Node ${info.node}; ` +
      `load average at start ${info.loadAverageAtStart.join(' / ')}.`,
    `Collections pre-filled to ${fill.records.toLocaleString('en')} documents each (other merchants' data, ` +
      `${Object.keys(fill.collections).length} collections) in ${fill.seconds} s.`,
    `HTTP cases: autocannon, ${CONNECTIONS} connections, no pipelining, ${ROUNDS} rounds of ${SECONDS} s per ` +
      `side (order alternating) after ${WARMUP_SECONDS} s of warm-up load and ${WARMUP_ROUNDS} warm-up rounds ` +
      `(run the same way, printed, left out of the figures); web at LOG_LEVEL=${LOG_LEVEL}. ` +
      'Rates are requests/s (HTTP: the mean of the rounds; p50 and p99 their median) or items/s (throughput).',
    'db cmds/op: database commands (round trips) of the measured side per operation, from db_commands_total of ' +
      'every process doing the work.',
    '',
    '| case | measures | rate/s | p50 ms | p99 ms | db cmds/op | baseline rate/s | baseline p50 | baseline p99 ' +
      '| baseline db cmds/op | ratio rate | ratio p50 | ratio p99 | floor rate/s | floor db cmds/op | ratio vs ' +
      'floor | baseline | floor | note |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|',
  ];
  for (const r of results) {
    const invalidity = {
      subject: r.subject.statusCodes,
      baseline: r.baselineSide.statusCodes,
      floor: r.floorSide?.statusCodes,
      errors: r.subject.errors + r.baselineSide.errors + (r.floorSide?.errors ?? 0),
    };
    const flag = valid(r) ? '' : ` (INVALID: ${JSON.stringify(invalidity)})`;
    lines.push(
      `| ${r.name}${flag} | \`${r.route}\` | ${r.subject.requestsPerSecond} | ${cell(r.subject.p50Ms)} | ` +
        `${cell(r.subject.p99Ms)} | ${cell(r.dbCommands?.perOperation)} | ` +
        (`${r.baselineSide.requestsPerSecond} | ${cell(r.baselineSide.p50Ms)} | ${cell(r.baselineSide.p99Ms)} | ` +
          `${cell(r.baselineDbCommands?.perOperation)} | ${r.ratio.rate} | ${cell(r.ratio.p50)} | ` +
          `${cell(r.ratio.p99)} | `) +
        (`${cell(r.floorSide?.requestsPerSecond)} | ${cell(r.floorDbCommands?.perOperation)} | ` +
          `${cell(r.ratio.rateVsFloor)} | ${r.baseline} | ${r.floor ?? '-'} | ${r.note ?? ''} |`),
    );
  }
  lines.push(
    ...tableHead(
      'Per operation of the measured side: database commands and the time spent in them (latencies summed as the ' +
        'driver saw them, not wall time), acquirer call time.',
      [
        'case',
        'db cmds/op',
        'db ms/op',
        'acquirer ms/op',
        'by process (total)',
        'per operation, by collection and command',
      ],
      ['---', '---:', '---:', '---:', '---', '---'],
    ),
  );
  for (const r of results) {
    if (!r.dbCommands) continue;
    const d = r.dbCommands;
    const processes = Object.entries(d.byProcess)
      .map(([name, n]) => `${name.replace(/\[\d+\]$/, '')} ${n}`)
      .join(', ');
    lines.push(
      `| ${r.name} | ${cell(d.perOperation)} | ${cell(d.msPerOperation)} | ${cell(d.acquirerMsPerOperation)} | ` +
        `${processes} (${d.total} for ${d.operations} ops) | ${describePerOperation(d, 12)} |`,
    );
  }
  lines.push(
    ...tableHead(
      'HTTP cases, by round and by process: the rate ratio of each round (warm-up rounds in brackets), and CPU ' +
        'milliseconds per operation of ' +
        'every process while a side ran (our processes, the bench with autocannon, FerretDB, every PostgreSQL ' +
        'process, Redis; /proc), summed over the rounds: on two shared cores, the side that spends less CPU per ' +
        'request serves more of them.',
      ['case', 'ratio by round', 'CPU ms/op, subject', 'CPU ms/op, baseline', 'CPU ms/op, floor'],
      ['---', '---', '---', '---', '---'],
    ),
  );
  for (const r of results) {
    if (!r.cpuMsPerOperation) continue;
    const warmupRounds = r.ratio.warmupRounds?.length ? `(${r.ratio.warmupRounds.join(', ')}) ` : '';
    const rounds = `${warmupRounds}${r.ratio.rounds?.join(', ') ?? '-'}`;
    const vsFloor = r.ratio.roundsVsFloor ? ` (vs floor: ${r.ratio.roundsVsFloor.join(', ')})` : '';
    const cpu = r.cpuMsPerOperation;
    lines.push(
      `| ${r.name} | ${rounds}${vsFloor} | ${describeCpu(cpu.subject)} | ${describeCpu(cpu.baseline)} | ` +
        `${describeCpu(cpu.floor)} |`,
    );
  }
  const names = [...new Set(results.flatMap((r) => Object.keys(r.memoryMB)))];
  lines.push(
    '',
    `| memory after case, MB: RSS (peak) | ${names.join(' | ')} |`,
    `|---|${names.map(() => '---:').join('|')}|`,
  );
  const memoryCell = (used: CaseResult['memoryMB'][string]) => (used ? `${used.rssMB} (${used.peakMB})` : '-');
  for (const r of results) lines.push(`| ${r.name} | ${names.map((n) => memoryCell(r.memoryMB[n])).join(' | ')} |`);
  return lines.join('\n');
}

/** Removes this run's BullMQ keys (its own prefix only). */
async function deleteQueueKeys(): Promise<void> {
  const redis = getProducerConnection();
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${BENCH_QUEUE_PREFIX}:*`, 'COUNT', 500);
    if (keys.length) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}

/**
 * Where the traced cases' web process exports its spans (OTLP over HTTP): BENCH_TRACES_TO=jaeger, a real Jaeger
 * started once per run (its own CPU then competes with the web process's on this machine); by default a sink in
 * this process that takes every export and answers 200, so the figure is what tracing costs the web process alone.
 */
const TRACES_TO = process.env.BENCH_TRACES_TO === 'jaeger' ? 'jaeger' : 'sink';
let jaeger: Promise<StartedJaeger> | undefined;
let sink: Promise<{ url: string; exports: number; bytes: number; server: http.Server }> | undefined;

async function tracesTo(): Promise<Record<string, string>> {
  const named = { OTEL_SERVICE_NAME: 'payments-web-bench' };
  if (TRACES_TO === 'jaeger') {
    jaeger ??= (async () => {
      const [otlpHttp, query, queryGrpc] = [await freePort(), await freePort(), await freePort()];
      return startJaeger({ otlpHttp, query, queryGrpc }, false);
    })();
    return { ...named, OTEL_EXPORTER_OTLP_ENDPOINT: (await jaeger).otlpUrl };
  }
  sink ??= new Promise((resolve) => {
    const counts = { exports: 0, bytes: 0 };
    const server = http.createServer((req, res) => {
      req.on('data', (chunk: Buffer) => (counts.bytes += chunk.length));
      req.on('end', () => {
        counts.exports++;
        res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      });
    });
    server.listen(0, '127.0.0.1', () => {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      resolve(Object.assign(counts, { url, server }));
    });
  });
  return { ...named, OTEL_EXPORTER_OTLP_ENDPOINT: (await sink).url };
}

/** The processes a case needs: the sandbox and a worker when it needs them, web, the baseline server. */
async function startStack(
  benchCase: BenchCase,
): Promise<{ stack: Stack; context: BenchContext; baselineServer: MeteredProcess }> {
  const env: Record<string, string> = { ...(benchCase.env ?? {}) };
  const needs = new Set(benchCase.needs ?? []);
  const stack = new Stack(env);
  try {
    let sandbox: BenchProcess | undefined;
    if (needs.has('sandbox')) {
      sandbox = stack.add(
        await startBenchProcess('sandbox', 'sandbox', { ...env, LOG_LEVEL: 'info', SANDBOX_PORT: '0' }, LISTENING),
      );
      Object.assign(env, {
        ACQUIRER_BASE_URL: sandbox.url,
        ACQUIRER_QUERY_URL: sandbox.url,
        ...pointAtSandbox(sandbox.url),
      });
    }
    const traces = benchCase.traced ? await tracesTo() : {};
    const web = stack.add(await startWebProcess('web', { ...env, ...traces, LOG_LEVEL }));
    if (needs.has('worker')) await stack.setWorkers(1);
    // The floors call the same sandbox as the web process (env carries ACQUIRER_BASE_URL).
    const baseline = stack.add(await startBenchProcess('baseline', 'test/bench/baseline-server.ts', env, LISTENING));
    const context: BenchContext = {
      webUrl: web.url,
      baselineUrl: baseline.url,
      sandboxUrl: sandbox?.url,
      connections: CONNECTIONS,
      seconds: SECONDS,
      rounds: ROUNDS,
      setWorkers: (count, extra) => stack.setWorkers(count, extra),
      metered: () => stack.metered(web),
    };
    return { stack, context, baselineServer: { name: 'baseline', metricsUrl: baseline.url } };
  } catch (error) {
    await stack.stop();
    throw error;
  }
}

async function main() {
  const only = (process.env.BENCH_CASES ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const cases = benchCases.filter((c) => !only.length || only.includes(c.name));
  if (!cases.length)
    throw new Error(
      `no bench case matches BENCH_CASES=${process.env.BENCH_CASES}; ` +
        `cases: ${benchCases.map((c) => c.name).join(', ')}`,
    );
  await ensureServices(true);
  await connectDatabase(process.env.MONGODB_URI!);
  await waitForRedis();
  process.stdout.write(
    `bench: filling every business collection to ${BENCH_RECORDS.toLocaleString('en')} documents (BENCH_RECORDS)...\n`,
  );
  const fill = await fillCollections();
  process.stdout.write(
    `  filled ${Object.values(fill.collections)
      .reduce((a, b) => a + b, 0)
      .toLocaleString('en')} documents in ${Object.keys(fill.collections).length} collections in ${fill.seconds} s\n`,
  );

  const info = machine();
  process.stdout.write(
    `bench: ${cases.map((c) => c.name).join(', ')} (database ${BENCH_DB}, queue prefix ${BENCH_QUEUE_PREFIX})\n`,
  );
  const results: CaseResult[] = [];
  try {
    // Fresh processes for every case: what one case leaves behind (the sandbox's heap after the sales
    // baseline's 100,000 authorizations, the web process's state after another route's load) never
    // weighs on the next; the warm-up brings each new process to speed.
    for (const benchCase of cases) {
      process.stdout.write(`  ${benchCase.name}...\n`);
      const { stack, context, baselineServer } = await startStack(benchCase);
      try {
        results.push(await runCase(benchCase, stack, context, baselineServer));
      } finally {
        await stack.stop();
      }
    }
    const table = markdown(results, info, fill);
    fs.mkdirSync(RESULTS_DIR, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const record = {
      startedAt: new Date().toISOString(),
      machine: info,
      settings: {
        connections: CONNECTIONS,
        pipelining: 1,
        seconds: SECONDS,
        rounds: ROUNDS,
        warmupSeconds: WARMUP_SECONDS,
        warmupRounds: WARMUP_ROUNDS,
        logLevel: LOG_LEVEL,
        records: BENCH_RECORDS,
      },
      fill,
      cases: results,
      table,
    };
    const file = path.join(RESULTS_DIR, `bench-${stamp}.json`);
    fs.writeFileSync(file, JSON.stringify(record, null, 2));
    fs.writeFileSync(path.join(RESULTS_DIR, 'latest.json'), JSON.stringify(record, null, 2));
    process.stdout.write(`\n${table}\n\nwritten ${path.relative(process.cwd(), file)}\n`);
    if (results.some((r) => !valid(r))) process.exitCode = 1;
  } finally {
    await mongoose.connection.dropDatabase().catch(() => undefined);
    await deleteQueueKeys().catch(() => undefined);
    await closeQueues();
    await disconnectDatabase();
    if (jaeger) await stopService(await jaeger);
    if (sink) {
      const { exports, bytes, server } = await sink;
      process.stdout.write(`traced cases: ${exports} OTLP exports, ${Math.round(bytes / 1024)} KB of spans\n`);
      server.close();
    }
  }
}

main().catch((error) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : error}\n`);
  process.exit(1);
});
