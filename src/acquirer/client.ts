/**
 * The only code that talks to the card acquirer's card/PIX API (the chargeback API has its own
 * client). One undici Agent (keep-alive pool) per process, a connect timeout and a total timeout
 * per call, MerchantId/MerchantKey headers, and a RequestId on every state-changing call.
 *
 * Every transport failure (refused, reset, timeout, malformed JSON, 5xx) is thrown as
 * AcquirerUnavailableError; `outcomeUnknown` says whether the acquirer may have acted on it, in
 * which case the caller reconciles with getSaleByOrderId before concluding anything. A card
 * denial is a result (`approved: false`), never an error.
 *
 * Card data and the MerchantKey never leave this module except on the wire to the acquirer:
 * nothing here logs a request body or headers.
 */
import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import { Agent, request, type Dispatcher } from 'undici';
import { getConfig } from '../../config';
import { AcquirerUnavailableError } from './errors';

// ---------------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------------

/** The acquirer's Payment.Status values. */
export const AcquirerStatus = {
  NotFinished: 0,
  Authorized: 1,
  PaymentConfirmed: 2,
  Denied: 3,
  Voided: 10,
  Refunded: 11,
  Pending: 12,
  Aborted: 13,
  Scheduled: 20,
} as const;

export type AcquirerCardBrand =
  'Visa' | 'Master' | 'Amex' | 'Elo' | 'Aura' | 'JCB' | 'Diners' | 'Discover' | 'Hipercard';

export interface AcquirerCustomer {
  name: string;
  identity?: string;
  identityType?: 'CPF' | 'CNPJ';
}

export interface ClearCardData {
  number: string;
  holder: string;
  expMonth: number;
  expYear: number;
  cvv?: string;
  brand: string;
}

export interface TokenCardData {
  cardToken: string;
  brand: string;
  cvv?: string;
}

export interface CardSaleRequest {
  /** The caller's idempotency key; the RequestId sent to the acquirer is derived from it. */
  idempotencyKey: string;
  /** Alphanumeric, at most 50 characters; unique per sale on our side. */
  merchantOrderId: string;
  amountCents: number;
  installments: number;
  /** true = authorize and capture at once; false = authorize only (capture later). */
  capture: boolean;
  recurrent?: boolean;
  /** Ask the acquirer for a CardToken to charge this card again later. */
  saveCard?: boolean;
  customer: AcquirerCustomer;
  card: ClearCardData | TokenCardData;
  softDescriptor?: string;
}

export interface CardSaleResult {
  paymentId: string;
  merchantOrderId: string;
  /** Acquirer Payment.Status (see AcquirerStatus). */
  status: number;
  /** Authorized (1) or captured (2). A denial is approved false with the ReturnCode. */
  approved: boolean;
  returnCode: string;
  returnMessage: string;
  amountCents: number;
  capturedAmountCents?: number;
  tid?: string;
  proofOfSale?: string;
  authorizationCode?: string;
  cardToken?: string;
}

export interface PixChargeRequest {
  idempotencyKey: string;
  merchantOrderId: string;
  amountCents: number;
  customer: AcquirerCustomer;
  /** QR code lifetime in seconds (max 86400). Default: the acquirer's (2 h in the sandbox). */
  expiresInSeconds?: number;
}

export interface PixChargeResult {
  paymentId: string;
  merchantOrderId: string;
  status: number;
  returnCode: string;
  returnMessage: string;
  amountCents: number;
  /** EMV copy-and-paste code. */
  qrCodeString: string;
  qrCodeBase64Image?: string;
  expiresAt?: string;
  proofOfSale?: string;
  acquirerTransactionId?: string;
}

