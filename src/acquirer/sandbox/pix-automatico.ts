/**
 * Sandbox of the acquirer's Pix Automático (provider "Cielo2"): the authorisation QR of a recurrence
 * (POST /1/sales/ with a SelfManagedConsent RecurrentPayment), its read (GET /1/RecurrentPayment/{id}),
 * the receiver's cancellation (PUT /1/RecurrentPayment/{id}/Deactivate), and the payer's bank as test
 * controls: approve (journey 3 also pays the first charge), reject, cancel from the bank app; an
 * unapproved QR expires by the sandbox clock. Every status change POSTs a ChangeType 4 notice
 * {PaymentId, RecurrentPaymentId, ChangeType}. A payment made under a recurrence (journey 3's first) is
 * one of the sales area's PIX sales (Type Pix): its refunds are a PIX's (void?amount= answers Status
 * 12, completes by notice, VoidedAmount grows). Shapes and names we chose: docs/sandbox.md.
 *
 * Each charge of an approved recurrence (POST /1/sales/ with RecurrentPayment.RecurrenceId) is accepted only inside
 * the Central Bank's window (2 to 10 days before its ExpirationDate, by the sandbox clock; a retry from its day up
 * to 7 days after the failed charge's), is Scheduled (20), and is settled by the payer's bank once the sandbox
 * clock reaches 20:00 UTC of its ExpirationDate: paid (2), or failed (3) when its amount ends in 51 cents or the
 * payer's account was told to fail; each settlement POSTs a ChangeType 1 notice {PaymentId, RecurrentPaymentId}.
 * Mounted before the sales area: any other POST /1/sales/ goes on to it.
 */
import crypto from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import type { SandboxArea } from './area';
import {
  acquirerDate,
  applyFaults,
  authenticate,
  fail,
  idempotent,
  newSale,
  notify,
  onClockMove,
  pixCopyPaste,
  sandboxNow,
  type Answer,
  type Json,
  type SandboxSale,
} from './sales';

const STATUSES = ['Created', 'Approved', 'Rejected', 'Expired', 'Cancelled'] as const;
type Status = (typeof STATUSES)[number];
const INTERVALS = new Set(['Weekly', 'Monthly', 'Quarterly', 'SemiAnnual', 'Annual']);
const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** An authorisation QR lives 24 h unless Payment.QrCode.Expiration (seconds, up to 7 days) says otherwise. */
const DEFAULT_EXPIRY_SECONDS = 86_400;
const MAX_EXPIRY_SECONDS = 7 * 86_400;
/** The recurrence notice's ChangeType (the acquirer's "recurrence status changed"). */
const RECURRENCE_CHANGED = 4;
/** A charge's settlement notice: the acquirer's "payment status changed", naming its recurrence. */
const PAYMENT_CHANGED = 1;
const DAY_MS = 86_400_000;
/** The payer's bank settles a charge in the evening of its ExpirationDate (UTC here). */
const SETTLEMENT_HOUR_UTC = 20;
/** A charge whose amount ends in these cents fails at settlement (no funds), every time. */
export const PIX_CHARGE_FAILING_CENTS = 51;
const NO_FUNDS = { code: 'AM04', message: 'Saldo insuficiente na conta do pagador' };

interface Recurrence {
  recurrenceId: string;
  sale: SandboxSale;
  merchantOrderId: string;
  authorizeNow: boolean;
  startDate: string;
  endDate?: string;
  interval: string;
  retryPolicy?: string;
  amount?: number;
  minimumAmount?: number;
  plan: string;
  status: Status;
  history: { Status: Status; Date: string }[];
  qrCodeString: string;
  expiresAt: number;
  rejection?: { Code: string; Description: string };
  cancellation?: { RequestedBy: 'Payer' | 'Receiver'; Code: string; Reason: string; Date: string };
  notifyUrl?: string;
  /** Settlements of this recurrence's charges the payer's bank fails next (test control). */
  failNext: number;
  /** Every charge request received for it, accepted or refused (the test's record of what reached us). */
  received: ReceivedCharge[];
}

