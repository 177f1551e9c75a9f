import '../helpers/env';
import test from 'ava';
import { Worker } from 'bullmq';
import { eventually, startProcess } from '../helpers/processes';
import { getConfig } from '../../config';
import { createCardSale } from '../../src/acquirer/client';
import { cancelSubscription } from '../../src/subscriptions/service';
import { getQueue } from '../../src/queue/queues';
import { createRedisConnection } from '../../src/platform/redis';
import { attemptOrderId } from '../../src/subscriptions/charging';
import { type ChargeJobData } from '../../jobs/charge-subscription';
import {
  enqueueDueSubscriptionCharges,
  FAILED_CHARGE_JOB_RETRY_MS,
  MAX_RECOVERED_CHARGE_AGE_MS,
  recoverStalledCharges,
  STALE_PENDING_CHARGE_MS,
} from '../../src/subscriptions/scheduling';
import { CHARGE_JOB_NAME, CHARGE_QUEUE, chargeJobId } from '../../jobs/charge-subscription';
import {
  ChargeStatus,
  SubscriptionChargeModel,
  SubscriptionModel,
  type ChargeStatusCode,
} from '../../src/subscriptions/model';
import { approvedSubscriptionId, salesForOrder, useSubscriptionStack } from './support';
import { send } from '../helpers/http';

// Charges whose jobs failed for good or were lost. Serial: each recovery pass sees the whole queue
// and every charge of this file's database.
const stack = useSubscriptionStack();

const queue = () => getQueue<ChargeJobData>(CHARGE_QUEUE);

/** The charge `read` finds, once it has this status. */
const chargeOnceIn = <C extends { status: number }>(status: ChargeStatusCode, read: () => Promise<C | null>) =>
  eventually(async () => {
    const found = await read();
    return found?.status === status ? found : null;
  });

test.serial('a charge job that failed for good is run again by the scheduler pass, and charges once', async (t) => {
  const dueDate = '2032-05-10';
  const subscriptionId = await approvedSubscriptionId(stack, dueDate);
  const data: ChargeJobData = { subscriptionId, dueDate, attempt: 1, today: dueDate };
  // The job fails through its only attempt (as if the database had been down through all of them).
  await queue().add(CHARGE_JOB_NAME, data, { jobId: chargeJobId(data), attempts: 1 });
  const failing = new Worker(
    CHARGE_QUEUE,
    async () => {
      throw new Error('database unavailable');
    },
    { connection: createRedisConnection({ maxRetriesPerRequest: null }), prefix: getConfig().queuePrefix },
  );
  await eventually(async () => (await queue().getJob(chargeJobId(data)))?.isFailed());
  await failing.close();
  // The scheduler's add of the same id is ignored while BullMQ keeps the failed job: stuck without the pass.
  await queue().add(CHARGE_JOB_NAME, data, { jobId: chargeJobId(data) });
  t.true(await (await queue().getJob(chargeJobId(data)))!.isFailed());

  const worker = await startProcess('worker', { WORKER_QUEUES: CHARGE_QUEUE });
  try {
    t.deepEqual(
      await recoverStalledCharges(Date.now()),
      { retried: 0, requeued: 0, tooOld: 0 },
      'a job failed moments ago is left for an operator to see',
    );
    // Two schedulers at once: the job is run again once, and neither pass fails.
    const passes = await Promise.all([
      recoverStalledCharges(Date.now() + FAILED_CHARGE_JOB_RETRY_MS + 1000),
      recoverStalledCharges(Date.now() + FAILED_CHARGE_JOB_RETRY_MS + 1000),
    ]);
    t.is(passes[0].retried + passes[1].retried, 1);
    const charge = await chargeOnceIn(ChargeStatus.CONFIRMED, () =>
      SubscriptionChargeModel.findOne({ subscriptionId, dueDate }).lean(),
    );
    t.deepEqual((await salesForOrder(stack.sandbox, `SUB${subscriptionId}C${charge!._id}A1`)).length, 1);
  } finally {
    await worker.stop();
  }
});

async function insertLostPendingCharge(id: number, subscriptionId: number, dueDate: string, createdAt: Date) {
  await SubscriptionChargeModel.collection.insertOne({
    _id: id as never,
    subscriptionId,
    merchantId: stack.merchant.merchantId,
    dueDate,
    cycle: 0,
    status: ChargeStatus.PENDING,
    value: 4990,
    attempts: 1,
    createdAt,
    updatedAt: createdAt,
  });
}

