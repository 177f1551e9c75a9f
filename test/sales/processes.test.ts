import '../helpers/env';
import test from 'ava';
import { connectDatabase, disconnectDatabase } from '../../src/db/connection';
import { eventually, startProcess, stopAll, type RunningProcess } from '../helpers/processes';
import { bearer, newMerchant } from '../helpers/identity';
import { json } from '../helpers/app';
import { PAYMENT_NOTIFICATION_PATH } from '../../src/acquirer/client';
import { getConfig } from '../../config';
import { CARDS, cardSale, pixSale } from './helpers';

// Every piece as its own process, as `npm start` runs them: sandbox, web and worker.
let sandbox: RunningProcess;
let web: RunningProcess;
let worker: RunningProcess;

test.before(async () => {
  await connectDatabase(process.env.MONGODB_URI!);
  sandbox = await startProcess('sandbox', { SANDBOX_PORT: '0' });
  const acquirer = { ACQUIRER_BASE_URL: sandbox.url, ACQUIRER_QUERY_URL: sandbox.url, ACQUIRER_TIMEOUT_MS: '5000' };
  [web, worker] = await Promise.all([startProcess('web', acquirer), startProcess('worker', acquirer)]);
});
test.after.always(async () => {
  await stopAll();
  await disconnectDatabase();
});

async function call(method: string, path: string, token: string, body?: unknown) {
  const res = await fetch(`${web.url}${path}`, {
    method,
    headers: bearer(token),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await json(res) };
}

test('card sale, pix payment and reconciliation across the web, worker and sandbox processes', async (t) => {
  const merchant = await newMerchant();
  const card = await call('POST', '/api/v1/online/sales/pre-capture/', merchant.merchantToken, cardSale());
  t.is(card.status, 200);
  t.is(card.body.data.sale_status, 'PRE_CAPTURED');
  const captured = await call('PUT', `/api/v1/online/sales/${card.body.data.id}/capture/`, merchant.merchantToken);
  t.is(captured.body.data.sale_status, 'CONFIRMED');

  const pix = (await call('POST', '/api/v1/online/sales/pre-capture/', merchant.merchantToken, pixSale())).body.data;
  const pay = await fetch(`${sandbox.url}/sandbox/pix/${pix.acquirer.payment_id}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ notifyUrl: `${web.url}${PAYMENT_NOTIFICATION_PATH}` }),
  });
  t.is((await json(pay)).notification.status, 200);
  await eventually(
    async () =>
      (await call('GET', `/api/v1/online/sales/${pix.id}/pix/status/`, merchant.merchantToken)).body.data
        .sale_status === 'CONFIRMED',
    30_000,
  );

  const slow = await call(
    'POST',
    '/api/v1/online/sales/pre-capture/',
    merchant.merchantToken,
    cardSale({ value: 990408 }),
  );
  t.is(slow.status, 502);
  t.true(slow.body.reconciling);
  // Settled by the worker process: the sale can then be cancelled.
  const cancelled = await eventually(async () => {
    const res = await call('PUT', `/api/v1/online/sales/${slow.body.sale_id}/cancel-capture/`, merchant.merchantToken);
    return res.status === 200 ? res : null;
  }, 30_000);
  t.is(cancelled!.body.data.sale_status, 'CANCELLED');

  // No card number, CVV-bearing card JSON or MerchantKey in any process's log lines.
  const logs = [web, worker, sandbox].map((p) => p.logs.join('')).join('');
  t.false(logs.includes(CARDS.approved));
  t.false(logs.includes(getConfig().acquirer.merchantKey));
});
