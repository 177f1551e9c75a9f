/**
 * The chargeback part of the acquirer client: the only code that talks to the acquirer's
 * chargeback API (OAuth2 client credentials; mutual TLS with the client certificate of
 * ACQUIRER_CHARGEBACK_CLIENT_CERT / _KEY, set up in tls.ts).
 *
 * - The access token (lives <= 5 min) is cached until shortly before it expires, fetched by one
 *   request at a time however many calls need it, refreshed once when the API answers 401, and
 *   never logged.
 * - Its own undici Agent: connect timeout ACQUIRER_CONNECT_TIMEOUT_MS, total timeout
 *   ACQUIRER_TIMEOUT_MS (up to the response headers; then as idle time between body chunks, so a
 *   large document streams without a deadline on its total length).
 * - Transport failures throw AcquirerUnavailableError (502); missing client id or secret throws
 *   AcquirerNotConfiguredError (503). Any HTTP answer of the API is returned as received.
 */
import { Agent, request, type Dispatcher } from 'undici';
import { getConfig } from '../../config';
import { logger } from '../platform/logger';
import { AcquirerNotConfiguredError, AcquirerUnavailableError } from './errors';
import { acquirerTlsOptions, checkChargebackClientCertificate, explainTlsFailure } from './tls';

/** Where the acquirer posts chargeback notifications to us, and the header carrying the shared secret. */
export const CHARGEBACK_NOTICE_PATH = '/api/v1/acquirer/chargeback/notifications/';
export const CHARGEBACK_NOTICE_SECRET_HEADER = 'x-notification-secret';

/** Refresh this long before the token's stated expiry (or at half its life if that is shorter). */
const TOKEN_EARLY_REFRESH_MS = 30_000;

let agent: Agent | undefined;

/** The pool of connections to the chargeback API, with its CA and client certificate (tls.ts), opened at first use. */
function chargebackAgent(): Agent {
  if (!agent) {
    const { connectTimeoutMs, timeoutMs } = getConfig().acquirer;
    checkChargebackClientCertificate();
    agent = new Agent({
      connect: { timeout: connectTimeoutMs, ...acquirerTlsOptions('chargeback') },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      keepAliveTimeout: 4_000,
    });
  }
  return agent;
}

interface CachedToken {
  value: string;
  refreshAt: number;
}

let cachedToken: CachedToken | undefined;
let tokenInFlight: Promise<CachedToken> | undefined;

function credentials(): { clientId: string; clientSecret: string } {
  const { clientId, clientSecret } = getConfig().acquirer.chargeback;
  if (!clientId || !clientSecret) throw new AcquirerNotConfiguredError('The chargeback integration');
  return { clientId, clientSecret };
}

function transportError(what: string, error: unknown, outcomeUnknown: boolean): AcquirerUnavailableError {
  const e = error as { code?: string; name?: string; message?: string };
  return new AcquirerUnavailableError(
    `${what}: ${e?.code ?? e?.name ?? 'error'} ${e?.message ?? ''}`.trim(),
    outcomeUnknown,
    error,
  );
}

/** Errors raised before a single byte left for the acquirer: the call certainly did nothing there. */
function failedBeforeSending(error: unknown): boolean {
  const code = (error as { code?: string })?.code;
  return code === 'ECONNREFUSED' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ENOTFOUND' || code === 'EAI_AGAIN';
}

async function fetchToken(): Promise<CachedToken> {
  const { clientId, clientSecret } = credentials();
  const { authUrl } = getConfig().acquirer.chargeback;
  const timeout = AbortSignal.timeout(getConfig().acquirer.timeoutMs);
  let response: Dispatcher.ResponseData;
  try {
    response = await request(authUrl, {
      method: 'POST',
      dispatcher: chargebackAgent(),
      signal: timeout,
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        client_id: clientId,
        client_secret: clientSecret,
        grant_type: 'client_credentials',
      }).toString(),
    });
  } catch (error) {
    explainTlsFailure('chargeback', authUrl, error);
    throw transportError('chargeback token request failed', error, false);
  }
  let payload: { access_token?: unknown; expires_in?: unknown };
  try {
    payload = (await response.body.json()) as typeof payload;
  } catch (error) {
    throw transportError(`chargeback token endpoint answered ${response.statusCode} without JSON`, error, false);
  }
  if (response.statusCode !== 200 || typeof payload.access_token !== 'string' || !payload.access_token) {
    // The payload may name the client but never holds our secret; log only the status.
    logger.warn({ status: response.statusCode }, 'chargeback token request refused');
    throw new AcquirerUnavailableError(`chargeback token endpoint answered ${response.statusCode}`, false);
  }
  const lifetimeMs = Math.max(Number(payload.expires_in) || 60, 1) * 1000;
  const early = Math.min(TOKEN_EARLY_REFRESH_MS, lifetimeMs / 2);
  return { value: payload.access_token, refreshAt: Date.now() + lifetimeMs - early };
}

