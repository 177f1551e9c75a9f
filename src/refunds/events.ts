/**
 * The account events of refunds (src/events): refund.pending when admitted, refund.succeeded or
 * refund.failed when settled, and sale.refunded for the sale each succeeded refund moves (one per
 * refund: a sale may be refunded in several parts). The refund's own write owes them
 * (src/events/outbox.ts): these build the events, the writes carry them.
 */
import type { NewEvent } from '../events/recording';
import { presentSale } from '../sales';
import { type Payment } from '../payments/model';
import type { Refund } from '../payments/refund-model';
import { presentRefund } from './presentation';

const TYPES = { pending: 'refund.pending', succeeded: 'refund.succeeded', failed: 'refund.failed' } as const;

/** A refund's events are pending, then succeeded or failed: each knows its place (no read of the last). */
const SEQUENCES = { pending: 1, succeeded: 2, failed: 2 } as const;

export function refundEvent(refund: Refund): NewEvent {
  return {
    merchantId: refund.merchantId,
    type: TYPES[refund.status],
    objectId: refund._id,
    data: presentRefund(refund),
    sequence: SEQUENCES[refund.status],
  };
}

/** A refund succeeded: its event, then the sale's, as it is now (refunded total and status written). */
export function refundSettledEvents(refund: Refund, sale: Payment, refunded: number, whole: boolean): NewEvent[] {
  const now = refund.settledAt ?? new Date();
  const moved: Payment = {
    ...sale,
    refundedValue: refunded,
    status: whole ? 'REFUNDED' : 'PARTIALLY_REFUNDED',
    refundedAt: whole ? (sale.refundedAt ?? now) : sale.refundedAt,
  };
  return [
    refundEvent(refund),
    {
      merchantId: sale.merchantId,
      type: 'sale.refunded',
      objectId: sale._id,
      change: `refunded_${refund._id}`,
      data: presentSale(moved),
    },
  ];
}
