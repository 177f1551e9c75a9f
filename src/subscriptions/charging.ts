/**
 * Sending one attempt of a subscription charge and recording its outcome. The charge worker
 * (jobs/charge-subscription.ts) runs this; it is safe to run twice for the same attempt, at
 * once or after a crash:
 *
 * - the charge is inserted under the unique index (subscriptionId, dueDate): one per cycle;
 * - the sale is sent with an idempotency key per charge and attempt, so a re-run after a worker
 *   died between the acquirer's answer and our write gets the first sale back, not a second one;
 *   after a communication failure the next attempt first looks the earlier order id up at the
 *   acquirer and takes that sale's result when there is one; otherwise it resends with the
 *   earlier key and order id, so a sale that did reach the acquirer is never repeated;
 * - the outcome of an attempt is inserted under `_id` `<chargeId>-<attempt>`: one outcome (and
 *   one payment transaction id) per attempt, which every re-run applies instead of its own.
 *
 * A Pix Automático charge takes the same path with its own send (sendPixCharge): it is sent inside the
 * Central Bank's window (pix-retry-policy.ts) and its attempt's outcome is PENDING (scheduled at the acquirer)
 * until the due date's settlement, which the acquirer's notice makes us read (settlePixAttempt): the settlement
 * is a second record of the attempt, `<chargeId>-<attempt>-settled`, inserted once like the first.
 */
import { checkedAfterLookup } from '../db/filters';
import mongoose from 'mongoose';
import { createOnce } from '../db/claims';
import { nextId } from '../db/ids';
import { logger } from '../platform/logger';
import {
  AcquirerRejectedError,
  getSale,
  isApprovedStatus,
  sendPixRecurrenceCharge,
  type AcquirerSale,
} from '../acquirer/client';
import { AcquirerUnavailableError } from '../acquirer/errors';
import { acquirerChargeOutcomeOf, chargeCard, findAcquirerCharge } from '../payments/card-charge';
import {
  nextRetryDay,
  SUBSCRIPTION_CANCELLED,
  SUBSCRIPTION_CANCELLED_MESSAGE,
  TRANSPORT_ERROR,
  TRANSPORT_ERROR_MESSAGE,
} from './retry-policy';
import { cycleDueDate, cycleValue, dueCycleOf, PAYMENT_TRANSACTION_SEQUENCE, retryDays } from './calendar';
import { today as clockToday } from './clock';
import {
  isAboveMaximum,
  isPixRetryDayAllowed,
  nextPixRetryDay,
  PIX_ABOVE_MAXIMUM,
  PIX_ABOVE_MAXIMUM_MESSAGE,
  PIX_MANDATE_NOT_APPROVED,
  PIX_MANDATE_NOT_APPROVED_MESSAGE,
  PIX_RETRY_WINDOW_MISSED_MESSAGE,
  PIX_WINDOW_MISSED,
  PIX_WINDOW_MISSED_MESSAGE,
  pixSendWindowState,
} from './pix-retry-policy';
import { chargeOutcomeEvent } from './events';
import { oweEvents, owedSet, recordOwed } from '../events/outbox';
import type { ChargeAttemptResult, ChargeJobData, DueCycle } from '../../jobs/charge-subscription';

import { advanceToNextCycle, findSubscriptionCharge, insertCharge, loadSubscription } from './cycle-start';
import { applyMandateChanges } from './mandate-changes';
import {
  ChargeAttemptModel,
  ChargeStatus,
  SubscriptionChargeModel,
  SubscriptionModel,
  type ChargeAttempt,
  type MandateStatus,
  type Subscription,
  type SubscriptionCharge,
} from './model';

export interface ChargeAttemptHooks {
  /** Called after the acquirer answered and before the outcome is written (tests kill a worker here). */
  afterAcquirerAnswer?: (info: { chargeId: number; merchantOrderId: string; paymentId?: string }) => Promise<void>;
  /**
   * This job ran before (a retry, a stalled job, or a failed job run again): an earlier run may
   * have made the sale and died before recording it, so the acquirer is asked by order id before
   * anything is sent, instead of trusting its RequestId replay, whose retention is not stated.
   */
  rerun?: boolean;
}

/** The acquirer idempotency key of one attempt of a charge. */
export function attemptIdempotencyKey(chargeId: number, attempt: number): string {
  return `subscription-charge-${chargeId}-${attempt}`;
}

