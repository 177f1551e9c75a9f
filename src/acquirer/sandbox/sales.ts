/**
 * Sandbox of the acquirer's card/PIX API: card sales (authorize, authorize+capture, capture,
 * void/refund), tokenized cards, recurrent flag, PIX charges, lookups, RequestId idempotency,
 * deterministic test cards and amounts, and test-only controls (pay a PIX charge, inject faults).
 * State lives in this process's memory. docs/sandbox.md documents it.
 */
import crypto from 'node:crypto';
import express, { type Request, type Response, type NextFunction, type Router } from 'express';
import { getConfig } from '../../../config';
import { safeEqual } from '../../platform/digests';
import { luhnValid } from '../../cards';
import type { SandboxArea } from './area';
import { refusedExternalAuthentication } from './authentication';
import {
  NOTIFICATION_SIGNATURE_HEADER as SIGNATURE_HEADER,
  PAYMENT_NOTIFICATION_PATH as NOTIFICATION_PATH,
} from '../client';

/** Magic amounts (cents) that make POST /1/sales/ fail at the transport level. */
export const FAULT_AMOUNTS = {
  /** HTTP 500, nothing created. */
  serverError: 990500,
  /** The sale IS made, then no answer is ever sent (the caller times out). */
  hangAfterProcessing: 990408,
  /** The sale IS made, then the connection is reset without an answer. */
  resetAfterProcessing: 990104,
} as const;

/** The acquirer's refusals of a cancel that a `refuse` fault answers: low balance, too late, status forbids. */
export const REFUSAL_MESSAGES: Record<string, string> = {
  '40': 'Cancel not allowed: past the refund window',
  '41': 'Cancel not allowed for this transaction status',
  '43': 'Insufficient merchant balance for the cancel',
  '72': 'Insufficient merchant balance for the cancel',
  '76': 'Insufficient merchant balance for the cancel',
};

/** The acquirer wants at least this long between cancels on one sale; a cancel sooner is refused (code 99). */
export const CANCEL_SPACING_MS = 5_000;

/** The acquirer refunds a captured card sale up to 360 days after capture, a PIX up to 90 days after payment. */
export const CARD_REFUND_WINDOW_DAYS = 360;
export const PIX_REFUND_WINDOW_DAYS = 90;
const DAY_MS = 24 * 3600_000;
/** The acquirer's days are Brasília's (UTC-3, no daylight saving since 2019): "the capture day" ends at 23:59 there. */
const BRASILIA_OFFSET_MS = -3 * 3600_000;

const PIX_DEFAULT_EXPIRY_SECONDS = 7200;
const PIX_MAX_EXPIRY_SECONDS = 86400;
const HANG_LIMIT_MS = 120_000;

interface CardOutcome {
  approved: boolean;
  returnCode: string;
  returnMessage: string;
}

/** Outcome by the card number's last digit (the acquirer's sandbox convention; 9 is deterministic here). */
const OUTCOME_BY_LAST_DIGIT: Record<string, CardOutcome> = {
  '0': { approved: true, returnCode: '4', returnMessage: 'Operation Successful' },
  '1': { approved: true, returnCode: '4', returnMessage: 'Operation Successful' },
  '4': { approved: true, returnCode: '4', returnMessage: 'Operation Successful' },
  '2': { approved: false, returnCode: '05', returnMessage: 'Not Authorized' },
  '3': { approved: false, returnCode: '57', returnMessage: 'Card Expired' },
  '5': { approved: false, returnCode: '78', returnMessage: 'Blocked Card' },
  '6': { approved: false, returnCode: '99', returnMessage: 'Time Out' },
  '7': { approved: false, returnCode: '77', returnMessage: 'Card Canceled' },
  '8': { approved: false, returnCode: '70', returnMessage: 'Problems with Credit Card' },
  '9': { approved: false, returnCode: '51', returnMessage: 'Insufficient Funds' },
};

export function cardOutcome(number: string): CardOutcome {
  return OUTCOME_BY_LAST_DIGIT[number.slice(-1)] ?? OUTCOME_BY_LAST_DIGIT['2'];
}

/**
 * Amounts 9907NN (cents): the first NN card sales of one card at that amount are soft-declined
 * (05 Not Authorized); later ones get the card's own outcome. An issuer that says yes on a later
 * retry, which a subscription's retry schedule needs to meet.
 */
export const RECOVERING_AMOUNT = /^9907(\d\d)$/;

export type Json = Record<string, any>;
export type Answer = { status: number; body: unknown };

interface StoredCard {
  number: string;
  holder: string;
  expirationDate: string;
  brand: string;
}

export interface SandboxSale {
  paymentId: string;
  merchantOrderId: string;
  customer: Json;
  type: 'CreditCard' | 'Pix';
  amount: number;
  installments: number;
  interest: string;
  capture: boolean;
  recurrent: boolean;
  status: number;
  returnCode: string;
  returnMessage: string;
  tid: string;
  proofOfSale: string;
  authorizationCode?: string;
  receivedDate: string;
  capturedAmount: number;
  capturedDate?: string;
  voidedAmount: number;
  voidedDate?: string;
  /** When the last cancel (void or partial void) was carried out: the next must wait CANCEL_SPACING_MS. */
  lastCancelAt?: number;
  /** When it was captured (a PIX: paid), by the sandbox's clock: the refund windows count from it. */
  capturedAt?: number;
  /** PIX refunds requested and not completed yet (Status 12 meanwhile); each completes at dueAt, then notifies. */
  pixRefunds?: { amount: number; dueAt: number }[];
  /** Where this sale's notices go (the `notifyUrl` of the last pay control), for its refunds' notices too. */
  notifyUrl?: string;
  card?: {
    masked: string;
    holder: string;
    expirationDate: string;
    brand: string;
    cardToken?: string;
    saveCard: boolean;
  };
  pix?: { qrCodeString: string; expiresAt: Date; acquirerTransactionId: string; paidAt?: Date };
}