interface ReceivedCharge {
  PaymentId: string | null;
  MerchantOrderId: string;
  Amount: number;
  ExpirationDate: string;
  OriginalPaymentId: string | null;
  /** null while accepted; the refusal's code otherwise. */
  RefusedCode: number | null;
  ReceivedAt: string;
}

interface ScheduledCharge {
  sale: SandboxSale;
  recurrence: Recurrence;
  expirationDate: string;
  originalPaymentId: string | null;
  /** Retries sent for this charge (an original charge only). */
  retries: string[];
}

const recurrences = new Map<string, Recurrence>();
const charges = new Map<string, ScheduledCharge>();

const isRecurrenceSale = (body: Json) => body?.Payment?.RecurrentPayment?.RecurrentType === 'SelfManagedConsent';
const isRecurrenceCharge = (body: Json) =>
  body?.Payment?.RecurrentPayment?.RecurrenceType === 'SelfManagedConsent' &&
  typeof body?.Payment?.RecurrentPayment?.RecurrenceId === 'string';
const positiveInt = (value: unknown) => Number.isInteger(value) && (value as number) > 0;

function validate(body: Json): { Code: number; Message: string }[] {
  const errors: { Code: number; Message: string }[] = [];
  const payment = body.Payment;
  const recurrent = payment.RecurrentPayment;
  if (typeof body.MerchantOrderId !== 'string' || !/^[A-Za-z0-9]{1,50}$/.test(body.MerchantOrderId))
    errors.push({ Code: 122, Message: 'MerchantOrderId is required (alphanumeric, up to 50 characters)' });
  if (payment.Type !== 'Pix') errors.push({ Code: 105, Message: 'Payment Type must be Pix for a recurrence' });
  if (payment.Provider !== 'Cielo2') errors.push({ Code: 106, Message: 'Provider must be Cielo2 for Pix Automatico' });
  if (!positiveInt(payment.Amount)) errors.push({ Code: 108, Message: 'Amount must be greater than zero' });
  if (!body.Customer?.Name) errors.push({ Code: 156, Message: 'Customer Name is required' });
  if (!body.Customer?.Identity) errors.push({ Code: 157, Message: 'Customer Identity is required' });
  if (typeof recurrent.AuthorizeNow !== 'boolean') errors.push({ Code: 200, Message: 'AuthorizeNow is required' });
  if (typeof recurrent.StartDate !== 'string' || !DAY.test(recurrent.StartDate))
    errors.push({ Code: 201, Message: 'StartDate is required (YYYY-MM-DD)' });
  if (recurrent.EndDate !== undefined && (typeof recurrent.EndDate !== 'string' || !DAY.test(recurrent.EndDate)))
    errors.push({ Code: 202, Message: 'EndDate is invalid (YYYY-MM-DD)' });
  if (!INTERVALS.has(recurrent.Interval ?? 'Monthly'))
    errors.push({ Code: 203, Message: `Interval must be one of ${[...INTERVALS].join(', ')}` });
  if (recurrent.RetryPolicy !== undefined && recurrent.RetryPolicy !== 'Allowed_3R_7D')
    errors.push({ Code: 204, Message: 'RetryPolicy must be Allowed_3R_7D or absent' });
  const fixed = recurrent.Amount !== undefined;
  const variable = recurrent.MinimumAmount !== undefined;
  if (fixed === variable) errors.push({ Code: 205, Message: 'Give Amount (fixed) or MinimumAmount (variable)' });
  else if (!positiveInt(fixed ? recurrent.Amount : recurrent.MinimumAmount))
    errors.push({ Code: 108, Message: 'Recurrence amount must be greater than zero' });
  if (typeof recurrent.Plan !== 'string' || !recurrent.Plan || recurrent.Plan.length > 35)
    errors.push({ Code: 206, Message: 'Plan is required (up to 35 characters)' });
  const expiration = payment.QrCode?.Expiration;
  if (expiration !== undefined && (!positiveInt(expiration) || expiration > MAX_EXPIRY_SECONDS))
    errors.push({ Code: 191, Message: `QrCode Expiration must be 1 to ${MAX_EXPIRY_SECONDS} seconds` });
  return errors;
}

