/**
 * Pix Automático at the acquirer (provider "Cielo2"): the authorisation QR of a recurrence
 * (POST /1/sales/ with a RecurrentPayment node), the recurrence read back (GET), and the
 * receiver's cancellation. The acquirer's public pages give the request; the answer's names and
 * the two other paths are ours (docs/sandbox.md, "Pix Automático"), chosen as follows:
 *
 * - GET /1/RecurrentPayment/{RecurrenceId} (query host) and PUT /1/RecurrentPayment/{RecurrenceId}/Deactivate
 *   (transactional host): the acquirer's own verbs for its card recurrences (section 4 of its API),
 *   applied to a PIX recurrence's id.
 * - RecurrentPayment.Status is one of Created, Approved, Rejected, Expired, Cancelled: the Central
 *   Bank's CRIADA, APROVADA, REJEITADA, EXPIRADA, CANCELADA (bacen/pix-api, /rec) in the acquirer's
 *   English PascalCase. Any other value is read as unknown and changes nothing.
 * - Cancellation.RequestedBy is Payer or Receiver (the Central Bank's USUARIO_PAGADOR /
 *   USUARIO_RECEBEDOR, PSPs folded in), with its Code (Central Bank reason codes) and Reason text.
 * - A charge (POST /1/sales/ with RecurrentPayment.RecurrenceId) answers a sale, Status 20 (Scheduled) until the
 *   payer's bank settles it on ExpirationDate: 2 (paid) or 3 (failed, the Central Bank's reason as ReturnCode);
 *   10 (Voided) when the recurrence was cancelled before. A retry is the same call with
 *   RecurrentPayment.OriginalPaymentId naming the failed charge (the reference has no path for it: ours).
 */
import { AcquirerUnavailableError } from './errors';
import { customerBody, paymentOf, str, toSale, type Json } from './mapping';
import { call, requestIdFor } from './transport';
import type { AcquirerCustomer, AcquirerSale } from './types';

export const PIX_RECURRENCE_STATUSES = ['Created', 'Approved', 'Rejected', 'Expired', 'Cancelled'] as const;
export type PixRecurrenceStatus = (typeof PIX_RECURRENCE_STATUSES)[number];

export const PIX_RECURRENCE_INTERVALS = ['Weekly', 'Monthly', 'Quarterly', 'SemiAnnual', 'Annual'] as const;
export type PixRecurrenceInterval = (typeof PIX_RECURRENCE_INTERVALS)[number];

/** The only retry policy the acquirer names; absent means a failed charge is not retried. */
export const PIX_RETRY_POLICY = 'Allowed_3R_7D';

export interface PixRecurrenceRequest {
  idempotencyKey: string;
  /** Sent on as the recurrence's contract number: alphanumeric, at most 50. */
  merchantOrderId: string;
  customer: AcquirerCustomer;
  /** Journey 3 (true): the QR pays the first charge now and authorises the rest; journey 2 (false): authorises only. */
  authorizeNow: boolean;
  /** First payment (journey 3) or the planned amount of a charge (journey 2), cents. */
  amountCents: number;
  startDate: string;
  endDate?: string | null;
  interval: PixRecurrenceInterval;
  retry: boolean;
  /** Fixed amount of every charge, cents; or, for variable amounts, the receiver's minimum. */
  fixedAmountCents?: number;
  minimumAmountCents?: number;
  /** What is paid for (shown to the payer in the bank app). */
  plan: string;
}

export interface PixRecurrenceCancellation {
  requestedBy: 'Payer' | 'Receiver';
  code: string;
  reason: string;
  date: string | undefined;
}

