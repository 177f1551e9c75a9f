import '../helpers/env';
import test from 'ava';
import jwt from 'jsonwebtoken';
import { getConfig } from '../../config';
import { startTestApp, json, type TestApp } from '../helpers/app';
import { bearer, newMerchant, newStaff, systemToken, type TestMerchant } from '../helpers/identity';
import { features } from '../../src/web/areas';
import type { Feature } from '../../src/http/routes';
import { merchantIdOf, VerifiedTokens } from '../../src/auth/authenticate';
import {
  acceptedCredentials,
  ANY_CREDENTIAL,
  ANY_MERCHANT_CREDENTIAL,
  MERCHANT_CREDENTIALS,
  STAFF_CREDENTIALS,
  type CredentialPolicy,
} from '../../src/http/credential-policy';
import { issueMerchantToken, revokeMerchantTokens } from '../../src/auth/service';
import { signToken } from '../../src/auth/tokens';
import { UserModel } from '../../src/auth/model';
import { send } from '../helpers/http';

/** A policy without user JWTs, shaped like PIX status's (system token or merchant token). */
const SYSTEM_OR_MERCHANT_TOKEN: CredentialPolicy = { merchantToken: true, system: true, systemMerchant: 'required' };

const POLICIES: Record<string, CredentialPolicy> = {
  merchant: MERCHANT_CREDENTIALS,
  'any-merchant': ANY_MERCHANT_CREDENTIAL,
  staff: STAFF_CREDENTIALS,
  'system-or-merchant-token': SYSTEM_OR_MERCHANT_TOKEN,
  any: ANY_CREDENTIAL,
};

// One route per policy that only this test registers; each answers who the caller is.
const probe: Feature = {
  name: 'probe',
  routes: Object.entries(POLICIES).map(([name, auth]) => ({
    method: 'get' as const,
    path: `/probe/${name}`,
    auth,
    handler: (req, res) => {
      const principal = req.principal!;
      res.json({ kind: principal.kind, role: principal.role, merchantId: principal.merchantId ?? null });
    },
    doc: { operationId: `probe_${name}`, summary: name, responses: {} },
  })),
};
// A merchant route reading merchantIdOf(): a staff route has no merchant to give.
probe.routes.push({
  method: 'get',
  path: '/probe/staff-asks-merchant',
  auth: STAFF_CREDENTIALS,
  handler: (req, res) => {
    res.json({ merchantId: merchantIdOf(req) });
  },
  doc: { operationId: 'probeStaffAsksMerchant', summary: 'merchantIdOf on a staff route', responses: {} },
});

const refusal = (policy: CredentialPolicy) =>
  `This credential is not accepted by this operation; it accepts ${acceptedCredentials(policy)}.`;

let app: TestApp;
let merchant: TestMerchant;
let other: TestMerchant;
const credentials: Record<string, () => Record<string, string>> = {};

test.before(async () => {
  app = await startTestApp({ features: [...features, probe] });
  merchant = await newMerchant();
  other = await newMerchant();
  const staff = await newStaff();
  const revoked = await issueMerchantToken(merchant.merchantId);
  await revokeMerchantTokens(merchant.merchantId, { prefix: revoked.prefix });
  const ghost = await newMerchant();
  await UserModel.deleteOne({ _id: ghost.userId });
  Object.assign(credentials, {
    'merchant jwt': () => bearer(merchant.accessToken),
    'staff jwt': () => bearer(staff.accessToken),
    'merchant token': () => bearer(merchant.merchantToken),
    'revoked merchant token': () => bearer(revoked.token),
    'system with x-merchant-id': () => bearer(systemToken(), { 'x-merchant-id': String(merchant.merchantId) }),
    'system without x-merchant-id': () => bearer(systemToken()),
    'system with unknown x-merchant-id': () => bearer(systemToken(), { 'x-merchant-id': '987654321' }),
    'system with bad x-merchant-id': () => bearer(systemToken(), { 'x-merchant-id': '1; drop' }),
    'refresh token': () =>
      bearer(signToken('refresh', { _id: merchant.userId, role: 'merchant', merchantId: merchant.merchantId })),
    'jwt of a deleted user': () => bearer(ghost.accessToken),
    'unknown merchant token': () => bearer('mt_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'),
    'a system token prefix': () => bearer(systemToken().slice(0, -1)),
    'no credential': () => ({}),
    'basic auth': () => ({
      authorization: `Basic ${Buffer.from(`${merchant.email}:${merchant.password}`).toString('base64')}`,
    }),
  });
});
test.after.always(() => app?.close());

