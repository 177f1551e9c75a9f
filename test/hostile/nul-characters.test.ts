/**
 * PostgreSQL cannot store U+0000, so on FerretDB's PostgreSQL backend a NUL reaching a filter or a
 * document failed inside the store: GET /api/v1/checkout-links/%00 answered 500. Now a 400 that
 * names where it was, before anything is read or written; the token routes keep "any failure is 401".
 */
import '../helpers/env';
import test from 'ava';
import { useAppWithMerchant } from '../helpers/app';
import { bearer } from '../helpers/identity';
import { PaymentLinkModel } from '../../src/payment-links/model';
import { nulPathOf } from '../../src/http/nul-characters';
import { callJson } from '../helpers/http';

const running = useAppWithMerchant();

test('a NUL in a path or a query string is a 400, not a 500 from the store', async (t) => {
  for (const [method, path] of [
    ['GET', '/api/v1/checkout-links/%00'],
    ['PUT', '/api/v1/checkout-links/ab%00cd/pay'],
    ['GET', '/api/v1/acquirer/chargeback/contested/history/?limit=1%00'],
  ] as const) {
    const res = await callJson(running.app, method, path, {}, method === 'PUT' ? {} : undefined);
    t.is(res.status, 400, `${method} ${path}`);
    t.regex(res.body.detail, /NUL/);
  }
});

test('a NUL in a body is a 400 naming the field, and nothing is written', async (t) => {
  const before = await PaymentLinkModel.countDocuments({ merchantId: running.merchant.merchantId });
  const res = await callJson(running.app, 'POST', '/api/v1/payment-links/', bearer(running.merchant.merchantToken), {
    value: 1000,
    description: 'caf\u0000e',
  });
  t.is(res.status, 400);
  t.deepEqual(res.body, { description: ['Must not contain the NUL character (U+0000).'] });
  t.is(await PaymentLinkModel.countDocuments({ merchantId: running.merchant.merchantId }), before);
});

test('the token routes answer a NUL like any other failure: 401', async (t) => {
  t.is(
    (
      await callJson(
        running.app,
        'POST',
        '/api/token/',
        {},
        { username: `${running.merchant.email}\u0000`, password: 'x' },
      )
    ).status,
    401,
  );
  t.is((await callJson(running.app, 'POST', '/api/token/refresh/', {}, { refresh: 'a\u0000b' })).status, 401);
});

test('the path of the first NUL is named, keys and array items included', (t) => {
  t.is(nulPathOf({ payer: { name: 'ok', document: ['1', 'x\u0000'] } }), 'payer.document[1]');
  t.is(nulPathOf({ ['k\u0000']: 1 }), 'k\u0000');
  t.is(nulPathOf('\u0000'), 'body');
  t.is(nulPathOf({ a: 'fine', b: [1, null, { c: 'also' }] }), undefined);
  let deep: unknown = 'x\u0000';
  for (let i = 0; i < 100_000; i++) deep = [deep];
  t.is(nulPathOf(deep)?.length, 100_000 * 3, 'a body nested 100,000 deep is walked without overflowing the stack');
});