/** Our order id at the acquirer for one attempt of a charge. */
export function attemptOrderId(subscriptionId: number, chargeId: number, attempt: number): string {
  return `SUB${subscriptionId}C${chargeId}A${attempt}`;
}

const OPEN = { status: ChargeStatus.PENDING };

/**
 * A job whose copy of the cycle is not what the stored subscription says: it is not retried, and
 * nothing of it is charged (a job is not content: anyone who can write to Redis can write one).
 */
export class ChargeJobDisagrees extends Error {}

/**
 * The scheduler's copy of a cycle (ChargeJobData.cycle) checked against the stored subscription:
 * the merchant and the cycle's value (a variable mandate's is set before its send window opens, never
 * after) always, and while the subscription is still at the job's due date, the cycle number and the
 * date it moves on to.
 */
function checkCarriedCycle(sub: Subscription, data: ChargeJobData, carried: DueCycle): void {
  const stored = dueCycleOf(sub);
  const sameCharge = carried.merchantId === stored.merchantId && carried.value === cycleValue(sub, data.dueDate);
  const sameCycle =
    sub.nextDueDate !== data.dueDate ||
    (carried.number === stored.number && carried.followingDueDate === stored.followingDueDate);
  if (sameCharge && sameCycle) return;
  const message = `refused: the charge job does not match the stored subscription ${sub._id}`;
  logger.warn({ subscriptionId: sub._id, dueDate: data.dueDate, attempt: data.attempt, carried }, message);
  throw new ChargeJobDisagrees(message);
}

/**
 * One attempt of a charge. The subscription is read first (with its cancellation record, one wait):
 * what is charged, to whom, and where the subscription moves on to come from it, never from the job,
 * whose copy of the cycle, when it has one, must agree with it (checkCarriedCycle).
 */
export async function runChargeAttempt(
  data: ChargeJobData,
  hooks: ChargeAttemptHooks = {},
): Promise<ChargeAttemptResult> {
  const sub = await loadSubscription(data.subscriptionId);
  if (!sub) return 'not-due';
  if (data.cycle) checkCarriedCycle(sub, data, data.cycle);
  const pix = sub.paymentMethod === 'pix_automatico';
  // A Pix Automático cycle is opened no earlier than its send window (a job for an earlier day is not due yet).
  if (pix && data.attempt === 1 && pixSendWindowState(data.today, data.dueDate) === 'early') return 'not-due';
  let charge: SubscriptionCharge | null;
  let insertedNow = false;
  if (data.attempt === 1 && sub.status === 'active' && sub.nextDueDate === data.dueDate) {
    // A cycle's first run: insert first and let the unique index say whether the charge exists (a
    // lookup first would cost a read more).
    ({ charge, insertedNow } = await insertCharge(sub, data.dueDate, dueCycleOf(sub)));
  } else {
    // A cancelled subscription, or a cycle already past (a stale job), gets no new charge.
    charge = await findSubscriptionCharge(sub._id, data.dueDate);
  }
  if (!charge) return 'not-due';
  if (data.attempt === 1) await advanceToNextCycle(sub, charge);

  // A charge this run just inserted has no recorded attempt yet: one lookup fewer on the common path.
  const recorded = insertedNow ? null : await ChargeAttemptModel.findById(attemptId(charge._id, data.attempt)).lean();
  if (recorded) {
    await applyOutcome(charge, recorded, sub);
    await expireWhenFinished(sub, charge);
    return 'already-recorded';
  }
  if (!isAttemptDue(charge, data.attempt, sub)) {
    // A retry that lost a race with cancel (or retry being off) is not scheduled again.
    if (data.attempt > 1 && charge.nextRetryAt !== null && (sub.status !== 'active' || !sub.retry)) {
      await SubscriptionChargeModel.updateOne(
        { _id: charge._id, attempts: charge.attempts },
        { $set: { nextRetryAt: null } },
      );
    }
    return 'not-due';
  }

  const idempotencyKey = charge.unsettledIdempotencyKey ?? attemptIdempotencyKey(charge._id, data.attempt);
  const merchantOrderId = charge.unsettledMerchantOrderId ?? attemptOrderId(sub._id, charge._id, data.attempt);
  const outcome = await sendToAcquirer(sub, charge, data, idempotencyKey, merchantOrderId, hooks);
  const winner = await recordOutcome(outcome);
  await applyOutcome(charge, winner, sub);
  await expireWhenFinished(sub, charge);
  logger.info(
    {
      subscriptionId: sub._id,
      chargeId: charge._id,
      attempt: data.attempt,
      status: winner.status,
      denialCode: winner.denialCode || undefined,
      nextRetryAt: winner.nextRetryAt,
    },
    'subscription charge attempt recorded',
  );
  if (winner.status === ChargeStatus.PENDING) {
    // A rerun took an earlier run's send: it may be settled already, its notice gone unmatched while the send
    // was not recorded. The settlement is read now rather than left to a notice that may not come again.
    if (winner.acquirerPaymentId && (hooks.rerun || charge.unsettledMerchantOrderId))
      await settlePixAttempt(sub, charge, winner);
    return 'scheduled';
  }
  return winner.status === ChargeStatus.CONFIRMED ? 'confirmed' : 'denied';
}

