/**
 * PIX refunds (issue 24 item 4): partial and repeated, pending until the acquirer's notice, settled
 * from its GET (VoidedAmount), never sent twice; a real sandbox process, the app and its workers in-process.
 */
import '../helpers/env';
import test from 'ava';
import { bearer, newMerchant } from '../helpers/identity';
import { callJson, send } from '../helpers/http';
import { eventually } from '../helpers/processes';
import { untilQueuesIdle } from '../helpers/queues';
import { NOTICE_QUEUE } from '../../jobs/apply-payment-notice';
import { getSale } from '../../src/acquirer/client';
import { PaymentModel } from '../../src/payments/model';
import { RefundModel } from '../../src/payments/refund-model';
import { refundsNeedingAttention, sendPendingRefunds, sweepPendingRefunds } from '../../src/refunds';
import { startWorker } from '../../src/queue/queues';
import { REFUNDS_QUEUE } from '../../jobs/send-refunds';
import processSendRefunds from '../../jobs/processors/send-refunds';
import { payPix, pixSale, PRE_CAPTURE, sandboxPost, useSalesEnv } from '../sales/helpers';

const env = useSalesEnv();
test.serial.before(() => {
  startWorker(REFUNDS_QUEUE, processSendRefunds);
});
test.afterEach.always(async () => {
  await callJson(env.sandbox, 'PUT', '/sandbox/pix/refunds/hold', {}, { hold: false });
  await send(env.sandbox, 'DELETE', '/sandbox/faults');
});

const token = () => bearer(env.merchant.merchantToken);
const refundsOf = (saleId: number) => `/api/v1/online/sales/${saleId}/refunds/`;
const refund = (saleId: number, body?: unknown) => callJson(env.app, 'POST', refundsOf(saleId), token(), body);
const readSale = async (id: number) =>
  (await callJson(env.app, 'GET', `/api/v1/online/sales/${id}/`, token())).body.data;
const hold = (on: boolean) => callJson(env.sandbox, 'PUT', '/sandbox/pix/refunds/hold', {}, { hold: on });
const sandboxVoids = async () => (await callJson(env.sandbox, 'GET', '/sandbox/stats')).body.voids as number;

/** A PIX sale of `value` cents, paid, its notice applied (CONFIRMED). */
async function paidPix(value = 10000) {
  const sale = (await callJson(env.app, 'POST', PRE_CAPTURE, token(), pixSale({ value }))).body.data;
  await payPix(env, sale.acquirer.payment_id);
  await eventually(async () => (await readSale(sale.id)).sale_status === 'CONFIRMED');
  return sale;
}

async function settled(refundId: number, timeoutMs = 30_000) {
  return eventually(
    async () => {
      const read = await callJson(env.app, 'GET', `/api/v1/refunds/${refundId}/`, token());
      return read.body.data.status === 'pending' ? null : read.body.data;
    },
    timeoutMs,
    200,
  );
}

/** The sandbox's VoidedAmount equals the sum of the sale's succeeded refunds (and what the sale shows). */
async function reconciles(t: import('ava').ExecutionContext, sale: { id: number; acquirer: { payment_id: string } }) {
  const succeeded = (await RefundModel.find({ saleId: sale.id, status: 'succeeded' }).lean()).reduce(
    (sum, r) => sum + r.valueCents,
    0,
  );
  t.is((await getSale(sale.acquirer.payment_id))!.voidedAmountCents, succeeded);
  t.is((await readSale(sale.id)).refunded_value, succeeded);
}

test.serial('a paid pix is refunded in parts: pending (Status 12) until the notice, then succeeded', async (t) => {
  const sale = await paidPix(10000);
  const first = await refund(sale.id, { value: 3000, reason: 'item_returned' });
  t.is(first.status, 202);
  t.like(first.body.data, { value: 3000, status: 'pending' });
  t.true((await RefundModel.findById(first.body.data.id).lean())!.sent!.accepted);
  t.is((await settled(first.body.data.id)).status, 'succeeded');
  t.like(await readSale(sale.id), { sale_status: 'PARTIALLY_REFUNDED', refunded_value: 3000 });
  t.is((await getSale(sale.acquirer.payment_id))!.status, 11);
  const pixStatus = await callJson(env.app, 'GET', `/api/v1/online/sales/${sale.id}/pix/status/`, token());
  t.like(pixStatus.body.data, { sale_status: 'PARTIALLY_REFUNDED', paid: true });

  // The rest, asked twice at once: one is admitted, the other finds nothing left.
  const [a, b] = await Promise.all([refund(sale.id, {}), refund(sale.id, { value: 7000 })]);
  t.deepEqual([a.status, b.status].sort(), [202, 422]);
  const rest = a.status === 202 ? a : b;
  t.is((await settled(rest.body.data.id)).status, 'succeeded');
  t.like(await readSale(sale.id), { sale_status: 'REFUNDED', refunded_value: 10000 });
  t.is((await refund(sale.id, { value: 1 })).status, 422);
  await reconciles(t, sale);
});