interface Fault {
  mode: 'latency' | 'error' | 'drop' | 'hang' | 'malformed' | 'lose' | 'refuse';
  /** `refuse`: the acquirer's cancel code answered (REFUSAL_MESSAGES), nothing done. */
  code?: string;
  remaining: number;
  latencyMs: number;
  operation: 'create' | 'capture' | 'void' | 'query' | 'card' | 'any';
  paymentId?: string;
}

const state = {
  sales: new Map<string, SandboxSale>(),
  byOrderId: new Map<string, string[]>(),
  cards: new Map<string, StoredCard>(),
  /** RequestId + operation -> the answer given, so a retried request gets the same answer. */
  answers: new Map<string, Answer>(),
  faults: [] as Fault[],
  /** card number + amount -> declines already given under a RECOVERING_AMOUNT. */
  recoveringDeclines: new Map<string, number>(),
  stats: {
    requests: 0,
    salesCreated: 0,
    authorizations: 0,
    captures: 0,
    voids: 0,
    notificationsSent: 0,
    pixRefundsCompleted: 0,
  },
  /** How far the sandbox's clock is moved from the real one (PUT /sandbox/clock): its windows read sandboxNow(). */
  clockOffsetMs: 0,
  /** While true, PIX refunds are not completed when due (tests complete them with the control route). */
  holdPixRefunds: false,
};

/** The sandbox's notion of now: the real clock moved by the clock control. */
export const sandboxNow = () => Date.now() + state.clockOffsetMs;
/** The acquirer's calendar day (Brasília) of an instant, as a day number. */
const brasiliaDay = (ms: number) => Math.floor((ms + BRASILIA_OFFSET_MS) / DAY_MS);

/** What runs when the clock control moves the sandbox's clock (Pix Automático expiries). */
const clockListeners: (() => Promise<void>)[] = [];
export function onClockMove(listener: () => Promise<void>): void {
  clockListeners.push(listener);
}

/** A sale the sandbox holds, by PaymentId. */
export function findSale(paymentId: string): SandboxSale | undefined {
  return state.sales.get(paymentId);
}

/** Clears every sale, token and fault (tests of the sandbox itself). */
export function resetSandboxSales(): void {
  state.sales.clear();
  state.byOrderId.clear();
  state.cards.clear();
  state.answers.clear();
  state.faults = [];
  state.recoveringDeclines.clear();
  state.clockOffsetMs = 0;
  state.holdPixRefunds = false;
  for (const key of Object.keys(state.stats) as (keyof typeof state.stats)[]) state.stats[key] = 0;
}

// ---------------------------------------------------------------------------------------------

export const acquirerDate = (date = new Date()) => date.toISOString().replace('T', ' ').slice(0, 19);
const digits = (n: number) => String(crypto.randomInt(10 ** (n - 1), 10 ** n));
const maskCard = (number: string) =>
  `${number.slice(0, 6)}${'*'.repeat(Math.max(number.length - 10, 0))}${number.slice(-4)}`;

export function fail(res: Response, status: number, errors: { Code: number; Message: string }[]): void {
  res.status(status).json(errors);
}

function linksOf(sale: SandboxSale): Json[] {
  const base = `/1/sales/${sale.paymentId}`;
  const links: Json[] = [{ Method: 'GET', Rel: 'self', Href: base }];
  if (sale.type === 'CreditCard' && sale.status === 1)
    links.push({ Method: 'PUT', Rel: 'capture', Href: `${base}/capture` });
  if (sale.status === 1 || sale.status === 2) links.push({ Method: 'PUT', Rel: 'void', Href: `${base}/void` });
  return links;
}

export function saleBody(sale: SandboxSale): Json {
  const payment: Json = {
    PaymentId: sale.paymentId,
    Type: sale.type,
    Amount: sale.amount,
    Currency: 'BRL',
    Country: 'BRA',
    ReceivedDate: sale.receivedDate,
    Status: sale.status,
    ReturnCode: sale.returnCode,
    ReturnMessage: sale.returnMessage,
    ProofOfSale: sale.proofOfSale,
    Tid: sale.tid,
    CapturedAmount: sale.capturedAmount,
    VoidedAmount: sale.voidedAmount,
    ...(sale.capturedDate ? { CapturedDate: sale.capturedDate } : {}),
    ...(sale.voidedDate ? { VoidedDate: sale.voidedDate } : {}),
    Links: linksOf(sale),
  };
  if (sale.card) {
    Object.assign(payment, {
      Installments: sale.installments,
      Interest: sale.interest,
      Capture: sale.capture,
      Recurrent: sale.recurrent,
      ...(sale.authorizationCode ? { AuthorizationCode: sale.authorizationCode } : {}),
      CreditCard: {
        CardNumber: sale.card.masked,
        Holder: sale.card.holder,
        ExpirationDate: sale.card.expirationDate,
        Brand: sale.card.brand,
        SaveCard: sale.card.saveCard,
        ...(sale.card.cardToken ? { CardToken: sale.card.cardToken } : {}),
      },
    });
  }
  if (sale.pix) {
    Object.assign(payment, {
      AcquirerTransactionId: sale.pix.acquirerTransactionId,
      QrCodeString: sale.pix.qrCodeString,
      QrcodeBase64Image: Buffer.from(`sandbox-qr:${sale.paymentId}`).toString('base64'),
      QrCode: { ExpiresAt: sale.pix.expiresAt.toISOString() },
    });
  }
  return { MerchantOrderId: sale.merchantOrderId, Customer: sale.customer, Payment: payment };
}

