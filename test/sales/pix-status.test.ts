import '../helpers/env';
import test from 'ava';
import { eventually } from '../helpers/processes';
import { bearer, newMerchant } from '../helpers/identity';
import { payPix, pixSale, useSalesEnv } from './helpers';
import { callJson } from '../helpers/http';

const env = useSalesEnv();

test('pix status answers from stored data with the acquirer down', async (t) => {
  const merchant = await newMerchant();
  const sale = (
    await callJson(env.app, 'POST', '/api/v1/online/sales/pre-capture/', bearer(merchant.merchantToken), pixSale())
  ).body.data;
  const pending = (
    await callJson(env.app, 'POST', '/api/v1/online/sales/pre-capture/', bearer(merchant.merchantToken), pixSale())
  ).body.data;
  await payPix(env, sale.acquirer.payment_id);
  const path = `/api/v1/online/sales/${sale.id}/pix/status/`;
  await eventually(
    async () =>
      (await callJson(env.app, 'GET', path, bearer(merchant.merchantToken))).body.data.sale_status === 'CONFIRMED',
  );

  const stopped = await env.sandbox.stop();
  t.is(stopped.code, 0);
  const paid = await callJson(env.app, 'GET', path, bearer(merchant.merchantToken));
  t.is(paid.status, 200);
  t.is(paid.body.data.sale_status, 'CONFIRMED');
  t.true(paid.body.data.paid);
  const waiting = await callJson(
    env.app,
    'GET',
    `/api/v1/online/sales/${pending.id}/pix/status/`,
    bearer(merchant.merchantToken),
  );
  t.is(waiting.status, 200);
  t.is(waiting.body.data.sale_status, 'PENDING');
  // The acquirer really is unreachable: an operation that needs it fails.
  const sale2 = await callJson(
    env.app,
    'POST',
    '/api/v1/online/sales/pre-capture/',
    bearer(merchant.merchantToken),
    pixSale(),
  );
  t.is(sale2.status, 502);
});
