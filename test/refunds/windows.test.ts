/**
 * The acquirer's refund windows, by the sandbox's injectable clock (issue 24 item 8): a capture-day
 * cancel (Status 10), a refund from the next day on (11), too late past 360 days (card) or 90 days
 * (PIX): code 40, which ends as a failed refund with a readable reason, never a 5xx.
 */
import '../helpers/env';
import test from 'ava';
import { bearer } from '../helpers/identity';
import { callJson, send } from '../helpers/http';
import { eventually } from '../helpers/processes';
import { getSale } from '../../src/acquirer/client';
import { RefundModel } from '../../src/payments/refund-model';
import { startWorker } from '../../src/queue/queues';
import { REFUNDS_QUEUE } from '../../jobs/send-refunds';
import processSendRefunds from '../../jobs/processors/send-refunds';
import { cardSale, payPix, pixSale, PRE_CAPTURE, useSalesEnv } from '../sales/helpers';

const env = useSalesEnv();
test.serial.before(() => {
  startWorker(REFUNDS_QUEUE, processSendRefunds);
});
test.afterEach.always(async () => {
  await send(env.sandbox, 'DELETE', '/sandbox/clock');
});

const DAY_MS = 86_400_000;
const token = () => bearer(env.merchant.merchantToken);
const refund = (saleId: number, body: unknown = {}) =>
  callJson(env.app, 'POST', `/api/v1/online/sales/${saleId}/refunds/`, token(), body);
const readSale = async (id: number) =>
  (await callJson(env.app, 'GET', `/api/v1/online/sales/${id}/`, token())).body.data;
const moveClock = (offsetMs: number) => callJson(env.sandbox, 'PUT', '/sandbox/clock', {}, { offsetMs });

async function capturedSale(value = 10000) {
  const sale = (await callJson(env.app, 'POST', PRE_CAPTURE, token(), cardSale({ value, installments: 1 }))).body.data;
  t0(await callJson(env.app, 'PUT', `/api/v1/online/sales/${sale.id}/capture/`, token()));
  return sale;
}
const t0 = (res: { status: number }) => {
  if (res.status !== 200) throw new Error(`capture answered ${res.status}`);
};

/**
 * Until the sale is REFUNDED and its refunds are settled: the lane writes the sale, then the refund
 * (src/refunds/origins.ts), so the sale may read REFUNDED while its last refund is still pending.
 */
const untilRefunded = (saleId: number) =>
  eventually(
    async () =>
      (await readSale(saleId)).sale_status === 'REFUNDED' && !(await RefundModel.exists({ saleId, status: 'pending' })),
    30_000,
    250,
  );

async function sumOfSucceeded(saleId: number) {
  return (await RefundModel.find({ saleId, status: 'succeeded' }).lean()).reduce((sum, r) => sum + r.valueCents, 0);
}

test.serial('the clock control moves the sandbox day, and DELETE puts it back', async (t) => {
  const moved = await moveClock(3 * DAY_MS);
  t.is(moved.status, 200);
  t.true(Math.abs(Date.parse(moved.body.now) - (Date.now() + 3 * DAY_MS)) < 5000);
  t.is((await callJson(env.sandbox, 'PUT', '/sandbox/clock', {}, { offsetMs: 'soon' })).status, 400);
  await send(env.sandbox, 'DELETE', '/sandbox/clock');
  t.is((await callJson(env.sandbox, 'GET', '/sandbox/clock')).body.offsetMs, 0);
});

test.serial('a whole refund on the capture day is a cancel (Status 10); from the next day a refund (11)', async (t) => {
  const sameDay = await capturedSale();
  const cancel = await refund(sameDay.id);
  t.is(cancel.status, 201);
  t.is(cancel.body.data.status, 'succeeded');
  t.is((await getSale(sameDay.acquirer.payment_id))!.status, 10);
  t.like(await readSale(sameDay.id), { sale_status: 'REFUNDED', refunded_value: 10000 });

  const nextDay = await capturedSale();
  await moveClock(DAY_MS);
  const partial = await refund(nextDay.id, { value: 4000 });
  t.is(partial.body.data.status, 'succeeded');
  t.is((await getSale(nextDay.acquirer.payment_id))!.status, 2);
  const rest = await refund(nextDay.id);
  t.is(rest.status, 202);
  await untilRefunded(nextDay.id);
  const truth = (await getSale(nextDay.acquirer.payment_id))!;
  t.is(truth.status, 11);
  t.is(truth.voidedAmountCents, await sumOfSucceeded(nextDay.id));
});

test.serial('past 360 days the acquirer answers 40: a failed refund saying too late, nothing voided', async (t) => {
  const sale = await capturedSale();
  await moveClock(361 * DAY_MS);
  const res = await refund(sale.id, { value: 1000 });
  t.is(res.status, 201);
  t.like(res.body.data, { status: 'failed', acquirer_code: '40' });
  t.regex(res.body.data.failure_reason, /too late/i);
  t.like(await readSale(sale.id), { sale_status: 'CONFIRMED', refunded_value: 0 });
  t.is((await getSale(sale.acquirer.payment_id))!.voidedAmountCents, 0);
  // The value is free again: back in the window, it is refunded.
  await moveClock(359 * DAY_MS);
  // (it waits its turn: 5 s after the refused cancel)
  t.is((await refund(sale.id, { value: 10000 })).status, 202);
  await untilRefunded(sale.id);
  t.is((await getSale(sale.acquirer.payment_id))!.voidedAmountCents, await sumOfSucceeded(sale.id));
});

test.serial('a pix past 90 days at the acquirer: a failed refund saying too late', async (t) => {
  const sale = (await callJson(env.app, 'POST', PRE_CAPTURE, token(), pixSale({ value: 5000 }))).body.data;
  await payPix(env, sale.acquirer.payment_id);
  await eventually(async () => (await readSale(sale.id)).sale_status === 'CONFIRMED');
  await moveClock(91 * DAY_MS);
  const res = await refund(sale.id, { value: 1000 });
  t.is(res.status, 201);
  t.like(res.body.data, { status: 'failed', acquirer_code: '40' });
  t.regex(res.body.data.failure_reason, /too late/i);
  t.is((await getSale(sale.acquirer.payment_id))!.voidedAmountCents, 0);
  t.like(await readSale(sale.id), { sale_status: 'CONFIRMED', refunded_value: 0 });
});
