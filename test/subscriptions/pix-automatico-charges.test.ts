/**
 * Pix Automático charges on the Central Bank's calendar (issue 29, part "charges"), with real processes: the
 * acquirer sandbox (the payer's bank, on its own clock), the web process (our API and the notice intake) and a
 * worker (charges and notices). The scheduler's tick runs here with a chosen day, and the sandbox's clock is moved
 * to the same day: a charge is sent 10 to 2 days before its due date, settled by the payer's bank in the evening of
 * the due date (notice, then our GET), retried under Allowed_3R_7D, never sent after a cancellation or outside its
 * window. Serial: a tick sees every subscription of this file's database, so each test cancels its own at the end.
 */
import '../helpers/env';
import crypto from 'node:crypto';
import mongoose from 'mongoose';
import test, { type ExecutionContext } from 'ava';
import { getConfig } from '../../config';
import { AccountEventModel } from '../../src/events/model';
import { closeQueues, getQueue } from '../../src/queue/queues';
import { closeAcquirerClient } from '../../src/acquirer/client';
import { addDays, dayOf } from '../../src/subscriptions/clock';
import {
  ChargeAttemptModel,
  SubscriptionChargeModel,
  SubscriptionModel,
  type SubscriptionCharge,
} from '../../src/subscriptions/model';
import { CHARGE_QUEUE, chargeJobId } from '../../jobs/charge-subscription';
import { NOTICE_QUEUE } from '../../jobs/apply-payment-notice';
import { runSchedulerTick } from '../../workers/scheduler';
import { bearer, newMerchant, type TestMerchant } from '../helpers/identity';
import { callJson, send } from '../helpers/http';
import { eventually, startProcess, type RunningProcess } from '../helpers/processes';
import { createPixSubscription, startPixStack, stopPixStack } from './support';

let sandbox: RunningProcess;
let web: RunningProcess;
let worker: RunningProcess;
let merchant: TestMerchant;
const WORKER_ENV = { WORKER_QUEUES: `sales-notices,${CHARGE_QUEUE}`, WORKER_LOCK_DURATION_MS: '2000' };

test.before(async () => {
  ({ sandbox, web, worker } = await startPixStack({ worker: WORKER_ENV, acquirerTimeoutMs: 5000 }));
  merchant = await newMerchant();
});

test.after.always(async () => {
  await send(sandbox, 'DELETE', '/sandbox/clock').catch(() => undefined);
  // What this process opened beside the stack: the queues its ticks added to, the acquirer client's sockets.
  await closeQueues();
  await closeAcquirerClient();
  await stopPixStack();
});

const api = (method: string, path: string, body?: unknown) =>
  callJson(web, method, path, bearer(merchant.merchantToken), body);

const createPix = (firstDueDate: string, overrides: Record<string, unknown> = {}, pix = {}) =>
  createPixSubscription(web, merchant, { firstDueDate, ...overrides }, pix);

const read = async (id: number) => (await api('GET', `/api/v1/subscriptions/${id}/`)).body.data;
const charges = async (id: number) => (await api('GET', `/api/v1/subscriptions/${id}/charges/`)).body.data as any[];

/** The payer's bank: approve by the QR code's text, cancel or fail settlements by the recurrence. */
const payer = (recurrenceOrCode: string, action: string, body: Record<string, unknown> = {}) =>
  callJson(sandbox, 'POST', `/sandbox/pix-automatico/${recurrenceOrCode}/${action}`, {}, body);

/** A subscription (journey 2 unless said) whose mandate the payer approved, as our GET confirms it. */
async function approvedPix(firstDueDate: string, overrides: Record<string, unknown> = {}, pix = {}) {
  await send(sandbox, 'DELETE', '/sandbox/clock'); // the QR code is read on the day it is shown
  const sub = await createPix(firstDueDate, overrides, pix);
  const approved = await payer('by-code', 'approve', { qr_code: sub.mandate.qrCodeText });
  if (approved.status !== 200) throw new Error(`not approved: ${JSON.stringify(approved.body)}`);
  await eventually(async () => (await read(sub.id)).mandate.status === 'APPROVED', 30_000);
  return { id: sub.id as number, recurrenceId: sub.mandate.acquirerRecurrenceId as string };
}