export function attemptId(chargeId: number, attempt: number): string {
  return `${chargeId}-${attempt}`;
}

function isAttemptDue(charge: SubscriptionCharge, attempt: number, sub: Subscription): boolean {
  if (attempt === 1) return charge.status === ChargeStatus.PENDING;
  return (
    charge.status === ChargeStatus.DENIED &&
    charge.attempts === attempt - 1 &&
    charge.nextRetryAt !== null &&
    sub.retry &&
    sub.status === 'active'
  );
}

export type Outcome = Omit<ChargeAttempt, 'recordedAt'>;

async function sendToAcquirer(
  sub: Subscription,
  charge: SubscriptionCharge,
  data: ChargeJobData,
  idempotencyKey: string,
  merchantOrderId: string,
  hooks: ChargeAttemptHooks,
): Promise<Outcome> {
  const base = {
    _id: attemptId(charge._id, data.attempt),
    chargeId: charge._id,
    attempt: data.attempt,
    idempotencyKey,
    merchantOrderId,
  };
  if (sub.paymentMethod === 'pix_automatico') return sendPixCharge(sub, charge, data, base, hooks);
  const denied = (code: string, message: string, paymentId: string, transportError: boolean): Outcome => {
    const firstDeniedOn = charge.firstDeniedOn ?? data.today;
    const nextRetryAt = nextRetryDay({
      retryEnabled: sub.retry && sub.status === 'active',
      denialCode: code,
      attemptsMade: data.attempt,
      firstDeniedOn,
      today: data.today,
      retryDays: retryDays(),
    });
    return {
      ...base,
      status: ChargeStatus.DENIED,
      acquirerPaymentId: paymentId,
      denialCode: code,
      denialMessage: message,
      nextRetryAt,
      paymentTransactionId: null,
      firstDeniedOn,
      transportError,
    };
  };
  // The TID is recorded with the answer that confirmed the payment: an accepted chargeback names it by TID.
  const confirmed = async (sale: { paymentId: string; tid?: string }): Promise<Outcome> => ({
    ...base,
    status: ChargeStatus.CONFIRMED,
    acquirerPaymentId: sale.paymentId,
    acquirerTid: sale.tid || null,
    denialCode: '',
    denialMessage: '',
    nextRetryAt: null,
    paymentTransactionId: await nextId(PAYMENT_TRANSACTION_SEQUENCE),
    firstDeniedOn: charge.firstDeniedOn,
    transportError: false,
  });
  // After a communication failure, or when this job ran before, the acquirer may have made the
  // sale: ask before sending again.
  const earlierOrderId = charge.unsettledMerchantOrderId ?? (hooks.rerun ? merchantOrderId : null);
  if (earlierOrderId) {
    const { sale: earlier } = await findAcquirerCharge(earlierOrderId).catch((error) => {
      // Unknown still: the resend below reuses the key.
      if (error instanceof AcquirerUnavailableError) return { sale: null };
      throw error;
    });
    if (earlier) {
      await hooks.afterAcquirerAnswer?.({ chargeId: charge._id, merchantOrderId, paymentId: earlier.paymentId });
      return isApprovedStatus(earlier.status)
        ? confirmed(earlier)
        : denied(earlier.returnCode || 'unknown', earlier.returnMessage, earlier.paymentId, false);
    }
  }
  if (sub.status === 'cancelled') {
    // Cancelled after this cycle's charge was created and before it was sent: it is never sent,
    // and ends as a final denial (no retry: the subscription is not active).
    return denied(SUBSCRIPTION_CANCELLED, SUBSCRIPTION_CANCELLED_MESSAGE, '', false);
  }
  const sent = await chargeCard({
    idempotencyKey,
    merchantOrderId,
    amountCents: charge.value,
    installments: 1,
    capture: true,
    recurrent: true,
    customer: { name: sub.customer.name, ...(sub.customer.identity ? { identity: sub.customer.identity } : {}) },
    card: { cardToken: sub.card.token, brand: sub.card.brand },
  });
  if (sent.outcome === 'answered') {
    const sale = sent.answer;
    await hooks.afterAcquirerAnswer?.({ chargeId: charge._id, merchantOrderId, paymentId: sale.paymentId });
    return sale.approved
      ? confirmed(sale)
      : denied(sale.returnCode || 'unknown', sale.returnMessage, sale.paymentId, false);
  }
  if (sent.outcome === 'not-charged' && sent.refusal) {
    // The acquirer refused the request itself (nothing was charged): its own code, retried like a soft decline.
    const first = sent.refusal.errors[0];
    const code = first ? String(first.Code) : `http_${sent.refusal.httpStatus}`;
    return denied(code, first?.Message ?? sent.refusal.message, '', false);
  }
  // Not reached, or no answer: the next attempt asks by order id first, then resends under the same key.
  return denied(TRANSPORT_ERROR, TRANSPORT_ERROR_MESSAGE, '', true);
}