export interface PixRecurrence {
  recurrenceId: string;
  /** The authorisation's payment (journey 3: the first charge). */
  paymentId: string;
  status: PixRecurrenceStatus | 'Unknown';
  /** When the acquirer says the status was reached (ISO 8601), from its history. */
  statusDate?: string;
  authorizeNow: boolean;
  qrCodeString?: string;
  qrCodeBase64Image?: string;
  expiresAt?: string;
  /** Journey 3: the first payment, as the acquirer sees it (Status 2 paid). */
  firstPayment?: { paymentId: string; status: number; amountCents: number };
  rejection?: { code: string; description: string };
  cancellation?: PixRecurrenceCancellation;
  raw: Json;
}

function statusOf(value: unknown): PixRecurrenceStatus | 'Unknown' {
  return (PIX_RECURRENCE_STATUSES as readonly unknown[]).includes(value) ? (value as PixRecurrenceStatus) : 'Unknown';
}

/** A RecurrentPayment node of either answer (the create's Payment.RecurrentPayment, the GET's root one). */
function toRecurrence(node: Json, payment: Json | undefined): PixRecurrence {
  if (typeof node?.RecurrenceId !== 'string')
    throw new AcquirerUnavailableError('acquirer pixRecurrence: malformed answer (no RecurrenceId)', true);
  const status = statusOf(node.Status);
  const history: Json[] = Array.isArray(node.StatusHistory) ? node.StatusHistory : [];
  const reached = [...history].reverse().find((entry) => entry?.Status === node.Status);
  const first = node.FirstPayment ?? (node.AuthorizeNow && payment ? payment : undefined);
  const cancellation = node.Cancellation;
  return {
    recurrenceId: node.RecurrenceId,
    paymentId: String(node.PaymentId ?? payment?.PaymentId ?? ''),
    status,
    statusDate: str(reached?.Date),
    authorizeNow: Boolean(node.AuthorizeNow),
    qrCodeString: str(payment?.QrCodeString ?? node.QrCodeString),
    qrCodeBase64Image: str(payment?.QrcodeBase64Image ?? node.QrcodeBase64Image),
    expiresAt: str(node.QrCode?.ExpiresAt ?? payment?.QrCode?.ExpiresAt),
    firstPayment:
      first && typeof first.PaymentId === 'string'
        ? { paymentId: first.PaymentId, status: Number(first.Status), amountCents: Number(first.Amount ?? 0) }
        : undefined,
    rejection: node.Rejection
      ? { code: String(node.Rejection.Code ?? ''), description: String(node.Rejection.Description ?? '') }
      : undefined,
    cancellation: cancellation
      ? {
          requestedBy: cancellation.RequestedBy === 'Receiver' ? 'Receiver' : 'Payer',
          code: String(cancellation.Code ?? ''),
          reason: String(cancellation.Reason ?? ''),
          date: str(cancellation.Date),
        }
      : undefined,
    raw: node,
  };
}

/**
 * POST /1/sales/ of a Pix Automático sale (Payment.Type Pix, Provider Cielo2): the order, the plan and the payer
 * as every such sale carries them, and the Payment's own fields. The idempotency key is its RequestId.
 */
function postPixSale(
  operation: string,
  order: Pick<PixRecurrenceRequest, 'idempotencyKey' | 'merchantOrderId' | 'plan' | 'customer'>,
  payment: Record<string, unknown>,
) {
  return call({
    operation,
    method: 'POST',
    host: 'transactional',
    path: '/1/sales/',
    requestId: requestIdFor(order.idempotencyKey),
    body: {
      MerchantOrderId: order.merchantOrderId,
      OrderDescription: order.plan,
      Customer: customerBody(order.customer),
      Payment: { Type: 'Pix', Provider: 'Cielo2', ...payment },
    },
  });
}

/**
 * POST /1/sales/ with Payment.Type Pix, Provider Cielo2 and a SelfManagedConsent RecurrentPayment: the
 * authorisation QR and the recurrence's id, status Created. A retry with the same idempotencyKey sends
 * the same RequestId and gets the same recurrence.
 */
