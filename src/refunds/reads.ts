/** The stored reads of refunds: a sale's, and one by its id. Another merchant's is "not found". */
import { notFound } from '../platform/errors';
import { findSale } from '../payments/transitions';
import { RefundModel } from '../payments/refund-model';
import { presentRefund } from './presentation';
import type { RefundAnswer } from './schemas';

export async function listSaleRefunds(merchantId: number, saleId: number): Promise<RefundAnswer[]> {
  const sale = await findSale(merchantId, saleId);
  const refunds = await RefundModel.find({ saleId: sale._id }).sort({ createdAt: 1, _id: 1 }).lean();
  // An accepted chargeback's hold is not a refund (docs/api/refunds.md): not listed.
  return refunds.filter((refund) => refund.kind !== 'chargeback').map(presentRefund);
}

export async function readRefund(merchantId: number, refundId: number): Promise<RefundAnswer> {
  // By `_id` alone, then the merchant: another merchant's refund is not revealed.
  const refund = await RefundModel.findById(refundId).lean();
  if (!refund || refund.merchantId !== merchantId || refund.kind === 'chargeback') throw notFound('Refund not found.');
  return presentRefund(refund);
}
