/**
 * The process's Prometheus registry and every metric we define.
 *
 * Each process (web, worker) keeps its own counters and is scraped on its own: web at GET /metrics,
 * a worker at its METRICS_PORT listener (src/metrics/server.ts). Prometheus adds them up across
 * processes (`sum by (queue)`), which is how counters of several replicas are meant to be read.
 * Queue depth is the exception: it lives in Redis and only the web process reads it there, at
 * scrape time (src/metrics/queues.ts).
 */
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

export const registry = new Registry();
collectDefaultMetrics({ register: registry });

/** Seconds; from a fast indexed read (a few ms) to a call that hits the acquirer timeout. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const httpRequests = new Counter({
  name: 'http_requests_total',
  help: 'HTTP requests answered, by method, route template and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

export const httpRequestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time from request to response finished, by method, route template and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

export const jobDuration = new Histogram({
  name: 'job_duration_seconds',
  help: 'Time a worker spent on one job attempt, by queue and outcome (completed or failed)',
  labelNames: ['queue', 'outcome'] as const,
  buckets: [...LATENCY_BUCKETS, 30, 60],
  registers: [registry],
});

export const jobFailures = new Counter({
  name: 'job_failures_total',
  help: 'Failed job attempts, by queue; final="true" when no attempt is left (the job stays in the failed set)',
  labelNames: ['queue', 'final'] as const,
  registers: [registry],
});

export const jobStalls = new Counter({
  name: 'job_stalls_total',
  help:
    'Jobs this worker found stalled (their worker died or blocked its event loop past the lock) and put back to ' +
    'run again',
  labelNames: ['queue'] as const,
  registers: [registry],
});

export const acquirerCallDuration = new Histogram({
  name: 'acquirer_request_duration_seconds',
  help:
    'Duration of calls to the card acquirer, by operation and outcome (ok, rejected = a 4xx refusal, unavailable ' +
    '= refused connection, reset, timeout, 5xx or malformed answer)',
  labelNames: ['operation', 'outcome'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

export const acquirerCallErrors = new Counter({
  name: 'acquirer_errors_total',
  help: 'Acquirer calls that did not succeed, by operation and kind (rejected or unavailable)',
  labelNames: ['operation', 'kind'] as const,
  registers: [registry],
});

/** Seconds; an indexed FerretDB read is about a millisecond, a scan of a big collection a second. */
const DB_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

export const dbCommands = new Counter({
  name: 'db_commands_total',
  help: 'Database commands (round trips) this process sent, by collection, command and outcome (ok or error)',
  labelNames: ['collection', 'command', 'outcome'] as const,
  registers: [registry],
});

export const dbCommandDuration = new Histogram({
  name: 'db_command_duration_seconds',
  help: 'Duration of database commands as the driver saw them, by collection and command',
  labelNames: ['collection', 'command'] as const,
  buckets: DB_BUCKETS,
  registers: [registry],
});
