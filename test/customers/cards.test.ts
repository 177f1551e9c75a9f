import '../helpers/env';
import test from 'ava';
import { getTokenisedCard } from '../../src/acquirer/client';
import { openCardToken } from '../../src/cards/sealed-tokens';
import { recordCardUse, releaseCardUse } from '../../src/customers/card-uses';
import { CustomerCardModel, type CustomerCard } from '../../src/customers/model';
import { call, callJson } from '../helpers/http';
import { newMerchant } from '../helpers/identity';
import {
  asMerchant,
  cardPath,
  cardsPath,
  customerPath,
  newCustomer,
  saveCard,
  useCustomersEnv,
  ZERO_AUTH_CARDS,
} from './helpers';

const env = useCustomersEnv();

/** The Zero Auth requests the sandbox received for a card (by its last four digits). */
async function zeroAuthsOf(last4: string): Promise<{ valid: boolean | null; returnCode: string | null }[]> {
  return (await callJson(env.sandbox, 'GET', `/sandbox/zeroauth/requests?last4=${last4}`)).body.requests;
}

test('a valid card is checked, tokenised and kept as its token, brand, last four, expiry and holder', async (t) => {
  const customer = await newCustomer(env.app, env.merchant);
  const expYear = new Date().getUTCFullYear() + 3;
  const res = await saveCard(env.app, env.merchant, customer.id, ZERO_AUTH_CARDS.visaValid, { holder: 'MARIA S' });
  t.is(res.status, 201, res.text);
  t.regex(res.body.id, /^card_[0-9a-f]{24}$/);
  t.like(res.body, {
    customer_id: customer.id,
    brand: 'Visa',
    last4: '0010',
    exp_month: 12,
    exp_year: expYear,
    holder: 'MARIA S',
    check: { status: 'passed', reason: null },
  });
  t.deepEqual(Object.keys(res.body).sort(), [
    'brand',
    'check',
    'created_at',
    'customer_id',
    'exp_month',
    'exp_year',
    'holder',
    'id',
    'last4',
  ]);

  const stored = (await CustomerCardModel.findOne({ publicId: res.body.id }).lean<CustomerCard>())!;
  t.is(stored.state, 'saved');
  t.is(stored.merchantId, env.merchant.merchantId);
  t.regex(stored.check!.issuerTransactionId!, /^\d{15}$/);
  t.regex(stored.fingerprint, /^[0-9a-f]{64}$/);
  // The token is sealed, opens for this card only, and is the acquirer's token of this very card.
  t.regex(stored.sealedToken!, /^v1\.[0-9a-f]{8}\./);
  const token = openCardToken(stored.sealedToken!, stored._id);
  t.regex(token, /^[0-9a-f-]{36}$/);
  t.throws(() => openCardToken(stored.sealedToken!, `${stored._id}x`));
  t.like(await getTokenisedCard(token), { maskedNumber: '400000******0010', holder: 'MARIA S' });

  const read = await callJson(env.app, 'GET', cardPath(customer.id, res.body.id), asMerchant(env.merchant));
  t.deepEqual(read.body, res.body);
  const list = await callJson(env.app, 'GET', cardsPath(customer.id), asMerchant(env.merchant));
  t.deepEqual(list.body, { results: [res.body] });
});

test('master and elo are checked too', async (t) => {
  const customer = await newCustomer(env.app, env.merchant);
  for (const [number, brand] of [
    [ZERO_AUTH_CARDS.masterValid, 'Master'],
    [ZERO_AUTH_CARDS.eloValid, 'Elo'],
  ]) {
    const res = await saveCard(env.app, env.merchant, customer.id, number);
    t.is(res.status, 201, res.text);
    t.like(res.body, { brand, check: { status: 'passed' } });
  }
});

test('a card zero auth refuses is 422 in words, with the issuer code, and nothing is kept', async (t) => {
  const customer = await newCustomer(env.app, env.merchant);
  const refused = await saveCard(env.app, env.merchant, customer.id, ZERO_AUTH_CARDS.refused51);
  t.is(refused.status, 422, refused.text);
  t.deepEqual(refused.body, {
    detail:
      'Zero Auth refused the card: The issuing bank refused the card for lack of funds or limit. Ask the customer ' +
      'for another card.',
    return_code: '51',
    return_message: 'Insufficient Funds',
  });
  const generic = await saveCard(env.app, env.merchant, customer.id, ZERO_AUTH_CARDS.refused05);
  t.is(generic.status, 422);
  t.is(generic.body.return_code, '05');
  t.regex(generic.body.detail, /did not authorise the card/);
  t.is(await CustomerCardModel.countDocuments({ customerId: customer.id }), 0);
  t.deepEqual((await callJson(env.app, 'GET', cardsPath(customer.id), asMerchant(env.merchant))).body, {
    results: [],
  });
  // Refused cards are not remembered: trying again asks the issuer again.
  await saveCard(env.app, env.merchant, customer.id, ZERO_AUTH_CARDS.refused51);
  t.is((await zeroAuthsOf('0069')).filter((r) => r.returnCode === '51').length >= 2, true);
});

