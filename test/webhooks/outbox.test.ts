import '../helpers/env';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { connectDatabase, disconnectDatabase } from '../../src/db/connection';
import { closeQueues, getQueue, startWorker, waitForRedis } from '../../src/queue';
import { linkWebhookJob } from '../../jobs/link-webhook';
import { WebhookAttemptModel, WebhookEventModel } from '../../src/webhooks/model';
import { deliverEvent } from '../../src/webhooks/delivery';
import { deliveryJobId, LINK_WEBHOOK_QUEUE, type LinkWebhookJob } from '../../src/webhooks/delivery-jobs';
import {
  emitLinkEvent,
  enqueueScheduledDelivery,
  LOST_JOB_GRACE_MS,
  requeueLostLinkEventJobs,
  sweepUnqueuedLinkEvents,
  UNQUEUED_EVENT_GRACE_MS,
} from '../../src/webhooks/outbox';
import { getWebhookSecret } from '../../src/webhooks/secrets';
import { countDbCommands } from '../helpers/db-commands';
import { eventually } from '../helpers/processes';

// Every test sweeps the whole events collection of this file's database: they run one at a time.

const received: string[] = [];
const receiver = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    received.push(String(req.headers['webhook-id']));
    res.writeHead(200).end();
  });
});
let hookUrl = '';
let nextLinkId = 900_000;
const merchantId = 424_242;

test.before(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  process.env.WEBHOOK_TEST_ALLOW_HOSTS = host;
  hookUrl = `http://${host}/hook`;
  await connectDatabase(process.env.MONGODB_URI!);
  await waitForRedis();
  startWorker(linkWebhookJob.queue, linkWebhookJob.process, linkWebhookJob.worker);
});
test.after.always(async () => {
  receiver.closeAllConnections();
  receiver.close();
  await closeQueues();
  await disconnectDatabase();
});

const queue = () => getQueue<LinkWebhookJob>(LINK_WEBHOOK_QUEUE);

/** An event stored while Redis was down: saved, never queued. */
async function storeUnqueuedEvent(createdAt: Date) {
  const linkId = nextLinkId++;
  const body = JSON.stringify({
    type: 'payment_link.paid',
    timestamp: createdAt.toISOString(),
    data: { id: linkId, sequence: 1 },
  });
  const event = await WebhookEventModel.create({
    _id: `msg_${linkId}_1`,
    merchantId,
    linkId,
    sequence: 1,
    type: 'payment_link.paid',
    url: hookUrl,
    body,
    createdAt,
  });
  return event._id;
}

async function jobsOf(eventId: string) {
  const jobs = await queue().getJobs(['waiting', 'paused', 'delayed', 'active', 'completed', 'failed']);
  return jobs.filter((job) => job?.data.eventId === eventId);
}

async function deliveredOnce(eventId: string) {
  await eventually(async () => (await WebhookEventModel.findById(eventId).lean())?.state === 'delivered', 30_000, 100);
  await eventually(async () => (await jobsOf(eventId)).every((job) => job.finishedOn), 30_000, 100);
}

test.serial('the sweep never re-sends a delivered event', async (t) => {
  const event = await emitLinkEvent({
    merchantId,
    linkId: nextLinkId++,
    url: hookUrl,
    type: 'payment_link.paid',
    data: {},
  });
  await deliveredOnce(event._id);
  t.truthy((await WebhookEventModel.findById(event._id).lean())!.queuedAt, 'the normal path marks the event queued');

  // The worst case: the queued mark was lost and the completed job has left BullMQ's retention.
  await WebhookEventModel.updateOne({ _id: event._id }, { $set: { queuedAt: null } });
  await (await queue().getJob(deliveryJobId(event)))!.remove();
  await sweepUnqueuedLinkEvents(new Date(Date.now() + 24 * 3600_000));
  t.deepEqual(await jobsOf(event._id), [], 'a delivered event is not queued again');

  // Even a duplicate scheduled job that does get through sends nothing.
  await enqueueScheduledDelivery(event);
  await eventually(async () => (await jobsOf(event._id)).some((job) => job.finishedOn), 30_000, 100);
  t.deepEqual(
    received.filter((id) => id === event._id),
    [event._id],
  );
  t.is(await WebhookAttemptModel.countDocuments({ eventId: event._id }), 1);
});

