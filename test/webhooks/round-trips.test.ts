/**
 * Database round trips of link webhook events: storing one, its delivery by the job queued with it,
 * a retry's, a redelivery's and a sweep-queued delivery's, counted by the driver's command
 * monitoring (the counters /metrics serves); and what the cut reads must not cost: a retry or a
 * rerun never re-sends an event already delivered. The worker runs in this process, so its
 * commands are counted; waits inside a counted window read Redis only. Serial: a concurrent test
 * would add its commands.
 */
import '../helpers/env';
import test from 'ava';
import type { Job, Worker } from 'bullmq';
import { linkWebhookProcessor } from '../../jobs/processors/link-webhook';
import { connectDatabase, disconnectDatabase } from '../../src/db/connection';
import { closeQueues, startWorker } from '../../src/queue/queues';
import { waitForRedis } from '../../src/platform/redis';
import { deliverEvent } from '../../src/webhooks/delivery';
import { deliveryJobId, type LinkWebhookJob } from '../../jobs/link-webhook';
import { WebhookAttemptModel, WebhookEventModel } from '../../src/webhooks/model';
import { emitLinkEvent, enqueueScheduledDelivery, sweepUnqueuedLinkEvents } from '../../src/webhooks/outbox';
import { getWebhookSecret } from '../../src/webhooks/secrets';
import { redeliverEvent } from '../../src/webhooks/service';
import { countDbCommands } from '../helpers/db-commands';
import { eventually } from '../helpers/processes';
import { deliveredOnce, deliveryQueue, jobsFinished, jobsOf, storeUnqueuedEvent } from './events';
import { Receiver } from './receiver';

const receiver = new Receiver();
const merchantId = 525_252;
let nextLinkId = 950_000;
let worker: Worker<LinkWebhookJob>;
// Every worker of this file checks for stalled jobs each second: BullMQ skips a check while the last
// one's interval runs, whichever worker made it.
const WORKER_OPTIONS = { ...linkWebhookProcessor.worker, stalledInterval: 1000 };

test.before(async () => {
  await receiver.start();
  process.env.WEBHOOK_TEST_ALLOW_HOSTS = receiver.host;
  await connectDatabase(process.env.MONGODB_URI!);
  await waitForRedis();
  worker = startWorker(linkWebhookProcessor.queue, linkWebhookProcessor.process, WORKER_OPTIONS);
  await getWebhookSecret(merchantId); // the merchant's secret exists, as it does after its first event
});
test.after.always(async () => {
  receiver.close();
  await closeQueues();
  await disconnectDatabase();
});

/** A new event of a new link of this file's merchant, to a receiver path answering `statuses`. */
function newEvent(path: string, statuses = [200]) {
  return { merchantId, linkId: nextLinkId++, url: receiver.url(path, statuses), type: 'payment_link.paid', data: {} };
}

const received = (path: string) => receiver.at(path).length;

/** One delivery: the event and the secret read at once, the attempt, the event's state. */
const DELIVERY = {
  'webhook_events find': 1,
  'webhook_secrets find': 1,
  'webhook_attempts insert': 1,
  'webhook_events update': 1,
};

test.serial('an event stored and queued: the sequence read and one insert, already marked queued', async (t) => {
  // Paused, so the worker's delivery does not run inside the counted window.
  await deliveryQueue().pause();
  try {
    const { result: event, commands } = await countDbCommands(() => emitLinkEvent(newEvent('/stored')));
    t.deepEqual(commands.by, { 'webhook_events find': 1, 'webhook_events insert': 1 });
    t.truthy((await WebhookEventModel.findById(event._id).lean())!.queuedAt);
    const [job] = await jobsOf(event._id);
    t.like(job?.data, { eventId: event._id, trigger: 'scheduled', merchantId });
    t.deepEqual(job?.data.event, { linkId: event.linkId, url: event.url, body: event.body }, 'the job carries it');
    t.is(await sweepUnqueuedLinkEvents(new Date(Date.now() + 24 * 3600_000)), 0, 'nothing left for the sweep');
    await job.remove(); // not delivered after this file's receiver has closed
  } finally {
    await deliveryQueue().resume();
  }
});

test.serial(
  'an event stored and delivered by the job queued with it: the delivery reads the event beside the ' +
    'secret (a job is not content), inserts the attempt and updates the event',
  async (t) => {
    const { result: event, commands } = await countDbCommands(async () => {
      const stored = await emitLinkEvent(newEvent('/first'));
      await eventually(() => received('/first') === 1, 30_000, 20);
      await jobsFinished(stored._id);
      return stored;
    });
    t.deepEqual(commands.by, { ...DELIVERY, 'webhook_events find': 2, 'webhook_events insert': 1 });
    const stored = (await WebhookEventModel.findById(event._id).lean())!;
    t.like(stored, { state: 'delivered', attemptCount: 1 });
    t.truthy(stored.deliveredAt);
    t.is(await WebhookAttemptModel.countDocuments({ eventId: event._id, success: true }), 1);
    t.is(receiver.at('/first')[0].body, event.body, 'the stored body is what was sent');
  },
);

