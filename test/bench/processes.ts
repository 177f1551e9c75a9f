/**
 * The bench's own child processes. Unlike the tests' helper, output is dropped as it comes (only
 * the last lines are kept for an error message), so a logging web process under load costs the
 * bench process nothing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { ENTRY_POINTS, freePort, ROOT } from '../helpers/processes';

export interface BenchProcess {
  name: string;
  child: ChildProcess;
  url: string;
  /** A worker's METRICS_PORT listener (from its "metrics listening on" line), when it has one. */
  metricsUrl?: string;
  stop(): Promise<void>;
}

const METRICS_LISTENING = /metrics listening on (http:\/\/[0-9.:]+)\/metrics/;

/**
 * Starts a process and resolves once it is ready: when `ready` is a RegExp, once its output
 * matches; when it is a URL, once that URL answers 200 (for a process whose log level hides its
 * "listening" line).
 */
export async function startBenchProcess(
  name: string,
  entry: string,
  env: Record<string, string>,
  ready: RegExp | string,
  url = '',
): Promise<BenchProcess> {
  const script = entry in ENTRY_POINTS ? ENTRY_POINTS[entry as keyof typeof ENTRY_POINTS] : entry;
  // BENCH_PROFILE_DIR: every child writes a V8 CPU profile there when it exits (where a case's time goes).
  const profile = process.env.BENCH_PROFILE_DIR
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
    : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', script], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', PROCESS_NAME: name, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let recent = '';
  let matched: RegExpExecArray | null = null;
  const onData = (chunk: Buffer) => {
    recent = (recent + chunk.toString('utf8')).slice(-4000);
    if (!matched && ready instanceof RegExp) matched = ready.exec(recent);
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  // Generous: under tsx, on two busy cores, a web process loading the tracing SDK has taken over 60 s to start.
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${name} exited before ready:\n${recent}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} not ready after 180 s:\n${recent}`);
    }
    const match = matched as RegExpExecArray | null; // set by the output listener
    if (match) {
      url = match[1]?.startsWith('http') ? match[1] : url;
      break;
    }
    if (
      typeof ready === 'string' &&
      (await fetch(ready).then(
        (r) => r.status === 200,
        () => false,
      ))
    )
      break;
    await new Promise((r) => setTimeout(r, 150));
  }
  return {
    name,
    child,
    url,
    metricsUrl: METRICS_LISTENING.exec(recent)?.[1],
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export const LISTENING = /listening on (http:\/\/[0-9.:]+)/;

/** The web process on a port chosen here, ready once /readyz answers 200. */
export async function startWebProcess(name: string, env: Record<string, string>): Promise<BenchProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  return startBenchProcess(name, 'web', { ...env, PORT: String(port), HOST: '127.0.0.1' }, `${url}/readyz`, url);
}

/** Resident and peak resident memory of a process, in MB, from /proc (Linux). */
export function memoryOf(pid: number | undefined): { rssMB: number; peakMB: number } | undefined {
  if (!pid) return undefined;
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rssMB: Math.round(kb('VmRSS') / 1024), peakMB: Math.round(kb('VmHWM') / 1024) };
  } catch {
    return undefined;
  }
}