test.serial('a sweep racing the normal enqueue queues one delivery', async (t) => {
  const now = new Date();
  const eventId = await storeUnqueuedEvent(new Date(now.getTime() - 2 * UNQUEUED_EVENT_GRACE_MS));
  const stored0 = (await WebhookEventModel.findById(eventId).lean())!;
  await Promise.all([
    sweepUnqueuedLinkEvents(now),
    enqueueScheduledDelivery(stored0),
    sweepUnqueuedLinkEvents(now),
    enqueueScheduledDelivery(stored0),
  ]);
  t.is((await jobsOf(eventId)).length, 1);
  await deliveredOnce(eventId);
  t.is(await sweepUnqueuedLinkEvents(new Date(now.getTime() + 3600_000)), 0);
  t.is((await jobsOf(eventId)).length, 1);
  t.deepEqual(
    received.filter((id) => id === eventId),
    [eventId],
  );
  const stored = await WebhookEventModel.findById(eventId).lean();
  t.is(stored!.attemptCount, 1);
  t.truthy(stored!.queuedAt);
});

test.serial('the sweep waits out the grace period and queues a bounded batch per tick, oldest first', async (t) => {
  const now = new Date();
  const minutesAgo = (m: number) => new Date(now.getTime() - m * 60_000);
  const oldest = await storeUnqueuedEvent(minutesAgo(10));
  const older = await storeUnqueuedEvent(minutesAgo(9));
  const old = await storeUnqueuedEvent(minutesAgo(8));
  const fresh = await storeUnqueuedEvent(new Date(now.getTime() - UNQUEUED_EVENT_GRACE_MS / 2));
  const queued = async (id: string) => Boolean((await WebhookEventModel.findById(id).lean())!.queuedAt);

  t.is(await sweepUnqueuedLinkEvents(now, UNQUEUED_EVENT_GRACE_MS, 2), 2);
  t.deepEqual(await Promise.all([oldest, older, old, fresh].map(queued)), [true, true, false, false]);
  t.is(await sweepUnqueuedLinkEvents(now, UNQUEUED_EVENT_GRACE_MS, 2), 1);
  t.is(await sweepUnqueuedLinkEvents(now, UNQUEUED_EVENT_GRACE_MS, 2), 0);
  t.false(await queued(fresh), 'an event inside the grace period is left to the normal path');
  t.deepEqual(await jobsOf(fresh), []);

  for (const id of [oldest, older, old]) await deliveredOnce(id);
  t.deepEqual(received.filter((id) => [oldest, older, old].includes(id)).sort(), [oldest, older, old].sort());
  await WebhookEventModel.deleteOne({ _id: fresh });
});

test.serial(
  'a queued event whose job Redis lost is queued again once; events whose job exists or that were just ' +
    'attempted are left alone',
  async (t) => {
    const now = new Date();
    const longAgo = new Date(now.getTime() - 2 * LOST_JOB_GRACE_MS);
    const lost = await storeUnqueuedEvent(longAgo);
    const waiting = await storeUnqueuedEvent(longAgo);
    const justTried = await storeUnqueuedEvent(longAgo);
    for (const id of [lost, waiting, justTried])
      await WebhookEventModel.updateOne({ _id: id }, { $set: { queuedAt: longAgo } });
    await WebhookEventModel.updateOne({ _id: justTried }, { $set: { lastAttemptAt: now, attemptCount: 1 } });
    // The waiting one has its job, delayed as a retry far in the future would be.
    await queue().add(
      'deliver',
      { eventId: waiting, trigger: 'scheduled' },
      { jobId: deliveryJobId({ _id: waiting, createdAt: longAgo }), delay: 3600_000 },
    );

    t.is(await requeueLostLinkEventJobs(now), 1);
    await deliveredOnce(lost);
    t.deepEqual(
      received.filter((id) => id === lost),
      [lost],
    );
    t.is((await jobsOf(waiting)).length, 1, 'an existing job is not doubled');
    t.deepEqual(await jobsOf(justTried), [], 'an event attempted within the grace is not looked at');
    t.is(
      await requeueLostLinkEventJobs(new Date(now.getTime() + 3600_000)),
      1,
      'only the just-tried one, once it has been idle (its job is gone too)',
    );
    t.is(
      await requeueLostLinkEventJobs(new Date(now.getTime() + 3600_000)),
      0,
      'a second sweep finds every job in place',
    );
    await deliveredOnce(justTried);
    for (const id of [waiting]) {
      await (await queue().getJob(deliveryJobId({ _id: id, createdAt: longAgo })))?.remove();
      await WebhookEventModel.deleteOne({ _id: id });
    }
  },
);

