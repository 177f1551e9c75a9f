/**
 * What one bench case is. A case lives in its own file under test/bench/cases/ and is listed in
 * cases/index.ts. It names what it measures and the in-run baseline it is compared with (and why
 * that baseline is the honest floor), and prepares the data both need.
 *
 * Two shapes:
 *  - HTTP: `prepare` returns a subject and a baseline request, each loaded by autocannon; the
 *    baseline is a route the case mounts on the bare-Express baseline server (`mountBaseline`)
 *    or a request straight to the sandbox acquirer.
 *  - throughput: `measure` times a batch of work (jobs, deliveries) itself and returns both sides.
 */
import type { Router } from 'express';
import type { Request as LoadRequest } from 'autocannon';
import type { DbCommandFigure, MeteredProcess } from '../db-commands';

export type ProcessKind = 'worker' | 'sandbox';

export interface BenchTarget {
  /** Which server the request goes to (default: web for a subject, baseline for a baseline). */
  on?: 'web' | 'baseline' | 'sandbox';
  method: 'GET' | 'POST' | 'PUT' | 'PATCH';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Called for each request (e.g. a unique body per notice); returns the request to send. */
  setupRequest?: (request: LoadRequest, context: object) => LoadRequest;
  /** Every answer must have this status; any other makes the case's figures invalid. */
  expectStatus: number;
}

export interface BenchContext {
  webUrl: string;
  baselineUrl: string;
  sandboxUrl?: string;
  /** Connections autocannon holds; throughput cases use it as their concurrency. */
  connections: number;
  seconds: number;
  /** Measured rounds of an HTTP case (BENCH_ROUNDS). */
  rounds: number;
  /** (Re)starts the worker processes with this count; throughput cases measure 1 and 2. */
  setWorkers(count: number, env?: Record<string, string>): Promise<void>;
  /**
   * The processes whose database commands a case's figure counts now: web and the running workers (see db-commands.ts).
   */
  metered(): MeteredProcess[];
}

/** One side of a comparison. For throughput cases the rate is items per second and latency is absent. */
export interface Side {
  requestsPerSecond: number;
  p50Ms?: number;
  p99Ms?: number;
  requests: number;
  /** HTTP: requests sent, answered or not when the load stopped (the server still did their work). */
  sent?: number;
  statusCodes: Record<string, number>;
  errors: number;
  /** Every answer had the expected status and no connection failed (or every item was done). */
  valid: boolean;
}

interface CaseBase {
  name: string;
  /** What is measured, as the README table shows it, e.g. "GET /api/v1/me/". */
  route: string;
  /** Processes besides web and the baseline server. */
  needs?: ProcessKind[];
  /** Extra environment for our processes (e.g. a rate limit raised so it never answers 429 here). */
  env?: Record<string, string>;
  /**
   * The web process runs with traces on, exporting every span over OTLP to a Jaeger the bench starts (once per run):
   * the same route's case without it, in the same run, gives the overhead of tracing.
   */
  traced?: boolean;
  /** One line: what the baseline does and why it is the fair floor for this route. */
  baseline: string;
  /**
   * One line, when the bare baseline is not the same work: the floor of the SAME work done the
   * shortest way (e.g. decrypt + one insert + the same acquirer call), measured beside it.
   */
  floor?: string;
  /** Mounts baseline (and floor) handler(s) on the bare Express app; paths are under /baseline/<name>/. */
  mountBaseline?(router: Router): void;
}

export interface HttpCase extends CaseBase {
  /** Runs in the bench process (connected to the bench database): creates data, returns both targets. */
  prepare(context: BenchContext): Promise<{ subject: BenchTarget; baseline: BenchTarget; floor?: BenchTarget }>;
  /**
   * After each round of the subject's load (`side`): returns once the work that load queued is done
   * (e.g. notices applied by the worker), so it is counted with the subject and the next side is
   * not measured beside it.
   */
  drained?(context: BenchContext, side: Side): Promise<void>;
  /**
   * After every round of the subject's load (`subject`: the rounds merged; `baseline` likewise):
   * checks what must hold (e.g. nothing lost), throws if broken; returns a note for the table.
   */
  verify?(context: BenchContext, subject: Side, baseline: Side): Promise<{ note: string }>;
}

export interface ThroughputCase extends CaseBase {
  /** Measures both sides itself; `note` lands in the table (e.g. figures with 1 and 2 workers). */
  measure(context: BenchContext): Promise<{
    subject: Side;
    baseline: Side;
    floor?: Side;
    note?: string;
    dbCommands?: DbCommandFigure;
    floorDbCommands?: DbCommandFigure;
  }>;
}

export type BenchCase = HttpCase | ThroughputCase;

export function isThroughputCase(benchCase: BenchCase): benchCase is ThroughputCase {
  return 'measure' in benchCase;
}
