import '../helpers/env';
import crypto from 'node:crypto';
import test from 'ava';
import jwt from 'jsonwebtoken';
import { getConfig } from '../../config';
import { startTestApp, json, type TestApp } from '../helpers/app';
import { bearer, newMerchant, newStaff, type TestMerchant } from '../helpers/identity';
import { LEAKS_INTERNALS } from './swagger-routes';
import { send } from '../helpers/http';

// Attacks test/auth/token.test.ts already covers on /me (expired, plain alg none, HS512 with our
// secret, another HS256 secret, a refresh token as access) are not repeated here.

let app: TestApp;
let merchant: TestMerchant;
let victim: TestMerchant;
let staff: { userId: number; accessToken: string };

test.before(async () => {
  app = await startTestApp();
  merchant = await newMerchant();
  victim = await newMerchant();
  staff = await newStaff();
});
test.after.always(() => app?.close());

const b64 = (value: unknown) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);

function claimsFor(user: { userId: number; merchantId?: number }, role: 'merchant' | 'staff' = 'merchant') {
  return { sub: String(user.userId), typ: 'access', role, mid: user.merchantId ?? null, iat: now(), exp: now() + 600 };
}

/** header.payload signed by hand: `sign` gets the signing input and returns the raw signature. */
function handMade(
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
  sign: (input: string) => Buffer | string,
): string {
  const input = `${b64(header)}.${b64(payload)}`;
  const signature = sign(input);
  return `${input}.${typeof signature === 'string' ? signature : signature.toString('base64url')}`;
}

const hmac = (algorithm: string, key: string | Buffer) => (input: string) =>
  crypto.createHmac(algorithm, key).update(input).digest();
const rsa = (privateKeyPem: string) => (input: string) => crypto.sign('sha256', Buffer.from(input), privateKeyPem);

type Attack = [title: string, token: () => string];

function attacksOn(user: { userId: number; merchantId?: number }, role: 'merchant' | 'staff'): Attack[] {
  const { secret } = getConfig().jwt;
  const { publicKeyPem, privateKeyPem } = getConfig().cardKeys;
  const claims = () => claimsFor(user, role);
  const attackerKeys = () => crypto.generateKeyPairSync('rsa', { modulusLength: 1024 });
  return [
    ['alg None (mixed case) unsigned', () => handMade({ alg: 'None', typ: 'JWT' }, claims(), () => '')],
    ['alg NONE unsigned', () => handMade({ alg: 'NONE', typ: 'JWT' }, claims(), () => '')],
    [
      'alg none with the hmac signature kept',
      () => handMade({ alg: 'none', typ: 'JWT' }, claims(), hmac('sha256', secret)),
    ],
    ['no alg at all', () => handMade({ typ: 'JWT' }, claims(), hmac('sha256', secret))],
    [
      'hs256 keyed with the card rsa public key',
      () => handMade({ alg: 'HS256', typ: 'JWT' }, claims(), hmac('sha256', publicKeyPem)),
    ],
    [
      'hs512 keyed with the card rsa public key',
      () => handMade({ alg: 'HS512', typ: 'JWT' }, claims(), hmac('sha512', publicKeyPem)),
    ],
    [
      'rs256 header over an hmac of our secret',
      () => handMade({ alg: 'RS256', typ: 'JWT' }, claims(), hmac('sha256', secret)),
    ],
    [
      'rs256 signed with the card private key',
      () => handMade({ alg: 'RS256', typ: 'JWT' }, claims(), rsa(privateKeyPem)),
    ],
    ['hs384 with our secret', () => jwt.sign(claims(), secret, { algorithm: 'HS384' })],
    [
      'rs256 with an embedded attacker jwk',
      () => {
        const keys = attackerKeys();
        const jwk = keys.publicKey.export({ format: 'jwk' });
        return handMade(
          { alg: 'RS256', typ: 'JWT', jwk },
          claims(),
          rsa(keys.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string),
        );
      },
    ],
    [
      'a jku header pointing elsewhere',
      () =>
        handMade(
          { alg: 'HS256', typ: 'JWT', jku: 'http://127.0.0.1:9/keys' },
          claims(),
          hmac('sha256', 'z'.repeat(40)),
        ),
    ],
    [
      'a kid header naming a file',
      () => handMade({ alg: 'HS256', typ: 'JWT', kid: '../../../../dev/null' }, claims(), hmac('sha256', '')),
    ],
    ['empty hmac key', () => handMade({ alg: 'HS256', typ: 'JWT' }, claims(), hmac('sha256', ''))],
    ['missing typ claim', () => jwt.sign({ ...claims(), typ: undefined }, secret, { algorithm: 'HS256' })],
    ['typ claim of another kind', () => jwt.sign({ ...claims(), typ: 'merchant' }, secret, { algorithm: 'HS256' })],
    ['typ claim as an array', () => jwt.sign({ ...claims(), typ: ['access'] }, secret, { algorithm: 'HS256' })],
    [
      'sub claim as an operator object',
      () => jwt.sign({ ...claims(), sub: { $gt: '' } }, secret, { algorithm: 'HS256' }),
    ],
    [
      'expired one second ago',
      () => jwt.sign({ ...claims(), iat: now() - 60, exp: now() - 1 }, secret, { algorithm: 'HS256' }),
    ],
    [
      'not valid yet (nbf in an hour)',
      () => jwt.sign({ ...claims(), nbf: now() + 3600 }, secret, { algorithm: 'HS256' }),
    ],
    [
      'exp as a string far in the future',
      () => handMade({ alg: 'HS256', typ: 'JWT' }, { ...claims(), exp: '99999999999' }, hmac('sha256', secret)),
    ],
  ];
}