/** A valid access token: the cached one, or one fetch shared by every concurrent caller. */
async function accessToken(): Promise<string> {
  if (cachedToken && Date.now() < cachedToken.refreshAt) return cachedToken.value;
  if (!tokenInFlight) {
    tokenInFlight = fetchToken()
      .then((token) => (cachedToken = token))
      .finally(() => (tokenInFlight = undefined));
  }
  return (await tokenInFlight).value;
}

/** Drops the cached token if it is still the one the acquirer just refused. */
function forgetToken(refused: string): void {
  if (cachedToken?.value === refused) cachedToken = undefined;
}

export interface ChargebackRequest {
  method: 'GET' | 'POST' | 'PUT';
  /** Path under the chargeback API base, e.g. /PENDING or /lifecycle/123 (segments already encoded). */
  path: string;
  query?: Record<string, string | number | undefined>;
  /**
   * JSON body, already serialized (the caller answers for a body it cannot serialize: that is no transport failure).
   */
  json?: string;
}

/** The acquirer's answer, body not yet read: callers stream it or read it as they need. */
export interface ChargebackResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Dispatcher.ResponseData['body'];
}

function urlOf(call: ChargebackRequest): string {
  const url = new URL(`${getConfig().acquirer.chargeback.baseUrl}${call.path}`);
  for (const [name, value] of Object.entries(call.query ?? {}))
    if (value !== undefined) url.searchParams.set(name, String(value));
  return url.toString();
}

async function send(call: ChargebackRequest, token: string): Promise<ChargebackResponse> {
  const { timeoutMs } = getConfig().acquirer;
  // Total deadline up to the response headers; the body then runs under the agent's idle timeout.
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  const url = urlOf(call);
  try {
    const response = await request(url, {
      method: call.method,
      dispatcher: chargebackAgent(),
      signal: controller.signal,
      headers: {
        authorization: `Bearer ${token}`,
        accept: '*/*',
        ...(call.json !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: call.json,
    });
    return { status: response.statusCode, headers: response.headers, body: response.body };
  } catch (error) {
    explainTlsFailure('chargeback', url, error);
    throw transportError(
      `chargeback ${call.method} ${call.path.split('/')[1] ?? ''} failed`,
      error,
      call.method !== 'GET' && !failedBeforeSending(error),
    );
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One call to the chargeback API. Throws 503/502 errors as described above; otherwise returns the
 * acquirer's status, headers and body stream, whatever the status. A 401 is retried once with a
 * fresh token; a second 401 means our credentials are refused, which is our gateway's failure (502).
 */
export async function callChargebackApi(call: ChargebackRequest): Promise<ChargebackResponse> {
  credentials();
  const token = await accessToken();
  const first = await send(call, token);
  if (first.status !== 401) return first;
  await first.body.dump().catch(() => undefined);
  forgetToken(token);
  const second = await send(call, await accessToken());
  if (second.status !== 401) return second;
  await second.body.dump().catch(() => undefined);
  logger.warn('chargeback API refused a freshly issued access token');
  throw new AcquirerUnavailableError('chargeback API refused our access token twice', false);
}

/** Reads a whole (small, JSON-ish) answer; a body that breaks off midway is a transport failure. */
export async function readChargebackText(response: ChargebackResponse): Promise<string> {
  try {
    return await response.body.text();
  } catch (error) {
    throw transportError('chargeback answer broke off', error, true);
  }
}

/** For tests: forget the cached token and connections, as a fresh process would. */
export async function resetChargebackClient(): Promise<void> {
  cachedToken = undefined;
  const old = agent;
  agent = undefined;
  await old?.close();
}