/** CRC16/CCITT-FALSE, as the PIX BR Code (EMV) uses for its last field. */
function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

function emvField(id: string, value: string): string {
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
}

/** An EMV "copia e cola" text shaped like a dynamic PIX BR Code. */
export function pixCopyPaste(sale: { paymentId: string; amount: number }, txid: string): string {
  const account = emvField('00', 'br.gov.bcb.pix') + emvField('25', `pix.sandbox.local/qr/v2/${sale.paymentId}`);
  const payload =
    emvField('00', '01') +
    emvField('01', '12') +
    emvField('26', account) +
    emvField('52', '0000') +
    emvField('53', '986') +
    emvField('54', (sale.amount / 100).toFixed(2)) +
    emvField('58', 'BR') +
    emvField('59', 'SANDBOX MERCHANT') +
    emvField('60', 'SAO PAULO') +
    emvField('62', emvField('05', txid.slice(0, 25))) +
    '6304';
  return payload + crc16(payload);
}

/** Reads expire lazily: an unpaid QR past its expiry is Aborted (13), the status we chose for it. */
function refreshExpiry(sale: SandboxSale): void {
  // A paid PIX with a refund requested also reads 12: only an unpaid one expires.
  if (sale.pix && sale.status === 12 && !sale.capturedAmount && sale.pix.expiresAt.getTime() <= Date.now()) {
    sale.status = 13;
    sale.returnCode = '0';
    sale.returnMessage = 'Pix expired';
  }
}

export function newSale(body: Json, type: SandboxSale['type']): SandboxSale {
  const payment = body.Payment;
  const sale: SandboxSale = {
    paymentId: crypto.randomUUID(),
    merchantOrderId: body.MerchantOrderId,
    customer: body.Customer ?? {},
    type,
    amount: payment.Amount,
    installments: payment.Installments ?? 1,
    interest: typeof payment.Interest === 'string' ? payment.Interest : 'ByMerchant',
    capture: Boolean(payment.Capture),
    recurrent: Boolean(payment.Recurrent),
    status: 0,
    returnCode: '',
    returnMessage: '',
    tid: digits(10) + digits(10),
    proofOfSale: digits(6),
    receivedDate: acquirerDate(),
    capturedAmount: 0,
    voidedAmount: 0,
  };
  state.sales.set(sale.paymentId, sale);
  forgetOldest(state.sales);
  const ids = state.byOrderId.get(sale.merchantOrderId) ?? [];
  ids.push(sale.paymentId);
  if (ids.length > 100) ids.splice(0, ids.length - 100);
  state.byOrderId.set(sale.merchantOrderId, ids);
  forgetOldest(state.byOrderId);
  state.stats.salesCreated++;
  return sale;
}

// ---------------------------------------------------------------------------------------------
// Validation of POST /1/sales/
// ---------------------------------------------------------------------------------------------

const BRANDS = new Set(['Visa', 'Master', 'Amex', 'Elo', 'Aura', 'JCB', 'Diners', 'Discover', 'Hipercard']);

function validateSale(body: Json): { Code: number; Message: string }[] {
  const errors: { Code: number; Message: string }[] = [];
  const orderId = body?.MerchantOrderId;
  if (typeof orderId !== 'string' || !orderId) errors.push({ Code: 122, Message: 'MerchantOrderId is required' });
  else if (!/^[A-Za-z0-9]{1,50}$/.test(orderId))
    errors.push({ Code: 123, Message: 'MerchantOrderId must be alphanumeric, up to 50 characters' });
  const payment = body?.Payment;
  if (!payment || typeof payment !== 'object') return [...errors, { Code: 104, Message: 'Payment is required' }];
  if (!['CreditCard', 'Pix'].includes(payment.Type))
    errors.push({ Code: 105, Message: 'Payment Type is invalid (CreditCard or Pix)' });
  if (!Number.isInteger(payment.Amount) || payment.Amount <= 0)
    errors.push({ Code: 108, Message: 'Amount must be greater or equal to zero' });
  if (payment.Type === 'Pix') {
    if (!body.Customer?.Name) errors.push({ Code: 156, Message: 'Customer Name is required' });
    if (!body.Customer?.Identity) errors.push({ Code: 157, Message: 'Customer Identity is required' });
    const expiration = payment.QrCode?.Expiration;
    if (
      expiration !== undefined &&
      (!Number.isInteger(expiration) || expiration < 1 || expiration > PIX_MAX_EXPIRY_SECONDS)
    ) {
      errors.push({ Code: 191, Message: `QrCode Expiration must be 1 to ${PIX_MAX_EXPIRY_SECONDS} seconds` });
    }
    return errors;
  }
  if (!Number.isInteger(payment.Installments) || payment.Installments < 1 || payment.Installments > 12) {
    errors.push({ Code: 115, Message: 'Installments must be 1 to 12' });
  } else if (payment.Recurrent && payment.Installments !== 1) {
    errors.push({ Code: 179, Message: 'Recurrent payments must have one installment' });
  }
  const card = payment.CreditCard;
  if (!card || typeof card !== 'object') return [...errors, { Code: 125, Message: 'CreditCard is required' }];
  if (!BRANDS.has(card.Brand)) errors.push({ Code: 130, Message: 'Brand is invalid' });
  if (card.CardToken !== undefined) {
    if (!state.cards.has(String(card.CardToken))) errors.push({ Code: 129, Message: 'CardToken not found' });
  } else {
    if (typeof card.CardNumber !== 'string' || !/^\d{12,19}$/.test(card.CardNumber))
      errors.push({ Code: 127, Message: 'CardNumber is required (12 to 19 digits)' });
    if (typeof card.Holder !== 'string' || !card.Holder || card.Holder.length > 25)
      errors.push({ Code: 128, Message: 'Holder is required (up to 25 characters)' });
    if (typeof card.ExpirationDate !== 'string' || !/^(0[1-9]|1[0-2])\/\d{4}$/.test(card.ExpirationDate))
      errors.push({ Code: 126, Message: 'Credit Card Expiration Date is invalid' });
  }
  if (card.SecurityCode !== undefined && !/^\d{3,4}$/.test(String(card.SecurityCode)))
    errors.push({ Code: 131, Message: 'SecurityCode is invalid' });
  return errors;
}

