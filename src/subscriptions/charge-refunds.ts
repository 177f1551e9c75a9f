/**
 * What the subscriptions area knows of a charge's refunds. The refunds themselves are src/refunds'
 * (refundSubscriptionCharge): a confirmed charge is recorded as a captured card sale, or a paid PIX
 * for a Pix Automático charge (src/sales/
 * settled-sales.ts) at its first refund, whether it was confirmed before refunds of charges existed
 * or after, so the charging path writes nothing more; its refunds are that sale's refunds, and when
 * one succeeds the refunds area writes the charge's refunded total here.
 */
import { notFound } from '../platform/errors';
import { findSettledSale, recordSettledSale } from '../sales';
import { type Payment } from '../payments/model';
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
 * The sale is found by its origin (its order id, unique, indexed): one read, as reading a `saleId`
 * link was, and one write fewer on the charge (the link is no longer written; older charges' is unused).
 */
export async function chargeSaleOf(sub: Subscription, charge: SubscriptionCharge): Promise<Payment> {
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
      tid: charge.acquirerTid ?? null,
      authorizationCode: null,
      proofOfSale: null,
      returnCode: null,
      returnMessage: null,
    },
  });
}

/**
 * The charge's refunded total after a refund of its sale succeeded (`whole`: all of it is back, the
 * charge is REFUNDED). Written by the one process sending the sale's refunds (its lane), from the
 * sale's total, so writing it again after a crash writes the same. One update is enough: the store
 * applies each single-document update atomically (MongoDB; our FerretDB with its patch, docs/store.md),
 * so the outbox clearing the charge's owed events at the same moment cannot undo it.
 */
export async function recordChargeRefunded(chargeId: number, refundedCents: number, whole: boolean): Promise<void> {
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