/** Real tokens with their signature made wrong in the ways an attacker tampers with them. */
function tamperedFrom(genuine: string, otherUser: { userId: number; merchantId?: number }): Attack[] {
  const [header, payload, signature] = genuine.split('.');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
  const flipped = `${signature.slice(0, -2)}${signature.at(-2) === 'A' ? 'B' : 'A'}${signature.at(-1)}`;
  return [
    [
      'the payload changed to another user, signature kept',
      () => `${header}.${b64({ ...claims, sub: String(otherUser.userId), mid: otherUser.merchantId })}.${signature}`,
    ],
    [
      'the payload given a longer lifetime, signature kept',
      () => `${header}.${b64({ ...claims, exp: now() + 10 * 365 * 86400 })}.${signature}`,
    ],
    ['one signature character changed', () => `${header}.${payload}.${flipped}`],
    ['the signature cut in half', () => `${header}.${payload}.${signature.slice(0, signature.length / 2)}`],
    ['the signature removed', () => `${header}.${payload}.`],
    ['the signature of another token', () => `${header}.${payload}.${victim.accessToken.split('.')[2]}`],
    ['a fourth segment appended', () => `${genuine}.${signature}`],
    ['the header swapped for alg none', () => `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.${signature}`],
  ];
}

async function expect401(t: import('ava').ExecutionContext, url: string, token: string, title: string) {
  const res = await send(app, 'GET', url, bearer(token));
  const text = await res.text();
  t.is(res.status, 401, `${title} on ${url}: ${res.status} ${text.slice(0, 200)}`);
  t.regex(res.headers.get('content-type') ?? '', /application\/json/, title);
  t.is(typeof (JSON.parse(text) as { detail?: unknown }).detail, 'string', title);
  t.false(LEAKS_INTERNALS.test(text), title);
}

test('the genuine tokens are accepted (so every 401 below is the attack, not the route)', async (t) => {
  t.is((await send(app, 'GET', '/api/v1/me/', bearer(merchant.accessToken))).status, 200);
  t.is((await send(app, 'GET', '/api/v1/payment-links/999999999/', bearer(merchant.accessToken))).status, 404);
  t.is((await send(app, 'GET', '/api/v1/global-ceo/', bearer(staff.accessToken))).status, 200);
});

