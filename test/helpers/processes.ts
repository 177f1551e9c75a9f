/**
 * Starts our Procfile processes as real child processes for tests, waits until they say they
 * are ready, and always stops them. Logs are kept so a test can read (and scan) them, and written
 * to a file per process (.data/test-logs/), printed only under a test that fails (test-logs.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { newLogFile } from './test-logs';

export const ROOT = path.resolve(__dirname, '..', '..');

/** A loopback port free at the time of asking, for a service the caller starts next. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Where `npm test` compiled the project (tsconfig.test-build.json), set by test/suite.ts: the processes a test starts
 * run that JavaScript with plain node, as production runs dist/, instead of compiling their TypeScript under tsx at
 * each start (about a second of CPU saved per process). Unset when ava runs without the suite: tsx then.
 */
const BUILD_DIR = process.env.TEST_BUILD_DIR;

/** Node's arguments to run one of our TypeScript files: its compiled JavaScript under npm test, else tsx on it. */
export function nodeArgumentsFor(tsFile: string): string[] {
  return BUILD_DIR ? [path.join(BUILD_DIR, tsFile.replace(/\.ts$/, '.js'))] : ['--import', 'tsx', tsFile];
}

export const ENTRY_POINTS = {
  web: 'src/web/server.ts',
  worker: 'workers/worker.ts',
  scheduler: 'workers/scheduler.ts',
  sandbox: 'workers/sandbox.ts',
  /** The Procfile's release command: runs to its end (give startProcess the line to wait for). */
  migrate: 'workers/migrate.ts',
} as const;

export interface RunningProcess {
  name: string;
  child: ChildProcess;
  /** http://127.0.0.1:<port> for processes that listen. */
  url: string;
  logs: string[];
  /** Where its stdout and stderr are written as they come. */
  logFile: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const running = new Set<RunningProcess>();

export async function startProcess(
  kind: keyof typeof ENTRY_POINTS,
  env: Record<string, string> = {},
  readyPattern = kind === 'web' || kind === 'sandbox'
    ? /listening on (http:\/\/[0-9.:]+)/
    : /(worker ready|scheduler ready)/,
  // Generous: on two busy cores a process has taken over 30 s to load (under tsx, which compiles as it loads).
  timeoutMs = 60_000,
  /** Node's arguments; by default the entry point compiled by npm test (or its source under tsx). */
  nodeArguments = nodeArgumentsFor(ENTRY_POINTS[kind]),
): Promise<RunningProcess> {
  const child = spawn(process.execPath, nodeArguments, {
    cwd: ROOT,
    env: {
      ...process.env,
      SUPERVISOR_PID: String(process.pid),
      PORT: '0',
      LOG_LEVEL: process.env.TEST_CHILD_LOG_LEVEL || 'info',
      PROCESS_NAME: kind,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  const logFile = newLogFile(kind);
  const logFd = fs.openSync(logFile, 'a');
  child.once('close', () => fs.closeSync(logFd));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const readyWithin = deadline(timeoutMs);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${kind} not ready after ${readyWithin} ms:\n${logs.join('')}`)),
      readyWithin,
    );
    const onData = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      logs.push(text);
      fs.writeSync(logFd, chunk);
      const match = readyPattern.exec(logs.join(''));
      if (match) {
        clearTimeout(timer);
        resolve(match[1]?.startsWith('http') ? match[1] : '');
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`${kind} exited (${signal ?? code}) before ready:\n${logs.join('')}`));
    });
  });
  const proc: RunningProcess = {
    name: kind,
    child,
    url,
    logs,
    logFile,
    exited,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      running.delete(proc);
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), deadline(20_000));
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
  };
  running.add(proc);
  return proc;
}

export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((p) => p.stop()));
}

/**
 * TEST_DEADLINE_SCALE (default 1) multiplies every deadline of the tests: a process's readiness,
 * eventually()'s waits, ava's timeout per test (test/suite.ts). Set it on a slow or loaded machine
 * (3 on two busy cores); a passing test takes no longer for it, since deadlines only bound waits on
 * events, never pace them (docs/testing.md).
 */
export const DEADLINE_SCALE = deadlineScale(process.env.TEST_DEADLINE_SCALE);

export function deadlineScale(setting: string | undefined): number {
  if (setting === undefined || setting === '') return 1;
  const scale = Number(setting);
  if (!Number.isFinite(scale) || scale < 1)
    throw new Error(`TEST_DEADLINE_SCALE must be a number >= 1, not ${setting}`);
  return scale;
}

/** A deadline of the tests, in ms, scaled by TEST_DEADLINE_SCALE. */
export function deadline(ms: number): number {
  return Math.round(ms * DEADLINE_SCALE);
}

/**
 * The tests' one way to wait for something to happen (a log line, a state, a delivery, a job's end, a
 * port): polls until check() returns a truthy value, failing when the deadline (scaled by
 * TEST_DEADLINE_SCALE) passes. The deadline only bounds the wait: it returns as soon as the check holds.
 */
export async function eventually<T>(check: () => Promise<T> | T, timeoutMs = 15_000, intervalMs = 100): Promise<T> {
  const scaled = deadline(timeoutMs);
  const ends = Date.now() + scaled;
  let last: unknown;
  while (Date.now() < ends) {
    try {
      const value = await check();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`condition not met within ${scaled} ms${last ? `: ${String(last)}` : ''}`);
}

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end and collects its output; stdin is written and closed. */
export function runCommand(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; stdin?: string } = {},
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? ROOT,
      env: options.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    // A child that exits without reading its input closes the pipe first: EPIPE is no failure of ours,
    // its exit code and output say how it ended.
    child.stdin.on('error', () => undefined);
    // 'close', not 'exit': a child's output may still be in its pipes when it exits.
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.stdin ?? '');
  });
}

/** Runs `npm run cli -- ...` as an operator does (src/web/cli.ts, compiled under npm test), on this file's database. */
export function runCli(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; stdin?: string } = {},
): Promise<CommandResult> {
  return runCommand(process.execPath, [...nodeArgumentsFor('src/web/cli.ts'), ...args], options);
}
