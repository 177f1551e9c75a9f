/**
 * Imported first by every process entry point (web, worker, scheduler, sandbox): starts the OpenTelemetry SDK
 * when the OTEL_* variables ask for it, before express, ioredis, mongodb and undici are loaded and can be patched.
 * The process's name comes from PROCESS_NAME (set by npm start and the tests) or its entry file.
 */
import path from 'node:path';
import { startTracing } from './tracing';

const ENTRY_NAMES: Record<string, string> = { server: 'web' };

function processName(): string {
  if (process.env.PROCESS_NAME) return process.env.PROCESS_NAME;
  const entry = path.basename(process.argv[1] ?? 'app').replace(/\.(ts|js)$/, '');
  return ENTRY_NAMES[entry] ?? entry;
}

startTracing(processName());
