/**
 * Database round trips of an authenticated request: the credential check plus GET /api/v1/me/,
 * one credential kind per test, counted by the driver's command monitoring (the counters /metrics
 * serves). Each round trip costs about a millisecond of FerretDB command handling, so a count that
 * grows is a regression: these tests fail on it. Serial: a concurrent test would add its commands.
 */
import '../helpers/env';
import test from 'ava';
import { startTestApp, json, type TestApp } from '../helpers/app';
import { countDbCommands } from '../helpers/db-commands';
import { bearer, newMerchant, newStaff, systemToken, type TestMerchant } from '../helpers/identity';
import { MerchantTokenModel, UserModel } from '../../src/auth/model';
import { MerchantModel } from '../../src/merchants/model';
import { sha256Hex } from '../../src/platform/digests';
import { revokeMerchantTokens, updateMerchant } from '../../src/auth/service';
import { send } from '../helpers/http';

let app: TestApp;
let merchant: TestMerchant;

test.before(async () => {
  app = await startTestApp();
  merchant = await newMerchant({ companyName: 'Contagem de Idas LTDA' });
});
test.after.always(async () => {
  await app?.close();
});

async function me(headers: Record<string, string>) {
  return countDbCommands(async () => {
    const res = await send(app, 'GET', '/api/v1/me/', headers);
    return { status: res.status, body: await json(res) };
  });
}

test.serial("a merchant user's JWT: the credential check and /me make one read", async (t) => {
  const { result, commands } = await me(bearer(merchant.accessToken));
  t.is(result.status, 200);
  t.is(result.body.company_name, 'Contagem de Idas LTDA');
  t.is(result.body.username, merchant.login);
  t.log(commands);
  t.deepEqual(commands.by, { 'users find': 1 });
});

test.serial("a staff user's JWT: one read", async (t) => {
  const staff = await newStaff();
  const { result, commands } = await me(bearer(staff.accessToken));
  t.is(result.status, 200);
  t.is(result.body.role, 'staff');
  t.log(commands);
  t.deepEqual(commands.by, { 'users find': 1 });
});

test.serial('a merchant token: one read', async (t) => {
  const { result, commands } = await me(bearer(merchant.merchantToken));
  t.is(result.status, 200);
  t.is(result.body.credential, 'merchant_token');
  t.is(result.body.username, merchant.login);
  t.is(result.body.company_name, 'Contagem de Idas LTDA');
  t.log(commands);
  t.deepEqual(commands.by, { 'merchant_tokens find': 1 });
});

test.serial('the system token naming a merchant: one read', async (t) => {
  const { result, commands } = await me(bearer(systemToken(), { 'x-merchant-id': String(merchant.merchantId) }));
  t.is(result.status, 200);
  t.is(result.body.id, merchant.merchantId);
  t.is(result.body.username, merchant.login);
  t.log(commands);
  t.deepEqual(commands.by, { 'merchants find': 1 });
});

test.serial('the system token alone: no read', async (t) => {
  const { result, commands } = await me(bearer(systemToken()));
  t.is(result.status, 200);
  t.is(result.body.role, 'system');
  t.log(commands);
  t.deepEqual(commands.by, {});
});

// What the single read must not cost: freshness.

test.serial(
  "a merchant update reaches /me at once, still in one read (the JWT's user and the token carry copies)",
  async (t) => {
    const changed = await newMerchant({ companyName: 'Antes LTDA', establishmentNumbers: ['1001'] });
    await updateMerchant(changed.merchantId, {
      companyName: 'Depois LTDA',
      allowVoidOnConfirmed: true,
      addEstablishmentNumbers: ['2002'],
      removeEstablishmentNumbers: ['1001'],
    });
    for (const [credential, reads] of [
      [changed.accessToken, 1],
      [changed.merchantToken, 1],
    ] as const) {
      const { result, commands } = await me(bearer(credential));
      t.is(result.status, 200);
      t.is(result.body.company_name, 'Depois LTDA');
      t.true(result.body.allow_void_on_confirmed);
      t.deepEqual(result.body.establishment_numbers, ['2002']);
      t.is(commands.total, reads, JSON.stringify(commands.by));
    }
  },
);

test.serial('a deleted user and a revoked token are refused on the very next request', async (t) => {
  const doomed = await newMerchant();
  t.is((await me(bearer(doomed.accessToken))).result.status, 200);
  t.is((await me(bearer(doomed.merchantToken))).result.status, 200);
  await UserModel.deleteOne({ _id: doomed.userId });
  await revokeMerchantTokens(doomed.merchantId, { all: true });
  t.is((await me(bearer(doomed.accessToken))).result.status, 401);
  t.is((await me(bearer(doomed.merchantToken))).result.status, 401);
});

test.serial('records written before the copies existed still answer /me, with the reads they need', async (t) => {
  const legacy = await newMerchant({ companyName: 'Antiga ME' });
  await UserModel.collection.updateOne({ _id: legacy.userId as never }, { $unset: { merchantProfile: '' } });
  await MerchantModel.collection.updateOne({ _id: legacy.merchantId as never }, { $unset: { owner: '' } });
  await MerchantTokenModel.collection.updateOne(
    { _id: sha256Hex(legacy.merchantToken) as never },
    { $unset: { merchantProfile: '', owner: '' } },
  );
  const expected = { id: legacy.merchantId, company_name: 'Antiga ME', username: legacy.login, email: legacy.email };

  const jwt = await me(bearer(legacy.accessToken));
  t.like(jwt.result.body, { ...expected, credential: 'jwt', role: 'merchant' });
  t.deepEqual(jwt.commands.by, { 'users find': 1, 'merchants find': 1 });

  const token = await me(bearer(legacy.merchantToken));
  t.like(token.result.body, { ...expected, credential: 'merchant_token', role: 'merchant' });
  t.deepEqual(token.commands.by, { 'merchant_tokens find': 1, 'merchants find': 1, 'users find': 1 });

  const system = await me(bearer(systemToken(), { 'x-merchant-id': String(legacy.merchantId) }));
  t.like(system.result.body, { ...expected, credential: 'system', role: 'system' });
  t.deepEqual(system.commands.by, { 'merchants find': 1, 'users find': 1 });
});