function recurrenceBody(rec: Recurrence): Json {
  return {
    RecurrenceId: rec.recurrenceId,
    RecurrentType: 'SelfManagedConsent',
    PaymentId: rec.sale.paymentId,
    MerchantOrderId: rec.merchantOrderId,
    AuthorizeNow: rec.authorizeNow,
    StartDate: rec.startDate,
    ...(rec.endDate ? { EndDate: rec.endDate } : {}),
    Interval: rec.interval,
    ...(rec.retryPolicy ? { RetryPolicy: rec.retryPolicy } : {}),
    ...(rec.amount !== undefined ? { Amount: rec.amount } : { MinimumAmount: rec.minimumAmount }),
    Plan: rec.plan,
    Status: rec.status,
    StatusHistory: rec.history,
    QrCode: { ExpiresAt: new Date(rec.expiresAt).toISOString() },
    ...(rec.authorizeNow
      ? { FirstPayment: { PaymentId: rec.sale.paymentId, Status: rec.sale.status, Amount: rec.sale.amount } }
      : {}),
    ...(rec.rejection ? { Rejection: rec.rejection } : {}),
    ...(rec.cancellation ? { Cancellation: rec.cancellation } : {}),
  };
}

function createRecurrence(req: Request): Answer {
  const body = req.body as Json;
  const errors = validate(body);
  if (errors.length) return { status: 400, body: errors };
  const payment = body.Payment;
  const recurrent = payment.RecurrentPayment;
  const sale = newSale(body, 'Pix');
  // Journey 3: the first charge, pending until the payer approves; journey 2: nothing to pay (20 Scheduled).
  sale.status = recurrent.AuthorizeNow ? 12 : 20;
  sale.returnCode = '0';
  sale.returnMessage = 'Pix Automatico authorisation created';
  const recurrenceId = `RR${crypto.randomBytes(14).toString('hex').slice(0, 27).toUpperCase()}`;
  const now = sandboxNow();
  const rec: Recurrence = {
    recurrenceId,
    sale,
    merchantOrderId: body.MerchantOrderId,
    authorizeNow: recurrent.AuthorizeNow,
    startDate: recurrent.StartDate,
    endDate: recurrent.EndDate,
    interval: recurrent.Interval ?? 'Monthly',
    retryPolicy: recurrent.RetryPolicy,
    amount: recurrent.Amount,
    minimumAmount: recurrent.MinimumAmount,
    plan: recurrent.Plan,
    status: 'Created',
    history: [{ Status: 'Created', Date: new Date(now).toISOString() }],
    qrCodeString: pixCopyPaste({ paymentId: recurrenceId, amount: sale.amount }, recurrenceId),
    expiresAt: now + (payment.QrCode?.Expiration ?? DEFAULT_EXPIRY_SECONDS) * 1000,
    failNext: 0,
    received: [],
  };
  recurrences.set(recurrenceId, rec);
  return pixSaleAnswer(body, sale, {
    QrCodeString: rec.qrCodeString,
    QrcodeBase64Image: Buffer.from(`sandbox-qr:${recurrenceId}`).toString('base64'),
    QrCode: { ExpiresAt: new Date(rec.expiresAt).toISOString() },
    RecurrentPayment: recurrenceBody(rec),
  });
}

/**
 * The 201 answer to a POST /1/sales/ of a Cielo2 PIX payment, a recurrence's or one of its charges': the request's
 * order and customer, the sale, then what the kind of payment adds (`extra`).
 */
function pixSaleAnswer(body: Json, sale: SandboxSale, extra: Json): Answer {
  return {
    status: 201,
    body: {
      MerchantOrderId: body.MerchantOrderId,
      Customer: body.Customer,
      Payment: {
        PaymentId: sale.paymentId,
        Type: 'Pix',
        Provider: 'Cielo2',
        Amount: sale.amount,
        ReceivedDate: sale.receivedDate,
        Status: sale.status,
        ReturnCode: sale.returnCode,
        ReturnMessage: sale.returnMessage,
        ...extra,
      },
    },
  };
}