type AttemptBase = Pick<Outcome, '_id' | 'chargeId' | 'attempt' | 'idempotencyKey' | 'merchantOrderId'>;

/**
 * The mandate's status as its recorded moves say: loadSubscription reads the subscription's copy only, which a
 * crash between a move's record and the copy's write leaves behind (mandate-changes.ts).
 */
async function mandateStatusOf(sub: Subscription): Promise<MandateStatus | null> {
  return (await applyMandateChanges(sub)).mandate?.status ?? null;
}

/**
 * One send of a Pix Automático charge: checked right before it goes (the subscription live, the mandate
 * APPROVED, the Central Bank's window, the variable mandate's maximum), then scheduled at the acquirer for
 * its due date (a retry: for its retry day). A charge refused here or by the acquirer is DENIED for good:
 * only a failed settlement is retried. A failure to reach the acquirer throws: the job runs again, and a
 * rerun asks the acquirer by order id before sending (the sale may exist), as a card charge does.
 */
async function sendPixCharge(
  sub: Subscription,
  charge: SubscriptionCharge,
  data: ChargeJobData,
  base: AttemptBase,
  hooks: ChargeAttemptHooks,
): Promise<Outcome> {
  const final = (code: string, message: string): Outcome => ({
    ...base,
    status: ChargeStatus.DENIED,
    acquirerPaymentId: '',
    denialCode: code,
    denialMessage: message,
    nextRetryAt: null,
    paymentTransactionId: null,
    firstDeniedOn: charge.firstDeniedOn ?? data.today,
    transportError: false,
  });
  // The day the acquirer settles this send on: the due date, or a retry's own day (the job's, fixed for its reruns).
  const expirationDate = data.attempt === 1 ? charge.dueDate : data.today;
  if (hooks.rerun || charge.unsettledMerchantOrderId) {
    const { sale: earlier } = await findAcquirerCharge(base.merchantOrderId);
    if (earlier) {
      await hooks.afterAcquirerAnswer?.({
        chargeId: charge._id,
        merchantOrderId: base.merchantOrderId,
        paymentId: earlier.paymentId,
      });
      return pixScheduled(base, earlier, expirationDate);
    }
  }
  if (sub.status !== 'active') return final(SUBSCRIPTION_CANCELLED, SUBSCRIPTION_CANCELLED_MESSAGE);
  if ((await mandateStatusOf(sub)) !== 'APPROVED')
    return final(PIX_MANDATE_NOT_APPROVED, PIX_MANDATE_NOT_APPROVED_MESSAGE);
  const followingDueDate = cycleDueDate(sub, charge.cycle + 1);
  let originalPaymentId: string | undefined;
  if (data.attempt === 1) {
    if (pixSendWindowState(data.today, charge.dueDate) === 'missed')
      return final(PIX_WINDOW_MISSED, PIX_WINDOW_MISSED_MESSAGE);
  } else {
    if (!isPixRetryDayAllowed(data.today, charge.dueDate, followingDueDate))
      return final(PIX_WINDOW_MISSED, PIX_RETRY_WINDOW_MISSED_MESSAGE);
    originalPaymentId = (await ChargeAttemptModel.findById(attemptId(charge._id, 1)).lean())?.acquirerPaymentId;
  }
  if (isAboveMaximum(charge.value, sub.mandate!.maximumValue))
    return final(PIX_ABOVE_MAXIMUM, PIX_ABOVE_MAXIMUM_MESSAGE);
  try {
    const sale = await sendPixRecurrenceCharge({
      idempotencyKey: base.idempotencyKey,
      merchantOrderId: base.merchantOrderId,
      recurrenceId: sub.mandate!.recurrenceId,
      amountCents: charge.value,
      expirationDate,
      ...(originalPaymentId ? { originalPaymentId } : {}),
      customer: { name: sub.customer.name, ...(sub.customer.identity ? { identity: sub.customer.identity } : {}) },
      plan: sub.description || `Subscription ${sub._id}`,
    });
    await hooks.afterAcquirerAnswer?.({
      chargeId: charge._id,
      merchantOrderId: base.merchantOrderId,
      paymentId: sale.paymentId,
    });
    return pixScheduled(base, sale, expirationDate);
  } catch (error) {
    // Refused (the recurrence cancelled or not approved, a date outside the window): nothing was scheduled.
    if (!(error instanceof AcquirerRejectedError)) throw error;
    const first = error.errors[0];
    return final(first ? `acquirer_${first.Code}` : `http_${error.httpStatus}`, first?.Message ?? error.message);
  }
}