/** A sale as the query host describes it (card or PIX). */
export interface AcquirerSale {
  paymentId: string;
  merchantOrderId: string;
  type: 'CreditCard' | 'DebitCard' | 'Pix';
  status: number;
  amountCents: number;
  capturedAmountCents: number;
  voidedAmountCents: number;
  returnCode: string;
  returnMessage: string;
  tid?: string;
  proofOfSale?: string;
  authorizationCode?: string;
  cardToken?: string;
  /** Brand and the number as the acquirer masks it (first six and last four digits shown). */
  card?: { brand: string; maskedNumber: string };
  qrCodeString?: string;
  expiresAt?: string;
  receivedDate?: string;
  capturedDate?: string;
  voidedDate?: string;
  /** The acquirer's answer as received (the card is masked by the acquirer). */
  raw: Record<string, unknown>;
}

export interface PaymentUpdateResult {
  status: number;
  returnCode: string;
  returnMessage: string;
  reasonCode?: number;
  reasonMessage?: string;
  tid?: string;
  proofOfSale?: string;
  authorizationCode?: string;
}

/**
 * The acquirer answered, but refused the request itself (4xx other than a card denial: bad
 * field, bad MerchantKey, not capturable...). Nothing happened at the acquirer. It extends
 * AcquirerUnavailableError so a route that does not handle it answers 502 (a gateway error from
 * the merchant's point of view); callers that care check `instanceof AcquirerRejectedError`.
 */
export class AcquirerRejectedError extends AcquirerUnavailableError {
  constructor(
    readonly httpStatus: number,
    readonly errors: { Code: number | string; Message: string }[],
  ) {
    super(
      `acquirer refused the request (HTTP ${httpStatus}${errors.length ? `: ${errors.map((e) => `${e.Code} ${e.Message}`).join('; ')}` : ''})`,
      false,
    );
    this.name = 'AcquirerRejectedError';
  }

  hasCode(code: number | string): boolean {
    return this.errors.some((e) => String(e.Code) === String(code));
  }
}

/**
 * Card/PIX notifications: the acquirer POSTs {PaymentId, ChangeType} to one URL agreed at
 * onboarding. Ours is PUBLIC_BASE_URL + PAYMENT_NOTIFICATION_PATH, signed in
 * NOTIFICATION_SIGNATURE_HEADER as `sha256=<hex HMAC-SHA256 of the raw body>` keyed with
 * ACQUIRER_NOTIFICATION_SECRET.
 */
export const PAYMENT_NOTIFICATION_PATH = '/api/v1/online/sales/notifications/';
export const NOTIFICATION_SIGNATURE_HEADER = 'X-Acquirer-Signature';

// ---------------------------------------------------------------------------------------------
// Observability hook: metrics subscribe here (no card data, no keys in the event)
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// Transport
// ---------------------------------------------------------------------------------------------

let agent: Agent | undefined;

