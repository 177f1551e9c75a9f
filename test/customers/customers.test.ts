import '../helpers/env';
import test from 'ava';
import { useAppWithMerchant } from '../helpers/app';
import { call, callJson } from '../helpers/http';
import { bearer, newMerchant, newStaff, systemToken } from '../helpers/identity';
import { CustomerModel } from '../../src/customers/model';
import { asMerchant, CUSTOMERS, customerPath, newCustomer } from './helpers';

const env = useAppWithMerchant();

test('create answers 201 with the stored forms: e-mail lower-cased, document bare, phone e.164', async (t) => {
  const res = await callJson(env.app, 'POST', CUSTOMERS, asMerchant(env.merchant), {
    name: '  Maria Silva ',
    email: ' Maria.Silva@Example.COM ',
    document: '529.982.247-25',
    phone: '(11) 98765-4321',
    metadata: { crm_id: 'C-1042' },
  });
  t.is(res.status, 201, res.text);
  t.regex(res.body.id, /^cus_[0-9a-f]{24}$/);
  t.like(res.body, {
    name: 'Maria Silva',
    email: 'maria.silva@example.com',
    document: '52998224725',
    document_type: 'CPF',
    phone: '+5511987654321',
    metadata: { crm_id: 'C-1042' },
  });
  t.regex(res.body.created_at, /^\d{4}-\d\d-\d\dT.*Z$/);
  const stored = await CustomerModel.findById(res.body.id).lean();
  t.is(stored?.merchantId, env.merchant.merchantId);
});

test('only the name is required; a cnpj, alphanumeric too, is told apart from a cpf', async (t) => {
  const bare = await newCustomer(env.app, env.merchant, { name: 'Loja Sem Dados' });
  t.like(bare, { email: null, document: null, document_type: null, phone: null, metadata: {} });
  const company = await newCustomer(env.app, env.merchant, { document: '11.222.333/0001-81' });
  t.like(company, { document: '11222333000181', document_type: 'CNPJ' });
  const alphanumeric = await newCustomer(env.app, env.merchant, { document: '12.ABC.345/01DE-35' });
  t.like(alphanumeric, { document: '12ABC34501DE35', document_type: 'CNPJ' });
});

test('read, change and delete a customer; patch keeps absent fields, null clears, metadata is replaced', async (t) => {
  const created = await newCustomer(env.app, env.merchant, {
    email: 'ana@example.com',
    phone: '11987654321',
    metadata: { a: '1', b: '2' },
  });
  const path = customerPath(created.id);
  const read = await callJson(env.app, 'GET', path, asMerchant(env.merchant));
  t.deepEqual(read.body, created);

  const changed = await callJson(env.app, 'PATCH', path, asMerchant(env.merchant), {
    name: 'Ana Souza',
    phone: null,
    metadata: { c: '3' },
  });
  t.is(changed.status, 200, changed.text);
  t.like(changed.body, { name: 'Ana Souza', email: 'ana@example.com', phone: null, metadata: { c: '3' } });
  t.true(changed.body.updated_at >= created.updated_at);
  t.deepEqual((await callJson(env.app, 'GET', path, asMerchant(env.merchant))).body, changed.body);

  const nothing = await callJson(env.app, 'PATCH', path, asMerchant(env.merchant), {});
  t.deepEqual(nothing.body, changed.body);

  const deleted = await call(env.app, 'DELETE', path, asMerchant(env.merchant));
  t.is(deleted.status, 204);
  t.is((await callJson(env.app, 'GET', path, asMerchant(env.merchant))).status, 404);
  t.is((await call(env.app, 'DELETE', path, asMerchant(env.merchant))).status, 404);
  t.is((await callJson(env.app, 'PATCH', path, asMerchant(env.merchant), { name: 'X' })).status, 404);
  t.is(await CustomerModel.exists({ _id: created.id }), null);
});

