import '../helpers/env';
import test from 'ava';
import { Worker } from 'bullmq';
import { startTestApp, type TestApp } from '../helpers/app';
import { newMerchant, type TestMerchant } from '../helpers/identity';
import { eventually, startProcess, stopAll, type RunningProcess } from '../helpers/processes';
import { getConfig } from '../../config';
import { closeAcquirerClient } from '../../src/acquirer/client';
import { createRedisConnection, getQueue } from '../../src/queue';
import { chargeJobId, type ChargeJobData } from '../../src/subscriptions/charging';
import { CHARGE_JOB_NAME, CHARGE_QUEUE, FAILED_CHARGE_JOB_RETRY_MS, recoverStalledCharges, STALE_PENDING_CHARGE_MS } from '../../src/subscriptions/scheduling';
import { ChargeStatus, SubscriptionChargeModel, SubscriptionModel } from '../../src/subscriptions/model';
import { newSubscriptionId, salesForOrder, startSandbox } from './support';

// Charges whose jobs failed for good or were lost. Serial: each recovery pass sees the whole queue
// and every charge of this file's database.
let app: TestApp;
let sandbox: RunningProcess;
let merchant: TestMerchant;

test.before(async () => {
  sandbox = await startSandbox();
  app = await startTestApp();
  merchant = await newMerchant();
});
test.after.always(async () => {
  await app?.close();
  await closeAcquirerClient();
  await stopAll();
});

const queue = () => getQueue<ChargeJobData>(CHARGE_QUEUE);

test.serial('a charge job that failed for good is run again by the scheduler pass, and charges once', async (t) => {
  const dueDate = '2032-05-10';
  const subscriptionId = await newSubscriptionId(app.url, merchant, { firstDueDate: dueDate, cardLastDigit: 1 });
  const data: ChargeJobData = { subscriptionId, dueDate, attempt: 1, today: dueDate };
  // The job fails through its only attempt (as if the database had been down through all of them).
  await queue().add(CHARGE_JOB_NAME, data, { jobId: chargeJobId(data), attempts: 1 });
  const failing = new Worker(CHARGE_QUEUE, async () => {
    throw new Error('database unavailable');
  }, { connection: createRedisConnection({ maxRetriesPerRequest: null }), prefix: getConfig().queuePrefix });
  await eventually(async () => (await queue().getJob(chargeJobId(data)))?.isFailed());
  await failing.close();
  // The scheduler's add of the same id is ignored while BullMQ keeps the failed job: stuck without the pass.
  await queue().add(CHARGE_JOB_NAME, data, { jobId: chargeJobId(data) });
  t.true(await (await queue().getJob(chargeJobId(data)))!.isFailed());

  const worker = await startProcess('worker', { WORKER_QUEUES: CHARGE_QUEUE });
  try {
    t.deepEqual(await recoverStalledCharges(Date.now()), { retried: 0, requeued: 0 }, 'a job failed moments ago is left for an operator to see');
    t.deepEqual(await recoverStalledCharges(Date.now() + FAILED_CHARGE_JOB_RETRY_MS + 1000), { retried: 1, requeued: 0 });
    const charge = await eventually(async () => {
      const found = await SubscriptionChargeModel.findOne({ subscriptionId, dueDate }).lean();
      return found?.status === ChargeStatus.CONFIRMED ? found : null;
    });
    t.deepEqual((await salesForOrder(sandbox, `SUB${subscriptionId}C${charge!._id}A1`)).length, 1);
  } finally {
    await worker.stop();
  }
});

test.serial('a charge left PENDING whose job Redis lost is sent again, once', async (t) => {
  const dueDate = '2032-06-10';
  const subscriptionId = await newSubscriptionId(app.url, merchant, { firstDueDate: dueDate, cardLastDigit: 1 });
  // The charge was inserted and the subscription moved on, then the job vanished with Redis's data.
  const longAgo = new Date(Date.now() - STALE_PENDING_CHARGE_MS - 60_000);
  await SubscriptionChargeModel.collection.insertOne({
    _id: 990_001 as never,
    subscriptionId,
    merchantId: merchant.merchantId,
    dueDate,
    cycle: 0,
    status: ChargeStatus.PENDING,
    value: 4990,
    attempts: 1,
    createdAt: longAgo,
    updatedAt: longAgo,
  });
  await SubscriptionModel.updateOne({ _id: subscriptionId }, { $set: { nextDueDate: '2032-07-10', nextCycle: 1 } });
  const recent = await newSubscriptionId(app.url, merchant, { firstDueDate: '2032-06-11', cardLastDigit: 1 });
  await SubscriptionChargeModel.create({ _id: 990_002, subscriptionId: recent, merchantId: merchant.merchantId, dueDate: '2032-06-11', cycle: 0, status: ChargeStatus.PENDING, value: 4990, attempts: 1 });

  const worker = await startProcess('worker', { WORKER_QUEUES: CHARGE_QUEUE });
  try {
    t.deepEqual(await recoverStalledCharges(Date.now()), { retried: 0, requeued: 1 }, 'only the charge pending for longer than a send takes');
    const charge = await eventually(async () => {
      const found = await SubscriptionChargeModel.findById(990_001).lean();
      return found?.status === ChargeStatus.CONFIRMED ? found : null;
    });
    t.is(charge!.attempts, 1);
    t.deepEqual((await salesForOrder(sandbox, `SUB${subscriptionId}C990001A1`)).length, 1);
    t.deepEqual(await recoverStalledCharges(Date.now()), { retried: 0, requeued: 0 }, 'nothing is sent twice');
    t.is((await SubscriptionChargeModel.findById(990_002).lean())!.status, ChargeStatus.PENDING);
  } finally {
    await worker.stop();
  }
});
