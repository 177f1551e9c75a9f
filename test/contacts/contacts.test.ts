import '../helpers/env';
import test from 'ava';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer, newMerchant, newStaff, systemToken, type TestMerchant } from '../helpers/identity';
import { sortKeyOf } from '../../src/contacts/service';
import { callJson } from '../helpers/http';

let app: TestApp;
let staff: Record<string, string>;
let merchant: TestMerchant;

test.before(async () => {
  app = await startTestApp();
  staff = bearer((await newStaff()).accessToken);
  merchant = await newMerchant();
});
test.after.always(() => app?.close());

const URL_LIST = '/api/v1/commercial-contacts/';

let counter = 0;
/** A unique e-mail per contact, so tests can pick their own contacts out of the shared list. */
function uniqueEmail(tag: string): string {
  return `${tag}-${++counter}-${Date.now()}@example.com`;
}

async function createContact(body: Record<string, unknown>) {
  const res = await callJson(app, 'POST', URL_LIST, staff, { email: uniqueEmail('c'), ...body });
  if (res.status !== 201) throw new Error(`create failed ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

test('create answers 201 with the object, phone normalized to e.164', async (t) => {
  const res = await callJson(app, 'POST', URL_LIST, staff, {
    name: '  Álvaro Souza ',
    email: 'Alvaro.Souza@Example.COM',
    phone: '+55 (11) 98765-4321',
    title: 'Gerente comercial',
    merchant_ids: [merchant.merchantId],
  });
  t.is(res.status, 201);
  t.true(Number.isSafeInteger(res.body.id));
  t.like(res.body, {
    name: 'Álvaro Souza',
    email: 'alvaro.souza@example.com',
    phone: '+5511987654321',
    title: 'Gerente comercial',
    active: true,
    merchant_ids: [merchant.merchantId],
  });
  t.regex(res.body.created_at, /^\d{4}-\d\d-\d\dT.*Z$/);
  t.false('nameKey' in res.body);
  t.false('_id' in res.body);
});

test('optional fields default to null, true and an empty list', async (t) => {
  const res = await callJson(app, 'POST', URL_LIST, staff, { name: 'Sem Telefone', email: uniqueEmail('min') });
  t.is(res.status, 201);
  t.like(res.body, { phone: null, title: null, active: true, merchant_ids: [] });
  // a name that folds to an empty sort key is still stored
  const marks = await callJson(app, 'POST', URL_LIST, staff, { name: '\u0301\u0301', email: uniqueEmail('marks') });
  t.is(marks.status, 201);
});

test('the list is alphabetical ignoring accents and case', async (t) => {
  const tag = `ord${Date.now()}`;
  // created in scrambled order; the tag keeps this test's rows apart from other tests' rows
  const names = ['Eva', 'bruno', 'Álvaro', 'Zé', 'ébano', 'Alvaro', 'Ângela', 'carla', 'Çaio', 'alberto', 'Ana'];
  for (const name of names) await createContact({ name, title: tag });
  const res = await callJson(app, 'GET', URL_LIST, staff);
  t.is(res.status, 200);
  const mine = res.body.filter((c: { title: string }) => c.title === tag).map((c: { name: string }) => c.name);
  t.deepEqual(mine, ['alberto', 'Alvaro', 'Álvaro', 'Ana', 'Ângela', 'bruno', 'Çaio', 'carla', 'ébano', 'Eva', 'Zé']);
  // the same order a Portuguese collator gives at primary strength
  const collator = new Intl.Collator('pt-BR', { sensitivity: 'base' });
  for (let i = 1; i < mine.length; i++)
    t.true(collator.compare(mine[i - 1], mine[i]) <= 0, `${mine[i - 1]} before ${mine[i]}`);
});

test('the whole list is in order, and equal names keep the id order', async (t) => {
  const first = await createContact({ name: 'Mesmo Nome' });
  const second = await createContact({ name: 'Mesmo Nome' });
  const res = await callJson(app, 'GET', URL_LIST, staff);
  const keys = res.body.map((c: { name: string }) => sortKeyOf(c.name));
  t.deepEqual(keys, [...keys].sort());
  const ids = res.body.filter((c: { name: string }) => c.name === 'Mesmo Nome').map((c: { id: number }) => c.id);
  t.deepEqual(ids, [first.id, second.id]);
});

test('sort key folds accents, cedilla, case and spaces', (t) => {
  t.is(sortKeyOf('  ÁLVARO   Conceição '), 'alvaro conceicao');
  t.is(sortKeyOf('Ébano'), sortKeyOf('ebano'));
  t.true(sortKeyOf('Álvaro') < sortKeyOf('Bruno'));
  t.true(sortKeyOf('ébano') < sortKeyOf('Eva'));
});

test('the active filter', async (t) => {
  const on = await createContact({ name: 'Filtro Ativo' });
  const off = await createContact({ name: 'Filtro Inativo', active: false });
  const active = await callJson(app, 'GET', `${URL_LIST}?active=true`, staff);
  const inactive = await callJson(app, 'GET', `${URL_LIST}?active=false`, staff);
  t.true(active.body.some((c: { id: number }) => c.id === on.id));
  t.false(active.body.some((c: { id: number }) => c.id === off.id));
  t.true(inactive.body.every((c: { active: boolean }) => !c.active));
  t.true(inactive.body.some((c: { id: number }) => c.id === off.id));
  const bad = await callJson(app, 'GET', `${URL_LIST}?active=maybe&page=2`, staff);
  t.is(bad.status, 400);
  t.deepEqual(Object.keys(bad.body).sort(), ['active', 'page']);
});

test('patch changes only the fields sent', async (t) => {
  const other = await newMerchant();
  const created = await createContact({
    name: 'Paula Prado',
    phone: '+551133334444',
    title: 'Gerente',
    merchant_ids: [merchant.merchantId],
  });
  const res = await callJson(app, 'PATCH', `${URL_LIST}${created.id}/`, staff, { title: 'Diretora comercial' });
  t.is(res.status, 200);
  t.deepEqual(
    { ...res.body, updated_at: undefined },
    { ...created, title: 'Diretora comercial', updated_at: undefined },
  );

  const renamed = await callJson(app, 'PATCH', `${URL_LIST}${created.id}/`, staff, {
    name: 'Ágata Prado',
    active: false,
    merchant_ids: [other.merchantId],
  });
  t.is(renamed.status, 200);
  t.like(renamed.body, {
    name: 'Ágata Prado',
    email: created.email,
    phone: '+551133334444',
    title: 'Diretora comercial',
    active: false,
    merchant_ids: [other.merchantId],
  });

  // null clears an optional field; an empty body changes nothing
  const cleared = await callJson(app, 'PATCH', `${URL_LIST}${created.id}/`, staff, { phone: null });
  t.is(cleared.body.phone, null);
  t.is(cleared.body.title, 'Diretora comercial');
  const same = await callJson(app, 'PATCH', `${URL_LIST}${created.id}/`, staff, {});
  t.is(same.status, 200);
  t.deepEqual(same.body, cleared.body);

  // the new name moves it in the list: the stored sort key followed the rename
  const list = await callJson(app, 'GET', URL_LIST, staff);
  const names = list.body.map((c: { name: string }) => c.name);
  const at = names.indexOf('Ágata Prado');
  t.true(at >= 0);
  t.true(names.slice(0, at).every((n: string) => sortKeyOf(n) <= 'agata prado'));
});

test('patch of an unknown or impossible pk is 404', async (t) => {
  for (const pk of ['999999999', 'abc', '0', '1.5']) {
    const res = await callJson(app, 'PATCH', `${URL_LIST}${pk}/`, staff, { title: 'x' });
    t.is(res.status, 404, pk);
    t.deepEqual(res.body, { detail: 'No commercial contact has this id.' });
  }
});

test('a contact links to several merchants and each merchant reads it back', async (t) => {
  const a = await newMerchant();
  const b = await newMerchant();
  const lonely = await newMerchant();
  const zeca = await createContact({ name: 'Zeca', merchant_ids: [a.merchantId, b.merchantId, a.merchantId] });
  t.deepEqual(zeca.merchant_ids, [a.merchantId, b.merchantId]);
  const beto = await createContact({ name: 'Beto', merchant_ids: [b.merchantId] });

  const ofA = await callJson(app, 'GET', `/api/v1/merchants/${a.merchantId}/commercial-contacts/`, staff);
  t.is(ofA.status, 200);
  t.deepEqual(
    ofA.body.map((c: { id: number }) => c.id),
    [zeca.id],
  );
  const ofB = await callJson(app, 'GET', `/api/v1/merchants/${b.merchantId}/commercial-contacts/`, staff);
  t.deepEqual(
    ofB.body.map((c: { name: string }) => c.name),
    ['Beto', 'Zeca'],
  );
  const none = await callJson(app, 'GET', `/api/v1/merchants/${lonely.merchantId}/commercial-contacts/`, staff);
  t.deepEqual(none.body, []);

  // unlinking through patch: the merchant no longer reads it back
  await callJson(app, 'PATCH', `${URL_LIST}${beto.id}/`, staff, { merchant_ids: [] });
  const ofBAfter = await callJson(app, 'GET', `/api/v1/merchants/${b.merchantId}/commercial-contacts/`, staff);
  t.deepEqual(
    ofBAfter.body.map((c: { name: string }) => c.name),
    ['Zeca'],
  );
  const inactiveOfB = await callJson(
    app,
    'GET',
    `/api/v1/merchants/${b.merchantId}/commercial-contacts/?active=false`,
    staff,
  );
  t.deepEqual(inactiveOfB.body, []);
});

test('reading the contacts of an unknown merchant is 404', async (t) => {
  for (const id of ['999999999', 'x']) {
    const res = await callJson(app, 'GET', `/api/v1/merchants/${id}/commercial-contacts/`, staff);
    t.is(res.status, 404);
    t.deepEqual(res.body, { detail: 'No merchant has this id.' });
  }
});

test('linking a merchant that does not exist is a 400 naming it', async (t) => {
  const created = await callJson(app, 'POST', URL_LIST, staff, {
    name: 'Fantasma',
    email: uniqueEmail('g'),
    merchant_ids: [merchant.merchantId, 999999991, 999999992],
  });
  t.is(created.status, 400);
  t.deepEqual(created.body, {
    merchant_ids: ['No merchant has the id 999999991.', 'No merchant has the id 999999992.'],
  });
  const list = await callJson(app, 'GET', URL_LIST, staff);
  t.false(list.body.some((c: { name: string }) => c.name === 'Fantasma'));

  const existing = await createContact({ name: 'Real', merchant_ids: [merchant.merchantId] });
  const patched = await callJson(app, 'PATCH', `${URL_LIST}${existing.id}/`, staff, {
    merchant_ids: [999999993],
    title: 'x',
  });
  t.is(patched.status, 400);
  t.deepEqual(patched.body, { merchant_ids: ['No merchant has the id 999999993.'] });
  const after = await callJson(app, 'GET', `/api/v1/merchants/${merchant.merchantId}/commercial-contacts/`, staff);
  t.like(
    after.body.find((c: { id: number }) => c.id === existing.id),
    { title: null, merchant_ids: [merchant.merchantId] },
  );
});

test('validation names every bad field at once', async (t) => {
  const res = await callJson(app, 'POST', URL_LIST, staff, {
    email: 'not-an-email',
    phone: '+1 212 555 0100',
    title: 'x'.repeat(101),
    active: 'sometimes',
    merchant_ids: [1.5, 'a'],
    nickname: 'Al',
  });
  t.is(res.status, 400);
  t.deepEqual(Object.keys(res.body).sort(), [
    'active',
    'email',
    'merchant_ids.0',
    'merchant_ids.1',
    'name',
    'nickname',
    'phone',
    'title',
  ]);
  t.deepEqual(res.body.name, ['This field is required.']);
  t.deepEqual(res.body.email, ['Enter a valid e-mail address.']);
  t.deepEqual(res.body.phone, [
    'Enter a valid Brazilian phone number with its area code, e.g. (11) 98765-4321 or +5511987654321.',
  ]);
  t.deepEqual(res.body.title, ['Ensure this field has no more than 100 characters.']);
  t.deepEqual(res.body.nickname, ['Unknown field.']);
  t.deepEqual(res.body['merchant_ids.0'], ['A valid integer is required.']);
});

test('an unknown merchant id is named in the same 400 as the bad fields', async (t) => {
  const created = await callJson(app, 'POST', URL_LIST, staff, {
    email: 'not-an-email',
    merchant_ids: [merchant.merchantId, 999999994],
  });
  t.is(created.status, 400);
  t.deepEqual(created.body, {
    name: ['This field is required.'],
    email: ['Enter a valid e-mail address.'],
    merchant_ids: ['No merchant has the id 999999994.'],
  });
  const existing = await createContact({ name: 'Dois erros' });
  const patched = await callJson(app, 'PATCH', `${URL_LIST}${existing.id}/`, staff, {
    title: 'x'.repeat(101),
    merchant_ids: [999999995],
  });
  t.is(patched.status, 400);
  t.deepEqual(patched.body, {
    title: ['Ensure this field has no more than 100 characters.'],
    merchant_ids: ['No merchant has the id 999999995.'],
  });
});

test('phone formats', async (t) => {
  const good: Record<string, string> = {
    '+5511987654321': '+5511987654321',
    '+55 21 3333-4444': '+552133334444',
    '+55.48.99999.0000': '+5548999990000',
    // As Brazilians type them (the normaliser payment links' mobile shares).
    '(11) 98765-4321': '+5511987654321',
    '11987654321': '+5511987654321',
    '011 98765 4321': '+5511987654321',
  };
  for (const [sent, stored] of Object.entries(good)) {
    const res = await callJson(app, 'POST', URL_LIST, staff, { name: 'Fone', email: uniqueEmail('p'), phone: sent });
    t.is(res.status, 201, sent);
    t.is(res.body.phone, stored, sent);
  }
  // another country, a 0 in the area code, a mobile without the leading 9, a landline starting with 6, too long,
  // letters
  for (const bad of [
    '+1 212 555 0100',
    '+5501987654321',
    '+5511887654321',
    '+551163334444',
    '+55119876543210',
    '+55 11 9abc-4321',
    '',
  ]) {
    const res = await callJson(app, 'POST', URL_LIST, staff, { name: 'Fone', email: uniqueEmail('p'), phone: bad });
    t.is(res.status, 400, bad);
    t.deepEqual(Object.keys(res.body), ['phone'], bad);
  }
});

test('lengths and blanks', async (t) => {
  const longName = await callJson(app, 'POST', URL_LIST, staff, {
    name: 'n'.repeat(121),
    email: `e@${'d'.repeat(50)}.${'d'.repeat(45)}.io`,
  });
  t.is(longName.status, 400);
  t.deepEqual(longName.body, {
    name: ['Ensure this field has no more than 120 characters.'],
    email: ['Ensure this field has no more than 100 characters.'],
  });
  const okName = await callJson(app, 'POST', URL_LIST, staff, { name: 'n'.repeat(120), email: uniqueEmail('len') });
  t.is(okName.status, 201);
  const blank = await callJson(app, 'POST', URL_LIST, staff, { name: '   ', email: '' });
  t.is(blank.status, 400);
  t.deepEqual(blank.body, { name: ['This field may not be blank.'], email: ['This field may not be blank.'] });
  const patchBlank = await callJson(app, 'PATCH', `${URL_LIST}${okName.body.id}/`, staff, {
    name: '',
    email: null,
    unknown: 1,
  });
  t.is(patchBlank.status, 400);
  t.deepEqual(Object.keys(patchBlank.body).sort(), ['email', 'name', 'unknown']);
});

test('a body that is not an object is a 400', async (t) => {
  const list = await callJson(app, 'POST', URL_LIST, staff, [{ name: 'x' }]);
  t.is(list.status, 400);
  const none = await callJson(app, 'POST', URL_LIST, { authorization: staff.authorization });
  // No body at all reads as an empty object (src/web/app.ts), so the answer names the required fields.
  t.is(none.status, 400);
  t.deepEqual(Object.keys(none.body).sort(), ['email', 'name']);
});

test('a contact linked to many merchants checks them all in one read, naming the missing ones', async (t) => {
  const many = [merchant.merchantId, ...Array.from({ length: 59 }, (_, i) => 999_990_000 + i)];
  const created = await callJson(app, 'POST', URL_LIST, staff, {
    name: 'Muitos',
    email: uniqueEmail('m'),
    merchant_ids: many,
  });
  t.is(created.status, 400);
  t.is(created.body.merchant_ids.length, 59);
  t.is(created.body.merchant_ids[0], 'No merchant has the id 999990000.');
  const real = await callJson(app, 'POST', URL_LIST, staff, {
    name: 'Muitos',
    email: uniqueEmail('m'),
    merchant_ids: Array(60).fill(merchant.merchantId),
  });
  t.is(real.status, 201);
});
