import '../helpers/env';
import test from 'ava';
import type { TestApp } from '../helpers/app';
import type { TestMerchant } from '../helpers/identity';
import { eventually, startProcess, type RunningProcess } from '../helpers/processes';

import { FAULT_AMOUNTS } from '../../src/acquirer/sandbox/sales';
import { getQueue } from '../../src/queue/queues';
import { cancelSubscription } from '../../src/subscriptions/service';
import { CHARGE_QUEUE, chargeJobId } from '../../jobs/charge-subscription';
import { SubscriptionChargeModel, SubscriptionModel, type SubscriptionCharge } from '../../src/subscriptions/model';
import { runSchedulerTick } from '../../workers/scheduler';
import {
  chargeAfterAttempt,
  clearFaults,
  newSubscriptionId,
  salesForOrder,
  setFault,
  useSubscriptionStack,
} from './support';

// Whole retry schedules, days apart, run in seconds: the scheduler tick gets a chosen `now` and a
// worker process charges the sandbox. Serial: a tick sees every subscription of this database,
// so each test cancels its subscription when done.
let app: TestApp;
let sandbox: RunningProcess;
let worker: RunningProcess | undefined;
let merchant: TestMerchant;

async function useWorker(env: Record<string, string> = {}): Promise<void> {
  await worker?.stop();
  worker = await startProcess('worker', { WORKER_QUEUES: CHARGE_QUEUE, ...env });
}

useSubscriptionStack(async (stack) => {
  ({ sandbox, app, merchant } = stack);
  await useWorker();
});

const at = (day: string) => new Date(`${day}T06:30:00Z`);

async function tickAndWait(
  subscriptionId: number,
  dueDate: string,
  day: string,
  attempts: number,
): Promise<SubscriptionCharge> {
  await runSchedulerTick(at(day));
  return chargeAfterAttempt(subscriptionId, dueDate, attempts);
}

async function noJobFor(subscriptionId: number, dueDate: string, attempt: number): Promise<boolean> {
  return !(await getQueue(CHARGE_QUEUE).getJob(chargeJobId({ subscriptionId, dueDate, attempt })));
}

test.serial('a full retry schedule ending in success: retried 1, 3, 5 and 7 days after the first denial', async (t) => {
  const id = await newSubscriptionId(app.url, merchant, { firstDueDate: '2031-01-10', cardLastDigit: 1 });
  // The first four sends fail (HTTP 500 from the acquirer: a communication failure); the fifth is approved.
  await setFault(sandbox, { mode: 'error', operation: 'create', count: 4 });
  try {
    const due = '2031-01-10';
    const plan: [string, string | null][] = [
      ['2031-01-10', '2031-01-11'],
      ['2031-01-11', '2031-01-13'],
      ['2031-01-13', '2031-01-15'],
      ['2031-01-15', '2031-01-17'],
    ];
    for (const [index, [day, next]] of plan.entries()) {
      const charge = await tickAndWait(id, due, day, index + 1);
      t.is(charge.status, 2, day);
      t.is(charge.denialCode, 'transport_error', day);
      t.is(charge.nextRetryAt, next, day);
      // A tick on a day with nothing due sends nothing.
      await runSchedulerTick(at('2031-01-12'));
    }
    t.true(await noJobFor(id, due, 6));
    const confirmed = await tickAndWait(id, due, '2031-01-17', 5);
    t.is(confirmed.status, 1);
    t.is(confirmed.attempts, 5);
    t.is(confirmed.value, 4990); // the same amount on every attempt
    t.is(confirmed.denialCode, '');
    t.is(confirmed.nextRetryAt, null);
    t.true(Number.isInteger(confirmed.paymentTransactionId));
    // A communication failure keeps its idempotency key for the next attempt: one sale in all.
    t.deepEqual(await salesForOrder(sandbox, `SUB${id}C${confirmed._id}A1`), [confirmed.acquirerPaymentId]);
    const sub = await SubscriptionModel.findById(id).lean();
    t.is(sub!.nextDueDate, '2031-02-10');
  } finally {
    await clearFaults(sandbox);
    await cancelSubscription(merchant.merchantId, id);
  }
});

test.serial('soft declines, then the issuer approves on a later retry', async (t) => {
  // An approving card at a sandbox amount that soft-declines its first two sales: the same stored
  // card is declined twice, then the issuer says yes.
  const id = await newSubscriptionId(app.url, merchant, {
    firstDueDate: '2031-02-10',
    cardLastDigit: 1,
    value: 990702,
  });
  const due = '2031-02-10';
  t.is((await tickAndWait(id, due, '2031-02-10', 1)).denialCode, '05');
  const second = await tickAndWait(id, due, '2031-02-11', 2);
  t.is(second.denialCode, '05');
  t.is(second.nextRetryAt, '2031-02-13');
  const confirmed = await tickAndWait(id, due, '2031-02-13', 3);
  t.is(confirmed.status, 1);
  t.is(confirmed.attempts, 3);
  t.is(confirmed.denialCode, '');
  t.is(confirmed.nextRetryAt, null);
  await cancelSubscription(merchant.merchantId, id);
});