/** Every charge request the sandbox received for the recurrence, accepted or refused. */
async function atSandbox(recurrenceId: string): Promise<any[]> {
  const res = await callJson(sandbox, 'GET', `/sandbox/pix-automatico/${recurrenceId}/charges`, {});
  return res.body.Charges;
}

/** The morning of `day` on both clocks: the sandbox's, and the scheduler tick's. */
async function tick(day: string): Promise<void> {
  await callJson(sandbox, 'PUT', '/sandbox/clock', {}, { date: `${day}T06:30:00Z` });
  await runSchedulerTick(new Date(`${day}T06:30:00Z`));
}

/** The evening of `day` at the sandbox: the payer's banks settle that day's charges, and the acquirer notifies. */
async function evening(day: string): Promise<void> {
  await callJson(sandbox, 'PUT', '/sandbox/clock', {}, { date: `${day}T21:00:00Z` });
}

const chargeOf = (subscriptionId: number, dueDate: string) =>
  SubscriptionChargeModel.findOne({ subscriptionId, dueDate }).lean<SubscriptionCharge>();

/** Waits until the charge of `dueDate` reads as `check` says. */
const until = (subscriptionId: number, dueDate: string, check: (c: SubscriptionCharge) => boolean) =>
  eventually(async () => {
    const charge = await chargeOf(subscriptionId, dueDate);
    return charge && check(charge) ? charge : undefined;
  }, 45_000) as Promise<SubscriptionCharge>;

/** Sent and scheduled at the acquirer (attempt `attempt` recorded PENDING). */
const scheduled = (id: number, dueDate: string, attempt = 1) =>
  until(id, dueDate, (c) => c.status === 0 && c.attempts === attempt && Boolean(c.acquirerPaymentId));

const settled = (id: number, dueDate: string, attempt: number) =>
  until(id, dueDate, (c) => c.status !== 0 && c.attempts === attempt);

async function cancel(id: number): Promise<void> {
  await api('PUT', `/api/v1/subscriptions/${id}/cancel/`);
}

/** One paid cycle: sent on the day its window opens, scheduled for its due date, paid that evening. */
async function paidCycle(t: ExecutionContext, id: number, recurrenceId: string, dueDate: string): Promise<void> {
  const before = (await atSandbox(recurrenceId)).length;
  await tick(addDays(dueDate, -10));
  const sent = await scheduled(id, dueDate);
  const received = await atSandbox(recurrenceId);
  t.is(received.length, before + 1, `one charge sent for ${dueDate}`);
  t.like(received.at(-1), { ExpirationDate: dueDate, Amount: sent.value, RefusedCode: null, Status: 20 });
  // The day before the due date nothing is settled yet.
  await evening(addDays(dueDate, -1));
  t.is((await chargeOf(id, dueDate))!.status, 0);
  await evening(dueDate);
  const paid = await settled(id, dueDate, 1);
  t.is(paid.status, 1, dueDate);
  t.is(paid.acquirerPaymentId, sent.acquirerPaymentId);
  t.true(Number.isInteger(paid.paymentTransactionId));
}