test.serial('a held pix refund stays pending, is never sent again, and completes by the control', async (t) => {
  const sale = await paidPix(5000);
  await hold(true);
  const res = await refund(sale.id, { value: 2000 });
  t.is(res.status, 202);
  const voids = await sandboxVoids();
  // Turns of the lane meanwhile (the sweep's, a duplicate notice) ask the acquirer; they send nothing.
  await sendPendingRefunds(sale.id);
  await payPix(env, sale.acquirer.payment_id);
  // The notice is applied (its job done): whatever it would do to the refund or the sale, it has done.
  await untilQueuesIdle([NOTICE_QUEUE]);
  t.is((await RefundModel.findById(res.body.data.id).lean())!.status, 'pending');
  t.is(await sandboxVoids(), voids);
  // A notice while the acquirer reads Status 12 does not move the sale back to PENDING.
  t.is((await getSale(sale.acquirer.payment_id))!.status, 12);
  t.is((await readSale(sale.id)).sale_status, 'CONFIRMED');

  const done = await sandboxPost(env, `/sandbox/pix/${sale.acquirer.payment_id}/refunds/complete`);
  t.is(done.body.completed, 1);
  t.is((await settled(res.body.data.id)).status, 'succeeded');
  t.like(await readSale(sale.id), { sale_status: 'PARTIALLY_REFUNDED', refunded_value: 2000 });
  await reconciles(t, sale);
});

test.serial('a pix refund whose answer is lost is found accepted at the acquirer and sent once', async (t) => {
  const sale = await paidPix(5000);
  const voids = await sandboxVoids();
  await sandboxPost(env, '/sandbox/faults', { mode: 'lose', operation: 'void', paymentId: sale.acquirer.payment_id });
  const res = await refund(sale.id, { value: 1500 });
  t.is(res.status, 202);
  t.is((await settled(res.body.data.id)).status, 'succeeded');
  t.is(await sandboxVoids(), voids + 1);
  await reconciles(t, sale);
});

for (const mode of ['hang', 'drop'])
  test.serial(
    `a pix refund ${mode === 'hang' ? 'left hanging' : 'cut'} is sent again only once no call can still run`,
    async (t) => {
      const sale = await paidPix(5000);
      await sandboxPost(env, '/sandbox/faults', { mode, operation: 'void', paymentId: sale.acquirer.payment_id });
      const res = await refund(sale.id, { value: 2500 });
      t.is(res.status, 202);
      await sendPendingRefunds(sale.id);
      t.is((await RefundModel.findById(res.body.data.id).lean())!.status, 'pending');
      t.is((await getSale(sale.acquirer.payment_id))!.voidedAmountCents, 0);
      const long = new Date(Date.now() - 3_600_000);
      await RefundModel.updateOne({ _id: res.body.data.id }, { $set: { 'sent.at': long, attemptedAt: long } });
      await sendPendingRefunds(sale.id);
      t.is((await settled(res.body.data.id)).status, 'succeeded');
      await reconciles(t, sale);
    },
  );

test.serial("a pix paid over 90 days ago is 422; another merchant's pix is 404; an unpaid one 400", async (t) => {
  const sale = await paidPix(5000);
  await PaymentModel.updateOne(
    { _id: sale.id },
    {
      $set: {
        'pix.paidAt': new Date(Date.now() - 91 * 86_400_000),
        capturedAt: new Date(Date.now() - 91 * 86_400_000),
      },
    },
  );
  const late = await refund(sale.id, { value: 100 });
  t.is(late.status, 422);
  t.regex(late.body.detail, /90 days/);
  const mine = await paidPix(5000);
  const stranger = bearer((await newMerchant()).merchantToken);
  t.is((await callJson(env.app, 'POST', refundsOf(mine.id), stranger, { value: 100 })).status, 404);
  const unpaid = (await callJson(env.app, 'POST', PRE_CAPTURE, token(), pixSale())).body.data;
  const refused = await refund(unpaid.id, {});
  t.is(refused.status, 400);
  t.regex(refused.body.detail, /PENDING/);
  for (const id of [sale.id, mine.id, unpaid.id]) t.is(await RefundModel.countDocuments({ saleId: id }), 0);
});

test.serial('a pix refund the acquirer refuses (low balance) ends failed, and the money stays', async (t) => {
  const sale = await paidPix(5000);
  await sandboxPost(env, '/sandbox/faults', { mode: 'refuse', code: '43', operation: 'void' });
  const res = await refund(sale.id, { value: 1000 });
  t.is(res.status, 201);
  t.like(res.body.data, { status: 'failed', acquirer_code: '43' });
  t.like(await readSale(sale.id), { sale_status: 'CONFIRMED', refunded_value: 0 });
  await reconciles(t, sale);
});

test.serial(
  'a pix refund whose notice is lost is settled by the sweep; one stuck counts in needs_attention',
  async (t) => {
    const sale = await paidPix(5000);
    await hold(true);
    const res = await refund(sale.id, { value: 1200 });
    t.is(res.status, 202);
    const later = new Date(Date.now() + 11 * 60_000);
    t.true((await refundsNeedingAttention(later)).refund_pending_over_10m >= 1);
    // The acquirer completes it, and its notice never reaches us.
    await sandboxPost(env, `/sandbox/pix/${sale.acquirer.payment_id}/refunds/complete`, { notify: false });
    t.true((await sweepPendingRefunds(new Date(Date.now() + 2 * 60_000))) >= 1);
    t.is((await settled(res.body.data.id)).status, 'succeeded');
    t.like(await readSale(sale.id), { sale_status: 'PARTIALLY_REFUNDED', refunded_value: 1200 });
    await reconciles(t, sale);
  },
);