function move(rec: Recurrence, status: Status): void {
  rec.status = status;
  rec.history.push({ Status: status, Date: new Date(sandboxNow()).toISOString() });
  if (status === 'Cancelled') void voidScheduledCharges(rec);
}

/** A Created recurrence whose QR time has run out (by the sandbox clock) is Expired; its first payment Aborted. */
function refresh(rec: Recurrence): boolean {
  if (rec.status !== 'Created' || rec.expiresAt > sandboxNow()) return false;
  move(rec, 'Expired');
  if (rec.authorizeNow) closeFirstPayment(rec, 'Pix Automatico authorisation expired');
  return true;
}

function closeFirstPayment(rec: Recurrence, message: string): void {
  rec.sale.status = 13;
  rec.sale.returnMessage = message;
}

async function notifyChange(rec: Recurrence, notifyUrl?: string) {
  // The payment's own notices (a refund of journey 3's first payment completing) go where the payer's bank was told.
  if (notifyUrl) rec.notifyUrl = rec.sale.notifyUrl = notifyUrl;
  return notify(rec.sale, RECURRENCE_CHANGED, rec.notifyUrl, { RecurrentPaymentId: rec.recurrenceId });
}

/** Expires, and notifies, every recurrence the moved clock has run out. */
async function expireDue(): Promise<void> {
  for (const rec of recurrences.values()) if (refresh(rec)) await notifyChange(rec);
}

/** The recurrence a payer control names: by path id, or by the copy-and-paste text the payer's app read. */
function recurrenceOf(req: Request): Recurrence | undefined {
  if (req.params.recurrenceId !== 'by-code') return recurrences.get(String(req.params.recurrenceId));
  const code = typeof req.body?.qr_code === 'string' ? req.body.qr_code.trim() : '';
  return code ? [...recurrences.values()].find((rec) => rec.qrCodeString === code) : undefined;
}

type PayerAction = 'approve' | 'reject' | 'cancel';

/** What the payer's bank does; null when the recurrence's status does not allow it. */
function act(rec: Recurrence, action: PayerAction, body: Json): boolean {
  refresh(rec);
  const at = new Date(sandboxNow());
  if (action === 'approve' && rec.status === 'Created') {
    move(rec, 'Approved');
    if (rec.authorizeNow) {
      Object.assign(rec.sale, {
        status: 2,
        capturedAmount: rec.sale.amount,
        capturedDate: acquirerDate(at),
        capturedAt: at.getTime(),
        returnMessage: 'Pix paid (Pix Automatico first payment)',
      });
    }
    return true;
  }
  if (action === 'reject' && rec.status === 'Created') {
    move(rec, 'Rejected');
    rec.rejection = {
      Code: typeof body.code === 'string' ? body.code : 'AP13',
      Description: typeof body.reason === 'string' ? body.reason.slice(0, 105) : 'Rejected by the payer',
    };
    if (rec.authorizeNow) closeFirstPayment(rec, 'Pix Automatico authorisation rejected');
    return true;
  }
  if (action === 'cancel' && rec.status === 'Approved') {
    move(rec, 'Cancelled');
    rec.cancellation = {
      RequestedBy: 'Payer',
      Code: typeof body.code === 'string' ? body.code : 'SLDB',
      Reason: typeof body.reason === 'string' ? body.reason.slice(0, 105) : 'Cancelled by the payer',
      Date: at.toISOString(),
    };
    return true;
  }
  return false;
}