test.serial('a retry or a rerun of a scheduled job: the same round trips as its first run', async (t) => {
  await deliveryQueue().pause();
  let eventId = '';
  try {
    const event = await emitLinkEvent(newEvent('/rerun'));
    eventId = event._id;
    const carried = (await jobsOf(event._id))[0].data.event;
    const { result, commands } = await countDbCommands(() =>
      deliverEvent(event._id, 'scheduled', { merchantId, carried, firstRun: false }),
    );
    t.true(result.success, JSON.stringify(result));
    t.deepEqual(commands.by, DELIVERY);
  } finally {
    await (await jobsOf(eventId))[0]?.remove();
    await deliveryQueue().resume();
  }
});

test.serial('a redelivery: the request reads the event, and so does the delivery', async (t) => {
  const event = await emitLinkEvent(newEvent('/again'));
  await deliveredOnce(event._id);
  const { commands } = await countDbCommands(async () => {
    await redeliverEvent(merchantId, event.linkId, event._id);
    await eventually(() => received('/again') === 2, 30_000, 20);
    await jobsFinished(event._id);
  });
  t.deepEqual(commands.by, { ...DELIVERY, 'webhook_events find': 2 });
  t.deepEqual(
    (await WebhookAttemptModel.find({ eventId: event._id }).sort({ at: 1 }).lean()).map((a) => a.trigger),
    ['scheduled', 'redelivery'],
  );
});

test.serial('an event queued by the sweep: its queued mark, and a delivery that reads it', async (t) => {
  const storedAt = new Date();
  const eventId = await storeUnqueuedEvent({
    merchantId,
    linkId: nextLinkId++,
    url: receiver.url('/swept'),
    createdAt: storedAt,
  });
  const { commands } = await countDbCommands(async () => {
    await enqueueScheduledDelivery({ _id: eventId, createdAt: storedAt, merchantId });
    await eventually(() => received('/swept') === 1, 30_000, 20);
    await jobsFinished(eventId);
  });
  const [job] = await jobsOf(eventId);
  t.is(job.data.merchantId, merchantId); // so the worker reads the secret beside the event
  t.is(job.data.event, undefined, 'a sweep carries nothing: a delivered event must be seen as such');
  t.deepEqual(commands.by, { ...DELIVERY, 'webhook_events update': 2 });
});

test.serial('a retry after a redelivery delivered the event sends nothing', async (t) => {
  // The first attempt fails; the retry waits out its delay (a minute by default) as a delayed job.
  const event = await emitLinkEvent(newEvent('/retry', [503, 200]));
  const job = (await eventually(async () => {
    const [found] = await jobsOf(event._id);
    return (await found?.isDelayed()) && found;
  }, 30_000)) as Job<LinkWebhookJob>;
  t.is(received('/retry'), 1);
  await redeliverEvent(merchantId, event.linkId, event._id);
  await eventually(async () => (await WebhookEventModel.findById(event._id).lean())?.state === 'delivered', 30_000);
  await job.promote();
  await eventually(async () => (await deliveryQueue().getJob(job.id!))?.finishedOn, 30_000);
  const retried = (await deliveryQueue().getJob(job.id!))!;
  t.is(retried.attemptsMade, 2);
  t.deepEqual(retried.returnvalue, { statusCode: null }, 'skipped: nothing sent');
  t.is(received('/retry'), 2, 'the first attempt and the redelivery only');
  t.is(await WebhookAttemptModel.countDocuments({ eventId: event._id }), 2);
});

test.serial(
  'a job run again after its worker died reads its event, and sends nothing once the first run delivered it',
  async (t) => {
    await worker.pause();
    // Delivers and records, then never completes: as a worker killed right after its writes.
    const doomed = startWorker(
      linkWebhookProcessor.queue,
      async (job: Job<LinkWebhookJob>) => {
        await linkWebhookProcessor.process(job);
        await new Promise(() => undefined);
      },
      { ...WORKER_OPTIONS, lockDuration: 1000 },
    );
    let survivor: Worker<LinkWebhookJob> | undefined;
    try {
      const event = await emitLinkEvent(newEvent('/stalled'));
      await eventually(async () => (await WebhookEventModel.findById(event._id).lean())?.state === 'delivered', 30_000);
      await doomed.close(true); // its lock is no longer extended: the job stalls
      survivor = startWorker(linkWebhookProcessor.queue, linkWebhookProcessor.process, WORKER_OPTIONS);
      const jobId = deliveryJobId(event);
      await eventually(async () => (await deliveryQueue().getJob(jobId))?.finishedOn, 30_000);
      const rerun = (await deliveryQueue().getJob(jobId))!;
      t.is(rerun.stalledCounter, 1, 'BullMQ saw the first run stall');
      t.deepEqual(rerun.returnvalue, { statusCode: null }, 'skipped: nothing sent');
      t.is(received('/stalled'), 1);
      t.is(await WebhookAttemptModel.countDocuments({ eventId: event._id }), 1);
    } finally {
      await doomed.close(true);
      await survivor?.close();
      worker.resume();
    }
  },
);
