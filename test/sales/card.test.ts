import '../helpers/env';
import test from 'ava';
import { bearer, newMerchant, systemToken, type TestMerchant } from '../helpers/identity';
import { MerchantModel } from '../../src/merchants/model';
import { PaymentModel } from '../../src/payments/model';
import { CARDS, cardSale, PRE_CAPTURE, useSalesEnv } from './helpers';
import { call, callJson } from '../helpers/http';
import { encryptedTestCard } from '../helpers/cards';
import { luhnValid, UNDECRYPTABLE_CARD } from '../../src/cards';

const env = useSalesEnv({ workers: false });
let other: TestMerchant;
test.serial.before(async () => {
  other = await newMerchant();
});
const capture = (id: number, token = env.merchant.merchantToken) =>
  callJson(env.app, 'PUT', `/api/v1/online/sales/${id}/capture/`, bearer(token));
const cancel = (id: number, token = env.merchant.merchantToken) =>
  callJson(env.app, 'PUT', `/api/v1/online/sales/${id}/cancel-capture/`, bearer(token));

test('an approved card is pre-captured and keeps only brand, bin and last four', async (t) => {
  const res = await callJson(env.app, 'POST', PRE_CAPTURE, bearer(env.merchant.accessToken), cardSale());
  t.is(res.status, 200);
  const data = res.body.data;
  t.is(res.body.status, 'success');
  t.true(data.approved);
  t.is(data.sale_status, 'PRE_CAPTURED');
  t.is(data.value, 15990);
  t.is(data.installments, 3);
  t.is(data.order_reference, 'pedido-123');
  t.deepEqual(data.card, { brand: 'Visa', bin: '400000', last4: '0010' });
  t.truthy(data.acquirer.payment_id);
  t.truthy(data.acquirer.authorization_code);
  t.is(data.denial_code, null);
  const stored = await PaymentModel.findById(data.id).lean();
  const text = JSON.stringify(stored);
  t.false(text.includes(CARDS.approved));
  t.false(text.includes('"cvv"'));
});

test('a denied card is 200 with approved false and cannot be captured or cancelled', async (t) => {
  const res = await callJson(
    env.app,
    'POST',
    PRE_CAPTURE,
    bearer(env.merchant.merchantToken),
    cardSale({}, CARDS.denied05),
  );
  t.is(res.status, 200);
  t.false(res.body.data.approved);
  t.is(res.body.data.sale_status, 'DENIED');
  t.is(res.body.data.denial_code, '05');
  t.is(res.body.data.denial_message, 'Not Authorized');
  t.is(res.body.data.acquirer.authorization_code, null);
  const expired = await callJson(
    env.app,
    'POST',
    PRE_CAPTURE,
    bearer(env.merchant.merchantToken),
    cardSale({}, CARDS.denied57),
  );
  t.is(expired.body.data.denial_code, '57');
  const captured = await capture(res.body.data.id);
  t.is(captured.status, 400);
  t.regex(captured.body.detail, /DENIED/);
  t.is((await cancel(res.body.data.id)).status, 400);
});

test('capture confirms a pre-captured sale once', async (t) => {
  const sale = (await callJson(env.app, 'POST', PRE_CAPTURE, bearer(env.merchant.merchantToken), cardSale())).body.data;
  const first = await capture(sale.id);
  t.is(first.status, 200);
  t.is(first.body.data.sale_status, 'CONFIRMED');
  t.truthy(first.body.data.captured_at);
  const second = await capture(sale.id);
  t.is(second.status, 400);
  t.regex(second.body.detail, /CONFIRMED/);
});

test('cancel-capture voids a pre-captured sale', async (t) => {
  const sale = (await callJson(env.app, 'POST', PRE_CAPTURE, bearer(env.merchant.merchantToken), cardSale())).body.data;
  const res = await cancel(sale.id);
  t.is(res.status, 200);
  t.is(res.body.data.sale_status, 'CANCELLED');
  t.is((await capture(sale.id)).status, 400);
  t.is((await cancel(sale.id)).status, 400);
});