/** PUT /1/RecurrentPayment/{id}/Deactivate: the receiver cancels (Created or Approved); again: the same answer. */
function deactivate(req: Request): Answer {
  const rec = recurrences.get(String(req.params.recurrenceId));
  if (!rec) return { status: 404, body: [{ Code: 307, Message: 'Recurrence not found' }] };
  refresh(rec);
  if (rec.status === 'Cancelled' && rec.cancellation?.RequestedBy === 'Receiver')
    return { status: 200, body: { RecurrenceId: rec.recurrenceId, Status: rec.status } };
  if (rec.status !== 'Created' && rec.status !== 'Approved')
    return { status: 400, body: [{ Code: 309, Message: `Recurrence cannot be cancelled in status ${rec.status}` }] };
  if (rec.status === 'Created' && rec.authorizeNow) closeFirstPayment(rec, 'Pix Automatico authorisation cancelled');
  move(rec, 'Cancelled');
  const reason = typeof req.body?.Reason === 'string' ? req.body.Reason.slice(0, 105) : 'Cancelled by the receiver';
  rec.cancellation = {
    RequestedBy: 'Receiver',
    Code: 'SLCR',
    Reason: reason,
    Date: new Date(sandboxNow()).toISOString(),
  };
  void notifyChange(rec);
  return { status: 200, body: { RecurrenceId: rec.recurrenceId, Status: rec.status } };
}

// ---- charges of a recurrence ----

const sandboxDay = () => new Date(sandboxNow()).toISOString().slice(0, 10);
const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);
const addDay = (day: string, days: number) => new Date(Date.parse(day) + days * DAY_MS).toISOString().slice(0, 10);

/** Why a charge is refused (the acquirer's 400 [{Code, Message}]), or null when it is accepted. */
function chargeRefusal(body: Json, rec: Recurrence | undefined): { Code: number; Message: string } | null {
  const payment = body.Payment;
  const recurrent = payment.RecurrentPayment;
  if (typeof body.MerchantOrderId !== 'string' || !/^[A-Za-z0-9]{1,50}$/.test(body.MerchantOrderId))
    return { Code: 122, Message: 'MerchantOrderId is required (alphanumeric, up to 50 characters)' };
  if (payment.Type !== 'Pix') return { Code: 105, Message: 'Payment Type must be Pix for a recurrence charge' };
  if (payment.Provider !== 'Cielo2') return { Code: 106, Message: 'Provider must be Cielo2 for Pix Automatico' };
  if (!positiveInt(payment.Amount)) return { Code: 108, Message: 'Amount must be greater than zero' };
  if (typeof payment.ExpirationDate !== 'string' || !DAY.test(payment.ExpirationDate))
    return { Code: 207, Message: 'ExpirationDate is required (YYYY-MM-DD)' };
  if (recurrent.AuthorizeNow !== true) return { Code: 200, Message: 'AuthorizeNow must be true for a charge' };
  if (!rec) return { Code: 310, Message: 'RecurrenceId not found' };
  refresh(rec);
  if (rec.status !== 'Approved') return { Code: 311, Message: `Recurrence is ${rec.status}: it accepts no charge` };
  if (rec.amount !== undefined && payment.Amount !== rec.amount)
    return { Code: 314, Message: `Amount must be the recurrence's fixed Amount ${rec.amount}` };
  if (rec.minimumAmount !== undefined && payment.Amount < rec.minimumAmount)
    return { Code: 314, Message: `Amount is below the recurrence's MinimumAmount ${rec.minimumAmount}` };
  const today = sandboxDay();
  const original = recurrent.OriginalPaymentId;
  if (original === undefined) {
    const ahead = daysBetween(today, payment.ExpirationDate);
    if (ahead < 2 || ahead > 10)
      return { Code: 312, Message: 'ExpirationDate must be 2 to 10 days after the day the charge is sent' };
    return null;
  }
  const failed = charges.get(String(original));
  if (!failed || failed.recurrence !== rec || failed.originalPaymentId !== null || failed.sale.status !== 3)
    return { Code: 313, Message: 'OriginalPaymentId is not a failed charge of this recurrence' };
  if (!rec.retryPolicy) return { Code: 313, Message: 'The recurrence has no RetryPolicy: a failed charge is final' };
  const tries = [failed.expirationDate, ...failed.retries.map((id) => charges.get(id)!.expirationDate)];
  if (failed.retries.length >= 3) return { Code: 313, Message: 'A charge is retried at most 3 times' };
  if (failed.retries.some((id) => charges.get(id)!.sale.status === 20))
    return { Code: 313, Message: 'A retry of this charge is already scheduled' };
  if (
    payment.ExpirationDate < today ||
    payment.ExpirationDate > addDay(failed.expirationDate, 7) ||
    tries.includes(payment.ExpirationDate)
  )
    return { Code: 313, Message: 'A retry settles on a new day from today up to 7 days after the due date' };
  return null;
}

