/**
 * npm run bench: each case's route against its in-run bare-Express baseline, with autocannon at a
 * fixed concurrency and no pipelining. Prints a markdown table (requests/s, p50, p99, ratios) and
 * the memory of each process, and writes the figures to test/bench/results/ (git-ignored).
 *
 *   BENCH_CONNECTIONS  concurrent connections (default 10)
 *   BENCH_SECONDS      measured seconds per side of a case (default 3), after 1 s of warm-up
 *   BENCH_CASES        comma-separated case names to run (default: all)
 *   BENCH_LOG_LEVEL    LOG_LEVEL of our processes (default warn: per-request info lines cost CPU
 *                      the bare baseline does not spend; set info to measure with them)
 *
 * Figures are for comparing runs on one machine, never asserted by a test.
 */
import './env';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import mongoose from 'mongoose';
import { connectDatabase, disconnectDatabase } from '../../src/db/connection';
import { closeQueues, getProducerConnection, waitForRedis } from '../../src/queue';
import { ensureServices } from '../../src/devstack/services';
import { benchCases } from './cases';
import type { BenchCase, BenchTarget } from './cases/types';
import { LISTENING, memoryOf, startBenchProcess, startWebProcess, type BenchProcess } from './processes';
import { BENCH_DB, BENCH_QUEUE_PREFIX } from './env';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 10);
const SECONDS = Number(process.env.BENCH_SECONDS || 3);
const WARMUP_SECONDS = 1;
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL || 'warn';
const RESULTS_DIR = path.join(__dirname, 'results');

interface Side {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  statusCodes: Record<string, number>;
  errors: number;
  /** Every answer had the expected status and no connection failed. */
  valid: boolean;
}

interface CaseResult {
  name: string;
  route: string;
  baseline: string;
  subject: Side;
  baselineSide: Side;
  ratio: { requestsPerSecond: number; p50: number; p99: number };
  memoryMB: Record<string, { rssMB: number; peakMB: number } | undefined>;
}

async function load(base: string, target: BenchTarget, seconds: number): Promise<Side> {
  const result = await autocannon({
    url: `${base}${target.path}`,
    method: target.method,
    headers: target.headers,
    body: target.body,
    connections: CONNECTIONS,
    pipelining: 1,
    duration: seconds,
  });
  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => [code, stat.count ?? 0]));
  const unexpected = Object.keys(statusCodes).filter((code) => Number(code) !== target.expectStatus);
  return {
    requestsPerSecond: Math.round(result.requests.average * 10) / 10,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    statusCodes,
    errors: result.errors,
    valid: unexpected.length === 0 && result.errors === 0 && result.requests.total > 0,
  };
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

async function runCase(benchCase: BenchCase, processes: BenchProcess[], urls: { web: string; baseline: string; sandbox?: string }): Promise<CaseResult> {
  const { subject, baseline } = await benchCase.prepare({ webUrl: urls.web, baselineUrl: urls.baseline, sandboxUrl: urls.sandbox });
  await load(urls.baseline, baseline, WARMUP_SECONDS);
  await load(urls.web, subject, WARMUP_SECONDS);
  const baselineSide = await load(urls.baseline, baseline, SECONDS);
  const subjectSide = await load(urls.web, subject, SECONDS);
  const memoryMB = Object.fromEntries(processes.map((p) => [p.name, memoryOf(p.child.pid)]));
  memoryMB.bench = memoryOf(process.pid);
  return {
    name: benchCase.name,
    route: benchCase.route,
    baseline: benchCase.baseline,
    subject: subjectSide,
    baselineSide,
    ratio: {
      requestsPerSecond: round2(subjectSide.requestsPerSecond / baselineSide.requestsPerSecond),
      p50: round2(subjectSide.p50Ms / Math.max(baselineSide.p50Ms, 0.01)),
      p99: round2(subjectSide.p99Ms / Math.max(baselineSide.p99Ms, 0.01)),
    },
    memoryMB,
  };
}

function machine() {
  return {
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.cpus().length,
    memoryGB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    loadAverageAtStart: os.loadavg().map((l) => round2(l)),
  };
}