test.serial('journey 2: from the QR code approval to three cycles paid on the Central Bank calendar', async (t) => {
  const due = ['2030-03-10', '2030-04-10', '2030-05-10'];
  const { id, recurrenceId } = await approvedPix(due[0]);
  try {
    // Eleven days before the due date the window is not open: nothing is sent.
    await tick(addDays(due[0], -11));
    t.is(await chargeOf(id, due[0]), null);
    t.deepEqual(await atSandbox(recurrenceId), []);
    for (const dueDate of due) await paidCycle(t, id, recurrenceId, dueDate);
    const listed = await charges(id);
    t.deepEqual(
      listed.map((c) => [c.dueDate, c.status, c.attempts, c.nextRetryAt]),
      due.map((d) => [d, 1, 1, null]),
    );
    t.is((await read(id)).nextDueDate, '2030-06-10');
    await eventually(
      async () =>
        (await AccountEventModel.countDocuments({
          type: 'subscription_charge.confirmed',
          objectId: mongoose.trusted({ $in: listed.map((c) => String(c.id)) }),
        })) === 3,
      10_000,
    );
    t.is((await atSandbox(recurrenceId)).length, 3, 'exactly one charge per cycle at the acquirer');
  } finally {
    await cancel(id);
  }
});

test.serial(
  "a settlement whose notice is never applied is read from the acquirer by the next day's sweep",
  async (t) => {
    const dueDate = '2030-10-10';
    const { id, recurrenceId } = await approvedPix(dueDate);
    const notices = getQueue(NOTICE_QUEUE);
    try {
      await tick(addDays(dueDate, -10));
      const sent = await scheduled(id, dueDate);
      // The payer's bank pays in the evening; its notice is stored but no worker takes it (as if it were lost).
      await notices.pause();
      await evening(dueDate);
      const paidAtAcquirer = await eventually(async () => {
        const charge = (await atSandbox(recurrenceId)).find((c) => c.PaymentId === sent.acquirerPaymentId);
        return charge?.Status === 2 ? charge : undefined;
      }, 20_000);
      t.truthy(paidAtAcquirer);
      t.is((await chargeOf(id, dueDate))!.status, 0, 'no notice applied: still PENDING');
      // The due date's own pass leaves it: the settlement is the evening's.
      await runSchedulerTick(new Date(`${dueDate}T23:00:00Z`));
      t.is((await chargeOf(id, dueDate))!.status, 0);
      // The next morning's pass asks the acquirer, as the notice would have made the worker do.
      await tick(addDays(dueDate, 1));
      const paid = await chargeOf(id, dueDate);
      t.like(paid, { status: 1, attempts: 1, acquirerPaymentId: sent.acquirerPaymentId });
      t.true(Number.isInteger(paid!.paymentTransactionId));
      t.is((await atSandbox(recurrenceId)).length, 1, 'read, not sent again');
    } finally {
      await notices.resume();
      await cancel(id);
    }
  },
);

test.serial('journey 3: the first cycle paid at approval, then two more cycles on the calendar', async (t) => {
  const { id, recurrenceId } = await approvedPix('2030-07-10', { value: 2990 }, { journey: 3 });
  try {
    const first = await eventually(async () => (await charges(id)).find((c) => c.dueDate === '2030-07-10'), 30_000);
    t.like(first, { status: 1, attempts: 1, value: 2990 });
    t.is((await read(id)).nextDueDate, '2030-08-10');
    // The first cycle is never sent again: its window passes with nothing sent.
    await tick('2030-07-01');
    t.deepEqual(await atSandbox(recurrenceId), []);
    await paidCycle(t, id, recurrenceId, '2030-08-10');
    await paidCycle(t, id, recurrenceId, '2030-09-10');
    t.deepEqual(
      (await charges(id)).map((c) => [c.dueDate, c.status, c.value]),
      [
        ['2030-07-10', 1, 2990],
        ['2030-08-10', 1, 2990],
        ['2030-09-10', 1, 2990],
      ],
    );
  } finally {
    await cancel(id);
  }
});

