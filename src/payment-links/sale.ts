/**
 * The card sale a paid link is recorded as (src/sales/settled-sales.ts): the link's charge, by its
 * acquirer PaymentId and Tid, so the merchant refunds the link through the sale's refunds
 * (POST /api/v1/online/sales/{sale_id}/refunds/). A pay records it with the paid status; a link
 * paid before that existed gets it on the merchant's first read.
 */
import mongoose from 'mongoose';
import { getSale } from '../acquirer/client';
import { logger } from '../platform/logger';
import { documentKind, normalizeDocument } from '../platform/brazilian-documents';
import { recordSettledSale } from '../sales';
import { PaymentModel, type Payment } from '../payments/model';
import { LINK_PAID, PaymentLinkModel, type LinkPayment, type PaymentLink } from './model';

/** The sale of the link's payment, inserted once whoever records it (the pay, the sweep, a read). */
export async function recordLinkSale(link: PaymentLink, payment: LinkPayment, paymentDate: Date): Promise<Payment> {
  if (payment.method === 'pix') {
    // A link paid by PIX was paid by a PIX sale of its own (src/checkout/pix.ts): that sale is the link's.
    const pixSale = await PaymentModel.findOne({ acquirerPaymentId: payment.acquirerPaymentId }).lean();
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

/** Paid links of the earlier release that have no sale yet: the backfill's scan. */
export const PAID_LINKS_WITHOUT_SALE = { status: LINK_PAID, saleId: mongoose.trusted({ $exists: false }) };

/**
 * Records the sale of every paid link that has none (paid before link sales existed), so an accepted
 * chargeback finds it by TID before the merchant ever reads the link: without it, the chargeback held
 * nothing and a later refund returned the money a second time. A card payment recorded without its TID
 * gets it from the acquirer. Idempotent and resumable (each link's sale is inserted once, under its
 * order id); an acquirer that cannot be asked stops the run, and the next scheduler start goes on.
 * A PIX link whose own sale is missing is logged and left (its sale was written before the link).
 */
export async function backfillLinkSales(): Promise<number> {
  const links = await PaymentLinkModel.find(PAID_LINKS_WITHOUT_SALE).lean<PaymentLink[]>();
  let written = 0;
  for (const link of links) {
    if (!link.payment) continue;
    const payment =
      link.payment.method !== 'pix' && !link.payment.tid && link.payment.acquirerPaymentId
        ? { ...link.payment, tid: (await getSale(link.payment.acquirerPaymentId))?.tid || null }
        : link.payment;
    try {
      await withLinkSale({ ...link, payment });
      written++;
    } catch (err) {
      logger.error({ err, linkId: link._id }, 'paid link left without its sale');
    }
  }
  if (written) logger.info({ links: written }, 'paid links given their sale');
  return written;
}
