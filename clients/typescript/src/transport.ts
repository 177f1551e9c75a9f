/**
 * What every generated method relies on: the description of one operation (taken from the Swagger
 * document by the generator), the transport that sends it, and the error a non-2xx answer becomes.
 * Hand-written, and imports nothing of the client: the generated files (generated-types.ts,
 * generated-operations.ts) only fill these shapes.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** How the successful answer is read: JSON, text (text/html, text/plain) or bytes (a file download). */
export type ResponseKind = 'json' | 'text' | 'binary';

export interface OperationSpec {
  operationId: string;
  method: HttpMethod;
  /** Swagger path template, e.g. /api/v1/online/sales/{id}/capture/ */
  path: string;
  /** The operation requires the bearer credential (security BearerAuth in the document). */
  auth: boolean;
  response: ResponseKind;
}

export type ParameterValue = string | number | boolean;

export interface CallInput {
  pathParams?: Record<string, ParameterValue>;
  /** Query parameters by name: a value, a list of values (repeated), or undefined / null (not sent). */
  query?: object;
  /** Header parameters the operation documents (Idempotency-Key, ...); undefined ones are not sent. */
  headers?: Record<string, ParameterValue | undefined>;
  body?: unknown;
}

/** Options every method accepts as its last argument. */
export interface RequestOptions {
  /** Cancels the request. */
  signal?: AbortSignal;
  /** Extra headers for this request only. */
  headers?: Record<string, string>;
  /** X-Merchant-Id for this request: with the system token, the merchant it acts for. */
  merchantId?: number | string;
  /**
   * Called with the status and headers of the answer, before its body is read (success or error): to read
   * Idempotent-Replayed, X-Request-Id, Retry-After.
   */
  onResponse?: (status: number, headers: Headers) => void;
}

export interface Transport {
  call<T>(operation: OperationSpec, input: CallInput, options?: RequestOptions): Promise<T>;
}

/** Base of every generated group (client.sales, client.paymentLinks, ...). */
export abstract class ApiGroup {
  constructor(protected readonly transport: Transport) {}
}

/**
 * A non-2xx answer. `body` is the parsed JSON the service sent (a field map {"field": ["message"]} for
 * 400, {"detail": "..."} for most others, the acquirer's body as received for chargeback proxies),
 * or the text when the answer was not JSON. Narrow it by operation and status with isApiError().
 */
export class ApiError<Body = unknown> extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly operationId: string,
    readonly status: number,
    readonly body: Body,
    readonly headers: Headers,
  ) {
    super(`${operationId} answered HTTP ${status}: ${summarize(body)}`);
  }

  /** The field map of a validation error (400), else undefined. */
  get fieldErrors(): Record<string, string[]> | undefined {
    if (!isPlainObject(this.body)) return undefined;
    const entries = Object.entries(this.body);
    const isFieldMap = entries.length > 0 && entries.every(([, messages]) => Array.isArray(messages));
    return isFieldMap ? (this.body as Record<string, string[]>) : undefined;
  }

  /** The "detail" message of an error body, when it has one. */
  get detail(): string | undefined {
    return isPlainObject(this.body) && typeof this.body.detail === 'string' ? this.body.detail : undefined;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A short, one-line view of an error body for the message (the whole body stays in error.body). */
function summarize(body: unknown): string {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return text === undefined ? '(no body)' : text.length > 300 ? `${text.slice(0, 300)}...` : text;
}

/** The URL of an operation: path parameters substituted (encoded), query parameters appended. */
export function operationUrl(baseUrl: string, operation: OperationSpec, input: CallInput): URL {
  const path = operation.path.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const value = input.pathParams?.[name];
    if (value === undefined || value === '') throw new TypeError(`${operation.operationId}: path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
  const url = new URL(path, baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  for (const [name, value] of Object.entries(input.query ?? {}) as [string, unknown][]) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(item));
  }
  return url;
}

/** Reads an answer as the operation describes it; a body that is not JSON comes back as text. */
export async function readBody(response: Response, kind: ResponseKind): Promise<unknown> {
  if (kind === 'binary' && response.ok) return new Uint8Array(await response.arrayBuffer());
  const text = await response.text();
  if (kind === 'text' && response.ok) return text;
  if (text === '') return undefined;
  if (!/[/+]json\b/i.test(response.headers.get('content-type') ?? '')) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