export async function createPixRecurrence(input: PixRecurrenceRequest): Promise<PixRecurrence> {
  const result = await postPixSale('createPixRecurrence', input, {
    Amount: input.amountCents,
    RecurrentPayment: {
      RecurrentType: 'SelfManagedConsent',
      AuthorizeNow: input.authorizeNow,
      StartDate: input.startDate,
      ...(input.endDate ? { EndDate: input.endDate } : {}),
      Interval: input.interval,
      ...(input.retry ? { RetryPolicy: PIX_RETRY_POLICY } : {}),
      ...(input.fixedAmountCents !== undefined
        ? { Amount: input.fixedAmountCents }
        : { MinimumAmount: input.minimumAmountCents }),
      Plan: input.plan,
    },
  });
  const payment = paymentOf(result!.body, 'createPixRecurrence');
  const recurrence = toRecurrence(payment.RecurrentPayment, payment);
  if (!recurrence.qrCodeString)
    throw new AcquirerUnavailableError('acquirer createPixRecurrence: malformed answer (no QrCodeString)', true);
  return recurrence;
}

/** GET /1/RecurrentPayment/{RecurrenceId} on the query host; null when the acquirer does not know it. */
export async function getPixRecurrence(recurrenceId: string): Promise<PixRecurrence | null> {
  const result = await call({
    operation: 'getPixRecurrence',
    method: 'GET',
    host: 'query',
    path: `/1/RecurrentPayment/${encodeURIComponent(recurrenceId)}`,
    notFoundAsNull: true,
  });
  return result ? toRecurrence((result.body as Json).RecurrentPayment, undefined) : null;
}

/**
 * PUT /1/RecurrentPayment/{RecurrenceId}/Deactivate: the receiver cancels the recurrence (every later
 * charge is refused). Answers the recurrence's status after the call; idempotent at the acquirer.
 */
export async function cancelPixRecurrence(
  recurrenceId: string,
  reason: string,
): Promise<PixRecurrenceStatus | 'Unknown'> {
  const result = await call({
    operation: 'cancelPixRecurrence',
    method: 'PUT',
    host: 'transactional',
    path: `/1/RecurrentPayment/${encodeURIComponent(recurrenceId)}/Deactivate`,
    requestId: requestIdFor(`pix-recurrence-cancel-${recurrenceId}`),
    body: { Reason: reason },
  });
  return statusOf((result!.body as Json).Status);
}

export interface PixChargeOfRecurrence {
  idempotencyKey: string;
  merchantOrderId: string;
  recurrenceId: string;
  amountCents: number;
  /** The day the payer's bank settles the charge (the cycle's due date, or a retry's day), YYYY-MM-DD. */
  expirationDate: string;
  /** A retry under Allowed_3R_7D: the PaymentId of the charge whose settlement failed. */
  originalPaymentId?: string;
  customer: AcquirerCustomer;
  plan: string;
}

/**
 * POST /1/sales/ with Provider Cielo2 and RecurrentPayment {AuthorizeNow true, RecurrenceType SelfManagedConsent,
 * RecurrenceId, BusinessDayAdjust}: one charge of an approved recurrence, scheduled for ExpirationDate. The answer
 * is the sale (Status 20 Scheduled). A refusal (the recurrence not approved, the date outside the Central Bank's
 * window) is an AcquirerRejectedError; the same idempotencyKey again answers the same sale.
 */
export async function sendPixRecurrenceCharge(input: PixChargeOfRecurrence): Promise<AcquirerSale> {
  const result = await postPixSale('sendPixRecurrenceCharge', input, {
    Amount: input.amountCents,
    ExpirationDate: input.expirationDate,
    RecurrentPayment: {
      AuthorizeNow: true,
      RecurrenceType: 'SelfManagedConsent',
      RecurrenceId: input.recurrenceId,
      // Our due dates are calendar days the merchant chose; the payer's bank does not move them.
      BusinessDayAdjust: false,
      ...(input.originalPaymentId ? { OriginalPaymentId: input.originalPaymentId } : {}),
    },
  });
  return toSale(result!.body as Json);
}