const ONE_DELIVERY = {
  'webhook_events find': 1,
  'webhook_secrets find': 1,
  'webhook_attempts insert': 1,
  'webhook_events update': 1,
};

test.serial(
  'one webhook delivery: the event and the secret read, the attempt inserted, the event updated',
  async (t) => {
    const eventId = await storeUnqueuedEvent(new Date());
    await getWebhookSecret(merchantId); // the merchant's secret exists, as it does after its first event
    const { result, commands } = await countDbCommands(() => deliverEvent(eventId, 'scheduled', { merchantId }));
    t.true(result.success, JSON.stringify(result));
    t.deepEqual(commands.by, ONE_DELIVERY);
    const event = (await WebhookEventModel.findById(eventId).lean())!;
    t.is(event.state, 'delivered');
    t.is(await WebhookAttemptModel.countDocuments({ eventId }), 1);
  },
);

test.serial('an event queued and delivered by the worker: its mark as queued and one delivery', async (t) => {
  const storedAt = new Date();
  const eventId = await storeUnqueuedEvent(storedAt);
  await getWebhookSecret(merchantId);
  const { commands } = await countDbCommands(async () => {
    await enqueueScheduledDelivery({ _id: eventId, createdAt: storedAt, merchantId });
    await eventually(() => received.includes(eventId), 30_000, 20);
    await eventually(async () => (await jobsOf(eventId)).every((job) => job.finishedOn), 30_000, 20); // its writes are done
  });
  const [job] = await jobsOf(eventId);
  t.is(job.data.merchantId, merchantId); // so the worker reads the secret beside the event
  t.deepEqual(commands.by, { ...ONE_DELIVERY, 'webhook_events update': 2 });
});

test.serial('an event stored and queued: the sequence read and one insert, already marked queued', async (t) => {
  // Paused, so the worker's delivery does not run inside the counted window.
  await queue().pause();
  try {
    const linkId = nextLinkId++;
    const { result: event, commands } = await countDbCommands(() =>
      emitLinkEvent({ merchantId, linkId, url: hookUrl, type: 'payment_link.paid', data: {} }),
    );
    t.deepEqual(commands.by, { 'webhook_events find': 1, 'webhook_events insert': 1 });
    t.truthy((await WebhookEventModel.findById(event._id).lean())!.queuedAt);
    const [job] = await jobsOf(event._id);
    t.like(job?.data, { eventId: event._id, trigger: 'scheduled', merchantId });
    t.is(await sweepUnqueuedLinkEvents(new Date(Date.now() + 24 * 3600_000)), 0, 'nothing left for the sweep');
    await job.remove(); // not delivered after this file's receiver has closed
  } finally {
    await queue().resume();
  }
});

test.serial(
  'a finished job Redis keeps under a repeated event id does not swallow a new event of that id',
  async (t) => {
    // Event ids (msg_<link>_<n>) repeat across databases sharing one Redis, or after a database reset:
    // a finished delivery of such an earlier event is still kept under its job id.
    const linkId = nextLinkId++;
    const earlier = await queue().add(
      'deliver',
      { eventId: `msg_${linkId}_1`, trigger: 'scheduled' },
      { jobId: `deliver-msg_${linkId}_1` },
    );
    await eventually(async () => Boolean((await queue().getJob(earlier.id!))?.finishedOn), 30_000, 50);
    const event = await emitLinkEvent({ merchantId, linkId, url: hookUrl, type: 'payment_link.paid', data: {} });
    await deliveredOnce(event._id);
    t.deepEqual(
      received.filter((id) => id === event._id),
      [event._id],
    );
    t.not(deliveryJobId(event), earlier.id);
  },
);