// Expected status per credential, per policy: 200 (acts for `merchant`, or `none`), 400, 401 or 403.
type Outcome = 'merchant' | 'none' | 400 | 401 | 403;
const MATRIX: Record<string, Record<string, Outcome>> = {
  'merchant jwt': {
    merchant: 'merchant',
    'any-merchant': 'merchant',
    staff: 403,
    'system-or-merchant-token': 403,
    any: 'merchant',
  },
  'staff jwt': { merchant: 403, 'any-merchant': 403, staff: 'none', 'system-or-merchant-token': 403, any: 'none' },
  'merchant token': {
    merchant: 'merchant',
    'any-merchant': 'merchant',
    staff: 403,
    'system-or-merchant-token': 'merchant',
    any: 'merchant',
  },
  'revoked merchant token': {
    merchant: 401,
    'any-merchant': 401,
    staff: 401,
    'system-or-merchant-token': 401,
    any: 401,
  },
  'system with x-merchant-id': {
    merchant: 403,
    'any-merchant': 'merchant',
    staff: 'merchant',
    'system-or-merchant-token': 'merchant',
    any: 'merchant',
  },
  'system without x-merchant-id': {
    merchant: 403,
    'any-merchant': 400,
    staff: 'none',
    'system-or-merchant-token': 400,
    any: 'none',
  },
  'system with unknown x-merchant-id': {
    merchant: 403,
    'any-merchant': 400,
    staff: 400,
    'system-or-merchant-token': 400,
    any: 400,
  },
  'system with bad x-merchant-id': {
    merchant: 403,
    'any-merchant': 400,
    staff: 400,
    'system-or-merchant-token': 400,
    any: 400,
  },
  'refresh token': { merchant: 401, 'any-merchant': 401, staff: 401, 'system-or-merchant-token': 401, any: 401 },
  'jwt of a deleted user': {
    merchant: 401,
    'any-merchant': 401,
    staff: 401,
    'system-or-merchant-token': 401,
    any: 401,
  },
  'unknown merchant token': {
    merchant: 401,
    'any-merchant': 401,
    staff: 401,
    'system-or-merchant-token': 401,
    any: 401,
  },
  'a system token prefix': {
    merchant: 401,
    'any-merchant': 401,
    staff: 401,
    'system-or-merchant-token': 401,
    any: 401,
  },
  'no credential': { merchant: 401, 'any-merchant': 401, staff: 401, 'system-or-merchant-token': 401, any: 401 },
  'basic auth': { merchant: 401, 'any-merchant': 401, staff: 401, 'system-or-merchant-token': 401, any: 401 },
};

for (const [credential, row] of Object.entries(MATRIX)) {
  test(`policies and ${credential}`, async (t) => {
    for (const [policy, expected] of Object.entries(row)) {
      const res = await send(app, 'GET', `/probe/${policy}`, credentials[credential]());
      const body = await json(res);
      const where = `${policy} with ${credential}`;
      if (typeof expected === 'number') {
        t.is(res.status, expected, where);
        if (expected === 400) t.truthy(body['X-Merchant-Id'], where);
        // A credential of another kind is told which kinds the operation accepts.
        else if (expected === 403) t.deepEqual(body, { detail: refusal(POLICIES[policy]) }, where);
        else t.is(typeof body.detail, 'string', where);
      } else {
        t.is(res.status, 200, where);
        t.is(body.merchantId, expected === 'merchant' ? merchant.merchantId : null, where);
      }
    }
  });
}

test('every policy of the matrix is covered', (t) => {
  for (const row of Object.values(MATRIX)) t.deepEqual(Object.keys(row).sort(), Object.keys(POLICIES).sort());
});

test('x-merchant-id does not move a merchant credential to another merchant', async (t) => {
  for (const token of [merchant.accessToken, merchant.merchantToken]) {
    const body = await json(
      await send(app, 'GET', '/probe/merchant', bearer(token, { 'x-merchant-id': String(other.merchantId) })),
    );
    t.is(body.merchantId, merchant.merchantId);
  }
});

test('a staff route that asks for a merchant refuses without one', async (t) => {
  const res = await send(app, 'GET', '/probe/staff-asks-merchant', bearer(systemToken()));
  t.is(res.status, 403);
  const named = await send(
    app,
    'GET',
    '/probe/staff-asks-merchant',
    bearer(systemToken(), { 'x-merchant-id': String(other.merchantId) }),
  );
  t.deepEqual(await json(named), { merchantId: other.merchantId });
});