test("another merchant's customer is not found, for every route; an id that cannot be one is 404 too", async (t) => {
  const created = await newCustomer(env.app, env.merchant, { email: 'only-mine@example.com' });
  const other = await newMerchant();
  const path = customerPath(created.id);
  for (const [method, route, body] of [
    ['GET', path, undefined],
    ['PATCH', path, { name: 'Taken' }],
    ['DELETE', path, undefined],
    ['GET', `${path}cards/`, undefined],
  ] as const) {
    const res = await call(env.app, method, route, asMerchant(other), body);
    t.is(res.status, 404, `${method} ${route}`);
    t.deepEqual(res.body, { detail: 'No customer of this merchant has this id.' });
  }
  const list = await callJson(env.app, 'GET', `${CUSTOMERS}?email=only-mine@example.com`, asMerchant(other));
  t.deepEqual(list.body.results, []);
  // Still there, unchanged, for its merchant.
  t.deepEqual((await callJson(env.app, 'GET', path, asMerchant(env.merchant))).body, created);
  for (const id of ['cus_x', 'cus_' + 'A'.repeat(24), '1', `${created.id}0`, "cus_' || 1==1"])
    t.is((await callJson(env.app, 'GET', customerPath(encodeURIComponent(id)), asMerchant(env.merchant))).status, 404);
});

test('the list pages newest first by cursor, through every customer exactly once', async (t) => {
  const merchant = await newMerchant();
  const ids: string[] = [];
  for (let i = 0; i < 7; i++) ids.push((await newCustomer(env.app, merchant, { name: `Cliente ${i}` })).id);
  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const query: string = `?limit=3${cursor ? `&cursor=${cursor}` : ''}`;
    const res = await callJson(env.app, 'GET', `${CUSTOMERS}${query}`, asMerchant(merchant));
    t.is(res.status, 200, res.text);
    t.true(res.body.results.length <= 3);
    seen.push(...res.body.results.map((c: { id: string }) => c.id));
    cursor = res.body.next_cursor;
    pages++;
  } while (cursor && pages < 10);
  t.is(pages, 3);
  t.deepEqual(seen, [...ids].reverse());
  const all = await callJson(env.app, 'GET', CUSTOMERS, asMerchant(merchant));
  t.deepEqual(
    all.body.results.map((c: { id: string }) => c.id),
    [...ids].reverse(),
  );
  t.is(all.body.next_cursor, null);
});

test('search by e-mail and by document is an equality on their stored forms, the merchant’s only', async (t) => {
  const merchant = await newMerchant();
  const maria = await newCustomer(env.app, merchant, { email: 'maria@example.com', document: '52998224725' });
  const twin = await newCustomer(env.app, merchant, { email: 'MARIA@example.com' });
  await newCustomer(env.app, merchant, { email: 'mariana@example.com', document: '11222333000181' });
  const other = await newMerchant();
  await newCustomer(env.app, other, { email: 'maria@example.com', document: '52998224725' });

  const byEmail = await callJson(env.app, 'GET', `${CUSTOMERS}?email=%20Maria@Example.com`, asMerchant(merchant));
  t.is(byEmail.status, 200, byEmail.text);
  t.deepEqual(byEmail.body.results.map((c: { id: string }) => c.id).sort(), [maria.id, twin.id].sort());
  const byDocument = await callJson(env.app, 'GET', `${CUSTOMERS}?document=529.982.247-25`, asMerchant(merchant));
  t.deepEqual(
    byDocument.body.results.map((c: { id: string }) => c.id),
    [maria.id],
  );
  const both = await callJson(
    env.app,
    'GET',
    `${CUSTOMERS}?document=52998224725&email=mariana@example.com`,
    asMerchant(merchant),
  );
  t.deepEqual(both.body.results, []);
  const partial = await callJson(env.app, 'GET', `${CUSTOMERS}?email=maria`, asMerchant(merchant));
  t.deepEqual(partial.body.results, [], 'an equality, not a prefix search');
});

test('merchant credentials only: a jwt of the merchant works, staff and no credential do not', async (t) => {
  const viaJwt = await callJson(env.app, 'POST', CUSTOMERS, bearer(env.merchant.accessToken), { name: 'Por JWT' });
  t.is(viaJwt.status, 201);
  const staff = await newStaff();
  t.is((await callJson(env.app, 'GET', CUSTOMERS, bearer(staff.accessToken))).status, 403);
  const system = bearer(systemToken(), { 'x-merchant-id': String(env.merchant.merchantId) });
  t.is((await callJson(env.app, 'GET', CUSTOMERS, system)).status, 403);
  t.is((await callJson(env.app, 'GET', CUSTOMERS, {})).status, 401);
  t.is((await callJson(env.app, 'POST', CUSTOMERS, { 'content-type': 'application/json' }, { name: 'X' })).status, 401);
});

