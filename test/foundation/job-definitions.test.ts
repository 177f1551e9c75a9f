/**
 * Typed jobs (issue 13): each jobs/<kind>.ts enqueues its jobs. What reaches Redis (queue, job name,
 * payload, job id, options) is pinned here as literal values: jobs queued before a change must still
 * be taken by the same processor, and deterministic ids are how a second add of one job is refused.
 */
import '../helpers/env';
import test from 'ava';
import type { Job, Queue } from 'bullmq';
import { getConfig } from '../../config';
import { getQueue } from '../../src/queue/queues';
import { queueNames } from '../../jobs';
import { enqueueHeartbeat } from '../../jobs/heartbeat';
import { enqueueReconcileSale, reconcileEpisodeJobId, reconcileSweepJobId } from '../../jobs/reconcile-sale';
import { enqueuePaymentNotice, paymentNoticeJobId } from '../../jobs/apply-payment-notice';
import { chargebackNoticeJobId, enqueueChargebackNotice } from '../../jobs/chargeback-notice';
import { enqueueCharges } from '../../jobs/charge-subscription';
import { enqueueDelivery } from '../../jobs/link-webhook';
import { useServices } from '../helpers/services';

const QUEUES = [
  'heartbeat',
  'sales-reconcile',
  'sales-notices',
  'chargeback-notices',
  'subscription-charges',
  'refunds',
];

useServices({
  cleanUp: async () => {
    for (const name of [...QUEUES, 'link-webhook'])
      await getQueue(name)
        .obliterate({ force: true })
        .catch(() => undefined);
  },
});

async function stored(queue: string, jobId: string): Promise<Job> {
  const job = await getQueue(queue).getJob(jobId);
  if (!job) throw new Error(`no job ${jobId} in ${queue}`);
  return job;
}

async function jobCount(queue: Queue): Promise<number> {
  return queue.getJobCountByTypes('waiting', 'delayed', 'active', 'prioritized');
}

test('the web process shows every queue, by the names the jobs already in Redis carry', (t) => {
  t.deepEqual([...queueNames()].sort(), [...QUEUES, 'link-webhook', 'endpoint-webhook', 'account-event'].sort());
});

test.serial('heartbeat: one job a minute, under the minute', async (t) => {
  await enqueueHeartbeat(new Date('2031-02-03T04:05:06Z'));
  await enqueueHeartbeat(new Date('2031-02-03T04:05:59Z'));
  const job = await stored('heartbeat', 'heartbeat-2031-02-03T0405');
  t.is(job.name, 'heartbeat');
  t.deepEqual(job.data, { enqueuedAt: '2031-02-03T04:05:06.000Z' });
  t.is(await jobCount(getQueue('heartbeat')), 1);
});

test.serial('sale reconciliation: one job per episode (delayed 1 s) and per sweep bucket', async (t) => {
  const since = new Date('2031-02-03T04:05:06.789Z');
  t.is(reconcileEpisodeJobId(41, 'PROCESSING', since), `reconcile-41-PROCESSING-${since.getTime()}`);
  t.is(reconcileSweepJobId(41, 3_000_123), 'reconcile-41-sweep-3000123');
  await enqueueReconcileSale(41, reconcileEpisodeJobId(41, 'PROCESSING', since), 1000);
  await enqueueReconcileSale(41, reconcileEpisodeJobId(41, 'PROCESSING', since), 1000);
  await enqueueReconcileSale(41, reconcileSweepJobId(41, 3_000_123));
  const episode = await stored('sales-reconcile', `reconcile-41-PROCESSING-${since.getTime()}`);
  t.is(episode.name, 'reconcile-sale');
  t.deepEqual(episode.data, { saleId: 41 });
  t.is(episode.opts.delay, 1000);
  const sweep = await stored('sales-reconcile', 'reconcile-41-sweep-3000123');
  t.deepEqual(sweep.data, { saleId: 41 });
  t.falsy(sweep.opts.delay);
  t.is(await jobCount(getQueue('sales-reconcile')), 2);
});

test.serial('payment notice: a job id kept on the notice record, the notice id as payload', async (t) => {
  const jobId = paymentNoticeJobId('abc123');
  t.regex(jobId, /^notice-abc123-[0-9a-f]{12}$/);
  await enqueuePaymentNotice('abc123', jobId);
  await enqueuePaymentNotice('abc123', jobId);
  const job = await stored('sales-notices', jobId);
  t.is(job.name, 'apply-payment-notice');
  t.deepEqual(job.data, { noticeId: 'abc123' });
  t.is(await jobCount(getQueue('sales-notices')), 1);
});

test.serial('chargeback notice: the notice id as payload, the default attempts unless given', async (t) => {
  const jobId = chargebackNoticeJobId('f00d');
  t.regex(jobId, /^cbn-f00d-[0-9a-f]{12}$/);
  await enqueueChargebackNotice({ noticeId: 'f00d' }, jobId);
  const job = await stored('chargeback-notices', jobId);
  t.is(job.name, 'apply');
  t.deepEqual(job.data, { noticeId: 'f00d' });
  const once = chargebackNoticeJobId('f00d');
  await enqueueChargebackNotice({ noticeId: 'f00d' }, once, 1);
  t.is((await stored('chargeback-notices', once)).opts.attempts, 1);
  t.not(job.opts.attempts, 1);
});

test.serial('subscription charge: one job per subscription, due date and attempt', async (t) => {
  const data = { subscriptionId: 9, dueDate: '2031-02-03', attempt: 2, today: '2031-02-05' };
  await enqueueCharges([data]);
  await enqueueCharges([data]);
  t.deepEqual(await enqueueCharges([]), []);
  const job = await stored('subscription-charges', 'charge-9-2031-02-03-2');
  t.is(job.name, 'charge-subscription');
  t.deepEqual(job.data, data);
  t.is(await jobCount(getQueue('subscription-charges')), 1);
});

test.serial('link webhook: the scheduled delivery under its event, a redelivery as one attempt', async (t) => {
  const event = { _id: 'msg_7_1', createdAt: new Date('2031-02-03T04:05:06.789Z'), merchantId: 3 };
  const carried = { linkId: 7, url: 'https://receiver.example/hook', body: '{"a":1}' };
  await enqueueDelivery(event, 'scheduled', carried);
  await enqueueDelivery(event, 'scheduled', carried);
  const scheduled = await stored('link-webhook', `deliver-msg_7_1-${event.createdAt.getTime()}`);
  t.is(scheduled.name, 'deliver');
  t.deepEqual(scheduled.data, { eventId: 'msg_7_1', trigger: 'scheduled', merchantId: 3, event: carried });
  t.is(scheduled.opts.attempts, 16);
  t.deepEqual(scheduled.opts.backoff, {
    type: 'webhook-exponential-jitter',
    delay: getConfig().webhooks.retryBaseMs,
  });
  await enqueueDelivery(event, 'redelivery');
  const jobs = await getQueue('link-webhook').getJobs(['waiting', 'delayed', 'prioritized']);
  const redelivery = jobs.find((job) => job.id !== scheduled.id)!;
  t.regex(redelivery.id!, /^redeliver-msg_7_1-\d+-[0-9a-f]{6}$/);
  t.deepEqual(redelivery.data, { eventId: 'msg_7_1', trigger: 'redelivery', merchantId: 3 });
  t.is(redelivery.opts.attempts, 1);
  t.is(jobs.length, 2);
});