function markdown(results: CaseResult[], info: ReturnType<typeof machine>): string {
  const lines = [
    `Machine: ${info.cpu}, ${info.cores} cores, ${info.memoryGB} GB, Node ${info.node}; load average at start ${info.loadAverageAtStart.join(' / ')}.`,
    `autocannon: ${CONNECTIONS} connections, no pipelining, ${SECONDS} s per side after ${WARMUP_SECONDS} s warm-up; our processes at LOG_LEVEL=${LOG_LEVEL}.`,
    '',
    '| case | route | req/s | p50 ms | p99 ms | baseline req/s | baseline p50 | baseline p99 | ratio req/s | ratio p99 | web RSS MB (peak) | baseline |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const r of results) {
    const web = r.memoryMB.web;
    const flag = r.subject.valid && r.baselineSide.valid ? '' : ' (INVALID: unexpected status or errors)';
    lines.push(
      `| ${r.name}${flag} | \`${r.route}\` | ${r.subject.requestsPerSecond} | ${r.subject.p50Ms} | ${r.subject.p99Ms} | ${r.baselineSide.requestsPerSecond} | ${r.baselineSide.p50Ms} | ${r.baselineSide.p99Ms} | ${r.ratio.requestsPerSecond} | ${r.ratio.p99} | ${web ? `${web.rssMB} (${web.peakMB})` : '?'} | ${r.baseline} |`,
    );
  }
  const names = [...new Set(results.flatMap((r) => Object.keys(r.memoryMB)))];
  lines.push('', `| memory after case, MB: RSS (peak) | ${names.join(' | ')} |`, `|---|${names.map(() => '---:').join('|')}|`);
  for (const r of results) lines.push(`| ${r.name} | ${names.map((n) => (r.memoryMB[n] ? `${r.memoryMB[n]!.rssMB} (${r.memoryMB[n]!.peakMB})` : '-')).join(' | ')} |`);
  return lines.join('\n');
}

async function main() {
  const only = (process.env.BENCH_CASES ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const cases = benchCases.filter((c) => !only.length || only.includes(c.name));
  if (!cases.length) throw new Error(`no bench case matches BENCH_CASES=${process.env.BENCH_CASES}; cases: ${benchCases.map((c) => c.name).join(', ')}`);
  await ensureServices(true);
  await connectDatabase(process.env.MONGODB_URI!);
  await waitForRedis();

  const needs = new Set(cases.flatMap((c) => c.needs ?? []));
  const env: Record<string, string> = Object.assign({ LOG_LEVEL }, ...cases.map((c) => c.env ?? {}));
  const processes: BenchProcess[] = [];
  try {
    let sandbox: BenchProcess | undefined;
    if (needs.has('sandbox')) {
      sandbox = await startBenchProcess('sandbox', 'sandbox', { ...env, LOG_LEVEL: 'info', SANDBOX_PORT: '0' }, LISTENING);
      processes.push(sandbox);
      Object.assign(env, { ACQUIRER_BASE_URL: sandbox.url, ACQUIRER_QUERY_URL: sandbox.url });
    }
    const web = await startWebProcess('web', env);
    processes.push(web);
    if (needs.has('worker')) processes.push(await startBenchProcess('worker', 'worker', { ...env, LOG_LEVEL: 'info' }, /worker ready/));
    const baseline = await startBenchProcess('baseline', 'test/bench/baseline-server.ts', {}, LISTENING);
    processes.push(baseline);

    const info = machine();
    process.stdout.write(`bench: ${cases.map((c) => c.name).join(', ')} (database ${BENCH_DB}, queue prefix ${BENCH_QUEUE_PREFIX})\n`);
    const results: CaseResult[] = [];
    for (const benchCase of cases) {
      process.stdout.write(`  ${benchCase.name}...\n`);
      results.push(await runCase(benchCase, processes, { web: web.url, baseline: baseline.url, sandbox: sandbox?.url }));
    }
    const table = markdown(results, info);
    fs.mkdirSync(RESULTS_DIR, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const record = { startedAt: new Date().toISOString(), machine: info, settings: { connections: CONNECTIONS, pipelining: 1, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, logLevel: LOG_LEVEL }, cases: results, table };
    const file = path.join(RESULTS_DIR, `bench-${stamp}.json`);
    fs.writeFileSync(file, JSON.stringify(record, null, 2));
    fs.writeFileSync(path.join(RESULTS_DIR, 'latest.json'), JSON.stringify(record, null, 2));
    process.stdout.write(`\n${table}\n\nwritten ${path.relative(process.cwd(), file)}\n`);
    if (results.some((r) => !r.subject.valid || !r.baselineSide.valid)) process.exitCode = 1;
  } finally {
    await Promise.all(processes.map((p) => p.stop()));
    await mongoose.connection.dropDatabase().catch(() => undefined);
    await deleteQueueKeys();
    await closeQueues();
    await disconnectDatabase();
  }
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

main().catch((error) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : error}\n`);
  process.exit(1);
});