test.serial('a failed charge is retried on the next days within 7 days, then paid', async (t) => {
  const due = '2030-10-10';
  const { id, recurrenceId } = await approvedPix(due);
  try {
    await payer(recurrenceId, 'fail-settlements', { count: 2 });
    await tick('2030-10-02'); // the first pass inside the window (8 days before)
    await scheduled(id, due);
    await evening(due);
    const failed = await settled(id, due, 1);
    t.like(failed, { status: 2, denialCode: 'AM04', nextRetryAt: '2030-10-11' });
    await tick('2030-10-11');
    const retry = await scheduled(id, due, 2);
    t.not(retry.acquirerPaymentId, failed.acquirerPaymentId, 'a retry is a new charge at the acquirer');
    await evening('2030-10-11');
    t.like(await settled(id, due, 2), { status: 2, nextRetryAt: '2030-10-12' });
    await tick('2030-10-12');
    await scheduled(id, due, 3);
    await evening('2030-10-12');
    const paid = await settled(id, due, 3);
    t.like(paid, { status: 1, attempts: 3, nextRetryAt: null });
    const received = await atSandbox(recurrenceId);
    t.deepEqual(
      received.map((c) => [c.ExpirationDate, c.OriginalPaymentId, c.Status]),
      [
        [due, null, 3],
        ['2030-10-11', failed.acquirerPaymentId, 3],
        ['2030-10-12', failed.acquirerPaymentId, 2],
      ],
    );
    // One recorded send and one settlement per attempt.
    t.is(await ChargeAttemptModel.countDocuments({ chargeId: paid._id }), 6);
    t.deepEqual(
      (await charges(id)).map((c) => [c.status, c.attempts]),
      [[1, 3]],
    );
  } finally {
    await cancel(id);
  }
});

test.serial('a charge whose every settlement fails: 3 retries, then DENIED with nextRetryAt null', async (t) => {
  const due = '2030-12-10';
  // 51 cents: the payer's bank fails every settlement (docs/sandbox.md).
  const { id, recurrenceId } = await approvedPix(due, { value: 4951 });
  try {
    await tick(addDays(due, -10));
    await scheduled(id, due);
    await evening(due);
    t.like(await settled(id, due, 1), { status: 2, nextRetryAt: '2030-12-11' });
    for (const [attempt, day, next] of [
      [2, '2030-12-11', '2030-12-12'],
      [3, '2030-12-12', '2030-12-13'],
      [4, '2030-12-13', null],
    ] as const) {
      await tick(day);
      await scheduled(id, due, attempt);
      await evening(day);
      t.like(await settled(id, due, attempt), { status: 2, nextRetryAt: next }, day);
    }
    await tick('2030-12-14');
    await tick('2030-12-17');
    t.is((await atSandbox(recurrenceId)).length, 4, 'the first send and 3 retries, never a fourth');
    t.like((await charges(id))[0], { status: 2, attempts: 4, nextRetryAt: null, denialCode: 'AM04' });
  } finally {
    await cancel(id);
  }
});

test.serial('without a retry policy the first failed settlement is final', async (t) => {
  const due = '2031-01-10';
  const { id, recurrenceId } = await approvedPix(due, { value: 4951, retry: false });
  try {
    await tick(addDays(due, -3));
    await scheduled(id, due);
    await evening(due);
    t.like(await settled(id, due, 1), { status: 2, nextRetryAt: null, denialCode: 'AM04' });
    await tick('2031-01-11');
    t.is((await atSandbox(recurrenceId)).length, 1);
  } finally {
    await cancel(id);
  }
});

test.serial('the payer cancels after approval: the scheduled charge is voided, no charge is sent after', async (t) => {
  const due = '2031-02-10';
  const { id, recurrenceId } = await approvedPix(due);
  await tick(addDays(due, -10));
  await scheduled(id, due);
  t.is((await payer(recurrenceId, 'cancel', { reason: 'Mudei de banco' })).status, 200);
  await eventually(async () => (await read(id)).status === 'cancelled', 30_000);
  // The acquirer voided the scheduled charge (its notice): DENIED, never retried.
  const voided = await settled(id, due, 1);
  t.like(voided, { status: 2, nextRetryAt: null, denialCode: 'MD06' });
  for (const day of ['2031-02-11', addDays('2031-03-10', -10), addDays('2031-03-10', -5)]) await tick(day);
  await evening('2031-03-10');
  t.is((await atSandbox(recurrenceId)).length, 1, 'nothing reached the acquirer after the cancellation');
  t.is(await SubscriptionChargeModel.countDocuments({ subscriptionId: id }), 1);
});