// ---------------------------------------------------------------------------------------------
// Faults
// ---------------------------------------------------------------------------------------------

function operationOf(req: Request): Fault['operation'] {
  if (req.method === 'GET') return 'query';
  // Under the `/1` mount req.path is relative to it (`/card`): match either form.
  if (/^(\/1)?\/card$/.test(req.path)) return 'card';
  if (/\/capture$/.test(req.path)) return 'capture';
  if (/\/void$/.test(req.path)) return 'void';
  return 'create';
}

function takeFault(req: Request): Fault | undefined {
  const operation = operationOf(req);
  const index = state.faults.findIndex(
    (f) =>
      (f.operation === 'any' || f.operation === operation) &&
      (!f.paymentId || req.path.includes(f.paymentId)) &&
      f.remaining > 0,
  );
  if (index < 0) return undefined;
  const fault = state.faults[index];
  fault.remaining--;
  if (fault.remaining <= 0) state.faults.splice(index, 1);
  return fault;
}

/** Never answers; the socket is dropped when the caller gives up, or after HANG_LIMIT_MS. */
function hang(req: Request, res: Response): void {
  const timer = setTimeout(() => res.socket?.destroy(), HANG_LIMIT_MS);
  res.on('close', () => clearTimeout(timer));
}

export function applyFaults(req: Request, res: Response, next: NextFunction): void {
  const fault = takeFault(req);
  if (!fault) return next();
  switch (fault.mode) {
    case 'latency':
      setTimeout(next, fault.latencyMs);
      return;
    case 'error':
      fail(res, 500, [{ Code: 500, Message: 'Internal error (sandbox fault)' }]);
      return;
    case 'malformed':
      res.status(200).type('application/json').send('{"Payment": {"Status": ');
      return;
    case 'drop':
      req.socket.destroy();
      return;
    case 'hang':
      hang(req, res);
      return;
    case 'refuse':
      fail(res, 400, [{ Code: Number(fault.code), Message: REFUSAL_MESSAGES[fault.code!] }]);
      return;
    case 'lose':
      // The operation IS carried out, then the answer is lost (connection reset).
      res.json = () => {
        req.socket.destroy();
        return res;
      };
      next();
      return;
  }
}

export function authenticate(req: Request, res: Response, next: NextFunction): void {
  const { merchantId, merchantKey } = getConfig().acquirer;
  const id = req.header('MerchantId');
  const key = req.header('MerchantKey');
  if (!id) return fail(res, 401, [{ Code: 101, Message: 'MerchantId is required' }]);
  if (!key) return fail(res, 401, [{ Code: 131, Message: 'MerchantKey is required' }]);
  if (id !== merchantId || !safeEqual(key, merchantKey)) {
    return fail(res, 401, [{ Code: 132, Message: 'MerchantKey is invalid' }]);
  }
  next();
}

/** Answers once per RequestId (and operation): a retried request gets the first answer again. */
function answerOnce(req: Request, handler: (req: Request) => Answer): Answer {
  const requestId = req.header('RequestId');
  const key = requestId ? `${requestId} ${req.method} ${req.path}` : undefined;
  const previous = key ? state.answers.get(key) : undefined;
  if (previous) return previous;
  const answer = handler(req);
  if (key && answer.status < 500) {
    state.answers.set(key, answer);
    forgetOldest(state.answers);
  }
  return answer;
}

/** Bounds the sandbox's memory in long runs (benchmarks): the oldest entries go first. */
const MAX_REMEMBERED = 200_000;
function forgetOldest<K, V>(map: Map<K, V>): void {
  if (map.size <= MAX_REMEMBERED) return;
  let excess = map.size - MAX_REMEMBERED + MAX_REMEMBERED / 10;
  for (const key of map.keys()) {
    if (excess-- <= 0) break;
    map.delete(key);
  }
}

export function idempotent(handler: (req: Request) => Answer) {
  return (req: Request, res: Response) => {
    const answer = answerOnce(req, handler);
    res.status(answer.status).json(answer.body);
  };
}

// ---------------------------------------------------------------------------------------------
// Operations
// ---------------------------------------------------------------------------------------------

