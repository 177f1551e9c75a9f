/**
 * OpenTelemetry traces, off unless the standard OTEL_* variables ask for them: OTEL_TRACES_EXPORTER (otlp,
 * console) or an OTLP endpoint (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT); OTEL_SDK_DISABLED
 * =true wins. Off, nothing of the SDK is even loaded: the spans our code opens through @opentelemetry/api are no-ops.
 * On, every process exports its spans over OTLP as payments-<process> (or OTEL_SERVICE_NAME): incoming HTTP and
 * Express, the acquirer call (undici), MongoDB and Redis commands inside a trace, and BullMQ's own producer and
 * consumer spans, which carry the context in the job (bullmq-otel), so a request, its job and the job's acquirer
 * call are one trace. Instrumentations patch modules as they are required, so each entry point imports
 * ./tracing-preload before anything else.
 */
import { trace, type Attributes, type Context, type SpanKind } from '@opentelemetry/api';
import type { Sampler, SamplingResult } from '@opentelemetry/sdk-trace';
import type { Telemetry } from 'bullmq';

type Env = Record<string, string | undefined>;

const listOf = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean);

/** Whether the OTEL_* variables ask for traces. */
export function tracingWanted(env: Env = process.env): boolean {
  if ((env.OTEL_SDK_DISABLED ?? '').trim().toLowerCase() === 'true') return false;
  const exporters = listOf(env.OTEL_TRACES_EXPORTER);
  if (exporters.length) return exporters.some((name) => name !== 'none');
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/** payments-web, payments-worker, ...: what a process is called in the trace store unless OTEL_SERVICE_NAME says. */
export function serviceNameOf(processName: string, env: Env = process.env): string {
  return env.OTEL_SERVICE_NAME || `payments-${processName}`;
}

/**
 * BullMQ's own spans for a worker's housekeeping (the poll for the next job, the stalled-job check, ...) start a
 * trace of their own several times a second per queue: never kept. A trace that starts anywhere else follows `root`.
 */
const QUEUE_HOUSEKEEPING = /^(getNextJob|rateLimit|startStalledCheckTimer|moveStalledJobsToWait|pause|resume|close)\b/;

export class SkipQueueHousekeeping implements Sampler {
  constructor(private readonly root: Sampler) {}

  shouldSample(
    context: Context,
    traceId: string,
    name: string,
    kind: SpanKind,
    attributes: Attributes,
    links: [],
  ): SamplingResult {
    if (!trace.getSpanContext(context) && QUEUE_HOUSEKEEPING.test(name)) return { decision: 0 }; // NOT_RECORD
    return this.root.shouldSample(context, traceId, name, kind, attributes, links);
  }

  toString(): string {
    return `SkipQueueHousekeeping{${this.root.toString()}}`;
  }
}

/** parentbased_always_on, or a ratio from OTEL_TRACES_SAMPLER_ARG when OTEL_TRACES_SAMPLER names a traceidratio one. */
function samplerFromEnv(sdkTrace: typeof import('@opentelemetry/sdk-trace'), env: Env = process.env): Sampler {
  const { AlwaysOnSampler, ParentBasedSampler, TraceIdRatioBasedSampler } = sdkTrace;
  const ratio = Number(env.OTEL_TRACES_SAMPLER_ARG ?? 1);
  const byRatio = /traceidratio$/.test(env.OTEL_TRACES_SAMPLER ?? '') && ratio >= 0 && ratio <= 1;
  const root = new SkipQueueHousekeeping(byRatio ? new TraceIdRatioBasedSampler(ratio) : new AlwaysOnSampler());
  return new ParentBasedSampler({ root });
}

interface Started {
  shutdown(): Promise<void>;
  telemetry: Telemetry;
}

let started: Started | undefined;

/** Starts the SDK once if the environment asks for traces; answers whether traces are on. */
export function startTracing(processName: string): boolean {
  if (started) return true;
  if (!tracingWanted()) return false;
  // Our metrics are Prometheus's and our logs go to stdout: the SDK's OTLP metrics and logs stay off unless asked.
  process.env.OTEL_METRICS_EXPORTER ||= 'none';
  process.env.OTEL_LOGS_EXPORTER ||= 'none';
  // Loaded only when on, so a process without traces pays nothing for them.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { HttpInstrumentation } =
    require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { ExpressInstrumentation } =
    require('@opentelemetry/instrumentation-express') as typeof import('@opentelemetry/instrumentation-express');
  const { IORedisInstrumentation } =
    require('@opentelemetry/instrumentation-ioredis') as typeof import('@opentelemetry/instrumentation-ioredis');
  const { MongoDBInstrumentation } =
    require('@opentelemetry/instrumentation-mongodb') as typeof import('@opentelemetry/instrumentation-mongodb');
  const { UndiciInstrumentation } =
    require('@opentelemetry/instrumentation-undici') as typeof import('@opentelemetry/instrumentation-undici');
  const { BullMQOtel } = require('bullmq-otel') as typeof import('bullmq-otel');
  const sdkTrace = require('@opentelemetry/sdk-trace') as typeof import('@opentelemetry/sdk-trace');
  const sdk = new NodeSDK({
    serviceName: serviceNameOf(processName),
    sampler: samplerFromEnv(sdkTrace),
    instrumentations: [
      new HttpInstrumentation(),
      // Routers and handlers only: a span per middleware would outnumber the work.
      new ExpressInstrumentation({ ignoreLayersType: ['middleware' as never] }),
      // BullMQ polls Redis all the time: only commands inside a trace (a request, a job) are worth a span.
      new IORedisInstrumentation({ requireParentSpan: true }),
      new MongoDBInstrumentation({ requireParentSpan: true }),
      new UndiciInstrumentation({ requireParentforSpans: true }),
    ],
  });
  sdk.start();
  started = {
    shutdown: () => sdk.shutdown(),
    telemetry: new BullMQOtel('payments') as unknown as Telemetry,
  };
  return true;
}

/** BullMQ's telemetry option for queues and workers: undefined while traces are off. */
export function queueTelemetry(): Telemetry | undefined {
  return started?.telemetry;
}

/** Sends the spans not yet exported (process stop). */
export async function stopTracing(): Promise<void> {
  const current = started;
  started = undefined;
  await current?.shutdown();
}
