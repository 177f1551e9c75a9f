/**
 * The one HTTP path to the card acquirer and its authentication service (3-D Secure): one undici Agent
 * (keep-alive pool) per process, a connect timeout and a total timeout per call, MerchantId/MerchantKey
 * headers (HTTP Basic for the authentication service), a RequestId on every state-changing call, and an
 * event per call for metrics (no card data, no keys in it). Every transport failure is thrown as
 * AcquirerUnavailableError, saying whether the acquirer may have acted (`outcomeUnknown`); a 4xx is an
 * AcquirerRejectedError (nothing happened there).
 */
import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { Agent, request, type Dispatcher } from 'undici';
import { getConfig } from '../../config';
import { AcquirerRejectedError, AcquirerUnavailableError } from './errors';
import { acquirerTlsOptions, explainTlsFailure } from './tls';

export interface AcquirerCallEvent {
  /** createCardSale, capture, void, getSale, ... */
  operation: string;
  method: string;
  durationMs: number;
  /** HTTP status when the acquirer answered. */
  httpStatus?: number;
  outcome: 'ok' | 'rejected' | 'unavailable';
  outcomeUnknown?: boolean;
}

/** Emits 'call' with an AcquirerCallEvent after every acquirer call. */
export const acquirerEvents = new EventEmitter();

function emitCall(event: AcquirerCallEvent): void {
  if (acquirerEvents.listenerCount('call')) acquirerEvents.emit('call', event);
}

let agent: Agent | undefined;

function getAgent(): Agent {
  if (!agent) {
    const { connectTimeoutMs } = getConfig().acquirer;
    agent = new Agent({
      connect: { timeout: connectTimeoutMs, ...acquirerTlsOptions('card') },
      keepAliveTimeout: 4_000,
      connections: 64,
      pipelining: 1,
    });
  }
  return agent;
}

/** Closes the pool (process shutdown, tests). The next call opens a new one. */
export async function closeAcquirerClient(): Promise<void> {
  const current = agent;
  agent = undefined;
  await current?.close();
}

/** RFC 4122 version-5 style UUID from a string: the same key always gives the same RequestId. */
export function requestIdFor(idempotencyKey: string): string {
  const hash = crypto.createHash('sha256').update(`acquirer-request-id\0${idempotencyKey}`).digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** Errors that prove the request never reached the acquirer. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
]);

function errorCode(error: unknown): string | undefined {
  const e = error as { code?: string; cause?: { code?: string } };
  return e?.code && e.code !== 'UND_ERR_SOCKET' ? e.code : (e?.cause?.code ?? e?.code);
}

export interface CallOptions {
  operation: string;
  method: 'GET' | 'POST' | 'PUT';
  /** `authentication`: the 3-D Secure service (ACQUIRER_3DS_URL), a host of its own. */
  host: 'transactional' | 'query' | 'authentication';
  path: string;
  /** Sent instead of MerchantId/MerchantKey: the authentication service takes HTTP Basic, and needs no MerchantKey. */
  authorization?: string;
  body?: unknown;
  requestId?: string;
  /** 404 answers null instead of throwing (lookups). */
  notFoundAsNull?: boolean;
}

export interface CallResult {
  status: number;
  body: unknown;
}

/**
 * How long after a state-changing call was sent the acquirer may still be acting on it, even after
 * we gave up waiting: "it has no such sale" is conclusive only past this. Twice our total timeout
 * plus a minute.
 */
export function callMayStillBeRunningMs(): number {
  return 2 * getConfig().acquirer.timeoutMs + 60_000;
}

const tracer = trace.getTracer('payments-acquirer');

/**
 * One call to the acquirer, in a span named after the operation (traces on; a no-op otherwise) around the HTTP
 * request's own span: a slow or failed payment shows which acquirer operation it waited on and how it ended.
 */
export function call(options: CallOptions): Promise<CallResult | null> {
  const attributes = { 'acquirer.operation': options.operation, 'http.request.method': options.method };
  return tracer.startActiveSpan(
    `acquirer ${options.operation}`,
    { kind: SpanKind.INTERNAL, attributes },
    async (span) => {
      try {
        const result = await send(options);
        span.setAttribute('http.response.status_code', result?.status ?? 404);
        return result;
      } catch (error) {
        span.recordException(error as Error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

async function send(options: CallOptions): Promise<CallResult | null> {
  const config = getConfig().acquirer;
  const base = { transactional: config.baseUrl, query: config.queryUrl, authentication: config.threeDSecure.url }[
    options.host
  ];
  const changesState = options.method !== 'GET';
  const headers: Record<string, string> = {
    ...(options.authorization
      ? { Authorization: options.authorization }
      : { MerchantId: config.merchantId, MerchantKey: config.merchantKey }),
    Accept: 'application/json',
  };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.requestId) headers.RequestId = options.requestId;

  const started = performance.now();
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, config.timeoutMs);
  const finish = (event: Omit<AcquirerCallEvent, 'operation' | 'method' | 'durationMs'>) =>
    emitCall({
      operation: options.operation,
      method: options.method,
      durationMs: performance.now() - started,
      ...event,
    });
  const unavailable = (message: string, maybeReceived: boolean, cause?: unknown, httpStatus?: number) => {
    const outcomeUnknown = changesState && maybeReceived;
    finish({ outcome: 'unavailable', outcomeUnknown, httpStatus });
    return new AcquirerUnavailableError(
      `acquirer ${options.operation}: ${message}`,
      outcomeUnknown,
      cause,
      httpStatus !== undefined,
    );
  };

  let response: Dispatcher.ResponseData;
  let text: string;
  try {
    response = await request(`${base}${options.path}`, {
      dispatcher: getAgent(),
      method: options.method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: controller.signal,
      headersTimeout: config.timeoutMs,
      bodyTimeout: config.timeoutMs,
    });
    text = await response.body.text();
  } catch (error) {
    explainTlsFailure('card', base, error);
    const code = errorCode(error);
    if (!timedOut && code && NOT_SENT_CODES.has(code)) throw unavailable(`not reachable (${code})`, false, error);
    if (timedOut) throw unavailable(`no answer within ${config.timeoutMs} ms`, true, error);
    throw unavailable(`connection failed (${code ?? (error as Error)?.name ?? 'error'})`, true, error);
  } finally {
    clearTimeout(timer);
  }

  const status = response.statusCode;
  if (status >= 500) throw unavailable(`HTTP ${status}`, true, undefined, status);
  let body: unknown = null;
  if (text.trim()) {
    try {
      body = JSON.parse(text);
    } catch (error) {
      throw unavailable(`malformed answer (HTTP ${status}, not JSON)`, true, error, status);
    }
  }
  if (status === 404 && options.notFoundAsNull) {
    finish({ outcome: 'ok', httpStatus: status });
    return null;
  }
  if (status >= 400) {
    finish({ outcome: 'rejected', httpStatus: status });
    throw new AcquirerRejectedError(status, Array.isArray(body) ? (body as { Code: number; Message: string }[]) : []);
  }
  if (body === null || typeof body !== 'object')
    throw unavailable(`malformed answer (HTTP ${status}, no JSON object)`, true, undefined, status);
  finish({ outcome: 'ok', httpStatus: status });
  return { status, body };
}
