import '../helpers/env';
import test from 'ava';
import { eventually, startProcess } from '../helpers/processes';

import { getQueue } from '../../src/queue/queues';
import { dayOf } from '../../src/subscriptions/clock';
import { runChargeAttempt } from '../../src/subscriptions/charging';
import { dueCycleOf } from '../../src/subscriptions/calendar';
import {
  ChargeAttemptModel,
  SubscriptionChargeModel,
  SubscriptionModel,
  type SubscriptionCharge,
} from '../../src/subscriptions/model';
import { CHARGE_JOB_NAME, CHARGE_QUEUE, chargeJobId, type ChargeJobData } from '../../jobs/charge-subscription';
import { runSchedulerTick } from '../../workers/scheduler';
import { chargeAfterAttempt, approvedSubscriptionId, salesForOrder, useSubscriptionStack } from './support';

const stack = useSubscriptionStack();

test.serial('two scheduler processes at once, and two workers, make one charge and one sale', async (t) => {
  // Real processes tick with the real clock: this subscription is due today.
  const today = dayOf(new Date());
  const id = await approvedSubscriptionId(stack, today);
  const [schedulerA, schedulerB] = await Promise.all([startProcess('scheduler'), startProcess('scheduler')]);
  // And two more ticks from this process, at the same time.
  await Promise.all([runSchedulerTick(), runSchedulerTick()]);
  const queue = getQueue(CHARGE_QUEUE);
  await eventually(async () => queue.getJob(chargeJobId({ subscriptionId: id, dueDate: today, attempt: 1 })));
  const workers = await Promise.all([
    startProcess('worker', { WORKER_QUEUES: CHARGE_QUEUE }),
    startProcess('worker', { WORKER_QUEUES: CHARGE_QUEUE }),
  ]);
  const charge = await chargeAfterAttempt(id, today, 1);
  await Promise.all([schedulerA.stop(), schedulerB.stop(), runSchedulerTick()]);
  t.is(charge.status, 1);
  t.is(await SubscriptionChargeModel.countDocuments({ subscriptionId: id }), 1);
  t.is(await ChargeAttemptModel.countDocuments({ chargeId: charge._id }), 1);
  t.deepEqual(await salesForOrder(stack.sandbox, `SUB${id}C${charge._id}A1`), [charge.acquirerPaymentId]);
  const jobs = (await queue.getJobs(['waiting', 'active', 'completed', 'delayed', 'failed'])).filter(
    (job) => (job?.data as ChargeJobData).subscriptionId === id,
  );
  t.is(jobs.length, 1);
  await Promise.all(workers.map((w) => w.stop()));
});

const JOB_FORMS = [
  ['as the scheduler queues it (with the cycle)', '2032-01-10'],
  ['as the recovery pass queues it (without)', '2032-02-10'],
] as const;
for (const [form, firstDueDate] of JOB_FORMS) {
  test.serial(`the same attempt run five times at once still charges once, ${form}`, async (t) => {
    const id = await approvedSubscriptionId(stack, firstDueDate);
    const data: ChargeJobData = { subscriptionId: id, dueDate: firstDueDate, attempt: 1, today: firstDueDate };
    if (form.includes('scheduler')) data.cycle = dueCycleOf((await SubscriptionModel.findById(id).lean())!);
    const results = await Promise.all(Array.from({ length: 5 }, () => runChargeAttempt(data)));
    t.true(
      results.every((r) => r === 'confirmed' || r === 'already-recorded' || r === 'not-due'),
      results.join(),
    );
    const charges = await SubscriptionChargeModel.find({ subscriptionId: id }).lean();
    t.is(charges.length, 1);
    t.is(charges[0].status, 1);
    const outcomes = await ChargeAttemptModel.find({ chargeId: charges[0]._id }).lean();
    t.is(outcomes.length, 1);
    t.is(charges[0].paymentTransactionId, outcomes[0].paymentTransactionId);
    t.deepEqual(await salesForOrder(stack.sandbox, `SUB${id}C${charges[0]._id}A1`), [charges[0].acquirerPaymentId]);
    t.is((await SubscriptionModel.findById(id).lean())!.nextCycle, 1);
  });
}

test.serial('a worker killed between the acquirer answer and our write does not charge twice', async (t) => {
  const id = await approvedSubscriptionId(stack, '2032-03-10');
  const env = { WORKER_QUEUES: CHARGE_QUEUE, WORKER_LOCK_DURATION_MS: '2000' };
  // Holds its first run of the charge after the acquirer answered, so it can be killed in that gap.
  const doomed = await startProcess('worker', { ...env, WORKER_TEST_CHARGE_HOLD_MS: '60000' });
  const cycle = dueCycleOf((await SubscriptionModel.findById(id).lean())!); // as the scheduler queues it
  const data: ChargeJobData = {
    subscriptionId: id,
    dueDate: '2032-03-10',
    attempt: 1,
    today: '2032-03-10',
    cycle,
  };
  // Same job id as the scheduler's, so its ticks below find this job rather than add another.
  await getQueue(CHARGE_QUEUE).add(CHARGE_JOB_NAME, data, { jobId: chargeJobId(data) });
  await eventually(
    () => doomed.logs.join('').includes('charge answered by acquirer; holding before recording'),
    45_000,
  );
  const pending = (await SubscriptionChargeModel.findOne({ subscriptionId: id }).lean<SubscriptionCharge>())!;
  t.is(pending.status, 0);
  const orderId = `SUB${id}C${pending._id}A1`;
  const firstSale = await salesForOrder(stack.sandbox, orderId);
  t.is(firstSale.length, 1); // the acquirer charged; we have not written it
  const killed = await doomed.stop('SIGKILL');
  t.is(killed.signal, 'SIGKILL');

  await runSchedulerTick(new Date('2032-03-10T10:00:00Z'));
  await startProcess('worker', env); // takes the stalled job once its lock expires
  const charge = await chargeAfterAttempt(id, '2032-03-10', 1, 60_000);
  await runSchedulerTick(new Date('2032-03-11T10:00:00Z'));
  t.is(charge.status, 1);
  t.is(charge.attempts, 1);
  t.is(charge.acquirerPaymentId, firstSale[0]);
  t.deepEqual(await salesForOrder(stack.sandbox, orderId), firstSale);
  t.is(await ChargeAttemptModel.countDocuments({ chargeId: charge._id }), 1);
  t.is(await SubscriptionChargeModel.countDocuments({ subscriptionId: id }), 1);
});
