import '../helpers/env';
import test from 'ava';
import { startTestApp, json, type TestApp } from '../helpers/app';
import { bearer, newMerchant, newStaff, type TestMerchant } from '../helpers/identity';
import { PaymentLinkModel } from '../../src/payment-links/model';
import { createLink } from './helpers';
import { send } from '../helpers/http';

let app: TestApp;
let merchant: TestMerchant;

test.before(async () => {
  app = await startTestApp();
  merchant = await newMerchant({ companyName: 'Padaria Central LTDA' });
});
test.after.always(() => app?.close());

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?[+-]\d{2}:\d{2}$/;

test('create answers every field with its type and no email', async (t) => {
  const { status, body } = await createLink(app.url, merchant, {
    value: 2590,
    description: 'Bolo de aniversário',
    payer_name: 'Ana Souza',
    document: '529.982.247-25',
    email: 'ana@example.com',
    mobile: '+55 11 99999-0000',
    number_of_installments: 3,
    link_exp_period: 1,
    webhookUrl: 'https://8.8.8.8/hooks/links',
  });
  t.is(status, 201);
  t.false('email' in body);
  t.true(Number.isInteger(body.id));
  t.is(body.status, 1);
  t.is(body.status_label, 'Pendente');
  t.is(body.merchant_id, merchant.merchantId);
  t.is(body.merchant_company_name, 'Padaria Central LTDA');
  t.is(body.value, 2590);
  t.is(body.description, 'Bolo de aniversário');
  t.is(body.payer_name, 'Ana Souza');
  t.is(body.merchant_name, 'Ana Souza');
  t.is(body.document, '529.982.247-25');
  t.is(body.mobile, '+5511999990000', 'stored and answered as E.164');
  t.is(body.link_exp_period, 1);
  t.is(body.number_of_installments, 3);
  t.regex(body.payment_link_guid, /^[0-9a-f-]{36}$/);
  t.is(body.payment_link_url, `http://127.0.0.1:3000/checkout/${body.payment_link_guid}`);
  t.is(body.payment_date, null);
  t.is(body.webhookUrl, 'https://8.8.8.8/hooks/links');
  t.regex(body.created_at, ISO_WITH_OFFSET);
  t.true(Math.abs(Date.parse(body.created_at) - Date.now()) < 60_000);
  t.is(Date.parse(body.expires_at) - Date.parse(body.created_at), 24 * 3600 * 1000);
  const stored = await PaymentLinkModel.findById(body.id).lean();
  t.is(stored!.email, 'ana@example.com');
});

test('defaults: one installment, 48 hours, empty strings', async (t) => {
  const { status, body } = await createLink(app.url, merchant, { value: 100 });
  t.is(status, 201);
  t.is(body.number_of_installments, 1);
  t.is(body.link_exp_period, 2);
  t.is(Date.parse(body.expires_at) - Date.parse(body.created_at), 48 * 3600 * 1000);
  t.is(body.description, '');
  t.is(body.payer_name, '');
  t.is(body.webhookUrl, '');
  t.is(body.payment_date, null);
});

test('72 hours for period 3', async (t) => {
  const { body } = await createLink(app.url, merchant, { link_exp_period: 3 });
  t.is(Date.parse(body.expires_at) - Date.parse(body.created_at), 72 * 3600 * 1000);
});

test('the checkout url opens the checkout page', async (t) => {
  const { body } = await createLink(app.url, merchant);
  const path = new URL(body.payment_link_url).pathname;
  const page = await send(app, 'GET', path);
  t.is(page.status, 200);
  t.regex(page.headers.get('content-type')!, /text\/html/);
  t.regex(await page.text(), /checkout\.js/);
});

test('a fractional value is not a valid integer, and the message says value is in cents', async (t) => {
  const { status, body } = await createLink(app.url, merchant, { value: 10.5 });
  t.is(status, 400);
  // The spec's message first ("A valid integer is required"), then what the integer counts.
  t.deepEqual(body, { value: ['A valid integer is required: value is in cents (1050 = R$ 10,50).'] });
});

test('a rate in percent is refused naming basis points; a minimum installment in reais naming cents', async (t) => {
  const { status, body } = await createLink(app.url, merchant, {
    number_of_installments: 6,
    interest_rate_monthly: 2.5,
    min_installment_value: 10.5,
  });
  t.is(status, 400);
  t.deepEqual(body, {
    interest_rate_monthly: ['A valid integer is required: interest_rate_monthly is in basis points (250 = 2.5%).'],
    min_installment_value: ['A valid integer is required: min_installment_value is in cents (1050 = R$ 10,50).'],
  });
  // A count is no unit: its message stays the spec's.
  t.deepEqual((await createLink(app.url, merchant, { number_of_installments: 'six' })).body, {
    number_of_installments: ['A valid integer is required.'],
  });
});