const HOSTILE_BODIES: [what: string, body: unknown, fields: string[]][] = [
  ['no name', {}, ['name']],
  ['a blank name', { name: '   ' }, ['name']],
  ['a name of the wrong type', { name: 42 }, ['name']],
  ['a huge name', { name: 'x'.repeat(100_000) }, ['name']],
  ['a bad e-mail', { name: 'A', email: 'not-an-email' }, ['email']],
  ['an e-mail object', { name: 'A', email: { $ne: null } }, ['email']],
  ['a cpf with wrong check digits', { name: 'A', document: '529.982.247-26' }, ['document']],
  ['a cpf of one repeated digit', { name: 'A', document: '111.111.111-11' }, ['document']],
  ['a cnpj with wrong check digits', { name: 'A', document: '11.222.333/0001-82' }, ['document']],
  ['a document too long', { name: 'A', document: '5'.repeat(21) }, ['document']],
  ['a document of the wrong type', { name: 'A', document: 52998224725 }, ['document']],
  ['a foreign phone', { name: 'A', phone: '+1 212 555 0100' }, ['phone']],
  ['metadata that is a list', { name: 'A', metadata: ['a'] }, ['metadata']],
  ['a metadata value not a string', { name: 'A', metadata: { a: 1 } }, ['metadata.a']],
  ['a metadata key with a dot', { name: 'A', metadata: { 'a.b': 'x' } }, ['metadata.a.b']],
  ['a metadata key with a dollar', { name: 'A', metadata: { $where: 'x' } }, ['metadata.$where']],
  [
    'too many metadata keys',
    { name: 'A', metadata: Object.fromEntries([...Array(21)].map((_, i) => [`k${i}`, 'v'])) },
    ['metadata'],
  ],
  ['a huge metadata value', { name: 'A', metadata: { a: 'v'.repeat(501) } }, ['metadata.a']],
  ['an unknown field', { name: 'A', merchantId: 1 }, ['merchantId']],
  ['a body that is a list', [{ name: 'A' }], ['non_field_errors']],
];

for (const [what, body, fields] of HOSTILE_BODIES) {
  test(`create refuses ${what} with a field map naming it, and stores nothing`, async (t) => {
    const merchant = await newMerchant();
    const res = await callJson(env.app, 'POST', CUSTOMERS, asMerchant(merchant), body);
    t.is(res.status, 400, res.text.slice(0, 300));
    t.deepEqual(Object.keys(res.body).sort(), fields.sort());
    t.is(await CustomerModel.countDocuments({ merchantId: merchant.merchantId }), 0);
  });
}

test('patch refuses the same things, names every bad field at once, and changes nothing', async (t) => {
  const created = await newCustomer(env.app, env.merchant, { email: 'keep@example.com' });
  const res = await callJson(env.app, 'PATCH', customerPath(created.id), asMerchant(env.merchant), {
    name: null,
    email: 'nope',
    document: '123',
    phone: 7,
    metadata: { 'bad key': 'x' },
    id: 'cus_000000000000000000000000',
  });
  t.is(res.status, 400);
  t.deepEqual(Object.keys(res.body).sort(), ['document', 'email', 'id', 'metadata.bad key', 'name', 'phone']);
  t.deepEqual((await callJson(env.app, 'GET', customerPath(created.id), asMerchant(env.merchant))).body, created);
});

test('the list refuses a bad query: unknown parameter, limit out of range, a forged cursor', async (t) => {
  for (const [query, field] of [
    ['?limit=0', 'limit'],
    ['?limit=101', 'limit'],
    ['?limit=1.5', 'limit'],
    ['?name=x', 'name'],
    ['?cursor=bm90LWEtY3Vyc29y', 'cursor'],
    [`?cursor=${'x'.repeat(301)}`, 'cursor'],
    [`?cursor=${Buffer.from('1|cus_zz').toString('base64url')}`, 'cursor'],
    ['?email[$ne]=x', 'email[$ne]'],
  ]) {
    const res = await callJson(env.app, 'GET', `${CUSTOMERS}${query}`, asMerchant(env.merchant));
    t.is(res.status, 400, `${query}: ${res.text}`);
    t.true(field in res.body, `${query}: ${res.text}`);
  }
});