test.serial('a full retry schedule ending in a final denial', async (t) => {
  const id = await newSubscriptionId(app.url, merchant, { firstDueDate: '2031-03-10', cardLastDigit: 9 });
  const due = '2031-03-10';
  const days = ['2031-03-10', '2031-03-11', '2031-03-13', '2031-03-15', '2031-03-17'];
  const expectedNext = ['2031-03-11', '2031-03-13', '2031-03-15', '2031-03-17', null];
  const orderIds: string[] = [];
  for (const [index, day] of days.entries()) {
    const charge = await tickAndWait(id, due, day, index + 1);
    t.is(charge.status, 2);
    t.is(charge.denialCode, '51');
    t.is(charge.attempts, index + 1);
    t.is(charge.nextRetryAt, expectedNext[index]);
    orderIds.push(`SUB${id}C${charge._id}A${index + 1}`);
  }
  await runSchedulerTick(at('2031-03-30'));
  t.true(await noJobFor(id, due, 6));
  // Each attempt was one sale with its own idempotency key.
  for (const orderId of orderIds) t.is((await salesForOrder(sandbox, orderId)).length, 1);
  await cancelSubscription(merchant.merchantId, id);
});

test.serial('a hard decline is final at once', async (t) => {
  const id = await newSubscriptionId(app.url, merchant, { firstDueDate: '2031-05-10', cardLastDigit: 5 });
  const charge = await tickAndWait(id, '2031-05-10', '2031-05-10', 1);
  t.is(charge.status, 2);
  t.is(charge.denialCode, '78');
  t.is(charge.nextRetryAt, null);
  await runSchedulerTick(at('2031-05-11'));
  t.true(await noJobFor(id, '2031-05-10', 2));
  await cancelSubscription(merchant.merchantId, id);
});

test.serial('an acquirer on a closed port: transport_error, retried with the same idempotency key', async (t) => {
  const id = await newSubscriptionId(app.url, merchant, { firstDueDate: '2031-07-10', cardLastDigit: 1 });
  await useWorker({ ACQUIRER_BASE_URL: 'http://127.0.0.1:1', ACQUIRER_QUERY_URL: 'http://127.0.0.1:1' });
  try {
    const denied = await tickAndWait(id, '2031-07-10', '2031-07-10', 1);
    t.is(denied.status, 2);
    t.is(denied.denialCode, 'transport_error');
    t.is(denied.denialMessage, 'Communication failure with the acquirer');
    t.is(denied.acquirerPaymentId, '');
    t.is(denied.nextRetryAt, '2031-07-11');
  } finally {
    await useWorker();
  }
  const confirmed = await tickAndWait(id, '2031-07-10', '2031-07-11', 2);
  t.is(confirmed.status, 1);
  t.is(confirmed.attempts, 2);
  t.deepEqual(await salesForOrder(sandbox, `SUB${id}C${confirmed._id}A1`), [confirmed.acquirerPaymentId]);
  await cancelSubscription(merchant.merchantId, id);
});

test.serial('a sale made before the connection broke is found by the next attempt, not repeated', async (t) => {
  // This amount makes the sandbox approve the sale, then reset the connection without an answer.
  const id = await newSubscriptionId(app.url, merchant, {
    firstDueDate: '2031-09-10',
    cardLastDigit: 1,
    value: FAULT_AMOUNTS.resetAfterProcessing,
  });
  const denied = await tickAndWait(id, '2031-09-10', '2031-09-10', 1);
  t.is(denied.denialCode, 'transport_error');
  const sales = await salesForOrder(sandbox, `SUB${id}C${denied._id}A1`);
  t.is(sales.length, 1); // the acquirer did charge
  const confirmed = await tickAndWait(id, '2031-09-10', '2031-09-11', 2);
  t.is(confirmed.status, 1);
  t.is(confirmed.acquirerPaymentId, sales[0]);
  t.deepEqual(await salesForOrder(sandbox, `SUB${id}C${confirmed._id}A1`), sales);
  t.deepEqual(await salesForOrder(sandbox, `SUB${id}C${confirmed._id}A2`), []);
  await cancelSubscription(merchant.merchantId, id);
});

test.serial('each cycle is one charge; the last cycle expires the subscription', async (t) => {
  const id = await newSubscriptionId(app.url, merchant, { firstDueDate: '2031-10-31', cardLastDigit: 1, maxCycles: 2 });
  t.is((await tickAndWait(id, '2031-10-31', '2031-10-31', 1)).status, 1);
  // A scheduler down for weeks catches up, one cycle per tick, each cycle once.
  await runSchedulerTick(at('2031-12-15'));
  t.is((await chargeAfterAttempt(id, '2031-11-30', 1)).status, 1);
  await runSchedulerTick(at('2031-12-31'));
  const charges = await SubscriptionChargeModel.find({ subscriptionId: id }).sort({ dueDate: 1 }).lean();
  t.deepEqual(
    charges.map((c) => c.dueDate),
    ['2031-10-31', '2031-11-30'],
  );
  // The worker expires it right after recording the last charge.
  t.truthy(await eventually(async () => (await SubscriptionModel.findById(id).lean())!.status === 'expired'));
});
