import '../helpers/env';
import test from 'ava';
import { connectDatabase, disconnectDatabase } from '../../src/db/connection';
import { eventually, startProcess, stopAll, type RunningProcess } from '../helpers/processes';
import { bearer, newMerchant } from '../helpers/identity';
import { PAYMENT_NOTIFICATION_PATH } from '../../src/acquirer/client';
import { getConfig } from '../../config';
import { CARDS, cardSale, pixSale } from './helpers';
import { callJson } from '../helpers/http';

// Every piece as its own process, as `npm start` runs them: sandbox, web and worker.
let sandbox: RunningProcess;
let web: RunningProcess;
let worker: RunningProcess;

test.before(async () => {
  await connectDatabase(process.env.MONGODB_URI!);
  sandbox = await startProcess('sandbox', { SANDBOX_PORT: '0' });
  // No call here is meant to time out: a loaded sandbox may take over 5 s to answer.
  const acquirer = { ACQUIRER_BASE_URL: sandbox.url, ACQUIRER_QUERY_URL: sandbox.url, ACQUIRER_TIMEOUT_MS: '20000' };
  [web, worker] = await Promise.all([startProcess('web', acquirer), startProcess('worker', acquirer)]);
});
test.after.always(async () => {
  await stopAll();
  await disconnectDatabase();
});

test('card sale, pix payment and reconciliation across the web, worker and sandbox processes', async (t) => {
  const merchant = await newMerchant();
  const card = await callJson(
    web,
    'POST',
    '/api/v1/online/sales/pre-capture/',
    bearer(merchant.merchantToken),
    cardSale(),
  );
  t.is(card.status, 200);
  t.is(card.body.data.sale_status, 'PRE_CAPTURED');
  const captured = await callJson(
    web,
    'PUT',
    `/api/v1/online/sales/${card.body.data.id}/capture/`,
    bearer(merchant.merchantToken),
  );
  t.is(captured.body.data.sale_status, 'CONFIRMED');

  const pix = (
    await callJson(web, 'POST', '/api/v1/online/sales/pre-capture/', bearer(merchant.merchantToken), pixSale())
  ).body.data;
  const pay = await callJson(
    sandbox,
    'POST',
    `/sandbox/pix/${pix.acquirer.payment_id}/pay`,
    {},
    {
      notifyUrl: `${web.url}${PAYMENT_NOTIFICATION_PATH}`,
    },
  );
  t.is(pay.body.notification.status, 200);
  await eventually(
    async () =>
      (await callJson(web, 'GET', `/api/v1/online/sales/${pix.id}/pix/status/`, bearer(merchant.merchantToken))).body
        .data.sale_status === 'CONFIRMED',
    30_000,
  );

  const slow = await callJson(
    web,
    'POST',
    '/api/v1/online/sales/pre-capture/',
    bearer(merchant.merchantToken),
    cardSale({ value: 990408 }),
  );
  t.is(slow.status, 502);
  t.true(slow.body.reconciling);
  // Settled by the worker process: the sale can then be cancelled.
  const cancelled = await eventually(async () => {
    const res = await callJson(
      web,
      'PUT',
      `/api/v1/online/sales/${slow.body.sale_id}/cancel-capture/`,
      bearer(merchant.merchantToken),
    );
    return res.status === 200 ? res : null;
  }, 30_000);
  t.is(cancelled!.body.data.sale_status, 'CANCELLED');

  // No card number, CVV-bearing card JSON or MerchantKey in any process's log lines.
  const logs = [web, worker, sandbox].map((p) => p.logs.join('')).join('');
  t.false(logs.includes(CARDS.approved));
  t.false(logs.includes(getConfig().acquirer.merchantKey));
});
