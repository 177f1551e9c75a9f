import '../helpers/env';
import test from 'ava';
import { connectDatabase, disconnectDatabase } from '../../src/db/connection';
import { RefundModel } from '../../src/payments/refund-model';
import { eventually, startProcess, stopAll, type RunningProcess } from '../helpers/processes';
import { bearer, newMerchant } from '../helpers/identity';
import { callJson } from '../helpers/http';
import { cardSale } from '../sales/helpers';
import { getConfig } from '../../config';
import { PAYMENT_NOTIFICATION_PATH } from '../../src/acquirer/client';

let sandbox: RunningProcess;
let web: RunningProcess;
/** A short acquirer timeout keeps the send lane's lease short; a short lock brings a killed worker's job back soon. */
let env: Record<string, string>;

test.before(async () => {
  await connectDatabase(process.env.MONGODB_URI!);
  sandbox = await startProcess('sandbox', { SANDBOX_PORT: '0' });
  env = {
    ACQUIRER_BASE_URL: sandbox.url,
    ACQUIRER_QUERY_URL: sandbox.url,
    ACQUIRER_TIMEOUT_MS: '3000',
    WORKER_LOCK_DURATION_MS: '2000',
  };
  web = await startProcess('web', env);
});
test.after.always(async () => {
  await stopAll();
  await disconnectDatabase();
});

test.serial('a worker killed mid-refund: its void is settled from VoidedAmount, never sent twice', async (t) => {
  const token = bearer((await newMerchant()).merchantToken);
  const sale = (await callJson(web, 'POST', '/api/v1/online/sales/pre-capture/', token, cardSale({ value: 10000 })))
    .body.data;
  await callJson(web, 'PUT', `/api/v1/online/sales/${sale.id}/capture/`, token);
  const paymentId = sale.acquirer.payment_id;
  const refunds = `/api/v1/online/sales/${sale.id}/refunds/`;
  t.is((await callJson(web, 'POST', refunds, token, { value: 1000 })).body.data.status, 'succeeded');
  const voidsBefore = (await callJson(sandbox, 'GET', '/sandbox/stats')).body.voids;

  // The next refund waits 5 s for its turn, which the worker takes; the acquirer holds its void 2 s, then does it.
  await callJson(
    sandbox,
    'POST',
    '/sandbox/faults',
    {},
    { mode: 'latency', latencyMs: 2000, operation: 'void', paymentId },
  );
  // Asked at once, within 5 s of the first void: it must wait its turn (a worker started first could take
  // longer than that to come up on a loaded machine, and the refund would then go out at once: 201).
  const second = await callJson(web, 'POST', refunds, token, { value: 2000 });
  t.is(second.status, 202);
  const doomed = await startProcess('worker', env);
  await eventually(async () => Boolean((await RefundModel.findById(second.body.data.id).lean())?.sent), 20_000, 20);
  doomed.child.kill('SIGKILL');
  t.is((await doomed.exited).signal, 'SIGKILL');

  await startProcess('worker', env);
  const settled = await eventually(
    async () => {
      const read = await callJson(web, 'GET', `/api/v1/refunds/${second.body.data.id}/`, token);
      return read.body.data.status === 'pending' ? null : read.body.data;
    },
    90_000,
    500,
  );
  t.is(settled.status, 'succeeded');
  const { merchantId, merchantKey } = getConfig().acquirer;
  const acquirer = await callJson(sandbox, 'GET', `/1/sales/${paymentId}`, {
    MerchantId: merchantId,
    MerchantKey: merchantKey,
  });
  const stats = (await callJson(sandbox, 'GET', '/sandbox/stats')).body;
  t.is(stats.voids, voidsBefore + 1);
  const read = (await callJson(web, 'GET', `/api/v1/online/sales/${sale.id}/`, token)).body.data;
  t.like(read, { sale_status: 'PARTIALLY_REFUNDED', refunded_value: 3000 });
  t.is(acquirer.body.Payment.VoidedAmount, 3000);
});

test.serial('a worker killed while a pix refund waits: the notice settles it, sent once', async (t) => {
  const token = bearer((await newMerchant()).merchantToken);
  const sale = (
    await callJson(web, 'POST', '/api/v1/online/sales/pre-capture/', token, {
      payment_method: 'pix',
      value: 8000,
      payer: { name: 'Joao Souza', document: '52998224725' },
    })
  ).body.data;
  const paymentId = sale.acquirer.payment_id;
  await callJson(
    sandbox,
    'POST',
    `/sandbox/pix/${paymentId}/pay`,
    {},
    { notifyUrl: `${web.url}${PAYMENT_NOTIFICATION_PATH}` },
  );
  const doomed = await startProcess('worker', env);
  await eventually(
    async () =>
      (await callJson(web, 'GET', `/api/v1/online/sales/${sale.id}/`, token)).body.data.sale_status === 'CONFIRMED',
    20_000,
    100,
  );
  // The acquirer holds the refund's completion while the worker dies.
  await callJson(sandbox, 'PUT', '/sandbox/pix/refunds/hold', {}, { hold: true });
  const refunded = await callJson(web, 'POST', `/api/v1/online/sales/${sale.id}/refunds/`, token, { value: 3000 });
  t.is(refunded.status, 202);
  doomed.child.kill('SIGKILL');
  await doomed.exited;
  const voidsBefore = (await callJson(sandbox, 'GET', '/sandbox/stats')).body.voids;
  // Completed with no worker alive: the web stores the notice; a new worker applies it.
  await callJson(sandbox, 'PUT', '/sandbox/pix/refunds/hold', {}, { hold: false });
  await callJson(sandbox, 'POST', `/sandbox/pix/${paymentId}/refunds/complete`);
  await startProcess('worker', env);
  const settled = await eventually(
    async () => {
      const read = await callJson(web, 'GET', `/api/v1/refunds/${refunded.body.data.id}/`, token);
      return read.body.data.status === 'pending' ? null : read.body.data;
    },
    60_000,
    300,
  );
  t.is(settled.status, 'succeeded');
  const { merchantId, merchantKey } = getConfig().acquirer;
  const acquirer = await callJson(sandbox, 'GET', `/1/sales/${paymentId}`, {
    MerchantId: merchantId,
    MerchantKey: merchantKey,
  });
  t.is(acquirer.body.Payment.VoidedAmount, 3000);
  t.is((await callJson(sandbox, 'GET', '/sandbox/stats')).body.voids, voidsBefore);
  t.like((await callJson(web, 'GET', `/api/v1/online/sales/${sale.id}/`, token)).body.data, {
    sale_status: 'PARTIALLY_REFUNDED',
    refunded_value: 3000,
  });
});