function getAgent(): Agent {
  if (!agent) {
    const { connectTimeoutMs } = getConfig().acquirer;
    agent = new Agent({
      connect: { timeout: connectTimeoutMs },
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

interface CallOptions {
  operation: string;
  method: 'GET' | 'POST' | 'PUT';
  host: 'transactional' | 'query';
  path: string;
  body?: unknown;
  requestId?: string;
  /** 404 answers null instead of throwing (lookups). */
  notFoundAsNull?: boolean;
}

interface CallResult {
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

async function call(options: CallOptions): Promise<CallResult | null> {
  const config = getConfig().acquirer;
  const base = options.host === 'query' ? config.queryUrl : config.baseUrl;
  const changesState = options.method !== 'GET';
  const headers: Record<string, string> = {
    MerchantId: config.merchantId,
    MerchantKey: config.merchantKey,
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

// ---------------------------------------------------------------------------------------------
// Mapping
// ---------------------------------------------------------------------------------------------

type Json = Record<string, any>;

const str = (value: unknown): string | undefined =>
  value === undefined || value === null || value === '' ? undefined : String(value);

function paymentOf(body: unknown, operation: string): Json {
  const payment = (body as Json)?.Payment;
  if (
    !payment ||
    typeof payment !== 'object' ||
    typeof payment.PaymentId !== 'string' ||
    typeof payment.Status !== 'number'
  ) {
    throw new AcquirerUnavailableError(`acquirer ${operation}: malformed answer (no Payment)`, true);
  }
  return payment as Json;
}

export function isApprovedStatus(status: number): boolean {
  return status === AcquirerStatus.Authorized || status === AcquirerStatus.PaymentConfirmed;
}

function expiryOf(expMonth: number, expYear: number): string {
  const year = expYear < 100 ? 2000 + expYear : expYear;
  return `${String(expMonth).padStart(2, '0')}/${year}`;
}

function customerBody(customer: AcquirerCustomer): Json {
  return {
    Name: customer.name,
    ...(customer.identity
      ? {
          Identity: customer.identity,
          IdentityType: customer.identityType ?? (customer.identity.length > 11 ? 'CNPJ' : 'CPF'),
        }
      : {}),
  };
}

function toSale(body: Json): AcquirerSale {
  const payment = paymentOf(body, 'getSale');
  return {
    paymentId: payment.PaymentId,
    merchantOrderId: String(body.MerchantOrderId ?? ''),
    type: payment.Type,
    status: payment.Status,
    amountCents: Number(payment.Amount ?? 0),
    capturedAmountCents: Number(payment.CapturedAmount ?? 0),
    voidedAmountCents: Number(payment.VoidedAmount ?? 0),
    returnCode: String(payment.ReturnCode ?? ''),
    returnMessage: String(payment.ReturnMessage ?? ''),
    tid: str(payment.Tid),
    proofOfSale: str(payment.ProofOfSale),
    authorizationCode: str(payment.AuthorizationCode),
    cardToken: str(payment.CreditCard?.CardToken),
    card: payment.CreditCard
      ? { brand: String(payment.CreditCard.Brand ?? ''), maskedNumber: String(payment.CreditCard.CardNumber ?? '') }
      : undefined,
    qrCodeString: str(payment.QrCodeString),
    expiresAt: str(payment.QrCode?.ExpiresAt ?? payment.ExpirationDate),
    receivedDate: str(payment.ReceivedDate),
    capturedDate: str(payment.CapturedDate),
    voidedDate: str(payment.VoidedDate),
    raw: body,
  };
}

function toUpdate(body: unknown, operation: string): PaymentUpdateResult {
  const b = body as Json;
  if (typeof b?.Status !== 'number')
    throw new AcquirerUnavailableError(`acquirer ${operation}: malformed answer (no Status)`, true);
  return {
    status: b.Status,
    returnCode: String(b.ReturnCode ?? ''),
    returnMessage: String(b.ReturnMessage ?? ''),
    reasonCode: typeof b.ReasonCode === 'number' ? b.ReasonCode : undefined,
    reasonMessage: str(b.ReasonMessage),
    tid: str(b.Tid),
    proofOfSale: str(b.ProofOfSale),
    authorizationCode: str(b.AuthorizationCode),
  };
}

// ---------------------------------------------------------------------------------------------
// Operations
// ---------------------------------------------------------------------------------------------

/**
 * POST /1/sales/ (credit card). Retrying with the same idempotencyKey sends the same RequestId,
 * and the acquirer answers the sale it already made instead of charging again.
 */
export async function createCardSale(input: CardSaleRequest): Promise<CardSaleResult> {
  const card = input.card;
  const creditCard: Json =
    'cardToken' in card
      ? { CardToken: card.cardToken, Brand: card.brand, ...(card.cvv ? { SecurityCode: card.cvv } : {}) }
      : {
          CardNumber: card.number,
          Holder: card.holder,
          ExpirationDate: expiryOf(card.expMonth, card.expYear),
          ...(card.cvv ? { SecurityCode: card.cvv } : {}),
          Brand: card.brand,
          SaveCard: Boolean(input.saveCard),
        };
  const result = await call({
    operation: 'createCardSale',
    method: 'POST',
    host: 'transactional',
    path: '/1/sales/',
    requestId: requestIdFor(input.idempotencyKey),
    body: {
      MerchantOrderId: input.merchantOrderId,
      Customer: customerBody(input.customer),
      Payment: {
        Type: 'CreditCard',
        Amount: input.amountCents,
        Currency: 'BRL',
        Country: 'BRA',
        Installments: input.installments,
        Interest: 'ByMerchant',
        Capture: input.capture,
        Recurrent: Boolean(input.recurrent),
        ...(input.softDescriptor ? { SoftDescriptor: input.softDescriptor.slice(0, 13) } : {}),
        CreditCard: creditCard,
      },
    },
  });
  const body = result!.body as Json;
  const payment = paymentOf(body, 'createCardSale');
  return {
    paymentId: payment.PaymentId,
    merchantOrderId: String(body.MerchantOrderId ?? input.merchantOrderId),
    status: payment.Status,
    approved: isApprovedStatus(payment.Status),
    returnCode: String(payment.ReturnCode ?? ''),
    returnMessage: String(payment.ReturnMessage ?? ''),
    amountCents: Number(payment.Amount ?? input.amountCents),
    capturedAmountCents: payment.CapturedAmount === undefined ? undefined : Number(payment.CapturedAmount),
    tid: str(payment.Tid),
    proofOfSale: str(payment.ProofOfSale),
    authorizationCode: str(payment.AuthorizationCode),
    cardToken: str(payment.CreditCard?.CardToken),
  };
}

/** POST /1/sales/ with Payment.Type Pix: a pending charge (Status 12) with its copy-and-paste code. */
export async function createPixCharge(input: PixChargeRequest): Promise<PixChargeResult> {
  const result = await call({
    operation: 'createPixCharge',
    method: 'POST',
    host: 'transactional',
    path: '/1/sales/',
    requestId: requestIdFor(input.idempotencyKey),
    body: {
      MerchantOrderId: input.merchantOrderId,
      Customer: customerBody(input.customer),
      Payment: {
        Type: 'Pix',
        Amount: input.amountCents,
        ...(input.expiresInSeconds ? { QrCode: { Expiration: input.expiresInSeconds } } : {}),
      },
    },
  });
  const body = result!.body as Json;
  const payment = paymentOf(body, 'createPixCharge');
  if (typeof payment.QrCodeString !== 'string')
    throw new AcquirerUnavailableError('acquirer createPixCharge: malformed answer (no QrCodeString)', true);
  return {
    paymentId: payment.PaymentId,
    merchantOrderId: String(body.MerchantOrderId ?? input.merchantOrderId),
    status: payment.Status,
    returnCode: String(payment.ReturnCode ?? ''),
    returnMessage: String(payment.ReturnMessage ?? ''),
    amountCents: Number(payment.Amount ?? input.amountCents),
    qrCodeString: payment.QrCodeString,
    qrCodeBase64Image: str(payment.QrcodeBase64Image),
    expiresAt: str(payment.QrCode?.ExpiresAt ?? payment.ExpirationDate),
    proofOfSale: str(payment.ProofOfSale),
    acquirerTransactionId: str(payment.AcquirerTransactionId),
  };
}

/**
 * PUT /1/sales/{PaymentId}/capture[?amount=]: full capture unless amountCents is given. The
 * acquirer's state machine already refuses a second capture; pass idempotencyKey to have a
 * retry of the same attempt answered with the first answer (without it each call is new).
 */
export async function captureSale(paymentId: string, options: SaleUpdateOptions = {}): Promise<PaymentUpdateResult> {
  return updateSale('capture', paymentId, options);
}

/**
 * PUT /1/sales/{PaymentId}/void[?amount=]: voids an authorization (Status 10) or refunds a
 * captured sale (Status 11, or Status 2 with VoidedAmount for a partial refund).
 */
export async function voidSale(paymentId: string, options: SaleUpdateOptions = {}): Promise<PaymentUpdateResult> {
  return updateSale('void', paymentId, options);
}

interface SaleUpdateOptions {
  amountCents?: number;
  idempotencyKey?: string;
}

/** The PUT /1/sales/{PaymentId}/<operation>[?amount=] calls capture and void share. */
async function updateSale(
  operation: 'capture' | 'void',
  paymentId: string,
  options: SaleUpdateOptions,
): Promise<PaymentUpdateResult> {
  const query = options.amountCents ? `?amount=${options.amountCents}` : '';
  const result = await call({
    operation,
    method: 'PUT',
    host: 'transactional',
    path: `/1/sales/${encodeURIComponent(paymentId)}/${operation}${query}`,
    requestId: options.idempotencyKey ? requestIdFor(options.idempotencyKey) : crypto.randomUUID(),
  });
  return toUpdate(result!.body, operation);
}

/** Alias with the name payment APIs use for a void of a captured sale. */
export const refundSale = voidSale;

/** GET /1/sales/{PaymentId} on the query host; null when the acquirer does not know it. */
export async function getSale(paymentId: string): Promise<AcquirerSale | null> {
  const result = await call({
    operation: 'getSale',
    method: 'GET',
    host: 'query',
    path: `/1/sales/${encodeURIComponent(paymentId)}`,
    notFoundAsNull: true,
  });
  return result ? toSale(result.body as Json) : null;
}

/**
 * GET /1/sales?merchantOrderId= on the query host: the newest sale made with that order id, or
 * null when the acquirer has none (so a call that never arrived is proven harmless).
 */
export async function getSaleByOrderId(merchantOrderId: string): Promise<AcquirerSale | null> {
  const result = await call({
    operation: 'getSaleByOrderId',
    method: 'GET',
    host: 'query',
    path: `/1/sales?merchantOrderId=${encodeURIComponent(merchantOrderId)}`,
    notFoundAsNull: true,
  });
  if (!result) return null;
  const body = result.body as Json;
  // The acquirer answers a list of {PaymentId, ReceivedDate}; the sandbox also embeds the sales.
  const payments: Json[] = Array.isArray(body.Payments) ? body.Payments : [];
  if (!payments.length) return null;
  // ReceivedDate is "YYYY-MM-DD HH:mm:ss": it sorts as text; the stable sort keeps the acquirer's order on ties.
  const newest = [...payments]
    .sort((a, b) => String(a.ReceivedDate ?? '').localeCompare(String(b.ReceivedDate ?? '')))
    .at(-1)!;
  if (newest.Payment) return toSale(newest as Json);
  return getSale(String(newest.PaymentId));
}

/**
 * POST /1/card: stores a card at the acquirer and returns its CardToken, for later charges
 * with `card: { cardToken, brand }`. Needs a Luhn-valid number.
 */
export async function tokenizeCard(
  card: Omit<ClearCardData, 'cvv'> & { customerName?: string },
): Promise<{ cardToken: string }> {
  const result = await call({
    operation: 'tokenizeCard',
    method: 'POST',
    host: 'transactional',
    path: '/1/card',
    body: {
      CustomerName: card.customerName ?? card.holder,
      CardNumber: card.number,
      Holder: card.holder,
      ExpirationDate: expiryOf(card.expMonth, card.expYear),
      Brand: card.brand,
    },
  });
  const token = (result!.body as Json).CardToken;
  if (typeof token !== 'string')
    throw new AcquirerUnavailableError('acquirer tokenizeCard: malformed answer (no CardToken)', true);
  return { cardToken: token };
}

/**
 * Soft declines may succeed if tried again later (generic refusal, no funds, issuer or system
 * down, timeout); hard declines will not (not allowed, expired, lost, stolen, blocked...).
 * Anything not listed as soft is hard, so an unknown code is never retried blindly.
 */
export const SOFT_DECLINE_CODES: ReadonlySet<string> = new Set(['05', '51', '61', '91', '96', '98', '99']);

export function isSoftDecline(returnCode: string): boolean {
  return SOFT_DECLINE_CODES.has(returnCode);
}
