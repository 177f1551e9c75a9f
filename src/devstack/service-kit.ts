/**
 * What starting a local service takes, for services.ts and jaeger.ts: where it logs and leaves its pid, waiting
 * until it answers, stopping it, and the loopback checks.
 */
import { type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../../config/project-root';

export const DATA_DIR = path.join(PROJECT_ROOT, '.data');

export interface StartedService {
  name: string;
  child: ChildProcess;
}

/** A service started detached leaves its pid here, so `npm run services -- stop` can stop it later. */
export function pidFile(name: string): string {
  return path.join(DATA_DIR, `${name}.pid`);
}

export function remember(name: string, child: ChildProcess, detached: boolean): StartedService {
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

export function say(message: string): void {
  process.stdout.write(`[services] ${message}\n`);
}

/** Where a Go service built here is kept, once per machine: ~/.cache/payments-platform/<name>. */
export function cacheDirOf(name: string): string {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'payments-platform', name);
}

export function portOf(url: URL, fallback: number): number {
  return url.port ? Number(url.port) : fallback;
}

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || host.startsWith('127.');
}

export async function tcpOpen(host: string, port: number): Promise<boolean> {
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

export async function waitFor(
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

export function openLog(name: string): number {
  fs.mkdirSync(DATA_DIR, { recursive: true });
  return fs.openSync(path.join(DATA_DIR, `${name}.log`), 'a');
}