test.serial(
  'a charge left PENDING whose job Redis lost is completed from the sale its lost job made, never sent twice',
  async (t) => {
    const dueDate = '2032-06-10';
    const subscriptionId = await approvedSubscriptionId(stack, dueDate);
    // The charge was inserted, the subscription moved on, the lost job had even made the sale; then
    // the job vanished with Redis's data before the outcome was recorded.
    await insertLostPendingCharge(
      990_001,
      subscriptionId,
      dueDate,
      new Date(Date.now() - STALE_PENDING_CHARGE_MS - 60_000),
    );
    await SubscriptionModel.updateOne({ _id: subscriptionId }, { $set: { nextDueDate: '2032-07-10', nextCycle: 1 } });
    const sub = (await SubscriptionModel.findById(subscriptionId).lean())!;
    const madeByLostJob = await createCardSale({
      idempotencyKey: 'the-lost-run',
      merchantOrderId: attemptOrderId(subscriptionId, 990_001, 1),
      amountCents: 4990,
      installments: 1,
      capture: true,
      recurrent: true,
      customer: { name: sub.customer.name },
      card: { cardToken: sub.card.token, brand: sub.card.brand },
    });
    t.true(madeByLostJob.approved);
    const recent = await approvedSubscriptionId(stack, '2032-06-11');
    await SubscriptionChargeModel.create({
      _id: 990_002,
      subscriptionId: recent,
      merchantId: stack.merchant.merchantId,
      dueDate: '2032-06-11',
      cycle: 0,
      status: ChargeStatus.PENDING,
      value: 4990,
      attempts: 1,
    });

    const worker = await startProcess('worker', { WORKER_QUEUES: CHARGE_QUEUE });
    try {
      t.deepEqual(
        await recoverStalledCharges(Date.now()),
        { retried: 0, requeued: 1, tooOld: 0 },
        'only the charge pending for longer than a send takes',
      );
      const charge = await chargeOnceIn(ChargeStatus.CONFIRMED, () => SubscriptionChargeModel.findById(990_001).lean());
      t.is(charge!.attempts, 1);
      t.is(charge!.acquirerPaymentId, madeByLostJob.paymentId, 'the earlier sale is taken, not a new one made');
      t.deepEqual(await salesForOrder(stack.sandbox, attemptOrderId(subscriptionId, 990_001, 1)), [
        madeByLostJob.paymentId,
      ]);
      t.deepEqual(
        await recoverStalledCharges(Date.now()),
        { retried: 0, requeued: 0, tooOld: 0 },
        'nothing is sent twice',
      );
      t.is((await SubscriptionChargeModel.findById(990_002).lean())!.status, ChargeStatus.PENDING);
      await SubscriptionChargeModel.deleteOne({ _id: 990_002 });
    } finally {
      await worker.stop();
    }
  },
);

/**
 * A subscription whose first cycle's charge `chargeId`, due `dueDate`, was left PENDING at
 * `stalledAt` while the subscription moved on to `nextDueDate`, with that charge's job queued.
 */
async function stalledChargeWithJob(chargeId: number, dueDate: string, nextDueDate: string, stalledAt: Date) {
  const subscriptionId = await approvedSubscriptionId(stack, dueDate);
  await insertLostPendingCharge(chargeId, subscriptionId, dueDate, stalledAt);
  await SubscriptionModel.updateOne({ _id: subscriptionId }, { $set: { nextDueDate, nextCycle: 1 } });
  const job: ChargeJobData = { subscriptionId, dueDate, attempt: 1, today: dueDate };
  await queue().add(CHARGE_JOB_NAME, job, { jobId: chargeJobId(job) });
  return { subscriptionId, job };
}

test.serial(
  'a charge left PENDING whose job Redis keeps as completed is queued again; one whose job still waits is left',
  async (t) => {
    const stalledAt = new Date(Date.now() - STALE_PENDING_CHARGE_MS - 60_000);
    // The job ran to completion (BullMQ keeps it up to 7 days) without the charge's outcome being
    // recorded: the scheduler's add under the same id would be ignored while Redis keeps it.
    const { subscriptionId: completedSub, job: completed } = await stalledChargeWithJob(
      990_005,
      '2032-07-20',
      '2032-08-20',
      stalledAt,
    );
    const returning = new Worker(CHARGE_QUEUE, async () => 'ended without recording', {
      connection: createRedisConnection({ maxRetriesPerRequest: null }),
      prefix: getConfig().queuePrefix,
    });
    await eventually(async () => (await queue().getJob(chargeJobId(completed)))?.isCompleted());
    await returning.close();
    // A charge whose job is queued and will run by itself (no worker yet).
    const { subscriptionId: waitingSub, job: waiting } = await stalledChargeWithJob(
      990_006,
      '2032-07-21',
      '2032-08-21',
      stalledAt,
    );

    t.deepEqual(await recoverStalledCharges(Date.now()), { retried: 0, requeued: 1, tooOld: 0 });
    t.is(await (await queue().getJob(chargeJobId(completed)))?.getState(), 'waiting', 'queued again under its id');
    t.is(
      (await SubscriptionChargeModel.findById(990_005).lean())!.unsettledMerchantOrderId,
      attemptOrderId(completedSub, 990_005, 1),
      'marked unsettled: the worker looks for a sale the completed run made before sending',
    );
    t.is(await (await queue().getJob(chargeJobId(waiting)))?.getState(), 'waiting');
    t.falsy((await SubscriptionChargeModel.findById(990_006).lean())!.unsettledMerchantOrderId, 'left alone');

    const worker = await startProcess('worker', { WORKER_QUEUES: CHARGE_QUEUE });
    try {
      for (const [id, sub] of [
        [990_005, completedSub],
        [990_006, waitingSub],
      ]) {
        await chargeOnceIn(ChargeStatus.CONFIRMED, () => SubscriptionChargeModel.findById(id).lean());
        t.is((await salesForOrder(stack.sandbox, attemptOrderId(sub, id, 1))).length, 1);
      }
    } finally {
      await worker.stop();
    }
  },
);

