import '../helpers/env';
import test from 'ava';
import type { Job } from 'bullmq';
import { json, type TestApp } from '../helpers/app';
import { bearer, newMerchant, systemToken, type TestMerchant } from '../helpers/identity';
import { eventually, type RunningProcess } from '../helpers/processes';
import { getQueue, startWorker } from '../../src/queue/queues';
import { luhnValid } from '../../src/cards';
import { encryptedTestCard } from '../helpers/cards';
import { runChargeAttempt } from '../../src/subscriptions/charging';
import { dueCycleOf } from '../../src/subscriptions/calendar';

import chargeSubscription from '../../jobs/processors/charge-subscription';
import { CHARGE_JOB_NAME, CHARGE_QUEUE, chargeJobId } from '../../jobs/charge-subscription';
import { SubscriptionChargeModel, SubscriptionModel } from '../../src/subscriptions/model';
import { runSchedulerTick } from '../../workers/scheduler';
import { countDbCommands } from '../helpers/db-commands';
import {
  chargeAfterAttempt,
  createSubscription,
  listCharges,
  newSubscriptionId,
  salesForOrder,
  testCardNumber,
  useSubscriptionStack,
} from './support';
import { send } from '../helpers/http';

// Ticks with a chosen `now` touch every subscription of this file's database: run one at a time.
let app: TestApp;
let sandbox: RunningProcess;
let merchant: TestMerchant;
let other: TestMerchant;

useSubscriptionStack(async (stack) => {
  ({ sandbox, app, merchant } = stack);
  startWorker(CHARGE_QUEUE, chargeSubscription); // a real BullMQ worker, in this process
  other = await newMerchant();
});

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;
const FIELDS = [
  'id',
  'subscriptionId',
  'status',
  'value',
  'amount',
  'dueDate',
  'acquirerPaymentId',
  'denialCode',
  'denialMessage',
  'attempts',
  'nextRetryAt',
  'paymentTransactionId',
  'createdAt',
  'updatedAt',
];
const at = (day: string) => new Date(`${day}T09:00:00Z`);

async function onlyCharge(subscriptionId: number, who = merchant) {
  const { status, body } = await listCharges(app.url, who, subscriptionId);
  if (status !== 200 || body.status !== 'success' || body.data.length !== 1)
    throw new Error(`unexpected list: ${status} ${JSON.stringify(body)}`);
  return body.data[0];
}

test.serial('a new subscription lists no charges', async (t) => {
  const id = await newSubscriptionId(app.url, merchant, { firstDueDate: '2030-01-10' });
  const { status, body } = await listCharges(app.url, merchant, id);
  t.is(status, 200);
  t.deepEqual(body, { status: 'success', data: [] });
});

test.serial('a confirmed charge: every field with its type and format', async (t) => {
  const id = await newSubscriptionId(app.url, merchant, { firstDueDate: '2030-02-10', value: 4990, cardLastDigit: 1 });
  await runSchedulerTick(at('2030-02-10'));
  await chargeAfterAttempt(id, '2030-02-10', 1);
  const charge = await onlyCharge(id);
  t.deepEqual(Object.keys(charge).sort(), [...FIELDS].sort());
  t.true(Number.isInteger(charge.id));
  t.is(charge.subscriptionId, id);
  t.is(charge.status, 1);
  t.is(charge.value, 4990);
  t.is(charge.amount, 49.9);
  t.is(charge.dueDate, '2030-02-10');
  t.regex(charge.acquirerPaymentId, /^[0-9a-f-]{36}$/);
  t.is(charge.denialCode, '');
  t.is(charge.denialMessage, '');
  t.is(charge.attempts, 1);
  t.is(charge.nextRetryAt, null);
  t.true(Number.isInteger(charge.paymentTransactionId));
  t.regex(charge.createdAt, ISO_UTC);
  t.regex(charge.updatedAt, ISO_UTC);
});

