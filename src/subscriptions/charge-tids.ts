/**
 * A confirmed subscription charge as an accepted chargeback names it: by the acquirer's TID. The charging
 * path records the TID with the outcome that confirms the charge (charging.ts); a charge confirmed before
 * that gets it from the acquirer, once, by the backfill below. The chargeback's hold (src/refunds/
 * chargebacks.ts) then finds the charge, records its sale if its first refund has not (charge-refunds.ts),
 * and holds that sale, so a chargeback and a refund never both return the charge's money.
 */
import mongoose from 'mongoose';
import { getSale } from '../acquirer/client';
import { logger } from '../platform/logger';
import { recordSettledSaleTid } from '../sales';
import { type Payment } from '../payments/model';
import { chargeSaleOf } from './charge-refunds';
import { ChargeStatus, SubscriptionChargeModel, SubscriptionModel } from './model';

/** Charges paid (CONFIRMED, or REFUNDED since) whose TID was never recorded nor asked: the backfill's scan. */
export const PAID_CHARGES_WITHOUT_TID = {
  status: mongoose.trusted({ $in: [ChargeStatus.CONFIRMED, ChargeStatus.REFUNDED] }),
  acquirerTid: mongoose.trusted({ $exists: false }),
};

/** The sale of the paid charge the TID names (recorded now if need be); null when no charge of ours has it. */
export async function chargeSaleOfTid(tid: string): Promise<Payment | null> {
  const charge = await SubscriptionChargeModel.findOne({ acquirerTid: tid }).lean();
  if (!charge || (charge.status !== ChargeStatus.CONFIRMED && charge.status !== ChargeStatus.REFUNDED)) return null;
  const sub = await SubscriptionModel.findById(charge.subscriptionId).lean();
  return sub ? chargeSaleOf(sub, charge) : null;
}

/**
 * Asks the acquirer the TID of each paid charge recorded without one, and writes it on the charge and on
 * the charge's sale if one was recorded (with no TID) at a refund. Idempotent and resumable: a charge asked
 * once holds its answer (null when the acquirer gave none) and is not asked again; an acquirer that cannot
 * be asked stops the run, and the next scheduler start goes on from there. Returns how many it wrote.
 */
export async function backfillChargeTids(): Promise<number> {
  const charges = await SubscriptionChargeModel.find(PAID_CHARGES_WITHOUT_TID, { acquirerPaymentId: 1 }).lean();
  let written = 0;
  for (const charge of charges) {
    if (!charge.acquirerPaymentId) continue;
    const tid = (await getSale(charge.acquirerPaymentId))?.tid || null;
    // timestamps off: a confirmed charge's updatedAt is when it was confirmed, from which its sale's refund
    // window counts (charge-refunds.ts); a backfill months later must not restart that window.
    await SubscriptionChargeModel.updateOne({ _id: charge._id }, { $set: { acquirerTid: tid } }, { timestamps: false });
    if (tid) await recordSettledSaleTid({ kind: 'subscription_charge', id: charge._id }, tid);
    written++;
  }
  if (written) logger.info({ charges: written }, 'subscription charges given their acquirer TID');
  return written;
}
