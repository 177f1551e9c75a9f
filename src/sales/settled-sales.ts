/**
 * A charge another area made and the acquirer already captured (a paid payment link, a confirmed
 * subscription charge), recorded as a CONFIRMED sale after the fact, so its refunds go through the
 * one refunds core (src/refunds) and the same acquirer void as any sale: a card's (a card sale), or
 * a PIX's (a Pix Automático charge is a PIX payment: its refunds answer Status 12 and complete by
 * notice, within 90 days of `paidAt`).
 *
 * Recorded once per origin whoever records it and however often (a pay and the stale-payment
 * sweep, two refunds of one charge at once, a retry after a crash): its `merchantOrderId` is
 * derived from the origin ("PL<linkId>", "SC<chargeId>"; pre-capture's are "S<id>R<hex>") and is
 * unique in the sales collection, so of two inserts one wins and the other reads the winner's sale.
 * That order id is never sent to the acquirer: the charge was made under its own, and the sale is
 * found there by its PaymentId.
 */
import mongoose from 'mongoose';
import { isDuplicateKey } from '../db/claims';
import { nextId } from '../db/ids';
import { insertDocument } from '../db/inserts';
import { PaymentModel, type Payment, type SaleOrigin } from '../payments/model';

/** The acquirer's captured status (Status 2, PaymentConfirmed). */
const CAPTURED = 2;

export interface SettledSaleInput {
  merchantId: number;
  origin: SaleOrigin;
  /** Cents captured: the whole charge. */
  amountCents: number;
  installments: number;
  capturedAt: Date;
  payer: { name: string; document: string | null; documentType: 'CPF' | 'CNPJ' | null };
  /** A card charge's card (brand, BIN, last four); null for a PIX, which has `pixPaidAt` instead. */
  card: { brand: string; bin: string; last4: string; fromToken: boolean } | null;
  /** A PIX payment: when it was paid (its refund window counts from there). */
  pixPaidAt?: Date;
  acquirer: {
    paymentId: string;
    tid: string | null;
    authorizationCode: string | null;
    proofOfSale: string | null;
    returnCode: string | null;
    returnMessage: string | null;
  };
}

const ORDER_ID_PREFIX: Record<SaleOrigin['kind'], string> = { payment_link: 'PL', subscription_charge: 'SC' };

export const settledSaleOrderId = (origin: SaleOrigin): string => `${ORDER_ID_PREFIX[origin.kind]}${origin.id}`;

/**
 * The sale recorded for an origin, if any: found by its order id (unique, top-level, indexed), so
 * whoever needs it does not depend on a link to it written onto the origin's own document.
 */
export async function findSettledSale(merchantId: number, origin: SaleOrigin): Promise<Payment | null> {
  const sale = await PaymentModel.findOne({ merchantOrderId: settledSaleOrderId(origin) }).lean();
  if (sale && sale.merchantId !== merchantId)
    throw new Error(`the sale of ${origin.kind} ${origin.id} is not its merchant's`);
  return sale;
}

/** The sale of the charge, inserted now or read as another recorder inserted it. */
export async function recordSettledSale(input: SettledSaleInput): Promise<Payment> {
  const merchantOrderId = settledSaleOrderId(input.origin);
  try {
    return await insertDocument(PaymentModel, {
      _id: await nextId('online_sale'),
      merchantId: input.merchantId,
      merchantOrderId,
      orderReference: null,
      paymentMethod: input.pixPaidAt ? 'pix' : 'card',
      amountCents: input.amountCents,
      installments: input.installments,
      status: 'CONFIRMED',
      payer: input.payer,
      card: input.card,
      ...(input.pixPaidAt ? { pix: { qrCode: '', expiresAt: null, paidAt: input.pixPaidAt } } : {}),
      acquirer: { ...input.acquirer, status: CAPTURED },
      acquirerPaymentId: input.acquirer.paymentId,
      // Top-level and indexed, as every sale's: an accepted chargeback names its sale by TID
      // (src/refunds/chargebacks.ts).
      acquirerTid: input.acquirer.tid,
      capturedAt: input.capturedAt,
      capturedValue: input.amountCents,
      origin: input.origin,
    });
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
  }
  const recorded = await PaymentModel.findOne({ merchantOrderId }).lean();
  if (!recorded || recorded.merchantId !== input.merchantId)
    throw new Error(`the sale of ${input.origin.kind} ${input.origin.id} is not its merchant's`);
  return recorded;
}

/**
 * Sales recorded before a settled sale carried its TID at the top level (a paid link's: `acquirer.tid` only):
 * the scan the backfill below makes, once per scheduler start.
 */
export const SALES_WITHOUT_TOP_LEVEL_TID = { 'acquirer.tid': mongoose.trusted({ $ne: null }), acquirerTid: null };

/**
 * Gives those sales their top-level TID, so an accepted chargeback finds them (src/refunds/chargebacks.ts).
 * Idempotent and resumable: a sale that has it is not read again. Returns how many it wrote.
 */
export async function backfillSettledSaleTids(): Promise<number> {
  const sales = await PaymentModel.find(SALES_WITHOUT_TOP_LEVEL_TID, { 'acquirer.tid': 1 }).lean();
  for (const sale of sales)
    await PaymentModel.updateOne({ _id: sale._id, acquirerTid: null }, { $set: { acquirerTid: sale.acquirer!.tid } });
  return sales.length;
}

/** The TID the acquirer gave the payment of an origin, on its sale if one is recorded (an older charge's had none). */
export async function recordSettledSaleTid(origin: SaleOrigin, tid: string): Promise<void> {
  await PaymentModel.updateOne(
    { merchantOrderId: settledSaleOrderId(origin), acquirerTid: null },
    { $set: { acquirerTid: tid, 'acquirer.tid': tid } },
  );
}