test('value is required, an integer and at least one', async (t) => {
  const missing = await send(app, 'POST', '/api/v1/payment-links/', bearer(merchant.merchantToken), '{}');
  t.is(missing.status, 400);
  t.deepEqual(await json(missing), { value: ['This field is required.'] });
  t.deepEqual((await createLink(app.url, merchant, { value: 'abc' })).body, {
    value: ['A valid integer is required: value is in cents (1050 = R$ 10,50).'],
  });
  t.deepEqual((await createLink(app.url, merchant, { value: 0 })).body, {
    value: ['Ensure this value is greater than or equal to 1.'],
  });
  const fromString = await createLink(app.url, merchant, { value: '700' });
  t.is(fromString.status, 201);
  t.is(fromString.body.value, 700);
});

test('every bad field is reported at once', async (t) => {
  const { status, body } = await createLink(app.url, merchant, {
    value: 1.25,
    description: 'x'.repeat(101),
    payer_name: 'y'.repeat(21),
    document: '1'.repeat(21),
    email: 'not-an-email',
    mobile: '9'.repeat(21),
    number_of_installments: 13,
    link_exp_period: 4,
    webhookUrl: 'http://example.com/hook',
  });
  t.is(status, 400);
  t.deepEqual(Object.keys(body).sort(), [
    'description',
    'document',
    'email',
    'link_exp_period',
    'mobile',
    'number_of_installments',
    'payer_name',
    'value',
    'webhookUrl',
  ]);
  t.deepEqual(body.value, ['A valid integer is required: value is in cents (1050 = R$ 10,50).']);
  t.deepEqual(body.description, ['Ensure this field has no more than 100 characters.']);
  t.deepEqual(body.payer_name, ['Ensure this field has no more than 20 characters.']);
  t.deepEqual(body.document, ['Ensure this field has no more than 20 characters.']);
  t.deepEqual(body.mobile, ['Ensure this field has no more than 20 characters.']);
  t.deepEqual(body.email, ['Enter a valid email address.']);
  t.deepEqual(body.number_of_installments, ['Ensure this value is less than or equal to 12.']);
  t.deepEqual(body.link_exp_period, ['Choose 1 (24 h), 2 (48 h) or 3 (72 h).']);
  t.deepEqual(body.webhookUrl, ['Enter a safe public HTTPS URL']);
  t.is(await PaymentLinkModel.countDocuments({ merchantId: merchant.merchantId, description: 'x'.repeat(101) }), 0);
});

test('limits are inclusive', async (t) => {
  const { status, body } = await createLink(app.url, merchant, {
    description: 'd'.repeat(100),
    payer_name: 'p'.repeat(20),
    document: '0'.repeat(20),
    email: `${'e'.repeat(60)}@${'d'.repeat(35)}.com`,
    mobile: '0 21 (11) 98765-4321',
    number_of_installments: 12,
  });
  t.is(status, 201, JSON.stringify(body));
  t.is(body.number_of_installments, 12);
  t.deepEqual((await createLink(app.url, merchant, { email: `${'e'.repeat(60)}@${'d'.repeat(36)}.com` })).body, {
    email: ['Ensure this field has no more than 100 characters.'],
  });
  t.deepEqual((await createLink(app.url, merchant, { number_of_installments: 0 })).body, {
    number_of_installments: ['Ensure this value is greater than or equal to 1.'],
  });
  t.deepEqual((await createLink(app.url, merchant, { number_of_installments: 2.5 })).body, {
    number_of_installments: ['A valid integer is required.'],
  });
});

test('mobile: phones as Brazilians type them are stored as E.164; other numbers are a field error', async (t) => {
  const typed: Record<string, string> = {
    '(11) 98765-4321': '+5511987654321',
    '11987654321': '+5511987654321',
    '+55 11 98765-4321': '+5511987654321',
    '+55 (11) 98765-4321': '+5511987654321',
    '55 11 98765 4321': '+5511987654321',
    '011 98765 4321': '+5511987654321',
    '0 21 11 98765-4321': '+5511987654321',
    '11 98765.4321': '+5511987654321',
    '(21) 3333-4444': '+552133334444',
    '(55) 99876-5432': '+5555998765432',
    ' 48999990000 ': '+5548999990000',
  };
  for (const [sent, stored] of Object.entries(typed)) {
    const { status, body } = await createLink(app.url, merchant, { mobile: sent });
    t.is(status, 201, sent);
    t.is(body.mobile, stored, sent);
    t.is((await PaymentLinkModel.findById(body.id).lean())!.mobile, stored, sent);
  }
  t.is((await createLink(app.url, merchant, { mobile: '' })).body.mobile, '', 'mobile stays optional');
  // Another country, a 0 area code, a mobile without its leading 9, a landline starting with 6, a digit too many,
  // letters, a + inside.
  for (const bad of [
    '+1 212 555 0100',
    '(01) 98765-4321',
    '(11) 8765-43210',
    '(11) 6333-4444',
    '(11) 98765-43210',
    '(11) 9abc-4321',
    '11 +98765-4321',
  ]) {
    const { status, body } = await createLink(app.url, merchant, { mobile: bad });
    t.is(status, 400, bad);
    t.deepEqual(
      body,
      { mobile: ['Enter a valid Brazilian phone number with its area code, e.g. (11) 98765-4321 or +5511987654321.'] },
      bad,
    );
  }
  // The spec's limit is on what is sent: 21 characters are refused even when the number inside is good.
  const long = await createLink(app.url, merchant, { mobile: '+55  (11)  98765-4321' });
  t.deepEqual(long.body, { mobile: ['Ensure this field has no more than 20 characters.'] });
});