test('revoking every token of a merchant leaves other merchants alone', async (t) => {
  const mine = await newMerchant();
  const second = await issueMerchantToken(mine.merchantId);
  t.is(await revokeMerchantTokens(mine.merchantId, { all: true }), 2);
  for (const token of [mine.merchantToken, second.token])
    t.is((await send(app, 'GET', '/probe/merchant', bearer(token))).status, 401);
  t.is((await send(app, 'GET', '/probe/merchant', bearer(other.merchantToken))).status, 200);
  t.is(
    await revokeMerchantTokens(other.merchantId, { prefix: mine.merchantToken.slice(0, 10) }),
    0,
    'a prefix only reaches its own merchant',
  );
});

test('x-merchant-id is a strict decimal id: hex, exponent, signed and zero forms are refused', async (t) => {
  for (const value of [`0x${merchant.merchantId.toString(16)}`, `${merchant.merchantId}e0`, '0', '+1']) {
    const res = await send(app, 'GET', '/probe/any-merchant', bearer(systemToken(), { 'x-merchant-id': value }));
    t.is(res.status, 400, value);
    t.truthy((await json(res))['X-Merchant-Id'], value);
  }
});

/** A JWT with these claims, validly signed with the service's own secret. */
function signedByTheService(claims: object, options: jwt.SignOptions = {}): string {
  return jwt.sign(claims, getConfig().jwt.secret, { algorithm: 'HS256', ...options });
}

test('a signed access token whose subject is not a user id is a 401, not a 500', async (t) => {
  for (const sub of ['abc', '', '1.5', '-3']) {
    const token = signedByTheService({ sub, typ: 'access', role: 'staff', mid: null }, { expiresIn: 60 });
    const res = await send(app, 'GET', '/probe/any', bearer(token));
    t.is(res.status, 401, `sub ${JSON.stringify(sub)}`);
  }
});

test('a JWT seen before is still refused from its expiry on, and when its user is gone', async (t) => {
  const user = await newMerchant();
  // Accepted twice (verified, then remembered) before its expiry, then refused once this process's clock (the
  // app runs in it) reaches the expiry: moved there, not waited for.
  const exp = Math.floor(Date.now() / 1000) + 60;
  const claims = { sub: String(user.userId), typ: 'access', role: 'merchant', mid: user.merchantId, exp };
  const token = signedByTheService(claims);
  const call = async (value: string) => (await send(app, 'GET', '/probe/any', bearer(value))).status;
  t.is(await call(token), 200);
  t.is(await call(token), 200);
  const [header, payload, signature] = token.split('.');
  const flipped = `${signature.slice(0, -2)}${signature.at(-2) === 'A' ? 'B' : 'A'}${signature.at(-1)}`;
  t.is(await call(`${header}.${payload}.${flipped}`), 401, 'another signature is another token, verified afresh');
  const promoted = Buffer.from(JSON.stringify({ ...claims, role: 'staff', sub: String(merchant.userId) }));
  t.is(await call(`${header}.${promoted.toString('base64url')}.${signature}`), 401, 'another payload too');
  const realNow = Date.now;
  Date.now = () => exp * 1000;
  try {
    t.is(await call(token), 401, 'expired, though verified before');
  } finally {
    Date.now = realNow;
  }

  const live = await newMerchant();
  t.is(await call(live.accessToken), 200);
  await UserModel.deleteOne({ _id: live.userId });
  t.is(await call(live.accessToken), 401, 'the user is read on every request');
});

test('verified tokens are kept until their expiry, at most a set number, under the key they were checked with', (t) => {
  const kept = new VerifiedTokens(2);
  const key = {};
  const claims = (exp?: number) => ({ sub: '1', typ: 'access' as const, role: 'merchant' as const, mid: 1, exp });
  kept.add('a', key, claims(100));
  t.deepEqual(kept.get('a', key, 99_999), claims(100));
  t.is(kept.get('a', key, 100_000), undefined, 'not from its exp second on');
  t.is(kept.size, 0, 'and dropped');
  kept.add('no-exp', key, claims());
  t.is(kept.size, 0, 'a token without an expiry is never kept');
  kept.add('b', key, claims(200));
  kept.add('c', key, claims(200));
  kept.add('d', key, claims(200));
  t.is(kept.size, 2);
  t.is(kept.get('b', key, 0), undefined, 'the oldest went first');
  t.truthy(kept.get('d', key, 0));
  t.is(kept.get('d', {}, 0), undefined, 'not under another key');
  const rotated = {};
  kept.add('e', rotated, claims(200));
  t.is(kept.get('c', rotated, 0), undefined, 'a new key empties it');
  t.truthy(kept.get('e', rotated, 0));
  t.is(kept.size, 1);
});
