/**
 * refundSubscriptionCharge with a value: partial and repeated refunds of a confirmed charge through
 * its card sale (recorded at the first refund), the contract's no-body call, races, hostile input and
 * an acquirer that cuts the connection mid-refund. Real processes: the sandbox, our app, the charge
 * and refund workers; the acquirer's cumulative VoidedAmount is checked against what we recorded.
 */
import '../helpers/env';
import test from 'ava';
import { getSale } from '../../src/acquirer/client';
import { startWorker } from '../../src/queue/queues';
import { PaymentModel } from '../../src/payments/model';
import { settledSaleOrderId } from '../../src/sales';
import { RefundModel } from '../../src/payments/refund-model';
import { SubscriptionChargeModel } from '../../src/subscriptions/model';
import chargeSubscription from '../../jobs/processors/charge-subscription';
import processSendRefunds from '../../jobs/processors/send-refunds';
import { CHARGE_QUEUE } from '../../jobs/charge-subscription';
import { REFUNDS_QUEUE } from '../../jobs/send-refunds';
import { runSchedulerTick } from '../../workers/scheduler';
import { bearer, newMerchant, type TestMerchant } from '../helpers/identity';
import { callJson } from '../helpers/http';
import { eventually } from '../helpers/processes';
import {
  chargeAfterAttempt,
  clearFaults,
  newSubscriptionId,
  setFault,
  useSubscriptionStack,
} from '../subscriptions/support';

let other: TestMerchant;
const stack = useSubscriptionStack(async () => {
  startWorker(CHARGE_QUEUE, chargeSubscription);
  startWorker(REFUNDS_QUEUE, processSendRefunds);
  other = await newMerchant();
});

const at = (day: string) => new Date(`${day}T09:00:00Z`);
const refundPath = (subscriptionId: number, chargeId: number | string) =>
  `/api/v1/subscriptions/${subscriptionId}/charges/${chargeId}/refund/`;
const refund = (subscriptionId: number, chargeId: number | string, body?: unknown, who = stack.merchant) =>
  callJson(stack.app, 'PUT', refundPath(subscriptionId, chargeId), bearer(who.merchantToken), body);
const voidedAtAcquirer = async (paymentId: string) => (await getSale(paymentId))!.voidedAmountCents;
const sandboxVoids = async () => (await callJson(stack.sandbox, 'GET', '/sandbox/stats')).body.voids as number;

/** A subscription of `value` cents and its first charge, confirmed by the acquirer. */
async function confirmedCharge(firstDueDate: string, value = 4990) {
  const id = await newSubscriptionId(stack.app.url, stack.merchant, { firstDueDate, value, cardLastDigit: 1 });
  await runSchedulerTick(at(firstDueDate));
  const charge = await chargeAfterAttempt(id, firstDueDate, 1);
  if (charge.status !== 1) throw new Error(`charge not confirmed: ${charge.status}`);
  return { subscriptionId: id, charge };
}

async function chargeRead(subscriptionId: number) {
  const list = await callJson(
    stack.app,
    'GET',
    `/api/v1/subscriptions/${subscriptionId}/charges/`,
    bearer(stack.merchant.merchantToken),
  );
  return list.body.data[0];
}

/** The charge's sale, found as the refunds find it: by its origin (the charge keeps no link to it). */
const saleIdOf = async (chargeId: number) =>
  (
    await PaymentModel.findOne({
      merchantOrderId: settledSaleOrderId({ kind: 'subscription_charge', id: chargeId }),
    }).lean()
  )?._id;

/** The charge once no refund of its sale is pending (the refund worker's turns). */
async function settledCharge(subscriptionId: number, chargeId: number) {
  await eventually(async () => {
    const pending = await RefundModel.countDocuments({ status: 'pending', merchantId: stack.merchant.merchantId });
    return pending === 0 && (await saleIdOf(chargeId)) ? true : undefined;
  }, 40_000);
  return chargeRead(subscriptionId);
}

