/**
 * The claim under which one request checks and tokenises a card: a dead holder's claim is taken over, a live one is
 * waited for (409 after that), an acquirer failure leaves nothing behind, and a customer deleted during the check
 * keeps no card. Serial: the sandbox's faults apply to the next call, whoever sends it.
 */
import '../helpers/env';
import test from 'ava';
import { savedCardFingerprint } from '../../src/cards/fingerprint';
import { CustomerCardModel } from '../../src/customers/model';
import { insertDocument } from '../../src/db/inserts';
import { clearTestCard } from '../helpers/cards';
import { call, callJson } from '../helpers/http';
import { eventually } from '../helpers/processes';
import { asMerchant, customerPath, newCustomer, saveCard, useCustomersEnv } from './helpers';

// Short acquirer calls: a twin waits two of them (and 2 s) before its 409.
process.env.ACQUIRER_TIMEOUT_MS = '1500';
const env = useCustomersEnv();

const NUMBER = '4000000000000010';

/** A claim on the helper's test card for `customerId`, as a request checking it would hold. */
async function claimOf(customerId: string, claimedAt: Date) {
  const card = clearTestCard({ number: NUMBER });
  await insertDocument(CustomerCardModel, {
    _id: `${customerId}:${savedCardFingerprint(card)}`,
    publicId: 'card_00000000000000000000dead',
    merchantId: env.merchant.merchantId,
    customerId,
    state: 'checking',
    holder: 'a-holder-that-died',
    claimedAt,
    fingerprint: savedCardFingerprint(card),
    brand: 'Visa',
    last4: NUMBER.slice(-4),
    expMonth: card.expMonth,
    expYear: card.expYear,
    cardHolder: card.holder,
    sealedToken: null,
    check: null,
    usedBy: [],
  });
}

const fault = (body: Record<string, unknown>) => callJson(env.sandbox, 'POST', '/sandbox/faults', {}, body);

test.serial('a claim whose holder died is taken over once its lease is over', async (t) => {
  const customer = await newCustomer(env.app, env.merchant);
  await claimOf(customer.id, new Date(Date.now() - 60_000));
  const res = await saveCard(env.app, env.merchant, customer.id, NUMBER);
  t.is(res.status, 201, res.text);
  t.not(res.body.id, 'card_00000000000000000000dead');
  t.is(await CustomerCardModel.countDocuments({ customerId: customer.id }), 1);
});

test.serial('a live claim is waited for; still checking after that long, the twin answers 409', async (t) => {
  const customer = await newCustomer(env.app, env.merchant);
  await claimOf(customer.id, new Date());
  const started = Date.now();
  const res = await saveCard(env.app, env.merchant, customer.id, NUMBER);
  t.is(res.status, 409, res.text);
  t.is(res.headers.get('retry-after'), '5');
  t.true(Date.now() - started >= 4_500, 'it waited for the holder');
  t.is(await CustomerCardModel.countDocuments({ customerId: customer.id, state: 'saved' }), 0);
});

test.serial(
  'an acquirer failure in zero auth or in tokenising is 502 and leaves nothing: saving again works',
  async (t) => {
    const customer = await newCustomer(env.app, env.merchant);
    for (const operation of ['create', 'card']) {
      await fault({ mode: 'error', operation, count: 1 });
      const failed = await saveCard(env.app, env.merchant, customer.id, NUMBER);
      t.is(failed.status, 502, `${operation}: ${failed.text}`);
      t.is(await CustomerCardModel.countDocuments({ customerId: customer.id }), 0, operation);
    }
    const saved = await saveCard(env.app, env.merchant, customer.id, NUMBER);
    t.is(saved.status, 201, saved.text);
  },
);

test.serial('a customer deleted while its card is checked keeps no card, and the save is 404', async (t) => {
  const customer = await newCustomer(env.app, env.merchant);
  await fault({ mode: 'latency', latencyMs: 1000, operation: 'create', count: 1 });
  const saving = saveCard(env.app, env.merchant, customer.id, NUMBER);
  await eventually(() => CustomerCardModel.exists({ customerId: customer.id }), 5_000, 20);
  const deleted = await call(env.app, 'DELETE', customerPath(customer.id), asMerchant(env.merchant));
  t.is(deleted.status, 204);
  const res = await saving;
  t.is(res.status, 404, res.text);
  t.is(await CustomerCardModel.countDocuments({ customerId: customer.id }), 0);
});

test.serial('twins that arrive while the first is still checking wait for it and answer its card', async (t) => {
  const customer = await newCustomer(env.app, env.merchant);
  await fault({ mode: 'latency', latencyMs: 700, operation: 'create', count: 1 });
  const first = saveCard(env.app, env.merchant, customer.id, NUMBER);
  await eventually(() => CustomerCardModel.exists({ customerId: customer.id }), 5_000, 20);
  const twins = await Promise.all([0, 1].map(() => saveCard(env.app, env.merchant, customer.id, NUMBER)));
  t.is((await first).status, 201);
  t.deepEqual(
    twins.map((twin) => [twin.status, twin.body.id]),
    [
      [200, (await first).body.id],
      [200, (await first).body.id],
    ],
  );
});
