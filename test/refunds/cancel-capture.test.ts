/**
 * The contract's cancel-capture of a CONFIRMED sale is a whole refund through the refunds core
 * (issue 24 item 2): the same slots, lane and settlement; the contract's answers unchanged
 * (test/sales/card.test.ts holds those for callers).
 */
import '../helpers/env';
import test from 'ava';
import { bearer } from '../helpers/identity';
import { callJson } from '../helpers/http';
import { getSale } from '../../src/acquirer/client';
import { MerchantModel } from '../../src/merchants/model';
import { RefundModel } from '../../src/payments/refund-model';
import { startWorker } from '../../src/queue/queues';
import { REFUNDS_QUEUE } from '../../jobs/send-refunds';
import processSendRefunds from '../../jobs/processors/send-refunds';
import { cardSale, PRE_CAPTURE, sandboxPost, untilFaultTaken, useSalesEnv } from '../sales/helpers';

// No call here is meant to time out: under a full run's load a sandbox answer can take over 5 s (it did: a 502).
const env = useSalesEnv({ acquirerTimeoutMs: 20_000 });
test.serial.before(async () => {
  startWorker(REFUNDS_QUEUE, processSendRefunds);
  await MerchantModel.updateOne({ _id: env.merchant.merchantId }, { $set: { 'settings.allowVoidOnConfirmed': true } });
});

const token = () => bearer(env.merchant.merchantToken);
const cancel = (id: number) => callJson(env.app, 'PUT', `/api/v1/online/sales/${id}/cancel-capture/`, token());
const refundsOf = async (id: number) =>
  (await callJson(env.app, 'GET', `/api/v1/online/sales/${id}/refunds/`, token())).body.data as {
    value: number;
    status: string;
  }[];
const sandboxVoids = async () => (await callJson(env.sandbox, 'GET', '/sandbox/stats')).body.voids as number;

async function capturedSale(value = 10000) {
  const sale = (await callJson(env.app, 'POST', PRE_CAPTURE, token(), cardSale({ value, installments: 1 }))).body.data;
  const captured = await callJson(env.app, 'PUT', `/api/v1/online/sales/${sale.id}/capture/`, token());
  if (captured.status !== 200) throw new Error(`capture answered ${captured.status}`);
  return sale;
}

test.serial('cancel-capture of a confirmed sale is one whole refund of the core, voided once', async (t) => {
  const sale = await capturedSale();
  const voids = await sandboxVoids();
  const res = await cancel(sale.id);
  t.is(res.status, 200);
  t.like(res.body.data, { sale_status: 'REFUNDED', refunded_value: 10000 });
  t.truthy(res.body.data.refunded_at);
  t.deepEqual(
    (await refundsOf(sale.id)).map((r) => [r.value, r.status]),
    [[10000, 'succeeded']],
  );
  t.is(await sandboxVoids(), voids + 1);
  t.is((await getSale(sale.acquirer.payment_id))!.voidedAmountCents, 10000);
  t.is((await cancel(sale.id)).status, 400);
  t.is((await callJson(env.app, 'POST', `/api/v1/online/sales/${sale.id}/refunds/`, token(), {})).status, 422);
});

test.serial(
  'a cancel-capture the acquirer refuses is 502 saying why; the sale stays CONFIRMED and can be cancelled later',
  async (t) => {
    const sale = await capturedSale();
    await sandboxPost(env, '/sandbox/faults', { mode: 'refuse', code: '43', operation: 'void' });
    const refused = await cancel(sale.id);
    t.is(refused.status, 502);
    t.like(refused.body, { sale_id: sale.id, sale_status: 'CONFIRMED', reconciling: false });
    t.regex(refused.body.detail, /43 .*balance/);
    t.is((await getSale(sale.acquirer.payment_id))!.voidedAmountCents, 0);
    // Its value is free again; the next cancel waits out the acquirer's 5 s and refunds everything.
    const again = await cancel(sale.id);
    t.is(again.status, 200);
    t.is(again.body.data.sale_status, 'REFUNDED');
    t.deepEqual(
      (await refundsOf(sale.id)).map((r) => [r.value, r.status]),
      [
        [10000, 'failed'],
        [10000, 'succeeded'],
      ],
    );
    t.is((await getSale(sale.acquirer.payment_id))!.voidedAmountCents, 10000);
  },
);

test.serial('a cancel-capture while a partial refund waits is 409; once it moved the sale, 400', async (t) => {
  const sale = await capturedSale();
  await sandboxPost(env, '/sandbox/faults', {
    mode: 'latency',
    latencyMs: 1500,
    operation: 'void',
    paymentId: sale.acquirer.payment_id,
  });
  const refunding = callJson(env.app, 'POST', `/api/v1/online/sales/${sale.id}/refunds/`, token(), { value: 3000 });
  // The refund's void has reached the sandbox, held there 1.5 s: the refund holds the sale's lane.
  await untilFaultTaken(env, sale.acquirer.payment_id);
  const during = await cancel(sale.id);
  t.is(during.status, 409);
  t.is((await refunding).body.data.status, 'succeeded');
  const after = await cancel(sale.id);
  t.is(after.status, 400);
  t.regex(after.body.detail, /PARTIALLY_REFUNDED/);
  t.is(await RefundModel.countDocuments({ saleId: sale.id }), 1);
  t.is((await getSale(sale.acquirer.payment_id))!.voidedAmountCents, 3000);
});