test.serial('a soft denial: acquirer code and message, attempts 1, next retry day as YYYY-MM-DD', async (t) => {
  const id = await newSubscriptionId(app.url, merchant, { firstDueDate: '2030-03-10', cardLastDigit: 2 });
  await runSchedulerTick(at('2030-03-10'));
  await chargeAfterAttempt(id, '2030-03-10', 1);
  const charge = await onlyCharge(id);
  t.is(charge.status, 2);
  t.is(charge.denialCode, '05');
  t.is(charge.denialMessage, 'Not Authorized');
  t.is(charge.attempts, 1);
  t.is(charge.nextRetryAt, '2030-03-11');
  t.is(charge.paymentTransactionId, null);
  t.regex(charge.acquirerPaymentId, /^[0-9a-f-]{36}$/);
});

test.serial('a pending charge: status 0, attempts 1, empty denial and payment id, no transaction', async (t) => {
  const id = await newSubscriptionId(app.url, merchant, { firstDueDate: '2030-04-10', cardLastDigit: 1 });
  // The charge is held between the acquirer's answer and our write while the list is read.
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let answered!: () => void;
  const sent = new Promise<void>((resolve) => (answered = resolve));
  const run = runChargeAttempt(
    { subscriptionId: id, dueDate: '2030-04-10', attempt: 1, today: '2030-04-10' },
    {
      afterAcquirerAnswer: async () => {
        answered();
        await gate;
      },
    },
  );
  await sent;
  const charge = await onlyCharge(id);
  release();
  t.is(await run, 'confirmed');
  t.is(charge.status, 0);
  t.is(charge.attempts, 1);
  t.is(charge.acquirerPaymentId, '');
  t.is(charge.denialCode, '');
  t.is(charge.denialMessage, '');
  t.is(charge.nextRetryAt, null);
  t.is(charge.paymentTransactionId, null);
  t.is((await onlyCharge(id)).status, 1);
});

test.serial('retry off: the denial is final, attempts stay 1 and nothing is sent again', async (t) => {
  const id = await newSubscriptionId(app.url, merchant, { firstDueDate: '2030-05-10', cardLastDigit: 2, retry: false });
  await runSchedulerTick(at('2030-05-10'));
  const stored = await chargeAfterAttempt(id, '2030-05-10', 1);
  for (const day of ['2030-05-11', '2030-05-13', '2030-05-20']) await runSchedulerTick(at(day));
  const charge = await onlyCharge(id);
  t.is(charge.status, 2);
  t.is(charge.attempts, 1);
  t.is(charge.nextRetryAt, null);
  t.is((await salesForOrder(sandbox, `SUB${id}C${stored._id}A2`)).length, 0);
});

test.serial('a cancelled subscription: next retry null, no retry and no new charge', async (t) => {
  const id = await newSubscriptionId(app.url, merchant, { firstDueDate: '2030-06-10', cardLastDigit: 2 });
  await runSchedulerTick(at('2030-06-10'));
  t.is((await chargeAfterAttempt(id, '2030-06-10', 1)).nextRetryAt, '2030-06-11');
  const cancel = await send(app, 'PUT', `/api/v1/subscriptions/${id}/cancel/`, bearer(merchant.merchantToken));
  t.is(cancel.status, 200);
  t.is((await json(cancel)).data.status, 'cancelled');
  t.is((await onlyCharge(id)).nextRetryAt, null);
  await runSchedulerTick(at('2030-06-11'));
  await runSchedulerTick(at('2030-07-10'));
  const queue = getQueue(CHARGE_QUEUE);
  t.falsy(await queue.getJob(chargeJobId({ subscriptionId: id, dueDate: '2030-06-10', attempt: 2 })));
  t.falsy(await queue.getJob(chargeJobId({ subscriptionId: id, dueDate: '2030-07-10', attempt: 1 })));
  const charge = await onlyCharge(id);
  t.is(charge.attempts, 1);
  t.is(charge.nextRetryAt, null);
  t.is(await SubscriptionChargeModel.countDocuments({ subscriptionId: id }), 1);
});

