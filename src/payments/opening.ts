/**
 * A payment is opened in PROCESSING before its acquirer call (the call's guard: no two calls for one order id), and
 * closed as FAILED when the call failed with nothing charged.
 */
import { checkedAfterLookup } from '../db/filters';
import { insertDocument } from '../db/inserts';
import { PaymentModel, type Payment } from './model';

/** What the caller says of a new payment; the rest is the model's defaults. */
export type NewPayment = Pick<
  Payment,
  | '_id'
  | 'merchantId'
  | 'merchantOrderId'
  | 'orderReference'
  | 'paymentMethod'
  | 'amountCents'
  | 'installments'
  | 'payer'
  | 'card'
  | 'idempotencyRecordId'
  | 'idempotencyRecordCreatedAt'
  | 'idempotencyBodyHash'
>;

/** Stores the payment in PROCESSING, its event numbering at 0 (its moves number their events from there). */
export async function openPayment(fields: NewPayment): Promise<Payment> {
  // Awaited here, not handed back: the write's async stack then names this file (test/payments/writers.ts).
  return await insertDocument(PaymentModel, { ...fields, status: 'PROCESSING', eventSeq: 0 });
}

/** The acquirer refused or was never reached: the payment, still PROCESSING, is FAILED (nothing was charged). */
export async function failUnchargedPayment(payment: Payment): Promise<Payment> {
  const stillProcessing = { _id: payment._id, status: checkedAfterLookup('PROCESSING') };
  return (
    (await PaymentModel.findOneAndUpdate(stillProcessing, { $set: { status: 'FAILED' } }, { new: true }).lean()) ??
    payment
  );
}
