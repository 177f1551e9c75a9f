/** A refund as the API shows it. */
import type { Refund } from '../payments/refund-model';
import type { RefundAnswer } from './schemas';

const iso = (date: Date | null | undefined): string | null => (date ? new Date(date).toISOString() : null);

export function presentRefund(refund: Refund): RefundAnswer {
  return {
    id: refund._id,
    sale_id: refund.saleId,
    value: refund.valueCents,
    reason: refund.reason,
    metadata: refund.metadata,
    status: refund.status,
    // A refund just admitted (refund.pending's data) is built before the store's defaults: null, not absent.
    acquirer_code: refund.acquirerCode ?? null,
    failure_reason: refund.failureReason ?? null,
    created_at: new Date(refund.createdAt).toISOString(),
    updated_at: new Date(refund.updatedAt).toISOString(),
    settled_at: iso(refund.settledAt),
  };
}