test.serial('an expired subscription: its last charge settled, next retry null', async (t) => {
  const id = await newSubscriptionId(app.url, merchant, { firstDueDate: '2030-08-10', cardLastDigit: 3, maxCycles: 1 });
  await runSchedulerTick(at('2030-08-10'));
  await chargeAfterAttempt(id, '2030-08-10', 1);
  const charge = await onlyCharge(id);
  t.is(charge.status, 2);
  t.is(charge.denialCode, '57');
  t.is(charge.nextRetryAt, null);
  // The worker expires it right after recording the last charge.
  const sub = await eventually(async () => {
    const read = await json(await send(app, 'GET', `/api/v1/subscriptions/${id}/`, bearer(merchant.merchantToken)));
    return read.data.status === 'expired' ? read : undefined;
  });
  t.is(sub.data.status, 'expired');
  t.is(sub.data.nextDueDate, null);
});

test.serial('a refunded charge: status 3, empty denial fields, transaction id kept', async (t) => {
  const id = await newSubscriptionId(app.url, merchant, { firstDueDate: '2030-09-10', cardLastDigit: 4 });
  await runSchedulerTick(at('2030-09-10'));
  const confirmed = await chargeAfterAttempt(id, '2030-09-10', 1);
  t.is(confirmed.status, 1);
  const refundPath = `/api/v1/subscriptions/${id}/charges/${confirmed._id}/refund/`;
  const res = await send(app, 'PUT', refundPath, bearer(merchant.merchantToken));
  t.is(res.status, 200);
  const refunded = (await json(res)).data;
  t.is(refunded.status, 3);
  t.is(refunded.denialCode, '');
  t.is(refunded.denialMessage, '');
  t.is(refunded.nextRetryAt, null);
  t.is(refunded.paymentTransactionId, confirmed.paymentTransactionId);
  t.deepEqual(await onlyCharge(id), refunded);
  const again = await send(app, 'PUT', refundPath, bearer(merchant.merchantToken));
  t.is(again.status, 200);
  t.is((await json(again)).data.status, 3);
});

test.serial('only a confirmed charge can be refunded', async (t) => {
  const id = await newSubscriptionId(app.url, merchant, { firstDueDate: '2030-10-10', cardLastDigit: 2 });
  await runSchedulerTick(at('2030-10-10'));
  const denied = await chargeAfterAttempt(id, '2030-10-10', 1);
  const res = await send(
    app,
    'PUT',
    `/api/v1/subscriptions/${id}/charges/${denied._id}/refund/`,
    bearer(merchant.merchantToken),
  );
  t.is(res.status, 409);
  const unknown = await send(
    app,
    'PUT',
    `/api/v1/subscriptions/${id}/charges/99999999/refund/`,
    bearer(merchant.merchantToken),
  );
  t.is(unknown.status, 404);
});

test.serial("another merchant's subscription, an unknown id and a non-integer id are 404", async (t) => {
  const id = await newSubscriptionId(app.url, merchant, { firstDueDate: '2030-11-10' });
  t.is((await listCharges(app.url, other, id)).status, 404);
  t.is((await listCharges(app.url, merchant, 987654321)).status, 404);
  t.is((await listCharges(app.url, merchant, 'abc')).status, 404);
  const read = await send(app, 'GET', `/api/v1/subscriptions/${id}/`, bearer(other.merchantToken));
  t.is(read.status, 404);
  const cancel = await send(app, 'PUT', `/api/v1/subscriptions/${id}/cancel/`, bearer(other.merchantToken));
  t.is(cancel.status, 404);
  t.is((await SubscriptionModel.findById(id).lean())!.status, 'active');
});

test.serial('no credential is 401; the system token acts for the merchant it names', async (t) => {
  const id = await newSubscriptionId(app.url, merchant, { firstDueDate: '2030-11-11' });
  t.is((await send(app, 'GET', `/api/v1/subscriptions/${id}/charges/`)).status, 401);
  const asSystem = await send(
    app,
    'GET',
    `/api/v1/subscriptions/${id}/charges/`,
    bearer(systemToken(), { 'x-merchant-id': String(merchant.merchantId) }),
  );
  t.is(asSystem.status, 200);
});