/** A send the acquirer took: PENDING until its settlement (settlePixAttempt reads whatever it already is). */
function pixScheduled(base: AttemptBase, sale: AcquirerSale, expirationDate: string): Outcome {
  return {
    ...base,
    status: ChargeStatus.PENDING,
    acquirerPaymentId: sale.paymentId,
    denialCode: '',
    denialMessage: '',
    nextRetryAt: null,
    paymentTransactionId: null,
    firstDeniedOn: null,
    transportError: false,
    expirationDate,
  };
}

/**
 * The settlement of a sent Pix Automático attempt, as the acquirer's GET of its sale says: paid -> CONFIRMED;
 * failed -> DENIED, retried under Allowed_3R_7D by nextPixRetryDay while the subscription and its mandate are
 * live; voided (the recurrence was cancelled) -> DENIED for good. Recorded once (`<attempt id>-settled`) and
 * applied like any outcome, with its event owed in the same write. Still scheduled: nothing changes.
 */
export async function settlePixAttempt(
  sub: Subscription,
  charge: SubscriptionCharge,
  sent: ChargeAttempt,
): Promise<string> {
  const sale = await getSale(sent.acquirerPaymentId);
  if (!sale) return `the acquirer does not know PaymentId ${sent.acquirerPaymentId}`;
  const state = acquirerChargeOutcomeOf(sale.status);
  if (state === 'open') return `charge ${charge._id} attempt ${sent.attempt}: still scheduled`;
  const base = {
    _id: `${attemptId(charge._id, sent.attempt)}-settled`,
    chargeId: charge._id,
    attempt: sent.attempt,
    idempotencyKey: sent.idempotencyKey,
    merchantOrderId: sent.merchantOrderId,
    acquirerPaymentId: sent.acquirerPaymentId,
    transportError: false,
    expirationDate: sent.expirationDate ?? null,
  };
  let settled: Outcome;
  if (state === 'approved') {
    settled = {
      ...base,
      status: ChargeStatus.CONFIRMED,
      acquirerTid: sale.tid || null,
      denialCode: '',
      denialMessage: '',
      nextRetryAt: null,
      paymentTransactionId: await nextId(PAYMENT_TRANSACTION_SEQUENCE),
      firstDeniedOn: charge.firstDeniedOn,
    };
  } else {
    const failedOn = sent.expirationDate ?? charge.dueDate;
    const today = clockToday();
    const live =
      state === 'denied' &&
      sub.status === 'active' &&
      sub.retry &&
      sub.mandate?.retryPolicy === 'Allowed_3R_7D' &&
      (await mandateStatusOf(sub)) === 'APPROVED';
    settled = {
      ...base,
      status: ChargeStatus.DENIED,
      denialCode: sale.returnCode || 'unknown',
      denialMessage: sale.returnMessage,
      nextRetryAt: nextPixRetryDay({
        retryPolicy: live,
        retriesDone: sent.attempt - 1,
        dueDate: charge.dueDate,
        failedOn,
        today: today > failedOn ? today : failedOn,
        followingDueDate: cycleDueDate(sub, charge.cycle + 1),
      }),
      paymentTransactionId: null,
      firstDeniedOn: charge.firstDeniedOn ?? failedOn,
    };
  }
  const winner = await recordOutcome(settled);
  const current = (await SubscriptionChargeModel.findById(charge._id).lean<SubscriptionCharge>()) ?? charge;
  await applyOutcome(current, winner, sub);
  await expireWhenFinished(sub, charge);
  logger.info(
    { subscriptionId: sub._id, chargeId: charge._id, attempt: sent.attempt, status: winner.status },
    'Pix Automático charge settled',
  );
  const shown = winner.status === ChargeStatus.CONFIRMED ? 'CONFIRMED' : 'DENIED';
  return `charge ${charge._id} attempt ${sent.attempt}: ${shown}`;
}

