/**
 * The Pix Automático mandate of a subscription: opened at the acquirer (the authorisation QR),
 * moved only by what the acquirer's GET of the recurrence says (a notice is a hint: it makes us
 * ask), cancelled at the acquirer when the merchant cancels the subscription.
 *
 * Each move is a MandateChange inserted once (`<subscriptionId>-<STATUS>`): its event is recorded
 * once, and the subscription's copy of the mandate is written after it (read back through
 * mandate-changes.ts, which catches a copy a crash left behind). REJECTED, EXPIRED and
 * CANCELLED cancel the subscription (it will send no charge). Journey 3's first payment, paid with
 * the approval, becomes the first cycle's charge, CONFIRMED.
 */
import crypto from 'node:crypto';
import mongoose from 'mongoose';
import QRCode from 'qrcode';
import { checkedAfterLookup } from '../db/filters';
import { insertOnce } from '../db/claims';
import { nextId } from '../db/ids';
import { logger } from '../platform/logger';
import {
  AcquirerRejectedError,
  cancelPixRecurrence,
  createPixRecurrence,
  getPixRecurrence,
  getSale,
  type PixRecurrence,
  type PixRecurrenceInterval,
} from '../acquirer/client';
import { cycleDueDate, PAYMENT_TRANSACTION_SEQUENCE } from './calendar';
import { recordCancellation } from './cancellation';
import { applyOutcome, attemptId, attemptIdempotencyKey, attemptOrderId, recordOutcome } from './charging';
import { insertCharge } from './cycle-start';
import { applyMandateChanges } from './mandate-changes';
// The subscription's read paths (service.ts, authorization-page.ts) take the mandate's reading from here.
export { applyMandateChanges };
import { now } from './clock';
import { emitMandateEvent } from './events';
import { recordOwed } from '../events/outbox';
import {
  ChargeStatus,
  MandateChangeModel,
  SubscriptionChargeModel,
  SubscriptionModel,
  type BillingCycle,
  type Mandate,
  type MandateChange,
  type MandateStatus,
  type Subscription,
} from './model';

/** Our billing cycles as the acquirer's intervals; bimonthly has none (the Central Bank has no such period). */
export const PIX_INTERVALS: Partial<Record<BillingCycle, PixRecurrenceInterval>> = {
  weekly: 'Weekly',
  monthly: 'Monthly',
  quarterly: 'Quarterly',
  semiannual: 'SemiAnnual',
  annual: 'Annual',
};

const FROM_ACQUIRER: Record<string, MandateStatus> = {
  Created: 'CREATED',
  Approved: 'APPROVED',
  Rejected: 'REJECTED',
  Expired: 'EXPIRED',
  Cancelled: 'CANCELLED',
};

/** Where a mandate may go from each state (CANCELLED from CREATED: the merchant withdrew the QR code). */
const MOVES: Record<MandateStatus, MandateStatus[]> = {
  CREATED: ['APPROVED', 'REJECTED', 'EXPIRED', 'CANCELLED'],
  APPROVED: ['CANCELLED'],
  REJECTED: [],
  EXPIRED: [],
  CANCELLED: [],
};

export interface MandateOpening {
  subscriptionId: number;
  journey: 2 | 3;
  valueCents: number;
  billingCycle: BillingCycle;
  firstDueDate: string;
  endDate: string | null;
  retry: boolean;
  maximumValue: number | null;
  minimumValue: number | null;
  customer: { name: string; identity: string };
  plan: string;
}

/** The recurrence made at the acquirer (its QR code drawn as a PNG), as the subscription stores it. */
export async function openMandate(input: MandateOpening): Promise<Mandate> {
  const merchantOrderId = `SUB${input.subscriptionId}MANDATE`;
  const variable = input.maximumValue !== null;
  const recurrence = await createPixRecurrence({
    idempotencyKey: `subscription-${input.subscriptionId}-mandate`,
    merchantOrderId,
    customer: { name: input.customer.name, identity: input.customer.identity },
    authorizeNow: input.journey === 3,
    amountCents: input.valueCents,
    startDate: input.firstDueDate,
    endDate: input.endDate,
    interval: PIX_INTERVALS[input.billingCycle]!,
    retry: input.retry,
    ...(variable ? { minimumAmountCents: input.minimumValue ?? 1 } : { fixedAmountCents: input.valueCents }),
    plan: input.plan,
  });
  const qrCodeText = recurrence.qrCodeString!;
  return {
    pageToken: crypto.randomUUID(),
    recurrenceId: recurrence.recurrenceId,
    paymentId: recurrence.paymentId,
    merchantOrderId,
    journey: input.journey,
    status: 'CREATED',
    retryPolicy: input.retry ? 'Allowed_3R_7D' : 'none',
    amountType: variable ? 'variable' : 'fixed',
    minimumValue: variable ? (input.minimumValue ?? 1) : null,
    maximumValue: input.maximumValue,
    qrCodeText,
    qrCodeImage: await QRCode.toDataURL(qrCodeText, { errorCorrectionLevel: 'M', margin: 1, width: 256 }),
    expiresAt: recurrence.expiresAt ? new Date(recurrence.expiresAt) : null,
    approvedAt: null,
    rejectedAt: null,
    expiredAt: null,
    cancelledAt: null,
    cancelledBy: null,
    reasonCode: null,
    reason: null,
  };
}

