/**
 * The acquirer's notice that a Pix Automático charge moved (ChangeType 1, PaymentId and RecurrentPaymentId; see
 * docs/api/pix-automatico.md): the charge attempt that PaymentId was sent as is found through its subscription,
 * and its settlement is read from the acquirer's GET (charging.ts settlePixAttempt). A notice is a hint only: a
 * forged one moves nothing the GET does not confirm. A notice that never comes: sweepUnsettledPixCharges.
 */
import mongoose from 'mongoose';
import { logger } from '../platform/logger';
import { attemptId, settlePixAttempt } from './charging';
import { dayOf } from './clock';
import { loadSubscription } from './cycle-start';
import {
  ChargeAttemptModel,
  ChargeStatus,
  SubscriptionChargeModel,
  SubscriptionModel,
  type ChargeAttempt,
  type SubscriptionCharge,
} from './model';

/** The notice names a PaymentId no recorded send has yet (its send's record is still to come): try again later. */
export class PixChargeNotYetRecorded extends Error {}

export async function confirmPixCharge(recurrenceId: string, paymentId: string): Promise<string> {
  const stored = await SubscriptionModel.findOne({ mandateRecurrenceId: recurrenceId }, { _id: 1 }).lean();
  if (!stored) return `no subscription has recurrence ${recurrenceId}`;
  const sub = await loadSubscription(stored._id);
  if (!sub?.mandate || sub.mandate.recurrenceId !== recurrenceId)
    return `no subscription has recurrence ${recurrenceId}`;
  // The PaymentId's records (its send, PENDING, and once settled its `-settled` record): one indexed read.
  const records = await ChargeAttemptModel.find({ acquirerPaymentId: paymentId }).lean<ChargeAttempt[]>();
  const recorded = records.find((attempt) => attempt.status === ChargeStatus.PENDING) ?? records[0];
  const found = recorded && (await SubscriptionChargeModel.findById(recorded.chargeId).lean<SubscriptionCharge>());
  const charge = found && found.subscriptionId === sub._id ? found : null;
  // The send a settlement notice is about is one of a charge still PENDING (scheduled at the acquirer).
  if (charge?.status === ChargeStatus.PENDING && recorded.status === ChargeStatus.PENDING)
    return settlePixAttempt(sub, charge, recorded);
  // Journey 3's first payment is recorded with the mandate's approval, not here.
  if (sub.mandate.paymentId === paymentId) return "the mandate's first payment: recorded with the approval";
  // The same notice again after its settlement was applied (the charge shows that payment, settled).
  if (charge && charge.status !== ChargeStatus.PENDING && charge.acquirerPaymentId === paymentId)
    return `charge ${charge._id}: already settled`;
  throw new PixChargeNotYetRecorded(`no Pix Automático charge of subscription ${sub._id} was sent as ${paymentId}`);
}

/** Unsettled charges read from the acquirer per scheduler tick: the rest are the next tick's. */
const UNSETTLED_PER_TICK = 100;

/**
 * Scheduler task: a Pix Automático charge still PENDING the day after the day its last send was to settle on
 * (the acquirer's notice lost, refused or never applied) is read from the acquirer as its notice would have made
 * the worker read it (settlePixAttempt: the same GET, the same insert-once settlement record). A charge the
 * acquirer still shows scheduled is left as it is and asked again on the next tick.
 */
export async function sweepUnsettledPixCharges(now: Date): Promise<number> {
  const today = dayOf(now);
  const candidates = await SubscriptionChargeModel.find({
    status: ChargeStatus.PENDING,
    acquirerPaymentId: mongoose.trusted({ $nin: ['', null] }),
    dueDate: mongoose.trusted({ $lt: today }),
  })
    .limit(UNSETTLED_PER_TICK)
    .lean<SubscriptionCharge[]>();
  let settled = 0;
  for (const charge of candidates) {
    const sent = await ChargeAttemptModel.findById(attemptId(charge._id, charge.attempts)).lean<ChargeAttempt>();
    if (!sent || sent.status !== ChargeStatus.PENDING || (sent.expirationDate ?? charge.dueDate) >= today) continue;
    const sub = await loadSubscription(charge.subscriptionId);
    if (!sub?.mandate) continue;
    try {
      const outcome = await settlePixAttempt(sub, charge, sent);
      if (!outcome.endsWith('still scheduled')) settled++;
      logger.warn({ chargeId: charge._id, outcome }, 'a Pix Automático settlement read without its notice');
    } catch (error) {
      logger.error({ err: error, chargeId: charge._id }, 'could not read an unsettled Pix Automático charge');
    }
  }
  return settled;
}
