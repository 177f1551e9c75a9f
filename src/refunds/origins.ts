/**
 * What a refund's outcome means beyond its sale when the sale stands for a charge another area
 * made (src/sales/settled-sales.ts): a subscription charge gets its refunded total (REFUNDED once all
 * of it is back), a paid link's webhook gets the refund's event. Called by the sale's send lane
 * (sending.ts) once the outcome is known.
 *
 * A succeeded refund: called after the sale's write and before the refund's own, so a crash or a
 * failure here leaves the refund pending with its void recorded; the next turn settles it again from
 * VoidedAmount and calls this again. Writing the charge again writes the same, and the link event is
 * stored once per refund (the outbox's onceKey). A failed refund is final before this runs: a failure
 * to store its event is logged (as a link's other events are, src/checkout/settlement.ts).
 */
import { notify } from '../checkout/settlement';
import { logger } from '../platform/logger';
import { PaymentLinkModel } from '../payment-links/model';
import { PaymentModel, type Payment } from '../payments/model';
import { recordChargeRefunded } from '../subscriptions/charge-refunds';
import type { Refund } from '../payments/refund-model';
import { presentRefund } from './presentation';

export async function refundSucceededForOrigin(
  sale: Payment,
  refund: Refund,
  refundedCents: number,
  whole: boolean,
): Promise<void> {
  if (sale.origin?.kind === 'subscription_charge') await recordChargeRefunded(sale.origin.id, refundedCents, whole);
  if (sale.origin?.kind === 'payment_link') {
    const settled: Refund = { ...refund, status: 'succeeded', settledAt: refund.settledAt ?? new Date() };
    if (!(await notifyLink(sale, settled, 'payment_link.refund_succeeded', refundedCents)))
      throw new Error(`the refund_succeeded event of refund ${refund._id} could not be stored`);
  }
}

/** The refund failed (its final write is done): a paid link's webhook is told. */
export async function refundFailedForOrigin(refund: Refund): Promise<void> {
  let stored = false;
  try {
    const sale = await PaymentModel.findById(refund.saleId).lean();
    if (sale?.origin?.kind !== 'payment_link') return;
    stored = await notifyLink(sale, refund, 'payment_link.refund_failed', sale.refundedValue ?? 0);
  } catch (err) {
    logger.error({ err, refundId: refund._id }, 'could not read the sale of a failed refund');
  }
  if (!stored) logger.error({ refundId: refund._id }, 'the refund_failed event of a link was not stored');
}

async function notifyLink(sale: Payment, refund: Refund, type: string, refundedCents: number): Promise<boolean> {
  const link = await PaymentLinkModel.findById(sale.origin!.id).lean();
  if (!link) return true;
  return notify(
    link,
    type,
    { sale_id: sale._id, refunded_value: refundedCents, refund: presentRefund(refund) },
    { onceKey: `refund:${refund._id}` },
  );
}
