/**
 * `merchant:delete`: removes a merchant created by mistake in a local database, with what its creation made (its
 * users, its tokens, its establishment numbers), so a mistaken `merchant:create` can be undone and a database left
 * with no users gets the demo merchant again at the next `npm start`. Refused in production and on a database on
 * another machine, and for a merchant that has business records (sales, links, subscriptions, endpoints, events,
 * contacts, customers): those are records of payments, not a mistake to undo with one command.
 */
import { isLoopbackHost } from '../../config/formats';
import { MerchantTokenModel, RevokedMerchantTokenModel, UserModel } from '../auth/model';
import { CommercialContactModel } from '../contacts/model';
import { merchantHasCustomers } from '../customers/customers';
import { AccountEventModel } from '../events/model';
import { releaseEstablishments } from '../merchants/establishments';
import { MerchantModel } from '../merchants/model';
import { PaymentLinkModel } from '../payment-links/model';
import { notFound } from '../platform/errors';
import { merchantHasPayments } from '../payments/reads';
import { SubscriptionModel } from '../subscriptions/model';
import { WebhookEndpointModel } from '../webhooks/endpoint-model';

/**
 * Why merchant:delete may not run here, or null: never with NODE_ENV=production (checked before the configuration
 * loads, so without a database), and only on a database on this machine.
 */
export function deletionRefusal(nodeEnv: string | undefined, mongodbUri?: string): string | null {
  if (nodeEnv === 'production')
    return 'merchant:delete is for local databases: refused with NODE_ENV=production (deactivate its users instead)';
  if (mongodbUri === undefined) return null;
  const hosts = /^[^:]+:\/\/(?:[^@/]*@)?([^/?]*)/.exec(mongodbUri)?.[1] ?? '';
  if (!hosts || !hosts.split(',').every((host) => /^%2F/i.test(host) || isLoopbackHost(host)))
    return 'merchant:delete is for local databases: MONGODB_URI names a database on another machine';
  return null;
}

/** The records that make a merchant more than a mistake, each read by its merchant's index (one document). */
const BUSINESS_RECORDS: [name: string, held: (merchantId: number) => Promise<unknown>][] = [
  ['sales', merchantHasPayments],
  ['payment links', (merchantId) => PaymentLinkModel.exists({ merchantId })],
  ['subscriptions', (merchantId) => SubscriptionModel.exists({ merchantId })],
  ['webhook endpoints', (merchantId) => WebhookEndpointModel.exists({ merchantId })],
  ['account events', (merchantId) => AccountEventModel.exists({ merchantId })],
  ['commercial contacts', (merchantId) => CommercialContactModel.exists({ merchantIds: merchantId })],
  ['customers', merchantHasCustomers],
];

export interface DeletedMerchant {
  merchant_id: number;
  company_name: string;
  users_deleted: number;
  tokens_deleted: number;
  establishment_numbers_released: string[];
}

export async function deleteMerchant(merchantId: number): Promise<DeletedMerchant> {
  const merchant = await MerchantModel.findById(merchantId).lean();
  if (!merchant) throw notFound(`No merchant ${merchantId}.`);
  const holds: string[] = [];
  for (const [name, held] of BUSINESS_RECORDS) if (await held(merchantId)) holds.push(name);
  if (holds.length)
    throw new Error(
      `merchant ${merchantId} has ${holds.join(', ')}: merchant:delete removes only a merchant with none (one ` +
        'created by mistake); for a fresh local database start another stack (INSTANCE) or drop this one',
    );
  // Its access first, the merchant last: a deletion cut short is finished by running the command again.
  const tokens = await MerchantTokenModel.deleteMany({ merchantId });
  await RevokedMerchantTokenModel.deleteMany({ merchantId });
  const users = await UserModel.deleteMany({ merchantId });
  const released = merchant.establishmentNumbers;
  await releaseEstablishments(merchantId, released);
  await MerchantModel.deleteOne({ _id: merchantId });
  return {
    merchant_id: merchantId,
    company_name: merchant.companyName,
    users_deleted: users.deletedCount,
    tokens_deleted: tokens.deletedCount,
    establishment_numbers_released: released,
  };
}