test('merchant_name is an alias of payer_name and payer_name wins', async (t) => {
  const alias = await createLink(app.url, merchant, { merchant_name: 'Via Alias' });
  t.is(alias.body.payer_name, 'Via Alias');
  t.is(alias.body.merchant_name, 'Via Alias');
  const both = await createLink(app.url, merchant, { merchant_name: 'Perde', payer_name: 'Ganha' });
  t.is(both.body.payer_name, 'Ganha');
  t.is(both.body.merchant_name, 'Ganha');
});

test('webhook url aliases', async (t) => {
  for (const name of ['webhook_url', 'callbackUrl', 'callback_url']) {
    const { status, body } = await createLink(app.url, merchant, { [name]: `https://8.8.4.4/${name}` });
    t.is(status, 201, name);
    t.is(body.webhookUrl, `https://8.8.4.4/${name}`, name);
    const refused = await createLink(app.url, merchant, { [name]: 'https://localhost/hook' });
    t.deepEqual(refused.body, { webhookUrl: ['Enter a safe public HTTPS URL'] }, name);
  }
  const both = await createLink(app.url, merchant, {
    webhookUrl: 'https://1.1.1.1/main',
    callback_url: 'https://9.9.9.9/alias',
  });
  t.is(both.body.webhookUrl, 'https://1.1.1.1/main');
});

test('a link with an unsafe webhook url is not created', async (t) => {
  const alone = await newMerchant();
  // Real resolution: numeric tricks, localhost, internal addresses, unresolvable names, http, credentials.
  for (const webhookUrl of [
    'https://127.0.0.1/hook',
    'https://2130706433/hook',
    'https://0177.0.0.1/hook',
    'https://0x7f000001/hook',
    'https://127.1/hook',
    'https://localhost/hook',
    'https://10.0.0.1/hook',
    'https://169.254.169.254/latest/meta-data/',
    'https://[::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://nothing-here.invalid/hook',
    'http://8.8.8.8/hook',
    'https://user:pw@8.8.8.8/hook',
  ]) {
    const { status, body } = await createLink(app.url, alone, { webhookUrl });
    t.is(status, 400, webhookUrl);
    t.deepEqual(body, { webhookUrl: ['Enter a safe public HTTPS URL'] }, webhookUrl);
  }
  t.is(await PaymentLinkModel.countDocuments({ merchantId: alone.merchantId }), 0);
});

test('a webhook url on a port other than 443 is refused, naming the port (no port scans from here)', async (t) => {
  const alone = await newMerchant();
  // A public address, so only the port decides: before the port rule this link was created (201), and its
  // deliveries told the merchant whether 1.1.1.1 answered on Redis's port.
  for (const [webhookUrl, port] of [
    ['https://1.1.1.1:6379/', '6379'],
    ['https://8.8.8.8:22/hook', '22'],
    ['https://8.8.8.8:8443/hook', '8443'],
  ]) {
    const { status, body } = await createLink(app.url, alone, { webhookUrl });
    t.is(status, 400, webhookUrl);
    t.deepEqual(body, { webhookUrl: [`Enter a safe public HTTPS URL on port 443 (not ${port})`] }, webhookUrl);
  }
  const aliased = await createLink(app.url, alone, { callback_url: 'https://1.1.1.1:6379/' });
  t.deepEqual(aliased.body, { webhookUrl: ['Enter a safe public HTTPS URL on port 443 (not 6379)'] });
  t.is(await PaymentLinkModel.countDocuments({ merchantId: alone.merchantId }), 0);
  // 443 named explicitly is the default port: accepted.
  const explicit = await createLink(app.url, alone, { webhookUrl: 'https://1.1.1.1:443/hook' });
  t.is(explicit.status, 201);
});