test.serial(
  'cancelled at the acquirer before its notice reached us: the refused charge is DENIED, not retried',
  async (t) => {
    const due = '2031-03-20';
    const { id, recurrenceId } = await approvedPix(due);
    try {
      // The payer cancels; the acquirer's notice is lost, so our mandate still reads APPROVED.
      t.is((await payer(recurrenceId, 'cancel', { notify: false })).status, 200);
      t.is((await read(id)).mandate.status, 'APPROVED');
      await tick(addDays(due, -10));
      const refused = await settled(id, due, 1);
      t.like(refused, { status: 2, denialCode: 'acquirer_311', nextRetryAt: null, acquirerPaymentId: '' });
      await tick(addDays(due, 1));
      const received = await atSandbox(recurrenceId);
      t.is(received.length, 1, 'asked once, never again');
      t.like(received[0], { PaymentId: null, RefusedCode: 311 });
    } finally {
      await cancel(id);
    }
  },
);

test.serial('the merchant cancels: no charge is sent after, even one already queued', async (t) => {
  const due = '2031-04-10';
  const { id, recurrenceId } = await approvedPix(due);
  await cancel(id);
  t.is((await read(id)).mandate.status, 'CANCELLED');
  await tick(addDays(due, -10));
  await tick(addDays(due, -4));
  t.deepEqual(await atSandbox(recurrenceId), []);
  t.is(await SubscriptionChargeModel.countDocuments({ subscriptionId: id }), 0);

  // A job queued just before the cancel (the scheduler's pass raced it): checked right before sending.
  const raced = await approvedPix('2031-05-10');
  await getQueue(CHARGE_QUEUE).pause();
  try {
    await tick('2031-04-30');
    t.truthy(
      await getQueue(CHARGE_QUEUE).getJob(chargeJobId({ subscriptionId: raced.id, dueDate: '2031-05-10', attempt: 1 })),
    );
    await cancel(raced.id);
  } finally {
    await getQueue(CHARGE_QUEUE).resume();
  }
  await eventually(
    async () =>
      (
        await getQueue(CHARGE_QUEUE).getJob(
          chargeJobId({ subscriptionId: raced.id, dueDate: '2031-05-10', attempt: 1 }),
        )
      )?.isCompleted(),
    30_000,
  );
  t.deepEqual(await atSandbox(raced.recurrenceId), [], 'the queued charge was not sent');
  t.is(await SubscriptionChargeModel.countDocuments({ subscriptionId: raced.id }), 0);
});

test.serial(
  'a charge whose window passed (the scheduler down past due - 2) is never sent: DENIED window_missed',
  async (t) => {
    const due = '2031-06-10';
    const { id, recurrenceId } = await approvedPix(due);
    try {
      // The scheduler's first pass after being down: the day before the due date.
      await tick(addDays(due, -1));
      const missed = await settled(id, due, 1);
      t.like(missed, { status: 2, denialCode: 'window_missed', nextRetryAt: null, acquirerPaymentId: '' });
      t.deepEqual(await atSandbox(recurrenceId), [], 'never sent');
      t.is((await read(id)).nextDueDate, '2031-07-10', 'the next cycle follows');
      const listed = (await charges(id))[0];
      t.like(listed, { status: 2, denialCode: 'window_missed' });
      // The next cycle goes out normally.
      await tick(addDays('2031-07-10', -10));
      await scheduled(id, '2031-07-10');
      t.is((await atSandbox(recurrenceId)).length, 1);
    } finally {
      await cancel(id);
    }
  },
);

