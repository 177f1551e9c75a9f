/**
 * What one bench case is. A case lives in its own file under test/bench/cases/ and is listed in
 * cases/index.ts: it names the route it measures, the bare-Express baseline it is compared with
 * (and why that baseline is the honest floor), mounts that baseline on the baseline server, and
 * prepares the data both need.
 */
import type { Router } from 'express';

export type ProcessKind = 'web' | 'worker' | 'sandbox';

export interface BenchTarget {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Every answer must have this status; any other makes the case's figures invalid. */
  expectStatus: number;
}

export interface BenchContext {
  webUrl: string;
  baselineUrl: string;
  sandboxUrl?: string;
}

export interface BenchCase {
  name: string;
  /** Route as the README table shows it, e.g. "GET /api/v1/me/". */
  route: string;
  /** Processes besides web and the baseline server. */
  needs?: ProcessKind[];
  /** Extra environment for our processes (e.g. a rate limit raised so it never answers 429 here). */
  env?: Record<string, string>;
  /** One line: what the baseline does and why it is the fair floor for this route. */
  baseline: string;
  /** Mounts the baseline handler(s) on the bare Express app; paths are under /baseline/<name>/. */
  mountBaseline(router: Router): void;
  /** Runs in the bench process (connected to the bench database): creates data, returns both targets. */
  prepare(context: BenchContext): Promise<{ subject: BenchTarget; baseline: BenchTarget }>;
}