test.serial('create: validation names every bad field; the card token is never shown', async (t) => {
  const bad = await send(app, 'POST', '/api/v1/subscriptions/', bearer(merchant.merchantToken), {
    value: 10.5,
    billingCycle: 'daily',
    firstDueDate: '2030-13-01',
    encryptedCard: 'bm90IGEgY2FyZA==',
  });
  t.is(bad.status, 400);
  const fields = await json(bad);
  t.deepEqual(fields.value, ['A valid integer is required: value is in cents (1050 = R$ 10,50).']);
  t.truthy(fields.billingCycle);
  t.truthy(fields.firstDueDate);
  const badCard = await createSubscription(app.url, merchant, { encryptedCard: 'bm90IGEgY2FyZA==' });
  t.is(badCard.status, 400);
  t.truthy(badCard.body.encryptedCard);
  // A Luhn-valid number of no brand the acquirer accepts: refused at tokenization.
  const unknownBrand = Array.from({ length: 10 }, (_, digit) => `900000000000000${digit}`).find(luhnValid)!;
  const refused = await createSubscription(app.url, merchant, {
    encryptedCard: encryptedTestCard({ number: unknownBrand, expYear: 2035 }),
  });
  t.is(refused.status, 400);
  t.regex(refused.body.encryptedCard[0], /acquirer refused this card/);
  const past = await createSubscription(app.url, merchant, { firstDueDate: '2020-01-01' });
  t.deepEqual(past.body, { firstDueDate: ['The first due date cannot be in the past.'] });

  // The checks past the schema (the clock, the card's decryption) answer in the same 400 as the schema's.
  const everyBadField = await createSubscription(app.url, merchant, {
    value: 1.5,
    billingCycle: 'yearly',
    firstDueDate: '2020-01-01',
    endDate: '2019-12-31',
    encryptedCard: 'bm90IGEgY2FyZA==',
  });
  t.is(everyBadField.status, 400);
  t.deepEqual(Object.keys(everyBadField.body).sort(), [
    'billingCycle',
    'encryptedCard',
    'endDate',
    'firstDueDate',
    'value',
  ]);
  t.deepEqual(everyBadField.body.firstDueDate, ['The first due date cannot be in the past.']);
  t.deepEqual(everyBadField.body.endDate, ['The end date cannot be before the first due date.']);
  t.deepEqual(everyBadField.body.encryptedCard, badCard.body.encryptedCard);
  // A card that decrypts but breaks a rule is named by its field, as docs/cards.md says.
  const expired = await createSubscription(app.url, merchant, {
    value: 1.5,
    encryptedCard: encryptedTestCard({ number: testCardNumber(1), expYear: 2020 }),
  });
  t.deepEqual(expired.body, {
    value: ['A valid integer is required: value is in cents (1050 = R$ 10,50).'],
    expiry: ['The card has expired.'],
  });

  const created = await createSubscription(app.url, merchant, {
    firstDueDate: '2030-12-31',
    billingCycle: 'quarterly',
    retry: false,
    maxCycles: 4,
    cardLastDigit: 1,
  });
  t.is(created.status, 201);
  const sub = created.body.data;
  t.is(sub.status, 'active');
  t.is(sub.nextDueDate, '2030-12-31');
  t.is(sub.retry, false);
  t.deepEqual(Object.keys(sub.card).sort(), ['bin', 'brand', 'expMonth', 'expYear', 'holder', 'last4']);
  t.is(sub.card.brand, 'Visa');
  const stored = await SubscriptionModel.findById(sub.id).lean();
  t.truthy(stored!.card.token);
  t.false(JSON.stringify(stored).includes(testCardNumber(1))); // only brand, BIN and last four
});

