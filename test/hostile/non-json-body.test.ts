/**
 * A body that is not JSON is refused as such (issue: a form-encoded create was answered with every
 * field "required", as if nothing had been sent): 415 naming application/json, on every route that
 * takes a body, authenticated or public, before the body is read. An empty body is no body and keeps
 * the route's own answer; the token endpoints keep their one 401 (src/http/malformed-bodies.ts).
 */
import '../helpers/env';
import test from 'ava';
import { useAppWithMerchant } from '../helpers/app';
import { bearer } from '../helpers/identity';
import { call, type RequestHeaders } from '../helpers/http';
import { REFRESH_FAILURE, TOKEN_FAILURE } from '../../src/auth/schemas';

const running = useAppWithMerchant();
const LINKS = '/api/v1/payment-links/';
const JSON_NEEDED = /^The body must be JSON: send it with Content-Type: application\/json/;

/** A create with the merchant's token; `headers` may replace the JSON content type or drop it (undefined). */
const create = (headers: RequestHeaders, body?: unknown) =>
  call(running.app, 'POST', LINKS, { ...bearer(running.merchant.merchantToken), ...headers }, body);

test('a form-encoded create is 415 naming application/json, not a list of missing fields', async (t) => {
  const res = await create({ 'content-type': 'application/x-www-form-urlencoded' }, 'value=1500&description=Bolo');
  t.is(res.status, 415);
  t.regex(res.headers.get('content-type') ?? '', /^application\/json/);
  t.deepEqual(res.body, {
    detail:
      'The body must be JSON: send it with Content-Type: application/json ' +
      '(it came as application/x-www-form-urlencoded).',
  });
});

test('text, multipart and bytes with no Content-Type are 415 too; JSON types are read', async (t) => {
  const json = JSON.stringify({ value: 1500 });
  const cases: [string, string | undefined, string | Uint8Array, RegExp][] = [
    ['text', 'text/plain; charset=utf-8', json, /\(it came as text\/plain\)\.$/],
    ['multipart', 'multipart/form-data; boundary=x', '--x\r\n\r\n1500\r\n--x--', /\(it came as multipart\/form-data\)/],
    ['no type', undefined, new TextEncoder().encode(json), /\(it came with no Content-Type\)\.$/],
    // A header that is no media type is not echoed.
    ['junk type', '<script>', json, /application\/json\.$/],
  ];
  for (const [title, type, body, said] of cases) {
    const res = await create({ 'content-type': type }, body);
    t.is(res.status, 415, title);
    t.regex(res.body.detail, JSON_NEEDED, title);
    t.regex(res.body.detail, said, title);
  }
  for (const type of ['application/json', 'application/json; charset=utf-8', 'application/vnd.api+json']) {
    const res = await create({ 'content-type': type }, json);
    t.is(res.status, 201, `${type}: ${res.text}`);
  }
});

test('an empty body is no body, whatever its Content-Type: the route answers its missing fields', async (t) => {
  const empty: [string, string | undefined, Uint8Array | undefined][] = [
    ['no body, no type', undefined, undefined],
    ['no bytes, no type', undefined, new Uint8Array(0)],
    ['no bytes of a form', 'application/x-www-form-urlencoded', new Uint8Array(0)],
    ['no bytes of JSON', 'application/json', new Uint8Array(0)],
  ];
  for (const [title, type, body] of empty) {
    const res = await create({ 'content-type': type }, body);
    t.is(res.status, 400, title);
    t.deepEqual(res.body, { value: ['This field is required.'] }, title);
  }
});

test('a public route that takes a body refuses a form too; GET routes never read one', async (t) => {
  const link = await create({}, { value: 1500 });
  t.is(link.status, 201);
  const guid = link.body.payment_link_guid as string;
  const payer = await call(
    running.app,
    'PATCH',
    `/api/v1/checkout-links/${guid}/payer`,
    { 'content-type': 'application/x-www-form-urlencoded' },
    'payer_name=Maria&document=52998224725',
  );
  t.is(payer.status, 415);
  t.regex(payer.body.detail, JSON_NEEDED);
  const read = await call(running.app, 'GET', `/api/v1/checkout-links/${guid}`);
  t.is(read.status, 200);
});

test('the credential is checked first: no credential and a form body is 401', async (t) => {
  const res = await call(running.app, 'POST', LINKS, { 'content-type': 'application/x-www-form-urlencoded' }, 'a=1');
  t.is(res.status, 401);
});

test('the token endpoints answer a form with their one 401, as they answer malformed JSON', async (t) => {
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const token = await call(running.app, 'POST', '/api/token/', form, 'username=a%40b.c&password=x');
  t.is(token.status, 401);
  t.deepEqual(token.body, TOKEN_FAILURE);
  const refresh = await call(running.app, 'POST', '/api/token/refresh/', form, 'refresh=x');
  t.is(refresh.status, 401);
  t.deepEqual(refresh.body, REFRESH_FAILURE);
});