test('a confirmed sale is refunded only when allow_void_on_confirmed is set', async (t) => {
  const owner = await newMerchant();
  const sale = (await callJson(env.app, 'POST', PRE_CAPTURE, bearer(owner.merchantToken), cardSale())).body.data;
  t.is((await capture(sale.id, owner.merchantToken)).status, 200);
  const refused = await cancel(sale.id, owner.merchantToken);
  t.is(refused.status, 400);
  t.regex(refused.body.detail, /allow_void_on_confirmed/);
  await MerchantModel.updateOne({ _id: owner.merchantId }, { $set: { 'settings.allowVoidOnConfirmed': true } });
  const refunded = await cancel(sale.id, owner.merchantToken);
  t.is(refunded.status, 200);
  t.is(refunded.body.data.sale_status, 'REFUNDED');
  t.truthy(refunded.body.data.refunded_at);
});

test("another merchant's sale is 404, like an unknown id", async (t) => {
  const sale = (await callJson(env.app, 'POST', PRE_CAPTURE, bearer(env.merchant.merchantToken), cardSale())).body.data;
  t.is((await capture(sale.id, other.merchantToken)).status, 404);
  t.is((await cancel(sale.id, other.accessToken)).status, 404);
  t.is(
    (await callJson(env.app, 'GET', `/api/v1/online/sales/${sale.id}/pix/status/`, bearer(other.merchantToken))).status,
    404,
  );
  t.is((await capture(987654321)).status, 404);
  t.is((await callJson(env.app, 'GET', `/api/v1/online/sales/${sale.id}/`, bearer(other.merchantToken))).status, 404);
  const own = await callJson(env.app, 'GET', `/api/v1/online/sales/${sale.id}/`, bearer(env.merchant.accessToken));
  t.is(own.status, 200);
  t.is(own.body.data.sale_status, 'PRE_CAPTURED');
  const stored = await PaymentModel.findById(sale.id).lean();
  t.is(stored?.status, 'PRE_CAPTURED');
  // The system token acts for the merchant it names.
  const bySystem = await callJson(
    env.app,
    'PUT',
    `/api/v1/online/sales/${sale.id}/capture/`,
    bearer(systemToken(), {
      'x-merchant-id': String(env.merchant.merchantId),
    }),
    undefined,
  );
  t.is(bySystem.status, 200);
});

test('the system token pre-captures for the merchant it names', async (t) => {
  const res = await callJson(
    env.app,
    'POST',
    PRE_CAPTURE,
    bearer(systemToken(), {
      'x-merchant-id': String(env.merchant.merchantId),
    }),
    cardSale(),
  );
  t.is(res.status, 200);
  t.is((await PaymentModel.findById(res.body.data.id).lean())?.merchantId, env.merchant.merchantId);
  const without = await callJson(env.app, 'POST', PRE_CAPTURE, bearer(systemToken()), cardSale());
  t.is(without.status, 400);
});

test('no credential is 401', async (t) => {
  t.is((await call(env.app, 'POST', PRE_CAPTURE, {}, cardSale())).status, 401);
  t.is((await call(env.app, 'PUT', '/api/v1/online/sales/1/capture/')).status, 401);
});

test('bad input is a field map naming every bad field', async (t) => {
  // Its own merchant: the file's other tests run at once, and their sales are PROCESSING while the acquirer answers.
  const merchant = await newMerchant();
  const preCapture = (sale: unknown) => callJson(env.app, 'POST', PRE_CAPTURE, bearer(merchant.merchantToken), sale);
  const res = await preCapture({
    payment_method: 'card',
    value: 10.5,
    installments: 13,
    payer: { name: 'X', document: '123' },
  });
  t.is(res.status, 400);
  t.deepEqual(res.body.value, ['A valid integer is required: value is in cents (1050 = R$ 10,50).']);
  t.truthy(res.body.installments);
  t.truthy(res.body.encrypted_card);
  const doc = await preCapture(cardSale({ payer: { name: 'X', document: '111.111.111-12' } }));
  t.is(doc.status, 400);
  t.truthy(doc.body['payer.document']);
  const pix = await preCapture({
    payment_method: 'pix',
    value: 100,
    installments: 2,
    payer: { name: 'X' },
  });
  t.is(pix.status, 400);
  t.truthy(pix.body.installments);
  t.truthy(pix.body['payer.document']);
  const undecryptable = await preCapture(cardSale({ encrypted_card: 'bm90IGEgY2FyZA==' }));
  t.is(undecryptable.status, 400);
  t.deepEqual(undecryptable.body, { encrypted_card: [UNDECRYPTABLE_CARD] });
  const both = await preCapture(cardSale({ card_token: 'abc' }));
  t.is(both.status, 400);
  t.truthy(both.body.encrypted_card);
  t.is(
    (await callJson(env.app, 'PUT', '/api/v1/online/sales/abc/capture/', bearer(merchant.merchantToken))).status,
    400,
  );
  t.is(await PaymentModel.countDocuments({ merchantId: merchant.merchantId, status: 'PROCESSING' }), 0);
});