/** Inserts the attempt's outcome; when another run recorded it first, that one wins. */
export async function recordOutcome(outcome: Outcome): Promise<ChargeAttempt> {
  const recorded = await createOnce(ChargeAttemptModel, { ...outcome, recordedAt: new Date() });
  return recorded ?? (await ChargeAttemptModel.findById(outcome._id).lean())!;
}

/**
 * Writes a recorded outcome onto the charge. Re-applying it is harmless (same values), and an
 * older attempt never overwrites a newer one nor a refund.
 */
/**
 * The attempt's outcome written to its charge, with the event it owes in the same write
 * (src/events/outbox.ts); a write that matches nothing (applied before) owes nothing again: the
 * write that applied it owed the event.
 */
export async function applyOutcome(
  charge: SubscriptionCharge,
  outcome: ChargeAttempt,
  sub: Subscription,
): Promise<void> {
  const owed = oweEvents([chargeOutcomeEvent(charge, outcome, sub)]);
  // A send's PENDING (Pix Automático, scheduled) never moves back a charge its settlement already moved: it
  // applies to the charge still pending, or to the charge denied by the attempt before (a retry's send).
  const open =
    outcome.status === ChargeStatus.PENDING
      ? {
          $or: [
            { status: ChargeStatus.PENDING, attempts: mongoose.trusted({ $lte: outcome.attempt }) },
            { status: ChargeStatus.DENIED, attempts: mongoose.trusted({ $lte: outcome.attempt - 1 }) },
          ],
        }
      : {
          attempts: mongoose.trusted({ $lte: outcome.attempt }),
          status: mongoose.trusted({ $in: [ChargeStatus.PENDING, ChargeStatus.DENIED] }),
        };
  const applied = await SubscriptionChargeModel.updateOne(
    { _id: charge._id, ...open },
    {
      $set: {
        status: outcome.status,
        attempts: outcome.attempt,
        acquirerPaymentId: outcome.acquirerPaymentId,
        ...(outcome.acquirerTid ? { acquirerTid: outcome.acquirerTid } : {}),
        denialCode: outcome.denialCode,
        denialMessage: outcome.denialMessage,
        nextRetryAt: outcome.nextRetryAt,
        paymentTransactionId: outcome.paymentTransactionId,
        firstDeniedOn: outcome.firstDeniedOn,
        unsettledIdempotencyKey: outcome.transportError ? outcome.idempotencyKey : null,
        unsettledMerchantOrderId: outcome.transportError ? outcome.merchantOrderId : null,
        ...owedSet(owed),
      },
    },
  );
  if (applied.matchedCount) await recordOwed(SubscriptionChargeModel, charge._id, owed);
}

/**
 * A subscription whose last cycle has been charged expires once no charge of it is still open
 * (pending, or denied with a retry to come).
 */
async function expireWhenFinished(loaded: Subscription, charge: SubscriptionCharge): Promise<void> {
  if (cycleDueDate(loaded, charge.cycle + 1) !== null) return; // not the last cycle: nothing to look up
  const subscriptionId = loaded._id;
  const sub = await loadSubscription(subscriptionId);
  if (!sub || sub.status !== 'active' || sub.nextDueDate !== null) return;
  const open = await SubscriptionChargeModel.exists({
    subscriptionId,
    $or: [OPEN, { status: ChargeStatus.DENIED, nextRetryAt: mongoose.trusted({ $ne: null }) }],
  });
  if (!open)
    await SubscriptionModel.updateOne(
      { _id: subscriptionId, status: checkedAfterLookup('active'), nextDueDate: null },
      { $set: { status: 'expired' } },
    );
}
