import '../helpers/env';
import test from 'ava';
import { startTestApp, json, type TestApp } from '../helpers/app';
import { bearer } from '../helpers/identity';
import { describeDemo, seedIfEmpty } from '../../src/devstack/seed';
import { MerchantModel } from '../../src/auth/model';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
});
test.after.always(() => app?.close());

// One test: the seed acts only on an empty database, so its steps must run in this order.
test('the demo seed fills an empty database once, with working credentials', async (t) => {
  const demo = await seedIfEmpty();
  t.truthy(demo);
  const printed = describeDemo(demo!, app.url);
  t.true(printed.includes(demo!.password) && printed.includes(demo!.merchant_token));

  const login = await fetch(`${app.url}/api/token/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: demo!.email, password: demo!.password }) });
  t.is(login.status, 200);
  const me = await json(await fetch(`${app.url}/api/v1/me/`, { headers: bearer((await json(login)).access) }));
  t.like(me, { id: demo!.merchant_id, username: demo!.login });
  const viaToken = await json(await fetch(`${app.url}/api/v1/me/`, { headers: bearer(demo!.merchant_token) }));
  t.is(viaToken.id, demo!.merchant_id);

  t.is(await seedIfEmpty(), null, 'a second start creates nothing');
  t.is(await MerchantModel.countDocuments({}), 1);
});