test('a card that decrypts but breaks a rule is named by its field', async (t) => {
  const merchant = await newMerchant();
  const preCapture = (sale: unknown) => callJson(env.app, 'POST', PRE_CAPTURE, bearer(merchant.merchantToken), sale);
  // docs/cards.md: number, expiry, cvv or holder; encrypted_card only for a card that cannot be read.
  const expiredCard = await preCapture(
    cardSale({ encrypted_card: encryptedTestCard({ number: CARDS.approved, expYear: 2020 }) }),
  );
  t.deepEqual([expiredCard.status, expiredCard.body], [400, { expiry: ['The card has expired.'] }]);
  const badCvv = await preCapture(cardSale({ encrypted_card: encryptedTestCard({ cvv: '12' }) }));
  t.deepEqual(badCvv.body, { cvv: ['The security code must be a string of 3 digits.'] });
  const noBrand = Array.from({ length: 10 }, (_, digit) => `900000000000000${digit}`).find(luhnValid)!;
  const unknownBrand = await preCapture(cardSale({ encrypted_card: encryptedTestCard({ number: noBrand }) }));
  t.deepEqual(unknownBrand.body, { number: ['This card brand is not accepted.'] });
});

test('an unreadable card comes in the same 400 as every other bad field', async (t) => {
  const merchant = await newMerchant();
  const preCapture = (sale: unknown) => callJson(env.app, 'POST', PRE_CAPTURE, bearer(merchant.merchantToken), sale);
  // docs/api/conventions.md: the checks a schema cannot state come with the schema's own refusals.
  const everything = await preCapture(
    cardSale({ value: 0, encrypted_card: 'bm90IGEgY2FyZA==', payer: { name: 'X', document: '111.111.111-12' } }),
  );
  t.is(everything.status, 400);
  t.deepEqual(Object.keys(everything.body).sort(), ['encrypted_card', 'payer.document', 'value']);
  const badKey = await callJson(
    env.app,
    'POST',
    PRE_CAPTURE,
    bearer(merchant.merchantToken, { 'idempotency-key': 'no spaces' }),
    cardSale({ encrypted_card: encryptedTestCard({ expYear: 2020 }) }),
  );
  t.deepEqual(Object.keys(badKey.body).sort(), ['expiry', 'idempotency-key']);
});

test('a saved card token charges again, for its merchant only', async (t) => {
  const first = await callJson(
    env.app,
    'POST',
    PRE_CAPTURE,
    bearer(env.merchant.merchantToken),
    cardSale({ save_card: true, encrypted_card: encryptedTestCard({ number: CARDS.luhnApproved }) }),
  );
  t.is(first.status, 200);
  const token = first.body.data.card_token;
  t.truthy(token);
  const again = await callJson(env.app, 'POST', PRE_CAPTURE, bearer(env.merchant.merchantToken), {
    payment_method: 'card',
    value: 500,
    card_token: token,
    payer: { name: 'Maria' },
  });
  t.is(again.status, 200);
  t.true(again.body.data.approved);
  t.deepEqual(again.body.data.card, { brand: 'Visa', bin: '411111', last4: '1111' });
  const stolen = await callJson(env.app, 'POST', PRE_CAPTURE, bearer(other.merchantToken), {
    payment_method: 'card',
    value: 500,
    card_token: token,
    payer: { name: 'Eve' },
  });
  t.is(stolen.status, 400);
  t.truthy(stolen.body.card_token);
});

test('a Mastercard is Master in the sale and in a sale on its saved token (docs/cards.md#brands)', async (t) => {
  const saved = await callJson(
    env.app,
    'POST',
    PRE_CAPTURE,
    bearer(env.merchant.merchantToken),
    cardSale({ save_card: true, encrypted_card: encryptedTestCard({ number: '5105105105105100' }) }),
  );
  t.is(saved.body.data?.card?.brand, 'Master', saved.text);
  const again = await callJson(env.app, 'POST', PRE_CAPTURE, bearer(env.merchant.merchantToken), {
    payment_method: 'card',
    value: 500,
    card_token: saved.body.data.card_token,
    payer: { name: 'Maria' },
  });
  t.deepEqual(again.body.data?.card, { brand: 'Master', bin: '510510', last4: '5100' });
});