/**
 * Database round trips of one charge run, counted as commands by collection: the job as the
 * scheduler makes it (with its copy of the cycle). The id blocks (id_sequences inserts, one per
 * ID_BLOCK_SIZE ids) are left out of the exact figure and bounded apart.
 */
async function chargeCommands(cardLastDigit: number, firstDueDate: string) {
  const id = await newSubscriptionId(app.url, merchant, { firstDueDate, cardLastDigit });
  const cycle = dueCycleOf((await SubscriptionModel.findById(id).lean())!);
  const data = { subscriptionId: id, dueDate: firstDueDate, attempt: 1, today: firstDueDate, cycle };
  const { result, commands } = await countDbCommands(() => runChargeAttempt(data));
  const { 'id_sequences insert': idBlocks = 0, ...by } = commands.by;
  return { id, result, by, idBlocks };
}

/**
 * One charge run, approved or denied: the subscription read beside its cancellation record (one wait; the job's copy
 * of the cycle is checked against it, never charged from), the charge inserted, the subscription moved on, the
 * outcome inserted and applied, and its account event (the charge's last event read, the event inserted).
 */
const ONE_CHARGE = {
  'subscriptions find': 1,
  'subscription_cancellations find': 1,
  'subscription_charges insert': 1,
  'subscriptions update': 1,
  'subscription_charge_attempts insert': 1,
  // the outcome applied (owing its account event, src/events/outbox.ts), then the owed entry cleared
  'subscription_charges update': 2,
  'account_events find': 1,
  'account_events insert': 1,
};

test.serial(
  'one approved charge: the subscription read, the charge inserted, the subscription moved on, the outcome ' +
    'inserted and applied',
  async (t) => {
    const { id, result, by, idBlocks } = await chargeCommands(1, '2031-01-10');
    t.is(result, 'confirmed');
    t.deepEqual(by, ONE_CHARGE);
    t.true(idBlocks <= 2, `${idBlocks} id blocks claimed (charge and payment transaction sequences)`);
    const sub = (await SubscriptionModel.findById(id).lean())!;
    t.is(sub.nextDueDate, '2031-02-10');
    t.is(sub.nextCycle, 1);
    t.is((await SubscriptionChargeModel.findOne({ subscriptionId: id }).lean())!.status, 1);
  },
);

test.serial('one denied charge with a retry scheduled: the same round trips', async (t) => {
  const { id, result, by, idBlocks } = await chargeCommands(2, '2031-02-10');
  t.is(result, 'denied');
  t.is((await SubscriptionChargeModel.findOne({ subscriptionId: id }).lean())!.nextRetryAt, '2031-02-11');
  t.deepEqual(by, ONE_CHARGE);
  t.true(idBlocks <= 1, `${idBlocks} id blocks claimed (charge sequence)`);
});

test.serial('a job with the cycle for a subscription cancelled before it ran makes no charge', async (t) => {
  const id = await newSubscriptionId(app.url, merchant, { firstDueDate: '2031-03-10' });
  const cycle = dueCycleOf((await SubscriptionModel.findById(id).lean())!);
  const cancel = await send(app, 'PUT', `/api/v1/subscriptions/${id}/cancel/`, bearer(merchant.merchantToken));
  t.is(cancel.status, 200);
  t.is(
    await runChargeAttempt({ subscriptionId: id, dueDate: '2031-03-10', attempt: 1, today: '2031-03-10', cycle }),
    'not-due',
  );
  t.is(await SubscriptionChargeModel.countDocuments({ subscriptionId: id }), 0);
  t.is((await SubscriptionModel.findById(id).lean())!.status, 'cancelled');
});

