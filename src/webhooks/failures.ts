/**
 * Why a webhook attempt failed, as the merchant sees it: one of a few fixed categories, never the
 * transport's text. The text ("connect ECONNREFUSED 1.1.1.1:6379", a certificate's subject, a
 * resolver's answer) tells whoever reads it what another host does on a port, which turns the delivery
 * log into a scanner run from our address. Operators keep the text: the attempt's log line has it.
 *
 * Attempts stored before the categories hold the text; reads map it (shownFailure), so the log never
 * shows it and no migration is needed.
 */
import { HOST_DOES_NOT_RESOLVE } from '../platform/url-safety';

export const DELIVERY_FAILURES = [
  'timeout',
  'connection_refused',
  'connection_failed',
  'tls',
  'dns',
  'http_status',
  'unsafe_url',
] as const;
export type DeliveryFailure = (typeof DELIVERY_FAILURES)[number];

/** What each category means, for the Swagger text and docs/api/events.md. */
export const DELIVERY_FAILURE_TEXT =
  'Why the attempt failed, null when it succeeded: timeout (no connection or no answer within the timeout), ' +
  'connection_refused, connection_failed (reset, unreachable, closed), tls (certificate or handshake), dns ' +
  '(the host no longer resolves), http_status (an answer other than 2xx, redirects included: see status_code), ' +
  'unsafe_url (the URL no longer passes the safety rules)';

const TIMEOUT_CODES = new Set([
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ESOCKETTIMEDOUT',
]);
const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'EAI_NODATA']);

/** The category of a Node or undici error code (the certificate codes are OpenSSL's names). */
export function failureOfCode(code: string): DeliveryFailure {
  if (TIMEOUT_CODES.has(code)) return 'timeout';
  if (code === 'ECONNREFUSED') return 'connection_refused';
  if (DNS_CODES.has(code)) return 'dns';
  if (/^(ERR_TLS_|ERR_SSL_|EPROTO$)|CERT|UNABLE_TO_(GET|VERIFY)/.test(code)) return 'tls';
  return 'connection_failed';
}

/**
 * The category of what a POST threw: an abort by our timeout signal, or a transport error (its cause's,
 * if wrapped).
 */
export function failureOfError(error: unknown): DeliveryFailure {
  const e = error as { name?: string; code?: string; cause?: unknown } | null;
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return 'timeout';
  if (typeof e?.code === 'string') return failureOfCode(e.code);
  return e?.cause ? failureOfError(e.cause) : 'connection_failed';
}

/** The category of a URL refused before any connection. */
export const failureOfRefusal = (reason: string): DeliveryFailure =>
  reason === HOST_DOES_NOT_RESOLVE ? 'dns' : 'unsafe_url';

const isCategory = (text: string): text is DeliveryFailure => (DELIVERY_FAILURES as readonly string[]).includes(text);

/**
 * A stored attempt's error as the merchant may see it: a category as stored, or the category of the
 * transport text an attempt stored before categories holds (`receiver answered 503`, `redirect 302 not
 * followed`, `no answer within 5000 ms`, `refused: the URL is no longer ... (reason)`, `CODE: message`).
 */
export function shownFailure(stored: string | null): DeliveryFailure | null {
  if (stored === null || isCategory(stored)) return stored;
  if (/^(receiver answered|redirect) \d{3}/.test(stored)) return 'http_status';
  if (stored.startsWith('no answer within')) return 'timeout';
  const refusal = /^refused: .*\((.*)\)$/.exec(stored);
  if (refusal) return failureOfRefusal(refusal[1]);
  const code = /^([A-Z][A-Z0-9_]+): /.exec(stored);
  return code ? failureOfCode(code[1]) : 'connection_failed';
}

/** The failure as the endpoint's disabled_reason names it: the category, and the status of an HTTP answer. */
export const failureText = (failure: DeliveryFailure | null, statusCode: number | null) =>
  `${failure ?? 'unknown'}${failure === 'http_status' && statusCode ? ` ${statusCode}` : ''}`;

const LAST_FAILURE = /(, last: )(.*)(\), with no successful delivery since\.)$/;

/**
 * A stored disabled_reason as the merchant may see it. Reasons written before categories end with the
 * last attempt's transport text (`last: ECONNREFUSED: connect ECONNREFUSED 1.1.1.1:6379), with no ...`):
 * that part is replaced by its category, the HTTP status kept.
 */
export function shownDisabledReason(reason: string | null): string | null {
  const last = reason === null ? null : LAST_FAILURE.exec(reason);
  if (!reason || !last || /^[a-z_]+( \d{3})?$/.test(last[2])) return reason;
  const status = /^(?:receiver answered|redirect) (\d{3})/.exec(last[2]);
  const text = failureText(shownFailure(last[2]), status ? Number(status[1]) : null);
  return reason.replace(LAST_FAILURE, (_, before: string, _raw: string, after: string) => `${before}${text}${after}`);
}