function createSale(req: Request): Answer {
  const body = req.body as Json;
  const errors = validateSale(body);
  if (errors.length) return { status: 400, body: errors };
  const payment = body.Payment;
  if (payment.Type === 'Pix') {
    const sale = newSale(body, 'Pix');
    const expiresIn = payment.QrCode?.Expiration ?? PIX_DEFAULT_EXPIRY_SECONDS;
    const txid = crypto.randomBytes(13).toString('hex');
    sale.pix = {
      qrCodeString: pixCopyPaste(sale, txid),
      expiresAt: new Date(Date.now() + expiresIn * 1000),
      acquirerTransactionId: txid,
    };
    sale.status = 12;
    sale.returnCode = '0';
    sale.returnMessage = 'Pix created';
    return { status: 201, body: saleBody(sale) };
  }
  const card = payment.CreditCard;
  const stored: StoredCard = card.CardToken
    ? state.cards.get(String(card.CardToken))!
    : { number: card.CardNumber, holder: card.Holder, expirationDate: card.ExpirationDate, brand: card.Brand };
  const authenticationRefused = refusedExternalAuthentication(payment, stored.number);
  if (authenticationRefused) return authenticationRefused;
  const sale = newSale(body, 'CreditCard');
  state.stats.authorizations++;
  const outcome = recoveringOutcome(stored.number, sale.amount) ?? cardOutcome(stored.number);
  sale.card = {
    masked: maskCard(stored.number),
    holder: stored.holder,
    expirationDate: stored.expirationDate,
    brand: card.Brand ?? stored.brand,
    saveCard: Boolean(card.SaveCard),
  };
  if (card.CardToken) sale.card.cardToken = String(card.CardToken);
  sale.returnCode = outcome.returnCode;
  sale.returnMessage = outcome.returnMessage;
  if (!outcome.approved) {
    sale.status = 3;
  } else {
    sale.authorizationCode = digits(6);
    if (sale.capture) {
      sale.status = 2;
      sale.returnCode = '6';
      sale.capturedAmount = sale.amount;
      sale.capturedDate = acquirerDate(new Date(sandboxNow()));
      sale.capturedAt = sandboxNow();
    } else {
      sale.status = 1;
    }
    if (card.SaveCard && !card.CardToken) {
      const token = crypto.randomUUID();
      state.cards.set(token, stored);
      sale.card.cardToken = token;
    }
  }
  return { status: 201, body: saleBody(sale) };
}

/** The forced soft decline of a RECOVERING_AMOUNT sale, while the card still has declines to give. */
function recoveringOutcome(cardNumber: string, amount: number): CardOutcome | null {
  const recovering = RECOVERING_AMOUNT.exec(String(amount));
  if (!recovering) return null;
  const key = `${cardNumber}:${amount}`;
  const given = state.recoveringDeclines.get(key) ?? 0;
  if (given >= Number(recovering[1])) return null;
  state.recoveringDeclines.set(key, given + 1);
  return OUTCOME_BY_LAST_DIGIT['2'];
}

function captureSale(req: Request): Answer {
  const sale = state.sales.get(String(req.params.paymentId));
  if (!sale) return { status: 404, body: [{ Code: 307, Message: 'Transaction not found' }] };
  if (sale.type !== 'CreditCard' || sale.status !== 1)
    return { status: 400, body: [{ Code: 308, Message: 'Transaction not available to capture' }] };
  const amount = req.query.amount === undefined ? sale.amount : Number(req.query.amount);
  if (!Number.isInteger(amount) || amount <= 0 || amount > sale.amount)
    return { status: 400, body: [{ Code: 108, Message: 'Amount is invalid' }] };
  sale.status = 2;
  sale.capturedAmount = amount;
  sale.capturedDate = acquirerDate(new Date(sandboxNow()));
  sale.capturedAt = sandboxNow();
  sale.returnCode = '6';
  sale.returnMessage = 'Operation Successful';
  state.stats.captures++;
  return {
    status: 200,
    body: {
      Status: 2,
      Tid: sale.tid,
      ProofOfSale: sale.proofOfSale,
      AuthorizationCode: sale.authorizationCode,
      ReturnCode: '6',
      ReturnMessage: 'Operation Successful',
      ReasonCode: 0,
      ReasonMessage: 'Successful',
      Links: linksOf(sale),
    },
  };
}

const tooLate = (days: number): Answer => ({
  status: 400,
  body: [{ Code: 40, Message: `${REFUSAL_MESSAGES['40']} (${days} days)` }],
});
const tooSoon: Answer = {
  status: 400,
  body: [{ Code: 99, Message: 'Retry: less than 5 s since the last cancel on this sale' }],
};

function voidOne(sale: SandboxSale | undefined, amountParam: unknown): Answer {
  if (!sale) return { status: 404, body: [{ Code: 307, Message: 'Transaction not found' }] };
  refreshExpiry(sale);
  if (sale.type === 'Pix') return refundPix(sale, amountParam);
  if (sale.status !== 1 && sale.status !== 2)
    return { status: 400, body: [{ Code: 309, Message: 'Transaction not available to void' }] };
  const now = sandboxNow();
  if (sale.status === 2 && sale.capturedAt !== undefined && now - sale.capturedAt > CARD_REFUND_WINDOW_DAYS * DAY_MS)
    return tooLate(CARD_REFUND_WINDOW_DAYS);
  const voidable = sale.status === 1 ? sale.amount : sale.capturedAmount - sale.voidedAmount;
  const amount = amountParam === undefined ? voidable : Number(amountParam);
  if (!Number.isInteger(amount) || amount <= 0 || amount > voidable)
    return { status: 400, body: [{ Code: 51, Message: 'Amount above the original' }] };
  if (sale.status === 1 && amount !== voidable)
    return { status: 400, body: [{ Code: 41, Message: 'Partial void only on captured sales' }] };
  if (sale.lastCancelAt !== undefined && Date.now() - sale.lastCancelAt < CANCEL_SPACING_MS) return tooSoon;
  sale.lastCancelAt = Date.now();
  sale.voidedAmount += amount;
  sale.voidedDate = acquirerDate(new Date(now));
  state.stats.voids++;
  if (sale.status === 1) sale.status = 10;
  else if (sale.voidedAmount === sale.capturedAmount)
    // What is left voided on the capture day is a cancel (10); from the next day on, a refund (11).
    sale.status = sale.capturedAt !== undefined && brasiliaDay(now) === brasiliaDay(sale.capturedAt) ? 10 : 11;
  const partial = sale.status === 2;
  return {
    status: 200,
    body: {
      Status: sale.status,
      Tid: sale.tid,
      ProofOfSale: sale.proofOfSale,
      ReturnCode: partial ? '0' : '9',
      ReturnMessage: 'Operation Successful',
      ReasonCode: 0,
      ReasonMessage: 'Successful',
      ...(partial ? { ProviderReturnCode: '0', ProviderReturnMessage: 'Operation Successful' } : {}),
      VoidedAmount: sale.voidedAmount,
      Links: linksOf(sale),
    },
  };
}