test.serial(
  'a lost PENDING charge of a cancelled subscription is closed, not sent; one lost for days is left for an operator',
  async (t) => {
    const cancelledSub = await approvedSubscriptionId(stack, '2032-08-10');
    await insertLostPendingCharge(
      990_003,
      cancelledSub,
      '2032-08-10',
      new Date(Date.now() - STALE_PENDING_CHARGE_MS - 60_000),
    );
    await cancelSubscription(stack.merchant.merchantId, cancelledSub);
    const forgottenSub = await approvedSubscriptionId(stack, '2032-09-10');
    await SubscriptionModel.updateOne({ _id: forgottenSub }, { $set: { nextDueDate: '2032-10-10', nextCycle: 1 } });
    await insertLostPendingCharge(
      990_004,
      forgottenSub,
      '2032-09-10',
      new Date(Date.now() - MAX_RECOVERED_CHARGE_AGE_MS - 60_000),
    );

    const worker = await startProcess('worker', { WORKER_QUEUES: CHARGE_QUEUE });
    try {
      t.deepEqual(await recoverStalledCharges(Date.now()), { retried: 0, requeued: 1, tooOld: 1 });
      const closed = await chargeOnceIn(ChargeStatus.DENIED, () => SubscriptionChargeModel.findById(990_003).lean());
      t.is(closed!.denialCode, 'subscription_cancelled');
      t.is(closed!.nextRetryAt, null);
      t.deepEqual(
        await salesForOrder(stack.sandbox, attemptOrderId(cancelledSub, 990_003, 1)),
        [],
        'nothing was sent to the acquirer',
      );
      t.is(
        (await SubscriptionChargeModel.findById(990_004).lean())!.status,
        ChargeStatus.PENDING,
        'too old to send on its own',
      );
      t.deepEqual(await salesForOrder(stack.sandbox, attemptOrderId(forgottenSub, 990_004, 1)), []);
    } finally {
      await worker.stop();
    }
  },
);

test.serial(
  'a cancellation undone by a concurrent whole-document write still stops charging, and the status is restored',
  async (t) => {
    const dueDate = '2032-11-10';
    const subscriptionId = await approvedSubscriptionId(stack, dueDate);
    await cancelSubscription(stack.merchant.merchantId, subscriptionId);
    // A charge run advancing the subscription wrote its stale copy back over the cancellation.
    await SubscriptionModel.updateOne({ _id: subscriptionId }, { $set: { status: 'active', nextDueDate: dueDate } });
    // Read through the API, it is cancelled (and the stored status is put back).
    const read = await send(stack.app, 'GET', `/api/v1/subscriptions/${subscriptionId}/`, {
      authorization: `Bearer ${stack.merchant.merchantToken}`,
    });
    t.is(((await read.json()) as { data: { status: string } }).data.status, 'cancelled');
    await SubscriptionModel.updateOne({ _id: subscriptionId }, { $set: { status: 'active', nextDueDate: dueDate } });

    const worker = await startProcess('worker', { WORKER_QUEUES: CHARGE_QUEUE });
    try {
      t.true((await enqueueDueSubscriptionCharges(new Date(`${dueDate}T06:00:00Z`))) >= 1);
      const restored = await eventually(async () => {
        const sub = await SubscriptionModel.findById(subscriptionId).lean();
        return sub?.status === 'cancelled' ? sub : null;
      });
      t.is(restored!.nextDueDate, null);
      t.is(
        await SubscriptionChargeModel.countDocuments({ subscriptionId }),
        0,
        'no charge for a cancelled subscription',
      );
    } finally {
      await worker.stop();
    }
  },
);