test.serial('a job with the cycle run again after its charge exists sends nothing more', async (t) => {
  const id = await newSubscriptionId(app.url, merchant, { firstDueDate: '2031-04-10' });
  const cycle = dueCycleOf((await SubscriptionModel.findById(id).lean())!);
  const data = { subscriptionId: id, dueDate: '2031-04-10', attempt: 1, today: '2031-04-10', cycle };
  t.is(await runChargeAttempt(data), 'confirmed');
  const charge = (await SubscriptionChargeModel.findOne({ subscriptionId: id }).lean())!;
  t.is(await runChargeAttempt(data, { rerun: true }), 'already-recorded');
  t.is(await SubscriptionChargeModel.countDocuments({ subscriptionId: id }), 1);
  t.deepEqual(await salesForOrder(sandbox, `SUB${id}C${charge._id}A1`), [charge.acquirerPaymentId]);
  t.is((await SubscriptionModel.findById(id).lean())!.nextDueDate, '2031-05-10');
});

test.serial(
  'a job with the cycle whose run died between the charge insert and moving the subscription on: the next run ' +
    'does both, one sale',
  async (t) => {
    const id = await newSubscriptionId(app.url, merchant, { firstDueDate: '2031-05-10' });
    const cycle = dueCycleOf((await SubscriptionModel.findById(id).lean())!);
    // What the dead run left: the charge inserted, PENDING; the subscription still at this due date.
    const left = await SubscriptionChargeModel.create({
      _id: 990_000_000 + id,
      subscriptionId: id,
      merchantId: merchant.merchantId,
      dueDate: '2031-05-10',
      cycle: 0,
      status: 0,
      value: 4990,
      attempts: 1,
    });
    const data = { subscriptionId: id, dueDate: '2031-05-10', attempt: 1, today: '2031-05-10', cycle };
    t.is(await runChargeAttempt(data, { rerun: true }), 'confirmed');
    const charge = (await SubscriptionChargeModel.findById(left._id).lean())!;
    t.is(charge.status, 1);
    t.is(await SubscriptionChargeModel.countDocuments({ subscriptionId: id }), 1);
    t.deepEqual(await salesForOrder(sandbox, `SUB${id}C${charge._id}A1`), [charge.acquirerPaymentId]);
    const sub = (await SubscriptionModel.findById(id).lean())!;
    t.is(sub.nextDueDate, '2031-06-10');
    t.is(sub.nextCycle, 1);
  },
);

test.serial(
  'a charge job written to Redis with a made-up copy of the cycle charges nothing; the real cycle is charged as ' +
    'stored',
  async (t) => {
    const id = await newSubscriptionId(app.url, merchant, { firstDueDate: '2031-06-10' });
    const before = (await SubscriptionModel.findById(id).lean())!;
    const real = {
      subscriptionId: id,
      dueDate: '2031-06-10',
      attempt: 1,
      today: '2031-06-10',
      cycle: dueCycleOf(before),
    };
    const forgeries = [
      { ...real.cycle, value: 999_999 },
      { ...real.cycle, merchantId: other.merchantId },
      { ...real.cycle, followingDueDate: '2099-01-10' },
      { ...real.cycle, number: 5 },
    ];
    const queue = getQueue(CHARGE_QUEUE);
    for (const [n, cycle] of forgeries.entries()) {
      const forged = await queue.add(CHARGE_JOB_NAME, { ...real, cycle }, { jobId: `forged-charge-${id}-${n}` });
      const finished = (await eventually(async () => {
        const job = await queue.getJob(forged.id!);
        return job?.finishedOn && job;
      }, 30_000)) as Job;
      t.deepEqual(await SubscriptionChargeModel.find({ subscriptionId: id }).lean(), [], JSON.stringify(cycle));
      t.regex(finished.failedReason ?? '', /does not match the stored subscription/);
      t.is(finished.attemptsMade, 1, 'never retried');
    }
    t.deepEqual(await SubscriptionModel.findById(id).lean(), before, 'the subscription is as it was');
    t.is(await runChargeAttempt(real), 'confirmed');
    const charge = (await SubscriptionChargeModel.findOne({ subscriptionId: id }).lean())!;
    t.like(charge, { value: before.value, merchantId: merchant.merchantId, cycle: 0 });
    t.is((await SubscriptionModel.findById(id).lean())!.nextDueDate, '2031-07-10');
  },
);