/**
 * A PIX refund (devolução): `void?amount=` on a paid PIX answers Status 12 (requested); it completes
 * SANDBOX_PIX_REFUND_DELAY_MS later (VoidedAmount grows, Status 11) and the sandbox notifies, as for
 * the payment. Repeatable up to what was paid, within 90 days of the payment.
 */
function refundPix(sale: SandboxSale, amountParam: unknown): Answer {
  const pending = sale.pixRefunds ?? [];
  if (!sale.capturedAmount || ![2, 11, 12].includes(sale.status))
    return { status: 400, body: [{ Code: 309, Message: 'Transaction not available to void' }] };
  const now = sandboxNow();
  if (sale.capturedAt !== undefined && now - sale.capturedAt > PIX_REFUND_WINDOW_DAYS * DAY_MS)
    return tooLate(PIX_REFUND_WINDOW_DAYS);
  const refundable = sale.capturedAmount - sale.voidedAmount - pending.reduce((sum, r) => sum + r.amount, 0);
  const amount = amountParam === undefined ? refundable : Number(amountParam);
  if (!Number.isInteger(amount) || amount <= 0 || amount > refundable)
    return { status: 400, body: [{ Code: 51, Message: 'Amount above the original' }] };
  if (sale.lastCancelAt !== undefined && Date.now() - sale.lastCancelAt < CANCEL_SPACING_MS) return tooSoon;
  sale.lastCancelAt = Date.now();
  const delayMs = getConfig().sandbox.pixRefundDelayMs;
  pending.push({ amount, dueAt: Date.now() + delayMs });
  sale.pixRefunds = pending;
  sale.status = 12;
  state.stats.voids++;
  setTimeout(() => void completeDuePixRefunds(sale), delayMs).unref();
  return {
    status: 200,
    body: {
      Status: 12,
      Tid: sale.tid,
      ProofOfSale: sale.proofOfSale,
      ReturnCode: '0',
      ReturnMessage: 'Pix refund requested',
      ReasonCode: 0,
      ReasonMessage: 'Successful',
      Links: linksOf(sale),
    },
  };
}

/** Completes a PIX sale's refunds (those due, or all): VoidedAmount grows, Status 11, then the notice. */
async function completePixRefunds(
  sale: SandboxSale,
  which: 'due' | 'all',
  notifyUrl = sale.notifyUrl,
  sendNotice = true,
): Promise<{ completed: number; notification: { url: string; status: number | null } | null }> {
  const pending = sale.pixRefunds ?? [];
  const done = pending.filter((refund) => which === 'all' || refund.dueAt <= Date.now());
  if (!done.length) return { completed: 0, notification: null };
  sale.pixRefunds = pending.filter((refund) => !done.includes(refund));
  for (const refund of done) sale.voidedAmount += refund.amount;
  sale.voidedDate = acquirerDate(new Date(sandboxNow()));
  sale.status = sale.pixRefunds.length ? 12 : 11;
  sale.returnCode = '0';
  sale.returnMessage = 'Pix refunded';
  state.stats.pixRefundsCompleted += done.length;
  return { completed: done.length, notification: sendNotice ? await notify(sale, 1, notifyUrl) : null };
}

async function completeDuePixRefunds(sale: SandboxSale): Promise<void> {
  if (!state.holdPixRefunds) await completePixRefunds(sale, 'due');
}

/** POSTs a signed notice {PaymentId, ...extra, ChangeType} to our notice URL (or `notifyUrl`). */
export async function notify(
  sale: Pick<SandboxSale, 'paymentId'>,
  changeType: number,
  notifyUrl?: string,
  extra: Json = {},
): Promise<{ url: string; status: number | null }> {
  const url = notifyUrl || `${getConfig().sandbox.notifyUrl}${NOTIFICATION_PATH}`;
  const body = JSON.stringify({ PaymentId: sale.paymentId, ...extra, ChangeType: changeType });
  const signature = crypto.createHmac('sha256', getConfig().acquirer.notificationSecret).update(body).digest('hex');
  state.stats.notificationsSent++;
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: `sha256=${signature}` },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    await response.arrayBuffer();
    return { url, status: response.status };
  } catch {
    return { url, status: null };
  }
}

// ---------------------------------------------------------------------------------------------
// Router
// ---------------------------------------------------------------------------------------------

