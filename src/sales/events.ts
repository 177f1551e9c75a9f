/**
 * The account event of a sale's move (src/events): which type a move to a status is, and the sale as
 * the API shows it. A card sale captured at its authorization sends sale.captured alone (its data
 * says it was authorized too); a refund's move of the sale is emitted by the refunds core.
 */
import type { NewEvent } from '../events/recording';
import type { EventType } from '../webhooks/event-types';
import type { Payment, PaymentStatus } from '../payments/model';
import type { MoveOwes } from '../payments/transitions';
import { presentSale } from './presentation';

export function saleEventTypeOf(moved: Pick<Payment, 'paymentMethod'>, to: PaymentStatus): EventType | null {
  const pix = moved.paymentMethod === 'pix';
  switch (to) {
    case 'PRE_CAPTURED':
      return 'sale.authorized';
    case 'DENIED':
      return 'sale.denied';
    case 'CONFIRMED':
      return pix ? 'pix.paid' : 'sale.captured';
    case 'CANCELLED':
      return 'sale.cancelled';
    case 'REFUNDED':
      return 'sale.refunded';
    case 'EXPIRED':
      return 'pix.expired';
    default:
      return null;
  }
}

/** The event a move owes (once per sale and type: a sale makes each of these moves at most once), or null. */
export function saleMoveEvent(moved: Payment): NewEvent | null {
  const type = saleEventTypeOf(moved, moved.status);
  return type && { merchantId: moved.merchantId, type, objectId: moved._id, data: presentSale(moved) };
}

/** What a sale's move owes when nothing is kept for a replay: its event. */
export const SALE_MOVE: MoveOwes = { event: saleMoveEvent };

/**
 * The event of a sale recorded already CONFIRMED (a paid link's card charge, src/payment-links/sale.ts): what a
 * sale of the sales API emits on reaching CONFIRMED (sale.captured for a card, as a capture at authorization), as
 * its first event. The recorder owes it (the link's pay records it beside payment_link.paid).
 */
export function settledSaleEvent(sale: Payment): NewEvent | null {
  const event = saleMoveEvent(sale);
  return event && { ...event, sequence: 1 };
}