test('the merchant comes from the credential, never the body', async (t) => {
  const other = await newMerchant();
  const { status, body } = await createLink(app.url, merchant, { merchant: other.merchantId });
  t.is(status, 201);
  t.is(body.merchant_id, merchant.merchantId);
  const viaJwt = await send(app, 'POST', '/api/v1/payment-links/', bearer(other.accessToken), { value: 5 });
  t.is(viaJwt.status, 201);
  t.is((await json(viaJwt)).merchant_id, other.merchantId);
});

test('credentials: none is 401, staff is 403', async (t) => {
  const none = await send(
    app,
    'POST',
    '/api/v1/payment-links/',
    { 'content-type': 'application/json' },
    '{"value": 1}',
  );
  t.is(none.status, 401);
  const staff = await newStaff();
  const forbidden = await send(app, 'POST', '/api/v1/payment-links/', bearer(staff.accessToken), '{"value": 1}');
  t.is(forbidden.status, 403);
});

test('a body that is not an object is a field map', async (t) => {
  const res = await send(app, 'POST', '/api/v1/payment-links/', bearer(merchant.merchantToken), '[1, 2]');
  t.is(res.status, 400);
  t.deepEqual(Object.keys(await json(res)), ['non_field_errors']);
});

test('idempotency-key replays the first answer', async (t) => {
  const key = `create-${Date.now()}`;
  const first = await createLink(app.url, merchant, { value: 4321, description: 'idem' }, { 'idempotency-key': key });
  t.is(first.status, 201);
  const second = await createLink(app.url, merchant, { description: 'idem', value: 4321 }, { 'idempotency-key': key });
  t.is(second.status, 201);
  t.is(second.headers.get('idempotent-replayed'), 'true');
  t.is(second.body.id, first.body.id);
  t.is(second.body.payment_link_guid, first.body.payment_link_guid);
  t.is(await PaymentLinkModel.countDocuments({ merchantId: merchant.merchantId, value: 4321 }), 1);
});

test('idempotency-key with another body is 422', async (t) => {
  const key = `conflict-${Date.now()}`;
  t.is((await createLink(app.url, merchant, { value: 1000 }, { 'idempotency-key': key })).status, 201);
  const other = await createLink(app.url, merchant, { value: 2000 }, { 'idempotency-key': key });
  t.is(other.status, 422);
  t.regex(other.body.detail, /different request body/);
});

test('idempotency-key is per merchant', async (t) => {
  const key = `shared-${Date.now()}`;
  const other = await newMerchant();
  const a = await createLink(app.url, merchant, { value: 10 }, { 'idempotency-key': key });
  const b = await createLink(app.url, other, { value: 10 }, { 'idempotency-key': key });
  t.is(b.status, 201);
  t.not(a.body.id, b.body.id);
});

test('a refused create frees its idempotency-key', async (t) => {
  const key = `retry-${Date.now()}`;
  t.is((await createLink(app.url, merchant, { value: 1.5 }, { 'idempotency-key': key })).status, 400);
  t.is((await createLink(app.url, merchant, { value: 2 }, { 'idempotency-key': key })).status, 201);
});

test('concurrent creates with one idempotency-key make one link', async (t) => {
  const key = `race-${Date.now()}`;
  const results = await Promise.all(
    Array.from({ length: 8 }, () =>
      createLink(app.url, merchant, { value: 777, description: key }, { 'idempotency-key': key }),
    ),
  );
  const created = results.filter((r) => r.status === 201);
  t.true(created.length >= 1);
  t.true(
    results.every((r) => r.status === 201 || r.status === 409),
    JSON.stringify(results.map((r) => r.status)),
  );
  t.is(new Set(created.map((r) => r.body.id)).size, 1);
  t.is(await PaymentLinkModel.countDocuments({ merchantId: merchant.merchantId, description: key }), 1);
});

test('a malformed idempotency-key is a field error', async (t) => {
  const { status, body } = await createLink(app.url, merchant, {}, { 'idempotency-key': 'x'.repeat(256) });
  t.is(status, 400);
  t.truthy(body['Idempotency-Key']);
});

test("the merchant reads its link and not another merchant's", async (t) => {
  const { body } = await createLink(app.url, merchant, { value: 999 });
  const mine = await send(app, 'GET', `/api/v1/payment-links/${body.id}/`, bearer(merchant.merchantToken));
  t.is(mine.status, 200);
  t.is((await json(mine)).payment_link_guid, body.payment_link_guid);
  const other = await newMerchant();
  const theirs = await send(app, 'GET', `/api/v1/payment-links/${body.id}/`, bearer(other.merchantToken));
  t.is(theirs.status, 404);
});