test.serial(
  'partial and repeated refunds: CONFIRMED with refunded_value, then REFUNDED; voided exactly that',
  async (t) => {
    const { subscriptionId, charge } = await confirmedCharge('2031-01-10', 4990);
    // Confirmed with no sale: the first refund records it.
    t.is(charge.saleId, undefined);
    const before = await chargeRead(subscriptionId);
    t.is(before.refunded_value, undefined, 'a charge never refunded reads as the contract shows it');

    const first = await refund(subscriptionId, charge._id, { value: 1000 });
    t.is(first.status, 200);
    t.like(first.body.data, { id: charge._id, status: 1, value: 4990, refunded_value: 1000 });
    t.deepEqual(await chargeRead(subscriptionId), first.body.data);

    const stored = (await SubscriptionChargeModel.findById(charge._id).lean())!;
    t.is(stored.saleId, undefined, 'no link written onto the charge: a racing write could lose it');
    const sale = (await PaymentModel.findById(await saleIdOf(charge._id)).lean())!;
    t.like(sale, {
      merchantId: stack.merchant.merchantId,
      origin: { kind: 'subscription_charge', id: charge._id },
      acquirerPaymentId: charge.acquirerPaymentId,
      capturedValue: 4990,
      status: 'PARTIALLY_REFUNDED',
      refundedValue: 1000,
    });

    const tooMuch = await refund(subscriptionId, charge._id, { value: 4000 });
    t.is(tooMuch.status, 422);
    t.regex(tooMuch.body.detail, /At most 3990 cents/);

    // No body: all that is left. Within 5 s of the first void it waits its turn.
    const rest = await refund(subscriptionId, charge._id);
    t.is(rest.status, 202);
    t.like(rest.body.data, { status: 1, refunded_value: 1000 });
    t.regex(rest.headers.get('location') ?? '', /^\/api\/v1\/refunds\/\d+\/$/);
    const done = await settledCharge(subscriptionId, charge._id);
    t.like(done, { status: 3, refunded_value: 4990, denialCode: '', nextRetryAt: null });
    t.is(done.paymentTransactionId, charge.paymentTransactionId);
    t.is(await voidedAtAcquirer(charge.acquirerPaymentId), 4990);

    // The contract's call again: the charge as it is. A value now: nothing is left.
    const again = await refund(subscriptionId, charge._id);
    t.is(again.status, 200);
    t.deepEqual(again.body.data, done);
    t.is((await refund(subscriptionId, charge._id, { value: 1 })).status, 422);
    const refunds = await callJson(
      stack.app,
      'GET',
      `/api/v1/online/sales/${sale._id}/refunds/`,
      bearer(stack.merchant.merchantToken),
    );
    t.deepEqual(
      refunds.body.data.map((r: { value: number; status: string }) => [r.value, r.status]),
      [
        [1000, 'succeeded'],
        [3990, 'succeeded'],
      ],
    );
  },
);

test.serial(
  'hostile values are 400 naming value; another merchant is 404; a charge not CONFIRMED is 409',
  async (t) => {
    const { subscriptionId, charge } = await confirmedCharge('2031-02-10', 4990);
    for (const value of [-1, 0, 1.5, '100', 1e12, null, 'abc', { cents: 1 }]) {
      const res = await refund(subscriptionId, charge._id, { value });
      t.is(res.status, 400, JSON.stringify(value));
      t.deepEqual(Object.keys(res.body), ['value'], JSON.stringify(value));
    }
    const unknown = await refund(subscriptionId, charge._id, { value: 100, amount: 100 });
    t.is(unknown.status, 400);
    t.deepEqual(unknown.body, { amount: ['Unknown field.'] });

    t.is((await refund(subscriptionId, charge._id, { value: 100 }, other)).status, 404);
    t.is((await refund(subscriptionId, charge._id, undefined, other)).status, 404);
    t.is((await refund(subscriptionId, 'abc', { value: 100 })).status, 404);

    const deniedSub = await newSubscriptionId(stack.app.url, stack.merchant, {
      firstDueDate: '2031-02-11',
      cardLastDigit: 2,
    });
    await runSchedulerTick(at('2031-02-11'));
    const denied = await chargeAfterAttempt(deniedSub, '2031-02-11', 1);
    t.is(denied.status, 2);
    const refused = await refund(deniedSub, denied._id, { value: 100 });
    t.is(refused.status, 409);
    t.regex(refused.body.detail, /CONFIRMED.*2 DENIED/);

    // Nothing of it was refunded, and no sale was recorded for any of it.
    t.is(await voidedAtAcquirer(charge.acquirerPaymentId), 0);
    t.is(
      await PaymentModel.countDocuments({
        merchantOrderId: settledSaleOrderId({ kind: 'subscription_charge', id: charge._id }),
      }),
      0,
    );
    t.is(
      await PaymentModel.countDocuments({
        merchantOrderId: settledSaleOrderId({ kind: 'subscription_charge', id: denied._id }),
      }),
      0,
    );
  },
);

test.serial(
  'ten refunds of 60% at once, racing the recording of the charge: one sale, one refund accepted',
  async (t) => {
    const { subscriptionId, charge } = await confirmedCharge('2031-03-10', 10000);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => refund(subscriptionId, charge._id, { value: 6000 })),
    );
    const accepted = answers.filter((res) => res.status === 200 || res.status === 202);
    t.is(accepted.length, 1, JSON.stringify(answers.map((res) => res.status)));
    t.true(answers.filter((res) => !accepted.includes(res)).every((res) => res.status === 422));
    const sales = await PaymentModel.find({
      merchantOrderId: settledSaleOrderId({ kind: 'subscription_charge', id: charge._id }),
    }).lean();
    t.is(sales.length, 1, 'the charge is recorded as one sale whoever records it');
    t.is(await RefundModel.countDocuments({ saleId: sales[0]._id }), 1);
    const done = await settledCharge(subscriptionId, charge._id);
    t.like(done, { status: 1, refunded_value: 6000 });
    t.is(await voidedAtAcquirer(charge.acquirerPaymentId), 6000);
  },
);

