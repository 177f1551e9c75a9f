/**
 * The card sale a paid link is recorded as (src/sales/settled-sales.ts): the link's charge, by its
 * acquirer PaymentId and Tid, so the merchant refunds the link through the sale's refunds
 * (POST /api/v1/online/sales/{sale_id}/refunds/). A pay records it with the paid status; a link
 * paid before that existed gets it on the merchant's first read.
 */
import { documentKind, normalizeDocument } from '../platform/brazilian-documents';
import { OnlineSaleModel, recordSettledSale, type OnlineSale } from '../sales';
import { LINK_PAID, PaymentLinkModel, type LinkPayment, type PaymentLink } from './model';

/** The sale of the link's payment, inserted once whoever records it (the pay, the sweep, a read). */
export async function recordLinkSale(link: PaymentLink, payment: LinkPayment, paymentDate: Date): Promise<OnlineSale> {
  if (payment.method === 'pix') {
    // A link paid by PIX was paid by a PIX sale of its own (src/checkout/pix.ts): that sale is the link's.
    const pixSale = await OnlineSaleModel.findOne({ acquirerPaymentId: payment.acquirerPaymentId }).lean();
    if (pixSale && pixSale.merchantId === link.merchantId) return pixSale;
    throw new Error(`the PIX sale of payment link ${link._id} is not recorded`);
  }
  const document = normalizeDocument(link.document);
  const kind = document ? documentKind(document) : null;
  return recordSettledSale({
    merchantId: link.merchantId,
    origin: { kind: 'payment_link', id: link._id },
    // What was charged: the link's value, or more when the payer chose installments with interest.
    amountCents: payment.total ?? link.value,
    installments: payment.installments || link.installments,
    capturedAt: paymentDate,
    payer: { name: link.payerName, document: kind ? document : null, documentType: kind ?? null },
    card: { brand: payment.brand, bin: payment.bin, last4: payment.last4, fromToken: false },
    acquirer: {
      paymentId: payment.acquirerPaymentId,
      tid: payment.tid ?? null,
      authorizationCode: payment.authorizationCode ?? null,
      proofOfSale: null,
      returnCode: payment.returnCode ?? null,
      returnMessage: payment.returnMessage ?? null,
    },
  });
}

/** A paid link without its sale (paid before sales were recorded for links): recorded now, once. */
export async function withLinkSale(link: PaymentLink): Promise<PaymentLink> {
  if (link.status !== LINK_PAID || !link.payment || link.saleId) return link;
  const sale = await recordLinkSale(link, link.payment, link.paymentDate ?? link.updatedAt);
  await PaymentLinkModel.updateOne({ _id: link._id }, { $set: { saleId: sale._id } });
  return { ...link, saleId: sale._id };
}