function createCharge(req: Request): Answer {
  const body = req.body as Json;
  const payment = body.Payment;
  const recurrent = payment.RecurrentPayment;
  const rec = recurrences.get(recurrent.RecurrenceId);
  const refusal = chargeRefusal(body, rec);
  const received: Omit<ReceivedCharge, 'PaymentId' | 'RefusedCode'> = {
    MerchantOrderId: String(body.MerchantOrderId ?? ''),
    Amount: Number(payment.Amount),
    ExpirationDate: String(payment.ExpirationDate ?? ''),
    OriginalPaymentId: typeof recurrent.OriginalPaymentId === 'string' ? recurrent.OriginalPaymentId : null,
    ReceivedAt: new Date(sandboxNow()).toISOString(),
  };
  if (refusal) {
    rec?.received.push({ ...received, PaymentId: null, RefusedCode: refusal.Code });
    return { status: 400, body: [refusal] };
  }
  const sale = newSale(body, 'Pix');
  sale.status = 20;
  sale.returnCode = '0';
  sale.returnMessage = `Pix Automatico charge scheduled for ${payment.ExpirationDate}`;
  const charge: ScheduledCharge = {
    sale,
    recurrence: rec!,
    expirationDate: payment.ExpirationDate,
    originalPaymentId: received.OriginalPaymentId,
    retries: [],
  };
  charges.set(sale.paymentId, charge);
  if (charge.originalPaymentId) charges.get(charge.originalPaymentId)!.retries.push(sale.paymentId);
  rec!.received.push({ ...received, PaymentId: sale.paymentId, RefusedCode: null });
  return pixSaleAnswer(body, sale, {
    ExpirationDate: charge.expirationDate,
    RecurrentPayment: {
      RecurrenceId: rec!.recurrenceId,
      RecurrenceType: 'SelfManagedConsent',
      AuthorizeNow: true,
      ...(charge.originalPaymentId ? { OriginalPaymentId: charge.originalPaymentId } : {}),
    },
  });
}

/** The payer's bank settles one charge: paid, or failed (no funds). */
function settle(charge: ScheduledCharge): void {
  const { sale, recurrence } = charge;
  const at = new Date(sandboxNow());
  const fails = recurrence.failNext > 0 || sale.amount % 100 === PIX_CHARGE_FAILING_CENTS;
  if (recurrence.failNext > 0) recurrence.failNext--;
  if (fails) {
    Object.assign(sale, { status: 3, returnCode: NO_FUNDS.code, returnMessage: NO_FUNDS.message });
    return;
  }
  Object.assign(sale, {
    status: 2,
    returnCode: '0',
    returnMessage: 'Pix Automatico charge paid',
    capturedAmount: sale.amount,
    capturedDate: acquirerDate(at),
    capturedAt: at.getTime(),
  });
}

/** Settles, and notifies, every scheduled charge whose ExpirationDate evening the sandbox clock has reached. */
async function settleDue(): Promise<void> {
  const now = sandboxNow();
  for (const charge of charges.values()) {
    if (charge.sale.status !== 20) continue;
    if (Date.parse(`${charge.expirationDate}T${SETTLEMENT_HOUR_UTC}:00:00Z`) > now) continue;
    settle(charge);
    await notifyCharge(charge);
  }
}

async function notifyCharge(charge: ScheduledCharge) {
  return notify(charge.sale, PAYMENT_CHANGED, charge.recurrence.notifyUrl, {
    RecurrentPaymentId: charge.recurrence.recurrenceId,
  });
}

/** A cancelled recurrence's scheduled charges are voided (10) and notified: the payer's bank will not pay them. */
async function voidScheduledCharges(rec: Recurrence): Promise<void> {
  for (const charge of charges.values()) {
    if (charge.recurrence !== rec || charge.sale.status !== 20) continue;
    Object.assign(charge.sale, { status: 10, returnCode: 'MD06', returnMessage: 'Recurrence cancelled' });
    await notifyCharge(charge);
  }
}