test.serial(
  'the sandbox refuses a charge outside the 2-10-day window, and one for an unapproved recurrence',
  async (t) => {
    const { id, recurrenceId } = await approvedPix('2031-08-10');
    try {
      const { merchantId, merchantKey } = getConfig().acquirer;
      const charge = (expirationDate: string, recurrence = recurrenceId) =>
        callJson(
          sandbox,
          'POST',
          '/1/sales/',
          { MerchantId: merchantId, MerchantKey: merchantKey, RequestId: crypto.randomUUID() },
          {
            MerchantOrderId: `T${Date.now()}`,
            Customer: { Name: 'Joana Pagadora', Identity: '52998224725' },
            Payment: {
              Type: 'Pix',
              Provider: 'Cielo2',
              Amount: 4990,
              ExpirationDate: expirationDate,
              RecurrentPayment: {
                AuthorizeNow: true,
                RecurrenceType: 'SelfManagedConsent',
                RecurrenceId: recurrence,
                BusinessDayAdjust: false,
              },
            },
          },
        );
      await callJson(sandbox, 'PUT', '/sandbox/clock', {}, { date: '2031-07-20T10:00:00Z' });
      t.like((await charge('2031-07-21')).body[0], { Code: 312 });
      t.like((await charge('2031-07-31')).body[0], { Code: 312 });
      t.is((await charge('2031-07-22')).status, 201);
      t.is((await charge('2031-07-30')).status, 201);
      const unapproved = await createPix('2031-08-10');
      t.like((await charge('2031-07-25', unapproved.mandate.acquirerRecurrenceId)).body[0], { Code: 311 });
      await cancel(unapproved.id);
    } finally {
      await cancel(id);
    }
  },
);

test.serial('a variable amount above the mandate maximum is refused before sending', async (t) => {
  const due = '2031-09-10';
  const { id, recurrenceId } = await approvedPix(due, { value: 3000 }, { maximumValue: 9000, minimumValue: 1000 });
  try {
    // The API refuses an amount above maximumValue at creation and in setSubscriptionCycleValue, so this one comes
    // from a record written outside it (an operator's fix, an older version's data): still never sent.
    await SubscriptionModel.updateOne({ _id: id }, { $set: { value: 9500 } });
    await tick(addDays(due, -10));
    const refused = await settled(id, due, 1);
    t.like(refused, { status: 2, value: 9500, denialCode: 'amount_above_maximum', nextRetryAt: null });
    t.deepEqual(await atSandbox(recurrenceId), [], 'never sent');
  } finally {
    await cancel(id);
  }
});

test.serial(
  "a variable mandate's cycle amount set before its window is the one sent; after it opens, 409",
  async (t) => {
    const due = '2031-11-10';
    const { id, recurrenceId } = await approvedPix(due, { value: 3000 }, { maximumValue: 9000, minimumValue: 1000 });
    const setValue = (body: unknown, subscriptionId = id) =>
      api('PUT', `/api/v1/subscriptions/${subscriptionId}/cycle-values/`, body);
    try {
      const set = await setValue({ dueDate: due, value: 7350 });
      t.is(set.status, 200, JSON.stringify(set.body));
      t.deepEqual(set.body.data.cycleValues, { [due]: 7350 });
      t.deepEqual((await read(id)).cycleValues, { [due]: 7350 });
      // Hostile and out-of-range bodies: each a 400 naming its field; nothing stored.
      for (const [body, fieldName] of [
        [{ dueDate: due, value: 9001 }, 'value'],
        [{ dueDate: due, value: 999 }, 'value'],
        [{ dueDate: due, value: 73.5 }, 'value'],
        [{ dueDate: due, value: 'seventy' }, 'value'],
        [{ dueDate: addDays(due, 1), value: 5000 }, 'dueDate'],
        [{ dueDate: '2031-02-30', value: 5000 }, 'dueDate'],
        [{ value: 5000 }, 'dueDate'],
        [{ dueDate: due, value: 5000, extra: 1 }, 'extra'],
      ] as const) {
        const refused = await setValue(body);
        t.is(refused.status, 400, JSON.stringify(body));
        t.truthy(refused.body[fieldName], `${JSON.stringify(body)}: ${JSON.stringify(refused.body)}`);
      }
      t.is((await setValue({ dueDate: due, value: 5000 }, 999_999_999)).status, 404);
      t.deepEqual((await read(id)).cycleValues, { [due]: 7350 });
      // The cycle is sent with its own amount; the next one with value.
      await tick(addDays(due, -10));
      const sent = await scheduled(id, due);
      t.is(sent.value, 7350);
      t.like((await atSandbox(recurrenceId)).at(-1), { ExpirationDate: due, Amount: 7350 });
      await tick(addDays(due, 21));
      t.is((await scheduled(id, '2031-12-10')).value, 3000);
    } finally {
      await cancel(id);
    }
    // A cycle already in its send window (due in 5 days by the web's clock) keeps its amount.
    const soon = addDays(dayOf(new Date()), 5);
    const near = await approvedPix(soon, { value: 3000 }, { maximumValue: 9000 });
    try {
      const late = await setValue({ dueDate: soon, value: 5000 }, near.id);
      t.is(late.status, 409, JSON.stringify(late.body));
      t.deepEqual((await read(near.id)).cycleValues, {});
    } finally {
      await cancel(near.id);
    }
  },
);