test.serial("the contract's call five times at once refunds once", async (t) => {
  const { subscriptionId, charge } = await confirmedCharge('2031-04-10', 4990);
  const answers = await Promise.all(Array.from({ length: 5 }, () => refund(subscriptionId, charge._id)));
  t.true(
    answers.every((res) => res.status === 200 || res.status === 202),
    JSON.stringify(answers.map((res) => [res.status, res.body])),
  );
  const done = await settledCharge(subscriptionId, charge._id);
  t.like(done, { status: 3, refunded_value: 4990 });
  t.is(await voidedAtAcquirer(charge.acquirerPaymentId), 4990);
  const saleId = await saleIdOf(charge._id);
  t.is(await RefundModel.countDocuments({ saleId }), 1);
});

test.serial('the acquirer cuts the connection mid-refund: settled from VoidedAmount, voided once', async (t) => {
  const { subscriptionId, charge } = await confirmedCharge('2031-05-10', 4990);
  const voidsBefore = await sandboxVoids();
  // The void is carried out, then its answer is lost.
  await setFault(stack.sandbox, { mode: 'lose', operation: 'void', paymentId: charge.acquirerPaymentId });
  try {
    const res = await refund(subscriptionId, charge._id, { value: 2000 });
    t.is(res.status, 202, JSON.stringify(res.body));
    t.like(res.body.data, { status: 1 });
    const done = await settledCharge(subscriptionId, charge._id);
    t.like(done, { status: 1, refunded_value: 2000 });
  } finally {
    await clearFaults(stack.sandbox);
  }
  t.is(await voidedAtAcquirer(charge.acquirerPaymentId), 2000);
  t.is((await sandboxVoids()) - voidsBefore, 1, 'the void was not sent again');
  const rest = await refund(subscriptionId, charge._id);
  t.true(rest.status === 200 || rest.status === 202);
  t.like(await settledCharge(subscriptionId, charge._id), { status: 3, refunded_value: 4990 });
  t.is(await voidedAtAcquirer(charge.acquirerPaymentId), 4990);
});

test.serial('the acquirer hangs past our timeout, then voids: settled from VoidedAmount, voided once', async (t) => {
  const { subscriptionId, charge } = await confirmedCharge('2031-06-10', 4990);
  const voidsBefore = await sandboxVoids();
  // The void is held 4.5 s, past ACQUIRER_TIMEOUT_MS (3 s here): we get no answer, the acquirer does it after.
  await setFault(stack.sandbox, {
    mode: 'latency',
    latencyMs: 4500,
    operation: 'void',
    paymentId: charge.acquirerPaymentId,
  });
  try {
    const res = await refund(subscriptionId, charge._id);
    t.is(res.status, 202, JSON.stringify(res.body));
    t.like(res.body.data, { status: 1 });
    t.like(await settledCharge(subscriptionId, charge._id), { status: 3, refunded_value: 4990 });
  } finally {
    await clearFaults(stack.sandbox);
  }
  t.is(await voidedAtAcquirer(charge.acquirerPaymentId), 4990);
  t.is((await sandboxVoids()) - voidsBefore, 1, 'the void was not sent again');
  const saleId = await saleIdOf(charge._id);
  t.like(await PaymentModel.findById(saleId).lean(), { status: 'REFUNDED', refundedValue: 4990 });
});

test.serial('an Idempotency-Key makes a retried partial refund of a charge refund once', async (t) => {
  const { subscriptionId, charge } = await confirmedCharge('2031-07-10', 4990);
  const key = { 'Idempotency-Key': `charge-${charge._id}-part-1` };
  const path = refundPath(subscriptionId, charge._id);
  const send = (body: unknown) => callJson(stack.app, 'PUT', path, bearer(stack.merchant.merchantToken, key), body);
  const first = await send({ value: 1500 });
  t.is(first.status, 200);
  t.like(first.body.data, { status: 1, refunded_value: 1500 });
  const again = await send({ value: 1500 });
  t.is(again.status, 200);
  t.like(again.body.data, { status: 1, refunded_value: 1500 });
  t.is((await send({ value: 1000 })).status, 422);
  const badKey = await callJson(
    stack.app,
    'PUT',
    path,
    bearer(stack.merchant.merchantToken, { 'Idempotency-Key': 'é' }),
    {
      value: 100,
    },
  );
  t.is(badKey.status, 400);
  const saleId = await saleIdOf(charge._id);
  t.is(await RefundModel.countDocuments({ saleId }), 1);
  t.is(await voidedAtAcquirer(charge.acquirerPaymentId), 1500);
});