function router(): Router {
  const r = express.Router();
  onClockMove(expireDue);
  onClockMove(settleDue);
  // Only a recurrence's authorisation and its charges stay here; any other sale goes on to the sales area.
  r.post('/1/sales', (req, _res, next) =>
    next(isRecurrenceSale(req.body) || isRecurrenceCharge(req.body) ? undefined : 'router'),
  );
  r.post(
    '/1/sales',
    authenticate,
    applyFaults,
    idempotent((req) => (isRecurrenceCharge(req.body) ? createCharge(req) : createRecurrence(req))),
  );
  r.get('/1/RecurrentPayment/:recurrenceId', authenticate, applyFaults, (req: Request, res: Response) => {
    const rec = recurrences.get(String(req.params.recurrenceId));
    if (!rec) return fail(res, 404, [{ Code: 307, Message: 'Recurrence not found' }]);
    if (refresh(rec)) void notifyChange(rec);
    res.json({ RecurrentPayment: recurrenceBody(rec) });
  });
  r.put('/1/RecurrentPayment/:recurrenceId/Deactivate', authenticate, applyFaults, idempotent(deactivate));

  // ---- the payer's bank (test-only controls) ----
  for (const action of ['approve', 'reject', 'cancel'] as const) {
    r.post(`/sandbox/pix-automatico/:recurrenceId/${action}`, async (req, res) => {
      const rec = recurrenceOf(req);
      if (!rec) return fail(res, 404, [{ Code: 307, Message: 'No Pix Automatico recurrence found' }]);
      const body = (req.body ?? {}) as Json;
      if (!act(rec, action, body))
        return fail(res, 400, [{ Code: 309, Message: `Cannot ${action} a recurrence in status ${rec.status}` }]);
      const notifyUrl = typeof body.notifyUrl === 'string' ? body.notifyUrl : undefined;
      const notification = body.notify === false ? null : await notifyChange(rec, notifyUrl);
      res.json({ RecurrentPayment: recurrenceBody(rec), notification });
    });
  }
  /** Every charge request the recurrence received, accepted or refused, oldest first. */
  r.get('/sandbox/pix-automatico/:recurrenceId/charges', (req, res) => {
    const rec = recurrences.get(String(req.params.recurrenceId));
    if (!rec) return fail(res, 404, [{ Code: 307, Message: 'No Pix Automatico recurrence found' }]);
    res.json({
      Charges: rec.received.map((received) => ({
        ...received,
        Status: received.PaymentId ? charges.get(received.PaymentId)!.sale.status : null,
      })),
    });
  });
  /** The payer's account fails the next `count` settlements of this recurrence's charges (no funds). */
  r.post('/sandbox/pix-automatico/:recurrenceId/fail-settlements', (req, res) => {
    const rec = recurrences.get(String(req.params.recurrenceId));
    if (!rec) return fail(res, 404, [{ Code: 307, Message: 'No Pix Automatico recurrence found' }]);
    const count = req.body?.count;
    if (!Number.isInteger(count) || count < 0)
      return fail(res, 400, [{ Code: 315, Message: 'count: an integer >= 0' }]);
    rec.failNext = count;
    res.json({ failNext: rec.failNext });
  });
  /** The QR's time runs out now (by moving its expiry, not the clock); notifies like the clock would. */
  r.post('/sandbox/pix-automatico/:recurrenceId/expire', async (req, res) => {
    const rec = recurrenceOf(req);
    if (!rec) return fail(res, 404, [{ Code: 307, Message: 'No Pix Automatico recurrence found' }]);
    rec.expiresAt = Math.min(rec.expiresAt, sandboxNow());
    const expired = refresh(rec);
    res.json({ RecurrentPayment: recurrenceBody(rec), notification: expired ? await notifyChange(rec) : null });
  });
  return r;
}

export const pixAutomaticoSandboxArea: SandboxArea = { name: 'pix-automatico', router };
