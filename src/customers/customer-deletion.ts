/** A customer's deletion: its cards and their tokens are forgotten with it, unless one is in use (409). */
import { forgetCardsOfCustomer } from './cards';
import { findCustomer } from './customers';
import { CustomerModel } from './model';

export async function deleteCustomer(merchantId: number, id: string): Promise<void> {
  const customer = await findCustomer(merchantId, id);
  await forgetCardsOfCustomer(customer, async () => {
    await CustomerModel.deleteOne({ _id: customer._id });
  });
}
