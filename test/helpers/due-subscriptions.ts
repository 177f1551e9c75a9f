/**
 * Many subscriptions due today, written straight to the database (the API would encrypt and
 * tokenize each card): what the multi-process test and the charges bench schedule and charge.
 * No ava here: the bench imports it outside a test run.
 */
import mongoose from 'mongoose';
import { getConfig } from '../../config';
import {
  ChargeAttemptModel,
  ChargeStatus,
  SubscriptionChargeModel,
  SubscriptionModel,
} from '../../src/subscriptions/model';
import { send } from './http';

/** A card token of an approving sandbox card, from the sandbox's own tokenization endpoint. */
export async function sandboxCardToken(sandboxUrl: string): Promise<string> {
  const { merchantId, merchantKey } = getConfig().acquirer;
  const res = await send(
    { url: sandboxUrl },
    'POST',
    '/1/card',
    { MerchantId: merchantId, MerchantKey: merchantKey, 'content-type': 'application/json' },
    {
      CustomerName: 'Maria Silva',
      CardNumber: '4000000000000010',
      Holder: 'MARIA SILVA',
      ExpirationDate: `12/${new Date().getUTCFullYear() + 3}`,
      Brand: 'Visa',
    },
  );
  const body = (await res.json()) as { CardToken?: string };
  if (!body.CardToken) throw new Error(`the sandbox gave no card token (${res.status})`);
  return body.CardToken;
}

/** Inserts active monthly subscriptions with these ids, first due `today`, charging `cardToken`; 1,000 per insert. */
export async function insertDueSubscriptions(
  merchantId: number,
  ids: number[],
  cardToken: string,
  today: string,
): Promise<void> {
  const expYear = new Date().getUTCFullYear() + 3;
  for (let i = 0; i < ids.length; i += 1000) {
    await SubscriptionModel.insertMany(
      ids.slice(i, i + 1000).map((_id) => ({
        _id,
        merchantId,
        value: 1990,
        billingCycle: 'monthly',
        firstDueDate: today,
        retry: true,
        status: 'active',
        nextDueDate: today,
        nextCycle: 0,
        card: {
          token: cardToken,
          brand: 'Visa',
          bin: '400000',
          last4: '0010',
          holder: 'MARIA SILVA',
          expMonth: 12,
          expYear,
        },
        customer: { name: 'Maria Silva' },
      })),
    );
  }
}

/** How many of these subscriptions have a confirmed charge: all of them once the run is over. */
export async function confirmedChargesOf(subscriptionIds: number[]): Promise<number> {
  return SubscriptionChargeModel.countDocuments({
    subscriptionId: mongoose.trusted({ $in: subscriptionIds }),
    status: ChargeStatus.CONFIRMED,
  });
}

/** The charges stored for these subscriptions and the acquirer attempts stored for those charges. */
export async function chargesAndAttemptsOf(subscriptionIds: number[]): Promise<{ charges: number; attempts: number }> {
  const charges = await SubscriptionChargeModel.find(
    { subscriptionId: mongoose.trusted({ $in: subscriptionIds }) },
    { _id: 1 },
  ).lean();
  const attempts = await ChargeAttemptModel.countDocuments({
    chargeId: mongoose.trusted({ $in: charges.map((c) => c._id) }),
  });
  return { charges: charges.length, attempts };
}
