import '../helpers/env';
import test from 'ava';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer, newStaff, systemToken } from '../helpers/identity';
import { GlobalCeoModel } from '../../src/contacts/model';
import { call, callJson } from '../helpers/http';

let app: TestApp;
let staff: Record<string, string>;

test.before(async () => {
  app = await startTestApp();
  staff = bearer((await newStaff()).accessToken);
});
test.after.always(() => app?.close());

const CEO = '/api/v1/global-ceo/';

// Serial: these tests share the one CEO record of this file's database, and the first must see none.
test.serial('reads null before a ceo is registered, then the object', async (t) => {
  const before = await call(app, 'GET', CEO, staff);
  t.is(before.status, 200);
  t.regex(before.headers.get('content-type') ?? '', /application\/json/);
  t.is(before.text, 'null');

  const put = await callJson(app, 'PUT', CEO, staff, {
    name: 'Helena Duarte',
    email: 'Helena@Example.com',
    phone: '+55 11 3222-1000',
    title: 'CEO',
  });
  t.is(put.status, 200);
  t.like(put.body, { name: 'Helena Duarte', email: 'helena@example.com', phone: '+551132221000', title: 'CEO' });
  t.false('_id' in put.body);

  const after = await callJson(app, 'GET', CEO, staff);
  t.is(after.status, 200);
  t.deepEqual(after.body, put.body);
});

test.serial('put replaces the whole contact and keeps the creation time', async (t) => {
  const first = await callJson(app, 'PUT', CEO, staff, {
    name: 'Primeira',
    email: 'primeira@example.com',
    phone: '+5511987654321',
    title: 'CEO',
  });
  const second = await callJson(app, 'PUT', CEO, bearer(systemToken()), {
    name: 'Segunda',
    email: 'segunda@example.com',
  });
  t.is(second.status, 200);
  t.like(second.body, {
    name: 'Segunda',
    email: 'segunda@example.com',
    phone: null,
    title: null,
    created_at: first.body.created_at,
  });
  t.true(second.body.updated_at >= first.body.updated_at);
  t.deepEqual((await callJson(app, 'GET', CEO, staff)).body, second.body);
  t.is(await GlobalCeoModel.countDocuments({}), 1);
});

test.serial('concurrent puts leave exactly one record, equal to one of them', async (t) => {
  // Several rounds from an empty collection: the race is in creating the record, not replacing it.
  for (let round = 0; round < 3; round++) {
    await GlobalCeoModel.deleteMany({});
    const bodies = Array.from({ length: 20 }, (_, i) => ({
      name: `CEO ${round}-${i}`,
      email: `ceo${round}-${i}@example.com`,
      title: `t${i}`,
    }));
    const answers = await Promise.all(bodies.map((body) => callJson(app, 'PUT', CEO, staff, body)));
    t.deepEqual(
      answers.map((a) => a.status),
      bodies.map(() => 200),
    );
    t.is(await GlobalCeoModel.countDocuments({}), 1);
    const stored = (await callJson(app, 'GET', CEO, staff)).body;
    const match = bodies.find((b) => b.name === stored.name);
    t.truthy(match, stored.name);
    // never a blend of two requests
    t.like(stored, { ...match, phone: null });
  }
});

test.serial('put validates the contact', async (t) => {
  const res = await callJson(app, 'PUT', CEO, staff, {
    email: 'nope',
    phone: '12345',
    portfolio: 3,
    merchant_ids: [1],
    active: true,
  });
  t.is(res.status, 400);
  t.deepEqual(Object.keys(res.body).sort(), ['active', 'email', 'merchant_ids', 'name', 'phone', 'portfolio']);
  t.deepEqual(res.body.portfolio, ['Unknown field.']);
  const empty = await callJson(app, 'PUT', CEO, staff, {});
  t.is(empty.status, 400);
  t.deepEqual(Object.keys(empty.body).sort(), ['email', 'name']);
});
