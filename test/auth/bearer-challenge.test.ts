/**
 * The 401 of a bearer route tells an expired access token from a wrong one (issue: a newcomer's
 * expired token got the same answer as a mistyped one): both stay 401, with RFC 6750's challenge in
 * WWW-Authenticate; the expired one says so in it and in the body. Nothing of the token comes back.
 */
import '../helpers/env';
import test from 'ava';
import jwt from 'jsonwebtoken';
import { getConfig } from '../../config';
import { json, useAppWithMerchant } from '../helpers/app';
import { bearer } from '../helpers/identity';
import { send } from '../helpers/http';

const running = useAppWithMerchant();

const INVALID = { detail: 'Authentication credentials were not provided or are invalid.' };
const EXPIRED = {
  detail: 'The access token expired. Get a new one with POST /api/token/refresh/ (or log in again).',
};
const CHALLENGE_NONE = 'Bearer';
const CHALLENGE_INVALID = 'Bearer error="invalid_token"';
const CHALLENGE_EXPIRED = 'Bearer error="invalid_token", error_description="The access token expired"';

const now = () => Math.floor(Date.now() / 1000);

/** A token of the file's merchant user, signed with the service's own secret. */
function signed(claims: Record<string, unknown> = {}, secret = getConfig().jwt.secret): string {
  const { userId, merchantId } = running.merchant;
  return jwt.sign(
    { sub: String(userId), typ: 'access', role: 'merchant', mid: merchantId, iat: now() - 120, ...claims },
    secret,
    { algorithm: 'HS256' },
  );
}

async function answer(headers: Record<string, string>, path = '/api/v1/me/', method = 'GET', body?: unknown) {
  const res = await send(running.app, method, path, headers, body);
  const text = await res.text();
  return { status: res.status, challenge: res.headers.get('www-authenticate'), body: JSON.parse(text), text };
}

test('no credential: 401 with the bare Bearer challenge (RFC 6750 section 3)', async (t) => {
  const sent: Record<string, string>[] = [{}, { authorization: 'Basic dXNlcjpwYXNz' }, { authorization: 'Bearer ' }];
  for (const headers of sent) {
    const res = await answer(headers);
    t.is(res.status, 401, JSON.stringify(headers));
    t.is(res.challenge, CHALLENGE_NONE, JSON.stringify(headers));
    t.deepEqual(res.body, INVALID);
  }
});

test('a wrong token: 401, invalid_token, the one body that says nothing more', async (t) => {
  const wrong: [string, string][] = [
    ['garbage', 'not-a-token'],
    ['an unknown merchant token', 'mt_0000000000000000000000000000000000000000'],
    ['a JWT of another secret', signed({ exp: now() + 600 }, 'x'.repeat(40))],
    // Expired AND signed with another key: its expiry is not ours to tell.
    ['an expired JWT of another secret', signed({ exp: now() - 10 }, 'x'.repeat(40))],
    ['an expired JWT with its signature changed', `${signed({ exp: now() - 10 }).slice(0, -3)}AAA`],
    ['an expired refresh token', signed({ typ: 'refresh', exp: now() - 10 })],
  ];
  for (const [title, token] of wrong) {
    const res = await answer(bearer(token));
    t.is(res.status, 401, title);
    t.is(res.challenge, CHALLENGE_INVALID, title);
    t.deepEqual(res.body, INVALID, title);
  }
});

test('an expired access token: 401 saying it expired, in WWW-Authenticate and in the body', async (t) => {
  const token = signed({ exp: now() - 10 });
  const res = await answer(bearer(token));
  t.is(res.status, 401);
  t.is(res.challenge, CHALLENGE_EXPIRED);
  t.deepEqual(res.body, EXPIRED);
  t.false(res.text.includes(token.split('.')[2]), 'nothing of the token comes back');

  // The same on any bearer route, before its body is read or validated.
  const create = await answer(bearer(token), '/api/v1/payment-links/', 'POST', { value: 'nope' });
  t.is(create.status, 401);
  t.is(create.challenge, CHALLENGE_EXPIRED);
  t.deepEqual(create.body, EXPIRED);
});

test('a token accepted before is told expired once its expiry comes', async (t) => {
  // Verified, then remembered by the process (VerifiedTokens); the process's clock (the app runs in this one) is
  // moved to the expiry rather than waited for.
  const exp = now() + 60;
  const token = signed({ exp });
  t.is((await answer(bearer(token))).status, 200);
  t.is((await answer(bearer(token))).status, 200);
  const realNow = Date.now;
  Date.now = () => exp * 1000;
  try {
    const res = await answer(bearer(token));
    t.is(res.status, 401);
    t.is(res.challenge, CHALLENGE_EXPIRED);
    t.deepEqual(res.body, EXPIRED);
  } finally {
    Date.now = realNow;
  }
});

test('a valid credential answers with no challenge', async (t) => {
  const ok = await send(running.app, 'GET', '/api/v1/me/', bearer(signed({ exp: now() + 600 })));
  t.is(ok.status, 200);
  t.is(ok.headers.get('www-authenticate'), null);
  await json(ok);
});
