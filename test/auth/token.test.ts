import '../helpers/env';
import './high-token-limit';
import crypto from 'node:crypto';
import test from 'ava';
import jwt from 'jsonwebtoken';
import { json, useAppWithMerchant } from '../helpers/app';
import { bearer, newMerchant, newStaff, systemToken } from '../helpers/identity';
import { getConfig } from '../../config';
import { UserModel } from '../../src/auth/model';
import { createMerchant } from '../../src/auth/service';
import { UNMATCHABLE_PASSWORD_HASH, verifyPassword } from '../../src/auth/crypto';
import { REFRESH_FAILURE, TOKEN_FAILURE } from '../../src/auth/schemas';
import { send } from '../helpers/http';

const running = useAppWithMerchant();

const post = (path: string, body: unknown, headers?: Record<string, string>) =>
  send(running.app, 'POST', path, headers, body);

async function tokenPair(
  username = running.merchant.email,
  password = running.merchant.password,
): Promise<{ access: string; refresh: string }> {
  const res = await post('/api/token/', { username, password });
  if (res.status !== 200) throw new Error(`token: ${res.status}`);
  return json(res);
}

function me(token: string, extra: Record<string, string> = {}) {
  return send(running.app, 'GET', '/api/v1/me/', bearer(token, extra));
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** A JWT with our claims, signed with the given algorithm and key (or unsigned for 'none'). */
function forge(claims: Record<string, unknown>, algorithm: 'none' | 'HS512' | 'RS256' | 'HS256', key?: string): string {
  const now = Math.floor(Date.now() / 1000);
  const payload = { iat: now, exp: now + 600, ...claims };
  if (algorithm === 'none') return `${b64({ alg: 'none', typ: 'JWT' })}.${b64(payload)}.`;
  return jwt.sign(payload, key!, { algorithm });
}

function claimsOf(token: string) {
  return jwt.decode(token) as { sub: string; typ: string; role: string; mid: number | null; exp: number; iat: number };
}

test('the complete e-mail and password give a pair of string tokens', async (t) => {
  const res = await post('/api/token/', { username: running.merchant.email, password: running.merchant.password });
  t.is(res.status, 200);
  const body = await json(res);
  t.deepEqual(Object.keys(body).sort(), ['access', 'refresh']);
  t.is(typeof body.access, 'string');
  t.is(typeof body.refresh, 'string');
  t.is(claimsOf(body.access).typ, 'access');
  t.is(claimsOf(body.refresh).typ, 'refresh');
  t.is((await me(body.access)).status, 200);
});

test('token lifetimes follow the config defaults', async (t) => {
  const { access, refresh } = await tokenPair();
  const a = claimsOf(access);
  const r = claimsOf(refresh);
  t.is(a.exp - a.iat, getConfig().jwt.accessTtlSeconds);
  t.is(r.exp - r.iat, getConfig().jwt.refreshTtlSeconds);
  t.is(getConfig().jwt.accessTtlSeconds, 900);
  t.is(getConfig().jwt.refreshTtlSeconds, 604800);
});

test('the e-mail is case-insensitive', async (t) => {
  const res = await post('/api/token/', {
    username: `  ${running.merchant.email.toUpperCase()}`,
    password: running.merchant.password,
  });
  t.is(res.status, 200);
});

test('a staff user gets a token pair too', async (t) => {
  const staff = await newStaff();
  const res = await post('/api/token/', { username: staff.email, password: staff.password });
  t.is(res.status, 200);
  t.is(claimsOf((await json(res)).access).role, 'staff');
});

const tokenFailures: [string, unknown, Record<string, string>?][] = [
  ['unknown e-mail', { username: 'nobody-here@example.com', password: 'whatever-123' }],
  ['wrong password', { username: '<email>', password: 'not-the-password' }],
  ['the short login name as username', { username: '<login>', password: '<password>' }],
  ['missing password', { username: '<email>' }],
  ['missing username', { password: '<password>' }],
  ['an empty object', {}],
  ['numbers for strings', { username: 12345, password: 67890 }],
  ['an operator object as username', { username: { $gt: '' }, password: '<password>' }],
  ['an array as password', { username: '<email>', password: ['<password>'] }],
  ['null fields', { username: null, password: null }],
  ['a json array body', ['<email>', '<password>']],
  ['a text body', 'username=<email>&password=<password>', { 'content-type': 'text/plain' }],
  ['an empty password', { username: '<email>', password: '' }],
  ['malformed json', '{"username": "<email>", "password":'],
];

for (const [title, body, headers] of tokenFailures) {
  test(`token 401 with the fixed body: ${title}`, async (t) => {
    const fill = (text: string) =>
      text
        .replace('<email>', running.merchant.email)
        .replace('<login>', running.merchant.login)
        .replace('<password>', running.merchant.password);
    const filled = typeof body === 'string' ? fill(body) : JSON.parse(fill(JSON.stringify(body)));
    const res = await post('/api/token/', filled, headers);
    t.is(res.status, 401);
    t.deepEqual(await json(res), TOKEN_FAILURE);
  });
}

test.serial('an unknown e-mail costs a password hash, like a wrong password', async (t) => {
  // Measured in CPU time of this process (the app runs in it, and scrypt's thread-pool time counts):
  // a busy machine stretches wall time, not CPU time. Serial, so no other test of this file runs
  // meanwhile. Without the hash an unknown e-mail costs a few ms; with it, at least one scrypt.
  const cpuMs = async (work: () => Promise<unknown>) => {
    const before = process.cpuUsage();
    await work();
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000;
  };
  let hashMin = Infinity;
  let unknownMin = Infinity;
  for (let i = 0; i < 3; i++) {
    hashMin = Math.min(hashMin, await cpuMs(() => verifyPassword('whatever-123', UNMATCHABLE_PASSWORD_HASH)));
    unknownMin = Math.min(
      unknownMin,
      await cpuMs(async () => {
        const res = await post('/api/token/', { username: `nobody-${i}@example.com`, password: 'whatever-123' });
        t.is(res.status, 401);
      }),
    );
  }
  t.true(
    unknownMin >= hashMin / 2,
    `an unknown user cost ${unknownMin.toFixed(1)} ms of CPU; one scrypt costs ${hashMin.toFixed(1)} ms`,
  );
});

test('refresh gives a new access token and is not rotated', async (t) => {
  const { access, refresh } = await tokenPair();
  const first = await post('/api/token/refresh/', { refresh });
  t.is(first.status, 200);
  const firstBody = await json(first);
  t.deepEqual(Object.keys(firstBody), ['access']);
  t.not(firstBody.access, access);
  t.is(claimsOf(firstBody.access).typ, 'access');
  const second = await post('/api/token/refresh/', { refresh });
  t.is(second.status, 200, 'the same refresh token still works');
  t.is((await me((await json(second)).access)).status, 200);
});

test('an access token is refused as a refresh token', async (t) => {
  const { access } = await tokenPair();
  const res = await post('/api/token/refresh/', { refresh: access });
  t.is(res.status, 401);
  t.deepEqual(await json(res), REFRESH_FAILURE);
});

test('a refresh token is refused as an access token', async (t) => {
  const { refresh } = await tokenPair();
  const res = await me(refresh);
  t.is(res.status, 401);
  t.is(typeof (await json(res)).detail, 'string');
});

function refreshClaims() {
  return { sub: String(running.merchant.userId), typ: 'refresh', role: 'merchant', mid: running.merchant.merchantId };
}

const refreshFailures: [string, () => unknown][] = [
  [
    'expired',
    () => ({
      refresh: jwt.sign(
        { ...refreshClaims(), iat: Math.floor(Date.now() / 1000) - 100, exp: Math.floor(Date.now() / 1000) - 10 },
        getConfig().jwt.secret,
        { algorithm: 'HS256' },
      ),
    }),
  ],
  [
    'tampered payload',
    () => {
      const [h, , s] = forge(refreshClaims(), 'HS256', getConfig().jwt.secret).split('.');
      return {
        refresh: `${h}.${b64({ ...refreshClaims(), sub: '999999', exp: Math.floor(Date.now() / 1000) + 600 })}.${s}`,
      };
    },
  ],
  ['alg none', () => ({ refresh: forge(refreshClaims(), 'none') })],
  ['hs512 with our secret', () => ({ refresh: forge(refreshClaims(), 'HS512', getConfig().jwt.secret) })],
  [
    'rs256 with another key',
    () => ({
      refresh: forge(
        refreshClaims(),
        'RS256',
        crypto
          .generateKeyPairSync('rsa', { modulusLength: 2048 })
          .privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
      ),
    }),
  ],
  ['hs256 with another secret', () => ({ refresh: forge(refreshClaims(), 'HS256', 'x'.repeat(40)) })],
  ['garbage', () => ({ refresh: 'not.a.jwt' })],
  ['missing field', () => ({})],
  ['a number', () => ({ refresh: 42 })],
  ['an operator object', () => ({ refresh: { $ne: null } })],
  ['malformed json', () => '{"refresh": '],
];

for (const [title, body] of refreshFailures) {
  test(`refresh 401 with the fixed body: ${title}`, async (t) => {
    const res = await post('/api/token/refresh/', body());
    t.is(res.status, 401);
    t.deepEqual(await json(res), REFRESH_FAILURE);
  });
}

test('a valid refresh token of a deleted user is refused', async (t) => {
  const doomed = await newMerchant();
  const { refresh } = await tokenPair(doomed.email, doomed.password);
  await UserModel.deleteOne({ _id: doomed.userId });
  const res = await post('/api/token/refresh/', { refresh });
  t.is(res.status, 401);
});

const accessFailures: [string, () => string][] = [
  [
    'expired',
    () =>
      jwt.sign(
        {
          sub: String(running.merchant.userId),
          typ: 'access',
          role: 'merchant',
          mid: running.merchant.merchantId,
          iat: Math.floor(Date.now() / 1000) - 100,
          exp: Math.floor(Date.now() / 1000) - 10,
        },
        getConfig().jwt.secret,
        { algorithm: 'HS256' },
      ),
  ],
  [
    'alg none',
    () =>
      forge(
        { sub: String(running.merchant.userId), typ: 'access', role: 'merchant', mid: running.merchant.merchantId },
        'none',
      ),
  ],
  [
    'hs512 with our secret',
    () =>
      forge(
        { sub: String(running.merchant.userId), typ: 'access', role: 'merchant', mid: running.merchant.merchantId },
        'HS512',
        getConfig().jwt.secret,
      ),
  ],
  [
    'another secret',
    () =>
      forge(
        { sub: String(running.merchant.userId), typ: 'access', role: 'merchant', mid: running.merchant.merchantId },
        'HS256',
        'y'.repeat(40),
      ),
  ],
];

for (const [title, token] of accessFailures) {
  test(`a bearer jwt is 401 when ${title}`, async (t) => {
    const res = await me(token());
    t.is(res.status, 401);
  });
}

test('me gives the merchant with the short login name as username', async (t) => {
  const { access } = await tokenPair();
  const res = await me(access);
  t.is(res.status, 200);
  const body = await json(res);
  t.is(body.username, running.merchant.login);
  t.not(body.username, running.merchant.email);
  t.is(body.id, running.merchant.merchantId);
  t.is(body.role, 'merchant');
  t.is(body.credential, 'jwt');
  t.is(body.allow_void_on_confirmed, false);
});

test('me with a merchant token names the merchant and its first user', async (t) => {
  const res = await me(running.merchant.merchantToken);
  t.is(res.status, 200);
  const body = await json(res);
  t.is(body.id, running.merchant.merchantId);
  t.is(body.username, running.merchant.login);
  t.is(body.credential, 'merchant_token');
});

test('me with the system token needs x-merchant-id to name a merchant', async (t) => {
  const named = await json(await me(systemToken(), { 'x-merchant-id': String(running.merchant.merchantId) }));
  t.like(named, {
    id: running.merchant.merchantId,
    username: running.merchant.login,
    role: 'system',
    credential: 'system',
  });
  const alone = await json(await me(systemToken()));
  t.like(alone, { id: null, company_name: null, username: null, role: 'system', credential: 'system' });
  const unknown = await me(systemToken(), { 'x-merchant-id': '99999999' });
  t.is(unknown.status, 400);
  t.truthy((await json(unknown))['X-Merchant-Id']);
});

test('me with a staff jwt names the staff user and no merchant', async (t) => {
  const staff = await newStaff();
  const body = await json(await me(staff.accessToken));
  t.like(body, { id: null, company_name: null, role: 'staff', credential: 'jwt', email: staff.email });
  t.truthy(body.username);
});

test('me: establishment_numbers are digit strings for a merchant credential, null without one', async (t) => {
  // Random ECs (an EC belongs to one merchant), one written with leading zeros.
  const digits = () => String(crypto.randomInt(1e9, 1e10));
  const [padded, plain] = [digits(), digits()];
  const owner = await newMerchant({ establishmentNumbers: [`00${padded}`, plain] });
  const expected = [padded, plain];
  const asMerchantUser = await json(await me(owner.accessToken));
  const asMerchantToken = await json(await me(owner.merchantToken));
  const asSystemForMerchant = await json(await me(systemToken(), { 'x-merchant-id': String(owner.merchantId) }));
  for (const body of [asMerchantUser, asMerchantToken, asSystemForMerchant]) {
    t.deepEqual(body.establishment_numbers, expected, body.credential);
    t.is(body.id, owner.merchantId);
  }
  const asSystemAlone = await json(await me(systemToken()));
  const asStaff = await json(await me((await newStaff()).accessToken));
  for (const body of [asSystemAlone, asStaff]) {
    t.like(body, { id: null, allow_void_on_confirmed: null, establishment_numbers: null }, body.role);
  }
});

test('me is 401 without or with a bad credential', async (t) => {
  const none = await send(running.app, 'GET', '/api/v1/me/');
  t.is(none.status, 401);
  t.is(typeof (await json(none)).detail, 'string');
  t.is((await me('nonsense')).status, 401);
  t.is((await me('mt_unknown-token-value')).status, 401);
  t.is(
    (await send(running.app, 'GET', '/api/v1/me/', { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }))
      .status,
    401,
  );
});

test('a user created with a mixed-case e-mail logs in with any case', async (t) => {
  const tag = crypto.randomBytes(3).toString('hex');
  await createMerchant({
    companyName: 'Caixa Alta',
    email: `Mixed.Case-${tag}@Example.COM`,
    login: `mixed${tag}`,
    password: 'long-enough-pw',
  });
  const res = await post('/api/token/', { username: `mixed.case-${tag}@example.com`, password: 'long-enough-pw' });
  t.is(res.status, 200);
});

test('swagger documents token, refresh and me with their security', async (t) => {
  const doc = await json(await send(running.app, 'GET', '/api/docs/swagger.json'));
  const token = doc.paths['/api/token/'].post;
  const refresh = doc.paths['/api/token/refresh/'].post;
  const meOp = doc.paths['/api/v1/me/'].get;
  t.is(token.security, undefined);
  t.is(refresh.security, undefined);
  t.deepEqual(meOp.security, [{ BearerAuth: [] }]);
  t.truthy(token.responses[429].headers['Retry-After']);
  t.regex(token.description, /900/);
  t.regex(refresh.description, /604800/);
  t.truthy(doc.definitions.TokenPair && doc.definitions.Me);
});
