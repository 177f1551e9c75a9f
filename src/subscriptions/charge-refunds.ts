/**
 * What the subscriptions area knows of a charge's refunds. The refunds themselves are src/refunds'
 * (refundSubscriptionCharge): a confirmed charge is recorded as a captured card sale, or a paid PIX
 * for a Pix Automático charge (src/sales/
 * settled-sales.ts) at its first refund, whether it was confirmed before refunds of charges existed
 * or after, so the charging path writes nothing more; its refunds are that sale's refunds, and when
 * one succeeds the refunds area writes the charge's refunded total here.
 */
import { notFound } from '../platform/errors';
import { logger } from '../platform/logger';
import { findSettledSale, recordSettledSale, type OnlineSale } from '../sales';
import { findSubscription, parseId } from './service';
import { chargeEvent } from './events';
import { oweEvents, owedSet, recordOwed } from '../events/outbox';
import {
  ChargeStatus,
  SubscriptionChargeModel,
  SubscriptionModel,
  type Subscription,
  type SubscriptionCharge,
} from './model';

/** The merchant's charge of its subscription: another merchant's, an unknown one or a non-integer id is 404. */
export async function findCharge(
  merchantId: number,
  rawSubscriptionId: unknown,
  rawChargeId: unknown,
): Promise<{ sub: Subscription; charge: SubscriptionCharge }> {
  const sub = await findSubscription(merchantId, rawSubscriptionId);
  const chargeId = parseId(rawChargeId);
  const charge =
    chargeId === null ? null : await SubscriptionChargeModel.findOne({ _id: chargeId, subscriptionId: sub._id }).lean();
  if (!charge) throw notFound('Charge not found.');
  return { sub, charge };
}

/**
 * The sale of a CONFIRMED charge, recorded once from what the charge stored of its acquirer payment
 * (PaymentId, value): two refunds recording it at once get the same sale (settled-sales.ts). A card
 * subscription's charge is a captured card sale (the subscription's card); a Pix Automático charge is
 * a paid PIX (no card), so its refunds take the PIX path: Status 12, completed by notice, 90 days. The
 * charge's updatedAt is when it was confirmed (nothing writes a confirmed charge again before its
 * refunds): the refund window counts from there.
 *
 * The sale is always found by its origin (its order id, unique), never through a link written onto
 * the charge: on FerretDB an update of the charge racing another (the outbox clearing the charge's
 * owed events, the refunded total below) can be lost whole, so such a link could read null, and
 * writing it could itself undo the other write. `saleId` on older charges is not read.
 */
export async function chargeSaleOf(sub: Subscription, charge: SubscriptionCharge): Promise<OnlineSale> {
  const origin = { kind: 'subscription_charge' as const, id: charge._id };
  const recorded = await findSettledSale(sub.merchantId, origin);
  if (recorded) return recorded;
  const pix = Boolean(sub.mandate);
  return recordSettledSale({
    merchantId: sub.merchantId,
    origin,
    amountCents: charge.value,
    installments: 1,
    capturedAt: charge.updatedAt,
    payer: { name: sub.customer.name, document: null, documentType: null },
    card: pix ? null : { brand: sub.card.brand, bin: sub.card.bin, last4: sub.card.last4, fromToken: true },
    ...(pix ? { pixPaidAt: charge.updatedAt } : {}),
    acquirer: {
      paymentId: charge.acquirerPaymentId,
      tid: null,
      authorizationCode: null,
      proofOfSale: null,
      returnCode: null,
      returnMessage: null,
    },
  });
}

/** Writes of the refunded total before giving up: each lost one was lost to a one-off write (see below). */
const REFUNDED_WRITES = 5;

/**
 * The charge's refunded total after a refund of its sale succeeded (`whole`: all of it is back, the
 * charge is REFUNDED). Written by the one process sending the sale's refunds (its lane), from the
 * sale's total, so writing it again after a crash writes the same.
 *
 * Written until read back: on FerretDB an update is a read-modify-write, so another update of the
 * charge running at the same moment can put back the document it read, without this total. The only
 * other writers of a confirmed charge are one-off: the outbox clearing events the charge owed (its
 * confirmation's, right after it; the sweep's) and older code linking its sale. Writing the same total
 * again is harmless (the value is the lane's, the whole refund's event is owed under the same id), so
 * the simplest correct answer is to check and write again; reading the total from the sale on every
 * charge read instead would add a read of the sale to each charge list.
 */
export async function recordChargeRefunded(chargeId: number, refundedCents: number, whole: boolean): Promise<void> {
  for (let write = 1; write <= REFUNDED_WRITES; write++) {
    await writeChargeRefunded(chargeId, refundedCents, whole);
    const stored = await SubscriptionChargeModel.findById(chargeId, { refundedValue: 1, status: 1 }).lean();
    if (!stored) return;
    const kept = (stored.refundedValue ?? 0) >= refundedCents && (!whole || stored.status === ChargeStatus.REFUNDED);
    if (kept) return;
    logger.warn({ chargeId, write }, "a charge's refunded total was lost to a concurrent write; writing it again");
  }
  // The refund stays pending (origins.ts): its next turn writes the total again.
  throw new Error(`the refunded total of charge ${chargeId} could not be kept`);
}

async function writeChargeRefunded(chargeId: number, refundedCents: number, whole: boolean): Promise<void> {
  // A whole refund owes subscription_charge.refunded in the same write (src/events/outbox.ts), once
  // (its id is the charge's and the change's): a turn settled again after a crash records nothing twice.
  // A partial refund is the refund's own event (refund.succeeded).
  const refundedAt = new Date();
  const charge = whole ? await SubscriptionChargeModel.findById(chargeId).lean() : null;
  const sub = charge && (await SubscriptionModel.findById(charge.subscriptionId).lean());
  const refunded = {
    refundedValue: refundedCents,
    status: ChargeStatus.REFUNDED,
    refundedAt: charge?.refundedAt ?? refundedAt,
    nextRetryAt: null,
  };
  const owed = oweEvents([charge && sub ? chargeEvent({ ...charge, ...refunded }, sub) : null], refundedAt);
  await SubscriptionChargeModel.updateOne(
    { _id: chargeId },
    { $set: whole ? { ...refunded, ...owedSet(owed) } : { refundedValue: refundedCents } },
  );
  await recordOwed(SubscriptionChargeModel, chargeId, owed);
}