test.serial(
  'faults: the worker SIGKILLed between the acquirer answer and our write, the scheduler SIGKILLed as it queues: ' +
    'one charge per cycle',
  async (t) => {
    // The worker: its first run holds after the acquirer scheduled the charge; it dies there.
    const due = '2031-10-10';
    const { id, recurrenceId } = await approvedPix(due);
    await worker.stop();
    const doomed = await startProcess('worker', { ...WORKER_ENV, WORKER_TEST_CHARGE_HOLD_MS: '60000' });
    await tick(addDays(due, -10));
    await eventually(
      () => doomed.logs.join('').includes('charge answered by acquirer; holding before recording'),
      45_000,
    );
    t.is((await atSandbox(recurrenceId)).length, 1, 'the acquirer scheduled it; we have not written it');
    t.is((await doomed.stop('SIGKILL')).signal, 'SIGKILL');
    await tick(addDays(due, -9)); // a scheduler pass meanwhile adds nothing (the job id is taken)
    // Takes the stalled job once its lock expires, and asks the acquirer by order id before sending.
    worker = await startProcess('worker', WORKER_ENV);
    const sent = await scheduled(id, due);
    t.is(sent.acquirerPaymentId, (await atSandbox(recurrenceId))[0].PaymentId);
    await evening(due);
    t.like(await settled(id, due, 1), { status: 1 });
    t.is((await atSandbox(recurrenceId)).length, 1, 'never two');
    await cancel(id);

    // The scheduler: real processes on the real clock (its tick reads it), killed as it queues the cycle's job.
    await send(sandbox, 'DELETE', '/sandbox/clock');
    const realDue = addDays(dayOf(new Date()), 5); // inside the window today
    const real = await approvedPix(realDue);
    const killed = await startProcess('scheduler');
    await eventually(
      async () => getQueue(CHARGE_QUEUE).getJob(chargeJobId({ subscriptionId: real.id, dueDate: realDue, attempt: 1 })),
      30_000,
    );
    t.is((await killed.stop('SIGKILL')).signal, 'SIGKILL');
    const second = await startProcess('scheduler'); // its first tick runs as it starts: the same job id
    await runSchedulerTick();
    await scheduled(real.id, realDue);
    await runSchedulerTick();
    await second.stop('SIGKILL');
    t.is((await atSandbox(real.recurrenceId)).length, 1, 'one charge for the cycle, never two');
    t.is(await SubscriptionChargeModel.countDocuments({ subscriptionId: real.id }), 1);
    await cancel(real.id);
  },
);