function changeOf(sub: Subscription, status: MandateStatus, truth: PixRecurrence): MandateChange {
  const at = truth.statusDate ?? truth.cancellation?.date;
  const base = {
    _id: `${sub._id}-${status}`,
    subscriptionId: sub._id,
    status,
    at: at && !Number.isNaN(Date.parse(at)) ? new Date(at) : now(),
    by: null,
    reasonCode: null,
    reason: null,
  };
  if (status === 'REJECTED')
    return { ...base, reasonCode: truth.rejection?.code ?? null, reason: truth.rejection?.description ?? null };
  if (status === 'CANCELLED')
    return {
      ...base,
      by: truth.cancellation?.requestedBy === 'Receiver' ? 'merchant' : 'payer',
      reasonCode: truth.cancellation?.code ?? null,
      reason: truth.cancellation?.reason ?? null,
    };
  return base;
}

/**
 * Asks the acquirer for the recurrence and moves the subscription's mandate to what it says, when
 * that is a move the mandate may make. Safe to run any number of times, at once.
 */
export async function confirmMandate(recurrenceId: string): Promise<string> {
  const stored = await SubscriptionModel.findOne({ mandateRecurrenceId: recurrenceId }).lean<Subscription>();
  if (!stored?.mandate || stored.mandate.recurrenceId !== recurrenceId)
    return `no subscription has recurrence ${recurrenceId}`;
  const sub = await applyMandateChanges(stored);
  const truth = await getPixRecurrence(recurrenceId);
  if (!truth) return `the acquirer does not know recurrence ${recurrenceId}`;
  const target = FROM_ACQUIRER[truth.status];
  const current = sub.mandate!.status;
  if (!target || target === current) return `mandate ${current}: unchanged`;
  if (!MOVES[current].includes(target)) {
    logger.warn({ subscriptionId: sub._id, current, acquirer: truth.status }, 'mandate move not allowed; ignored');
    return `mandate ${current}: the acquirer's ${truth.status} is not a move it can make`;
  }
  if (target === 'APPROVED' && sub.mandate!.journey === 3) await recordFirstPayment(sub, truth);
  const change = changeOf(sub, target, truth);
  await insertOnce(MandateChangeModel, change);
  const recorded = (await MandateChangeModel.findById(change._id).lean<MandateChange>())!;
  if (target !== 'APPROVED') {
    // The subscription sends no charge from now on, and no retry of one already denied.
    await recordOwed(SubscriptionModel, sub._id, await recordCancellation(sub, recorded.at));
    await SubscriptionChargeModel.updateMany(
      { subscriptionId: sub._id, nextRetryAt: mongoose.trusted({ $ne: null }) },
      { $set: { nextRetryAt: null } },
    );
  }
  const after = await applyMandateChanges((await SubscriptionModel.findById(sub._id).lean<Subscription>())!);
  await emitMandateEvent(target, after);
  return `mandate ${current} -> ${target}`;
}

/**
 * Journey 3: the first payment the payer made with the approval is the first cycle's charge, CONFIRMED,
 * its outcome recorded once like a card charge's attempt; the subscription moves on to its second cycle.
 * A first payment the acquirer does not show paid is left to the calendar.
 */
async function recordFirstPayment(sub: Subscription, truth: PixRecurrence): Promise<void> {
  const first = truth.firstPayment;
  if (!first || first.status !== 2) {
    logger.warn(
      { subscriptionId: sub._id, status: first?.status },
      'journey 3 approved without its first payment paid',
    );
    return;
  }
  // The recurrence's read names the first payment but not its TID, by which an accepted chargeback names the
  // payment: asked here, before the charge is recorded, so the charge is never CONFIRMED without it (an unanswered
  // GET fails the job, which runs again). Without the TID a chargeback and a refund could both return it.
  const tid = (await getSale(first.paymentId))?.tid || null;
  const { charge } = await insertCharge(sub, sub.firstDueDate, {
    merchantId: sub.merchantId,
    value: first.amountCents || sub.value,
    number: 0,
  });
  const outcome = await recordOutcome({
    _id: attemptId(charge._id, 1),
    chargeId: charge._id,
    attempt: 1,
    idempotencyKey: attemptIdempotencyKey(charge._id, 1),
    merchantOrderId: attemptOrderId(sub._id, charge._id, 1),
    status: ChargeStatus.CONFIRMED,
    acquirerPaymentId: first.paymentId,
    acquirerTid: tid,
    denialCode: '',
    denialMessage: '',
    nextRetryAt: null,
    paymentTransactionId: await nextId(PAYMENT_TRANSACTION_SEQUENCE),
    firstDeniedOn: null,
    transportError: false,
  });
  // The charge's move owes subscription_charge.confirmed in the same write, and records it.
  await applyOutcome(charge, outcome, sub);
  await SubscriptionModel.updateOne(
    { _id: sub._id, status: checkedAfterLookup('active'), nextCycle: checkedAfterLookup(0) },
    { $set: { nextCycle: 1, nextDueDate: cycleDueDate(sub, 1) } },
  );
}

/**
 * The merchant cancels: the acquirer is told first (a failure answers 502 and changes nothing here),
 * for a mandate the payer could still use (CREATED or APPROVED). Its state follows from the GET.
 */
export async function cancelMandateAtAcquirer(sub: Subscription): Promise<void> {
  if (!sub.mandate || (sub.mandate.status !== 'CREATED' && sub.mandate.status !== 'APPROVED')) return;
  try {
    await cancelPixRecurrence(sub.mandate.recurrenceId, 'Cancelled by the merchant');
  } catch (error) {
    // Refused: the recurrence already ended at the acquirer (expired, cancelled by the payer) before its notice
    // reached us. The GET that follows says how; the subscription is cancelled either way.
    if (!(error instanceof AcquirerRejectedError)) throw error;
    logger.warn({ subscriptionId: sub._id, errors: error.errors }, 'acquirer refused to cancel a Pix recurrence');
  }
}
