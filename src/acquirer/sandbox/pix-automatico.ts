/**
 * Sandbox of the acquirer's Pix Automático (provider "Cielo2"): the authorisation QR of a recurrence
 * (POST /1/sales/ with a SelfManagedConsent RecurrentPayment), its read (GET /1/RecurrentPayment/{id}),
 * the receiver's cancellation (PUT /1/RecurrentPayment/{id}/Deactivate), and the payer's bank as test
 * controls: approve (journey 3 also pays the first charge), reject, cancel from the bank app; an
 * unapproved QR expires by the sandbox clock. Every status change POSTs a ChangeType 4 notice
 * {PaymentId, RecurrentPaymentId, ChangeType}. A payment made under a recurrence (journey 3's first) is
 * one of the sales area's PIX sales (Type Pix): its refunds are a PIX's (void?amount= answers Status
 * 12, completes by notice, VoidedAmount grows). Shapes and names we chose: docs/sandbox.md.
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
}

const recurrences = new Map<string, Recurrence>();

const isRecurrenceSale = (body: Json) => body?.Payment?.RecurrentPayment?.RecurrentType === 'SelfManagedConsent';
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
  };
  recurrences.set(recurrenceId, rec);
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
        QrCodeString: rec.qrCodeString,
        QrcodeBase64Image: Buffer.from(`sandbox-qr:${recurrenceId}`).toString('base64'),
        QrCode: { ExpiresAt: new Date(rec.expiresAt).toISOString() },
        RecurrentPayment: recurrenceBody(rec),
      },
    },
  };
}

function move(rec: Recurrence, status: Status): void {
  rec.status = status;
  rec.history.push({ Status: status, Date: new Date(sandboxNow()).toISOString() });
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

function router(): Router {
  const r = express.Router();
  onClockMove(expireDue);
  // Only a recurrence's authorisation stays here; any other sale goes on to the sales area.
  r.post('/1/sales', (req, _res, next) => next(isRecurrenceSale(req.body) ? undefined : 'router'));
  r.post('/1/sales', authenticate, applyFaults, idempotent(createRecurrence));
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
