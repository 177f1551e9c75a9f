/**
 * The acquirer's payment notice of a PIX also says a refund of it completed (Status 11, VoidedAmount
 * grown). The notice processor applies the notice to the sale (src/sales), then calls this: a PIX
 * sale with refunds pending gets a turn of its send lane, which reads the acquirer's GET and settles
 * them against VoidedAmount. The notice body only names the PaymentId: it is never trusted.
 */
import { PaymentModel, PaymentNoticeModel } from '../payments/model';
import { RefundModel } from '../payments/refund-model';
import { sendPendingRefunds } from './sending';

export async function settleRefundsOnNotice(noticeId: string): Promise<string | null> {
  const notice = await PaymentNoticeModel.findById(noticeId, { paymentId: 1 }).lean();
  if (!notice?.paymentId) return null;
  const sale = await PaymentModel.findOne(
    { acquirerPaymentId: notice.paymentId },
    { paymentMethod: 1, status: 1 },
  ).lean();
  if (sale?.paymentMethod !== 'pix' || (sale.status !== 'CONFIRMED' && sale.status !== 'PARTIALLY_REFUNDED'))
    return null;
  if (!(await RefundModel.exists({ saleId: sale._id, status: 'pending' }))) return null;
  return sendPendingRefunds(sale._id);
}
