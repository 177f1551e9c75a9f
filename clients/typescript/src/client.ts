/**
 * The client partners construct: the generated groups (client.sales, client.paymentLinks, ...) over an
 * HTTP transport that holds the bearer credential.
 *
 * Credentials, one of:
 * - username (the user's e-mail) and password: a token pair from POST /api/token/ on first use; the
 *   access token is renewed with the refresh token shortly before it expires, or once when an answer
 *   is 401, and the client logs in again when the refresh token itself has expired;
 * - token: an individual merchant token (mt_...) or the system token (with merchantId), sent as is.
 */
import { CardsApi } from './cards';
import type { AccessToken, TokenPair } from './generated-types';
import { GeneratedClient, operations } from './generated-operations';
import {
  ApiError,
  operationUrl,
  readBody,
  type CallInput,
  type OperationSpec,
  type RequestOptions,
  type Transport,
} from './transport';

export interface ClientOptions {
  /** Where the service answers, e.g. https://api.example.com.br */
  baseUrl: string;
  /** E-mail of a merchant (or staff) user: the client gets and renews JWT tokens with it and password. */
  username?: string;
  password?: string;
  /** A merchant token (mt_...) or the system token, sent as Authorization: Bearer <token>. */
  token?: string;
  /** X-Merchant-Id on every authenticated request: the merchant the system token acts for. */
  merchantId?: number | string;
  /** Gives up on a request after this many milliseconds (default 30 s; 0: never). */
  timeoutMs?: number;
  /** Headers added to every request (a User-Agent naming your integration, for instance). */
  headers?: Record<string, string>;
  /** The fetch to use (default: Node's global fetch). */
  fetch?: typeof fetch;
}

/** Renew an access token this long before its expiry, so that a request never leaves with a dying one. */
const RENEW_BEFORE_EXPIRY_MS = 30_000;
const DEFAULT_TIMEOUT_MS = 30_000;

interface HeldToken {
  access: string;
  /** Milliseconds since the epoch; undefined when the token does not say (then only a 401 renews it). */
  expiresAt?: number;
}

/** The expiry (exp claim) of a JWT, read without verifying it: only to know when to renew. */
export function jwtExpiry(token: string): number | undefined {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
      exp?: unknown;
    };
    return typeof payload.exp === 'number' ? payload.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

export class HttpTransport implements Transport {
  private readonly fetch: typeof fetch;
  private refreshToken?: string;
  private held?: HeldToken;
  /** One login or refresh at a time: concurrent requests wait for the same one. */
  private renewing?: Promise<HeldToken>;

  constructor(private readonly options: ClientOptions) {
    if (!options.baseUrl) throw new TypeError('baseUrl is required');
    if (options.token && options.username) throw new TypeError('give either token or username and password');
    if (options.username && !options.password) throw new TypeError('password is required with username');
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  async call<T>(operation: OperationSpec, input: CallInput, options: RequestOptions = {}): Promise<T> {
    const url = operationUrl(this.options.baseUrl, operation, input);
    const headers = new Headers(this.options.headers);
    headers.set('accept', operation.response === 'json' ? 'application/json' : '*/*');
    for (const [name, value] of Object.entries(input.headers ?? {})) {
      if (value !== undefined) headers.set(name, String(value));
    }
    const merchantId = options.merchantId ?? this.options.merchantId;
    if (operation.auth && merchantId !== undefined && !headers.has('x-merchant-id'))
      headers.set('x-merchant-id', String(merchantId));
    for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
    let body: string | undefined;
    if (input.body !== undefined) {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(input.body);
    }

    const send = async (credential: string | undefined) => {
      if (credential) headers.set('authorization', `Bearer ${credential}`);
      return this.fetch(url, { method: operation.method, headers, body, signal: this.signal(options.signal) });
    };
    const needsCredential = operation.auth && !headers.has('authorization');
    let response = await send(needsCredential ? await this.credential() : undefined);
    // A 401 with a JWT: the token may have been revoked or the clocks disagree; renew once and retry.
    // Nothing was done on a 401, so sending the request again cannot do it twice.
    if (response.status === 401 && needsCredential && this.options.username) {
      await response.body?.cancel();
      response = await send(await this.credential(true));
    }
    options.onResponse?.(response.status, response.headers);
    const parsed = await readBody(response, operation.response);
    if (!response.ok) throw new ApiError(operation.operationId, response.status, parsed, response.headers);
    return parsed as T;
  }

  private signal(callerSignal: AbortSignal | undefined): AbortSignal | undefined {
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const signals = [callerSignal, timeoutMs > 0 ? AbortSignal.timeout(timeoutMs) : undefined].filter(
      (signal): signal is AbortSignal => signal !== undefined,
    );
    return signals.length > 1 ? AbortSignal.any(signals) : signals[0];
  }

  /** The bearer value for an authenticated operation, renewed first when it expires soon or `renew` says so. */
  private async credential(renew = false): Promise<string | undefined> {
    if (this.options.token) return this.options.token;
    if (!this.options.username) return undefined; // the service answers 401, surfaced as an ApiError
    const held = this.held;
    const fresh = held && (held.expiresAt === undefined || held.expiresAt - RENEW_BEFORE_EXPIRY_MS > Date.now());
    if (held && fresh && !renew) return held.access;
    this.renewing ??= this.renew(held).finally(() => (this.renewing = undefined));
    return (await this.renewing).access;
  }

  /** Refreshes with the refresh token when there is one, else (or when it was refused) logs in again. */
  private async renew(previous: HeldToken | undefined): Promise<HeldToken> {
    if (previous && this.refreshToken) {
      try {
        const { access } = await this.call<AccessToken>(operations.refreshToken, {
          body: { refresh: this.refreshToken },
        });
        return this.hold(access);
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 401)) throw error;
        this.refreshToken = undefined; // expired or revoked: log in again
      }
    }
    const pair = await this.call<TokenPair>(operations.createToken, {
      body: { username: this.options.username, password: this.options.password },
    });
    this.refreshToken = pair.refresh;
    return this.hold(pair.access);
  }

  private hold(access: string): HeldToken {
    this.held = { access, expiresAt: jwtExpiry(access) };
    return this.held;
  }
}

/**
 * The API client. Every operation of the Swagger document is a method of its tag's group, named by
 * its operationId: client.sales.preCaptureSale(...), client.paymentLinks.createPaymentLink(...).
 * A non-2xx answer throws ApiError (status, body); card encryption is client.cards.encryptCard(...).
 */
export class PaymentsClient extends GeneratedClient<{ cards: CardsApi }> {
  constructor(options: ClientOptions) {
    const transport = new HttpTransport(options);
    super(transport, { cards: new CardsApi(transport) });
  }
}
