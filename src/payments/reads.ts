/** Reads of payments that areas outside src/payments need, so none of them holds the payment's models. */
import { PaymentModel } from './model';

/** Whether the merchant has any payment (one document read by the merchant's index). */
export const merchantHasPayments = async (merchantId: number): Promise<boolean> =>
  Boolean(await PaymentModel.exists({ merchantId }));