test('a brand without zero auth is saved with its check skipped, and says why', async (t) => {
  const customer = await newCustomer(env.app, env.merchant);
  const res = await saveCard(env.app, env.merchant, customer.id, ZERO_AUTH_CARDS.amexUnchecked);
  t.is(res.status, 201, res.text);
  t.like(res.body, { brand: 'Amex', last4: '8431', check: { status: 'skipped' } });
  t.is(
    res.body.check.reason,
    'The acquirer does not run Zero Auth for Amex cards: the card was saved without being checked.',
  );
  const stored = await CustomerCardModel.findOne({ publicId: res.body.id }).lean<CustomerCard>();
  t.is(stored?.check?.issuerTransactionId, null);
  t.truthy(stored?.sealedToken);
  // The acquirer was asked, and answered that it does not check this brand.
  t.deepEqual(
    (await zeroAuthsOf('8431')).map((r) => r.valid),
    [null],
  );
});

test('the same card saved again is the same card: 200, nothing sent to the acquirer', async (t) => {
  const customer = await newCustomer(env.app, env.merchant);
  const number = '4000000000000044'; // approved, a number no other test saves
  const first = await saveCard(env.app, env.merchant, customer.id, number, { holder: 'ANA' });
  t.is(first.status, 201, first.text);
  const again = await saveCard(env.app, env.merchant, customer.id, number, { holder: 'ana souza', cvv: '999' });
  t.is(again.status, 200, again.text);
  t.deepEqual(again.body, first.body);
  t.is((await zeroAuthsOf('0044')).length, 1);
  // Another customer's save of it is another card; so is the card with another expiry.
  const other = await newCustomer(env.app, env.merchant);
  const elsewhere = await saveCard(env.app, env.merchant, other.id, number);
  t.is(elsewhere.status, 201);
  t.not(elsewhere.body.id, first.body.id);
  const renewed = await saveCard(env.app, env.merchant, customer.id, number, { expMonth: 11 });
  t.is(renewed.status, 201);
  t.is((await callJson(env.app, 'GET', cardsPath(customer.id), asMerchant(env.merchant))).body.results.length, 2);
});

test('the same card saved twice at once is one card, checked once', async (t) => {
  const customer = await newCustomer(env.app, env.merchant);
  const number = '4000000000000051'; // approved, a number no other test saves
  const answers = await Promise.all([0, 1, 2].map(() => saveCard(env.app, env.merchant, customer.id, number)));
  t.deepEqual(answers.map((a) => a.status).sort(), [200, 200, 201], answers.map((a) => a.text).join('\n'));
  t.is(new Set(answers.map((a) => a.body.id)).size, 1);
  t.is(await CustomerCardModel.countDocuments({ customerId: customer.id }), 1);
  t.is((await zeroAuthsOf('0051')).length, 1);
});

test('delete forgets the card and its token; a card in use is a 409 until the use is released', async (t) => {
  const customer = await newCustomer(env.app, env.merchant);
  const saved = (await saveCard(env.app, env.merchant, customer.id, ZERO_AUTH_CARDS.masterValid)).body;
  const path = cardPath(customer.id, saved.id);
  await recordCardUse(env.merchant.merchantId, saved.id, 'subscription 42');
  const refused = await call(env.app, 'DELETE', path, asMerchant(env.merchant));
  t.is(refused.status, 409);
  t.deepEqual(refused.body, {
    detail: `The card ${saved.id} pays subscription 42: move it to another card first, then delete it.`,
  });
  const customerRefused = await call(env.app, 'DELETE', customerPath(customer.id), asMerchant(env.merchant));
  t.is(customerRefused.status, 409);
  t.is((await callJson(env.app, 'GET', path, asMerchant(env.merchant))).status, 200);

  await releaseCardUse(env.merchant.merchantId, saved.id, 'subscription 42');
  t.is((await call(env.app, 'DELETE', path, asMerchant(env.merchant))).status, 204);
  t.is((await callJson(env.app, 'GET', path, asMerchant(env.merchant))).status, 404);
  t.is((await call(env.app, 'DELETE', path, asMerchant(env.merchant))).status, 404);
  t.is(await CustomerCardModel.countDocuments({ publicId: saved.id }), 0);
  // A use of a deleted card is refused: a subscription can never be left on a forgotten card.
  await t.throwsAsync(recordCardUse(env.merchant.merchantId, saved.id, 'subscription 43'), {
    message: /No saved card/,
  });
});

test("deleting a customer forgets its cards; another merchant's customer or card is not found", async (t) => {
  const customer = await newCustomer(env.app, env.merchant);
  const saved = (await saveCard(env.app, env.merchant, customer.id, ZERO_AUTH_CARDS.visaValid)).body;
  const other = await newMerchant();
  for (const [method, path] of [
    ['GET', cardPath(customer.id, saved.id)],
    ['DELETE', cardPath(customer.id, saved.id)],
    ['GET', cardsPath(customer.id)],
  ] as const) {
    const res = await call(env.app, method, path, asMerchant(other));
    t.is(res.status, 404, `${method} ${path}`);
  }
  const foreign = await saveCard(env.app, other, customer.id, ZERO_AUTH_CARDS.visaValid);
  t.is(foreign.status, 404);
  // A card id under another of the merchant's customers is not that customer's card.
  const sibling = await newCustomer(env.app, env.merchant);
  t.is((await callJson(env.app, 'GET', cardPath(sibling.id, saved.id), asMerchant(env.merchant))).status, 404);

  t.is((await call(env.app, 'DELETE', customerPath(customer.id), asMerchant(env.merchant))).status, 204);
  t.is(await CustomerCardModel.countDocuments({ customerId: customer.id }), 0);
  t.is((await callJson(env.app, 'GET', cardsPath(customer.id), asMerchant(env.merchant))).status, 404);
});
