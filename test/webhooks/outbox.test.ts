import '../helpers/env';
import test from 'ava';
import { connectDatabase, disconnectDatabase } from '../../src/db/connection';
import { closeQueues, startWorker } from '../../src/queue/queues';
import { waitForRedis } from '../../src/platform/redis';
import { linkWebhookProcessor } from '../../jobs/processors/link-webhook';
import { WebhookAttemptModel, WebhookEventModel } from '../../src/webhooks/model';
import { deliveryJobId } from '../../jobs/link-webhook';
import {
  emitLinkEvent,
  enqueueScheduledDelivery,
  LOST_JOB_GRACE_MS,
  requeueLostLinkEventJobs,
  sweepUnqueuedLinkEvents,
  UNQUEUED_EVENT_GRACE_MS,
} from '../../src/webhooks/outbox';
import { eventually } from '../helpers/processes';
import { deliveredOnce, deliveryQueue, jobsOf, storeUnqueuedEvent } from './events';
import { Receiver } from './receiver';

// Every test sweeps the whole events collection of this file's database: they run one at a time.

const receiver = new Receiver();
let hookUrl = '';
let nextLinkId = 900_000;
const merchantId = 424_242;

test.before(async () => {
  await receiver.start();
  process.env.WEBHOOK_TEST_ALLOW_HOSTS = receiver.host;
  hookUrl = receiver.url('/hook');
  await connectDatabase(process.env.MONGODB_URI!);
  await waitForRedis();
  startWorker(linkWebhookProcessor.queue, linkWebhookProcessor.process, linkWebhookProcessor.worker);
});
test.after.always(async () => {
  receiver.close();
  await closeQueues();
  await disconnectDatabase();
});

const queue = deliveryQueue;

/** An event of this file's merchant stored while Redis was down: saved, never queued. */
function storeUnqueued(createdAt: Date) {
  return storeUnqueuedEvent({ merchantId, linkId: nextLinkId++, url: hookUrl, createdAt });
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
    receiver.ids().filter((id) => id === event._id),
    [event._id],
  );
  t.is(await WebhookAttemptModel.countDocuments({ eventId: event._id }), 1);
});

test.serial('a sweep racing the normal enqueue queues one delivery', async (t) => {
  const now = new Date();
  const eventId = await storeUnqueued(new Date(now.getTime() - 2 * UNQUEUED_EVENT_GRACE_MS));
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
    receiver.ids().filter((id) => id === eventId),
    [eventId],
  );
  const stored = await WebhookEventModel.findById(eventId).lean();
  t.is(stored!.attemptCount, 1);
  t.truthy(stored!.queuedAt);
});

test.serial('the sweep waits out the grace period and queues a bounded batch per tick, oldest first', async (t) => {
  const now = new Date();
  const minutesAgo = (m: number) => new Date(now.getTime() - m * 60_000);
  const oldest = await storeUnqueued(minutesAgo(10));
  const older = await storeUnqueued(minutesAgo(9));
  const old = await storeUnqueued(minutesAgo(8));
  const fresh = await storeUnqueued(new Date(now.getTime() - UNQUEUED_EVENT_GRACE_MS / 2));
  const queued = async (id: string) => Boolean((await WebhookEventModel.findById(id).lean())!.queuedAt);

  t.is(await sweepUnqueuedLinkEvents(now, UNQUEUED_EVENT_GRACE_MS, 2), 2);
  t.deepEqual(await Promise.all([oldest, older, old, fresh].map(queued)), [true, true, false, false]);
  t.is(await sweepUnqueuedLinkEvents(now, UNQUEUED_EVENT_GRACE_MS, 2), 1);
  t.is(await sweepUnqueuedLinkEvents(now, UNQUEUED_EVENT_GRACE_MS, 2), 0);
  t.false(await queued(fresh), 'an event inside the grace period is left to the normal path');
  t.deepEqual(await jobsOf(fresh), []);

  for (const id of [oldest, older, old]) await deliveredOnce(id);
  t.deepEqual(
    receiver
      .ids()
      .filter((id) => [oldest, older, old].includes(id))
      .sort(),
    [oldest, older, old].sort(),
  );
  await WebhookEventModel.deleteOne({ _id: fresh });
});

test.serial(
  'a queued event whose job Redis lost is queued again once; events whose job exists or that were just ' +
    'attempted are left alone',
  async (t) => {
    const now = new Date();
    const longAgo = new Date(now.getTime() - 2 * LOST_JOB_GRACE_MS);
    const lost = await storeUnqueued(longAgo);
    const waiting = await storeUnqueued(longAgo);
    const justTried = await storeUnqueued(longAgo);
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
      receiver.ids().filter((id) => id === lost),
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
      receiver.ids().filter((id) => id === event._id),
      [event._id],
    );
    t.not(deliveryJobId(event), earlier.id);
  },
);