function router(): Router {
  const r = express.Router();

  // ---- acquirer API (MerchantId/MerchantKey) ----
  r.use('/1', (req, _res, next) => {
    state.stats.requests++;
    next();
  });
  r.use('/1', authenticate, applyFaults);

  r.post('/1/sales', (req, res, next) => {
    const amount = (req.body as Json)?.Payment?.Amount;
    if (amount === FAULT_AMOUNTS.serverError)
      return fail(res, 500, [{ Code: 500, Message: 'Internal error (sandbox test amount)' }]);
    if (amount === FAULT_AMOUNTS.hangAfterProcessing || amount === FAULT_AMOUNTS.resetAfterProcessing) {
      // The acquirer made the sale, but the answer is lost: the caller must reconcile.
      answerOnce(req, createSale);
      if (amount === FAULT_AMOUNTS.resetAfterProcessing) req.socket.destroy();
      else hang(req, res);
      return;
    }
    next();
  });
  r.post('/1/sales', idempotent(createSale));
  r.put('/1/sales/:paymentId/capture', idempotent(captureSale));
  r.put(
    '/1/sales/:paymentId/void',
    idempotent((req) => voidOne(state.sales.get(String(req.params.paymentId)), req.query.amount)),
  );
  r.put(
    '/1/sales/OrderId/:merchantOrderId/void',
    idempotent((req) => {
      const ids = state.byOrderId.get(String(req.params.merchantOrderId)) ?? [];
      return voidOne(state.sales.get(ids[ids.length - 1]), req.query.amount);
    }),
  );
  r.get('/1/sales', (req, res) => {
    const ids = (state.byOrderId.get(String(req.query.merchantOrderId ?? '')) ?? []).filter((id) =>
      state.sales.has(id),
    );
    if (!ids.length) return fail(res, 404, [{ Code: 307, Message: 'Transaction not found' }]);
    res.json({ Payments: ids.map((id) => ({ PaymentId: id, ReceivedDate: state.sales.get(id)!.receivedDate })) });
  });
  r.get('/1/sales/:paymentId', (req, res) => {
    const sale = state.sales.get(String(req.params.paymentId));
    if (!sale) return fail(res, 404, [{ Code: 307, Message: 'Transaction not found' }]);
    refreshExpiry(sale);
    res.json(saleBody(sale));
  });
  r.post(
    '/1/card',
    idempotent((req) => {
      const body = req.body as Json;
      const errors: { Code: number; Message: string }[] = [];
      if (typeof body?.CardNumber !== 'string' || !luhnValid(body.CardNumber))
        errors.push({ Code: 127, Message: 'CardNumber is invalid' });
      if (typeof body?.Holder !== 'string' || !body.Holder || body.Holder.length > 25)
        errors.push({ Code: 128, Message: 'Holder is required (up to 25 characters)' });
      if (typeof body?.ExpirationDate !== 'string' || !/^(0[1-9]|1[0-2])\/\d{4}$/.test(body.ExpirationDate))
        errors.push({ Code: 126, Message: 'Credit Card Expiration Date is invalid' });
      if (!BRANDS.has(body?.Brand)) errors.push({ Code: 130, Message: 'Brand is invalid' });
      if (errors.length) return { status: 400, body: errors };
      const token = crypto.randomUUID();
      state.cards.set(token, {
        number: body.CardNumber,
        holder: body.Holder,
        expirationDate: body.ExpirationDate,
        brand: body.Brand,
      });
      return {
        status: 201,
        body: { CardToken: token, Links: { Method: 'GET', Rel: 'self', Href: `/1/card/${token}` } },
      };
    }),
  );
  r.get('/1/card/:cardToken', (req, res) => {
    const card = state.cards.get(String(req.params.cardToken));
    if (!card) return fail(res, 404, [{ Code: 307, Message: 'CardToken not found' }]);
    res.json({ CardNumber: maskCard(card.number), Holder: card.holder, ExpirationDate: card.expirationDate });
  });

  // ---- test-only controls (no acquirer credentials: this sandbox never runs in production) ----

  /** The payer pays a PIX charge: Status 2, then the notification is POSTed (again on every call, like a retry). */
  r.post('/sandbox/pix/:paymentId/pay', async (req, res) => {
    const sale = state.sales.get(String(req.params.paymentId));
    if (!sale || sale.type !== 'Pix') return fail(res, 404, [{ Code: 307, Message: 'Pix charge not found' }]);
    await payPix(sale, req, res);
  });

  /**
   * The payer's bank app pays a copy-and-paste code (what a QR code holds), as a person paying a checkout's
   * QR code by hand would: the charge is found by its code, then paid as above.
   */
  r.post('/sandbox/pix/pay-code', async (req, res) => {
    const code = typeof req.body?.qr_code === 'string' ? req.body.qr_code.trim() : '';
    const sale = [...state.sales.values()].find((candidate) => candidate.pix?.qrCodeString === code);
    if (!code || !sale) return fail(res, 404, [{ Code: 307, Message: 'No Pix charge has this code' }]);
    await payPix(sale, req, res);
  });

  async function payPix(sale: SandboxSale, req: Request, res: Response): Promise<void> {
    refreshExpiry(sale);
    if (sale.status === 12 && !sale.capturedAmount) {
      sale.status = 2;
      sale.capturedAmount = sale.amount;
      sale.capturedDate = acquirerDate(new Date(sandboxNow()));
      sale.capturedAt = sandboxNow();
      sale.returnCode = '0';
      sale.returnMessage = 'Pix paid';
      sale.pix!.paidAt = new Date();
    } else if (!sale.capturedAmount) {
      return fail(res, 400, [{ Code: 309, Message: `Pix charge cannot be paid in status ${sale.status}` }]);
    }
    const notifyUrl = typeof req.body?.notifyUrl === 'string' ? req.body.notifyUrl : undefined;
    if (notifyUrl) sale.notifyUrl = notifyUrl;
    const notification = req.body?.notify === false ? null : await notify(sale, 1, notifyUrl);
    res.json({ PaymentId: sale.paymentId, Status: sale.status, notification });
  }

  /** The QR code's time runs out now (an unpaid charge then reads Aborted, 13); no notification is sent. */
  r.post('/sandbox/pix/:paymentId/expire', (req, res) => {
    const sale = state.sales.get(String(req.params.paymentId));
    if (!sale || sale.type !== 'Pix') return fail(res, 404, [{ Code: 307, Message: 'Pix charge not found' }]);
    sale.pix!.expiresAt = new Date();
    refreshExpiry(sale);
    res.json({ PaymentId: sale.paymentId, Status: sale.status });
  });

  /** Sends a notification of any ChangeType for a sale, without changing it (duplicates, other events). */
  r.post('/sandbox/notify/:paymentId', async (req, res) => {
    const sale = state.sales.get(String(req.params.paymentId));
    if (!sale) return fail(res, 404, [{ Code: 307, Message: 'Transaction not found' }]);
    const changeType = Number(req.body?.changeType ?? 1);
    res.json({
      notification: await notify(
        sale,
        changeType,
        typeof req.body?.notifyUrl === 'string' ? req.body.notifyUrl : undefined,
      ),
    });
  });

  /** Completes a PIX sale's requested refunds now (held or not), then notifies: `{"notifyUrl"?, "notify"?: false}`. */
  r.post('/sandbox/pix/:paymentId/refunds/complete', async (req, res) => {
    const sale = state.sales.get(String(req.params.paymentId));
    if (!sale || sale.type !== 'Pix') return fail(res, 404, [{ Code: 307, Message: 'Pix charge not found' }]);
    const notifyUrl = typeof req.body?.notifyUrl === 'string' ? req.body.notifyUrl : sale.notifyUrl;
    const result = await completePixRefunds(sale, 'all', notifyUrl, req.body?.notify !== false);
    res.json({ PaymentId: sale.paymentId, Status: sale.status, VoidedAmount: sale.voidedAmount, ...result });
  });

  /** `{"hold": true}`: PIX refunds wait for the complete control; `{"hold": false}`: those due complete now. */
  r.put('/sandbox/pix/refunds/hold', async (req, res) => {
    if (typeof req.body?.hold !== 'boolean') return res.status(400).json({ detail: 'hold must be true or false' });
    state.holdPixRefunds = req.body.hold;
    if (!state.holdPixRefunds)
      for (const sale of state.sales.values()) if (sale.pixRefunds?.length) await completePixRefunds(sale, 'due');
    res.json({ hold: state.holdPixRefunds });
  });

  /**
   * The sandbox's clock (its refund windows and "the capture day"): `{"offsetMs": n}` or `{"date": ISO}`
   * moves it; DELETE puts it back on the real clock.
   */
  r.put('/sandbox/clock', async (req, res) => {
    const body = (req.body ?? {}) as Json;
    if (Number.isInteger(body.offsetMs)) state.clockOffsetMs = body.offsetMs;
    else if (typeof body.date === 'string' && !Number.isNaN(Date.parse(body.date)))
      state.clockOffsetMs = Date.parse(body.date) - Date.now();
    else return res.status(400).json({ detail: 'give offsetMs (an integer) or date (ISO 8601)' });
    for (const listener of clockListeners) await listener();
    res.json({ now: new Date(sandboxNow()).toISOString(), offsetMs: state.clockOffsetMs });
  });
  r.get('/sandbox/clock', (_req, res) => {
    res.json({ now: new Date(sandboxNow()).toISOString(), offsetMs: state.clockOffsetMs });
  });
  r.delete('/sandbox/clock', (_req, res) => {
    state.clockOffsetMs = 0;
    res.status(204).end();
  });

  /** Injects faults into the next acquirer calls: {mode, count, latencyMs, operation, paymentId}. */
  r.post('/sandbox/faults', (req, res) => {
    const body = (req.body ?? {}) as Json;
    const modes = ['latency', 'error', 'drop', 'hang', 'malformed', 'lose', 'refuse'];
    const operations = ['create', 'capture', 'void', 'query', 'card', 'any'];
    if (!modes.includes(body.mode)) return res.status(400).json({ detail: `mode must be one of ${modes.join(', ')}` });
    if (body.operation !== undefined && !operations.includes(body.operation))
      return res.status(400).json({ detail: `operation must be one of ${operations.join(', ')}` });
    if (body.mode === 'refuse' && !(String(body.code) in REFUSAL_MESSAGES))
      return res.status(400).json({ detail: `code must be one of ${Object.keys(REFUSAL_MESSAGES).join(', ')}` });
    const fault: Fault = {
      mode: body.mode,
      remaining: Number.isInteger(body.count) && body.count > 0 ? body.count : 1,
      latencyMs:
        Number.isInteger(body.latencyMs) && body.latencyMs >= 0 ? Math.min(body.latencyMs, HANG_LIMIT_MS) : 1000,
      operation: body.operation ?? 'any',
      paymentId: typeof body.paymentId === 'string' ? body.paymentId : undefined,
      ...(body.mode === 'refuse' ? { code: String(body.code) } : {}),
    };
    state.faults.push(fault);
    res.status(201).json({ faults: state.faults });
  });
  r.get('/sandbox/faults', (_req, res) => {
    res.json({ faults: state.faults });
  });
  r.delete('/sandbox/faults', (_req, res) => {
    state.faults = [];
    res.status(204).end();
  });
  r.get('/sandbox/stats', (_req, res) => {
    res.json(state.stats);
  });
  return r;
}

export const salesSandboxArea: SandboxArea = { name: 'sales', router };