test('forged merchant tokens are 401 on merchant routes', async (t) => {
  const me = { userId: merchant.userId, merchantId: merchant.merchantId };
  for (const [title, token] of [
    ...attacksOn(me, 'merchant'),
    ...tamperedFrom(merchant.accessToken, { userId: victim.userId, merchantId: victim.merchantId }),
  ]) {
    const forged = token();
    await expect401(t, '/api/v1/me/', forged, title);
    await expect401(t, '/api/v1/payment-links/999999999/', forged, title);
  }
});

test('forged staff tokens (a merchant promoting itself) are 401 on staff routes', async (t) => {
  for (const [title, token] of [
    ...attacksOn({ userId: staff.userId }, 'staff'),
    ...tamperedFrom(staff.accessToken, { userId: merchant.userId, merchantId: merchant.merchantId }),
  ]) {
    await expect401(t, '/api/v1/global-ceo/', token(), title);
  }
});

test('role and merchant claims in a validly signed token are not trusted: the user record decides', async (t) => {
  const { secret } = getConfig().jwt;
  const promoted = jwt.sign(claimsFor({ userId: merchant.userId, merchantId: merchant.merchantId }, 'staff'), secret, {
    algorithm: 'HS256',
  });
  t.is((await send(app, 'GET', '/api/v1/global-ceo/', bearer(promoted))).status, 403);
  const otherMerchant = jwt.sign({ ...claimsFor({ userId: merchant.userId }), mid: victim.merchantId }, secret, {
    algorithm: 'HS256',
  });
  const me = await json(await send(app, 'GET', '/api/v1/me/', bearer(otherMerchant)));
  t.is(me.id, merchant.merchantId);
});

test('the refresh route refuses the same forgeries of a refresh token', async (t) => {
  const me = { userId: merchant.userId, merchantId: merchant.merchantId };
  const asRefresh = (token: string) => {
    // Re-issue each forgery with typ refresh, keeping its header and signing method.
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    return claims.typ === 'access' ? `${header}.${b64({ ...claims, typ: 'refresh' })}.${signature}` : token;
  };
  const { secret } = getConfig().jwt;
  const { publicKeyPem, privateKeyPem } = getConfig().cardKeys;
  const claims = { ...claimsFor(me), typ: 'refresh' };
  const forgeries: Attack[] = [
    [
      'hs256 keyed with the card rsa public key',
      () => handMade({ alg: 'HS256', typ: 'JWT' }, claims, hmac('sha256', publicKeyPem)),
    ],
    [
      'rs256 signed with the card private key',
      () => handMade({ alg: 'RS256', typ: 'JWT' }, claims, rsa(privateKeyPem)),
    ],
    [
      'rs256 header over an hmac of our secret',
      () => handMade({ alg: 'RS256', typ: 'JWT' }, claims, hmac('sha256', secret)),
    ],
    ['alg None unsigned', () => handMade({ alg: 'None', typ: 'JWT' }, claims, () => '')],
    ['missing typ claim', () => jwt.sign({ ...claims, typ: undefined }, secret, { algorithm: 'HS256' })],
    ['an access token payload relabelled refresh, signature kept', () => asRefresh(merchant.accessToken)],
  ];
  const login = await json(
    await send(
      app,
      'POST',
      '/api/token/',
      { 'content-type': 'application/json' },
      { username: merchant.email, password: merchant.password },
    ),
  );
  const genuine = await send(
    app,
    'POST',
    '/api/token/refresh/',
    { 'content-type': 'application/json' },
    { refresh: login.refresh },
  );
  t.is(genuine.status, 200, 'a genuine refresh token is accepted');
  for (const [title, token] of forgeries) {
    const res = await send(
      app,
      'POST',
      '/api/token/refresh/',
      { 'content-type': 'application/json' },
      { refresh: token() },
    );
    const text = await res.text();
    t.is(res.status, 401, `${title}: ${text}`);
    t.false(text.includes('"access"'), title);
  }
});
