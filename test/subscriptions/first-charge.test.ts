import '../helpers/env';
import test from 'ava';
import { startProcess } from '../helpers/processes';
import { getQueue } from '../../src/queue/queues';
import { addMonths, dayOf } from '../../src/subscriptions/clock';
import type { ChargeJobData } from '../../jobs/charge-subscription';
import { CHARGE_QUEUE, chargeJobId } from '../../jobs/charge-subscription';
import { createSubscription as createInProcess } from '../../src/subscriptions/service';
import { ChargeAttemptModel, SubscriptionChargeModel, SubscriptionModel } from '../../src/subscriptions/model';
import { runSchedulerTick } from '../../workers/scheduler';
import {
  chargeAfterAttempt,
  createSubscription,
  subscriptionCard,
  listCharges,
  salesForOrder,
  useSubscriptionStack,
  type SubscriptionStack,
} from './support';
import { encryptedTestCard } from '../helpers/cards';

// A subscription whose first due date is today gets its first charge with its creation (issue 14).
// "Today" is the UTC day, as the scheduler counts it: real processes tick with the real clock.
// Serial: the scheduler and worker processes started here see every subscription of this file.
let stack: SubscriptionStack;
useSubscriptionStack((started) => {
  stack = started;
});

const queue = () => getQueue<ChargeJobData>(CHARGE_QUEUE);

async function jobsOf(subscriptionId: number) {
  const jobs = await queue().getJobs(['waiting', 'active', 'completed', 'delayed', 'failed', 'prioritized']);
  return jobs.filter((job) => job?.data.subscriptionId === subscriptionId);
}

/** The first charge confirmed by a real worker, once: one charge, one recorded attempt, one sale at the acquirer. */
async function assertChargedOnce(t: import('ava').ExecutionContext, subscriptionId: number, today: string) {
  const charge = await chargeAfterAttempt(subscriptionId, today, 1);
  t.is(charge.status, 1);
  t.is(await SubscriptionChargeModel.countDocuments({ subscriptionId }), 1);
  t.is(await ChargeAttemptModel.countDocuments({ chargeId: charge._id }), 1);
  t.deepEqual(await salesForOrder(stack.sandbox, `SUB${subscriptionId}C${charge._id}A1`), [charge.acquirerPaymentId]);
}

test.serial('due today: the first charge is listed and queued when the creation answers; ticks add none', async (t) => {
  const today = dayOf(new Date());
  const created = await createSubscription(stack.app.url, stack.merchant, { firstDueDate: today, cardLastDigit: 1 });
  t.is(created.status, 201, JSON.stringify(created.body));
  const id: number = created.body.data.id;
  t.is(created.body.data.nextDueDate, addMonths(today, 1), 'the answer already shows the following cycle');

  const listed = await listCharges(stack.app.url, stack.merchant, id);
  t.is(listed.status, 200);
  t.is(listed.body.data.length, 1);
  t.like(listed.body.data[0], { subscriptionId: id, status: 0, dueDate: today, value: 4990, attempts: 1 });
  // Queued exactly as the scheduler queues a due cycle: same id, same data.
  const job = await queue().getJob(chargeJobId({ subscriptionId: id, dueDate: today, attempt: 1 }));
  t.truthy(job, 'the charge job is queued with the subscription');
  t.deepEqual(job!.data, {
    subscriptionId: id,
    dueDate: today,
    attempt: 1,
    today,
    cycle: { merchantId: stack.merchant.merchantId, value: 4990, number: 0, followingDueDate: addMonths(today, 1) },
  });

  // A scheduler process (its first tick runs as it starts) and two ticks from here, before any worker runs.
  const scheduler = await startProcess('scheduler');
  await Promise.all([runSchedulerTick(), runSchedulerTick()]);
  t.is(await SubscriptionChargeModel.countDocuments({ subscriptionId: id }), 1);
  t.is((await jobsOf(id)).length, 1);

  const worker = await startProcess('worker', { WORKER_QUEUES: CHARGE_QUEUE });
  try {
    await assertChargedOnce(t, id, today);
    await Promise.all([scheduler.stop(), runSchedulerTick()]); // its tick in flight ends before it stops
    t.is(await SubscriptionChargeModel.countDocuments({ subscriptionId: id }), 1);
    t.is((await jobsOf(id)).length, 1);
    t.like(await SubscriptionModel.findById(id).lean(), { nextCycle: 1, nextDueDate: addMonths(today, 1) });
  } finally {
    await worker.stop();
  }
});

test.serial('due later: no charge and no job at creation', async (t) => {
  const firstDueDate = addMonths(dayOf(new Date()), 1);
  const created = await createSubscription(stack.app.url, stack.merchant, { firstDueDate });
  t.is(created.status, 201);
  t.is(created.body.data.nextDueDate, firstDueDate);
  t.deepEqual((await listCharges(stack.app.url, stack.merchant, created.body.data.id)).body.data, []);
  t.deepEqual(await jobsOf(created.body.data.id), []);
});

/** A subscription due today created in this process, with `afterInsert` run between its insert and its first charge. */
async function createDueToday(afterInsert: (subscriptionId: number) => Promise<void>) {
  let subscriptionId = 0;
  const created = createInProcess(
    stack.merchant.merchantId,
    {
      value: 4990,
      billingCycle: 'monthly',
      firstDueDate: dayOf(new Date()),
      encryptedCard: encryptedTestCard(subscriptionCard(1)),
      retry: true,
    },
    {
      afterInsert: async (sub) => {
        subscriptionId = sub._id;
        await afterInsert(sub._id);
      },
    },
  );
  return { created, subscriptionId: () => subscriptionId };
}

test.serial(
  'a crash between the subscription insert and its first charge: the scheduler still charges it',
  async (t) => {
    const today = dayOf(new Date());
    const { created, subscriptionId } = await createDueToday(async () => {
      throw new Error('the web process died here');
    });
    await t.throwsAsync(created, { message: 'the web process died here' });
    const id = subscriptionId();
    t.true(id > 0);
    t.like(await SubscriptionModel.findById(id).lean(), { status: 'active', nextDueDate: today, nextCycle: 0 });
    t.deepEqual((await listCharges(stack.app.url, stack.merchant, id)).body.data, []);
    t.deepEqual(await jobsOf(id), []);

    const [scheduler, worker] = await Promise.all([
      startProcess('scheduler'),
      startProcess('worker', { WORKER_QUEUES: CHARGE_QUEUE }),
    ]);
    try {
      await assertChargedOnce(t, id, today);
      t.is((await jobsOf(id)).length, 1);
    } finally {
      await Promise.all([scheduler.stop(), worker.stop()]);
    }
  },
);

test.serial('a scheduler tick between the insert and the first charge: one job, one charge', async (t) => {
  const today = dayOf(new Date());
  const { created, subscriptionId } = await createDueToday(async (id) => {
    await runSchedulerTick();
    // The tick queued the cycle's job; the creation, going on, queues the same id and inserts the charge.
    t.truthy(await queue().getJob(chargeJobId({ subscriptionId: id, dueDate: today, attempt: 1 })));
  });
  const sub = await created;
  t.is(sub._id, subscriptionId());
  t.is(sub.nextDueDate, addMonths(today, 1));
  t.is(await SubscriptionChargeModel.countDocuments({ subscriptionId: sub._id }), 1);
  t.is((await jobsOf(sub._id)).length, 1);

  const worker = await startProcess('worker', { WORKER_QUEUES: CHARGE_QUEUE });
  try {
    await assertChargedOnce(t, sub._id, today);
  } finally {
    await worker.stop();
  }
});
