/**
 * Delivery jobs written straight to Redis (as anyone who can write there, or bull-board's add and
 * update-data routes, could write them): a job names a stored event, and its worker reads that
 * event and its merchant's secret before sending anything. A job whose event does not exist, or
 * whose carried copy or merchant disagrees with the stored event, fails without sending, and the
 * stored event is left as it was.
 */
import '../helpers/env';
import test from 'ava';
import type { Job, Worker } from 'bullmq';
import { linkWebhookProcessor } from '../../jobs/processors/link-webhook';
import { linkWebhookJob, type LinkWebhookJob } from '../../jobs/link-webhook';
import { connectDatabase, disconnectDatabase } from '../../src/db/connection';
import { closeQueues, startWorker } from '../../src/queue/queues';
import { waitForRedis } from '../../src/platform/redis';
import { WebhookAttemptModel, WebhookEventModel, WebhookSecretModel } from '../../src/webhooks/model';
import { emitLinkEvent } from '../../src/webhooks/outbox';
import { getWebhookSecret } from '../../src/webhooks/secrets';
import { eventually } from '../helpers/processes';
import { deliveredOnce } from './events';
import { Receiver } from './receiver';

const receiver = new Receiver();
const merchantId = 626_262;
const otherMerchantId = 626_263;
let nextLinkId = 960_000;
let worker: Worker<LinkWebhookJob>;

test.before(async () => {
  await receiver.start();
  process.env.WEBHOOK_TEST_ALLOW_HOSTS = receiver.host;
  await connectDatabase(process.env.MONGODB_URI!);
  await waitForRedis();
  worker = startWorker(linkWebhookProcessor.queue, linkWebhookProcessor.process, linkWebhookProcessor.worker);
  await Promise.all([getWebhookSecret(merchantId), getWebhookSecret(otherMerchantId)]);
});
test.after.always(async () => {
  await worker?.close();
  receiver.close();
  await closeQueues();
  await disconnectDatabase();
});

const FORGED_BODY = JSON.stringify({ type: 'payment_link.paid', timestamp: new Date().toISOString(), data: { id: 1 } });

/** A real event of this file's merchant, delivered once to `path`, and its stored record afterwards. */
async function deliveredEvent(path: string) {
  const event = await emitLinkEvent({
    merchantId,
    linkId: nextLinkId++,
    url: receiver.url(path),
    type: 'payment_link.paid',
    data: {},
  });
  await deliveredOnce(event._id);
  return (await WebhookEventModel.findById(event._id).lean())!;
}

/** Adds a job as a forger would (a fresh job id, so BullMQ keeps it) and waits until it has finished. */
async function runForged(data: LinkWebhookJob): Promise<Job<LinkWebhookJob>> {
  const jobId = `forged-${data.eventId}-${Date.now()}-${Math.random().toString(16).slice(2)}`;
  const job = await linkWebhookJob.add(data, { jobId, attempts: 1 });
  return (await eventually(async () => {
    const finished = await linkWebhookJob.queueOf().getJob(job.id!);
    return finished?.finishedOn && finished;
  }, 30_000)) as Job<LinkWebhookJob>;
}

async function leftUntouched(t: import('ava').ExecutionContext, before: { _id: string }) {
  t.deepEqual(await WebhookEventModel.findById(before._id).lean(), before, 'the stored event is as it was');
  t.is(await WebhookAttemptModel.countDocuments({ eventId: before._id }), 1, 'no attempt recorded for it');
}

test('a job naming no stored event sends nothing and fails', async (t) => {
  const unknownMerchantId = 626_299;
  const job = await runForged({
    eventId: `msg_${nextLinkId++}_1`,
    trigger: 'scheduled',
    merchantId: unknownMerchantId,
    event: { linkId: nextLinkId, url: receiver.url('/made-up'), body: FORGED_BODY },
  });
  t.is(receiver.at('/made-up').length, 0);
  t.regex(job.failedReason ?? '', /no stored event/);
  t.is(await WebhookSecretModel.exists({ _id: unknownMerchantId }), null, 'no secret made for the merchant it names');
});

test('a redelivery carrying a made-up body for a real event sends nothing', async (t) => {
  const event = await deliveredEvent('/real-body');
  const job = await runForged({
    eventId: event._id,
    trigger: 'redelivery',
    merchantId,
    event: { linkId: event.linkId, url: event.url, body: FORGED_BODY },
  });
  t.deepEqual(
    receiver.at('/real-body').map((r) => r.body),
    [event.body],
    'the first delivery only',
  );
  t.regex(job.failedReason ?? '', /does not match the stored event/);
  await leftUntouched(t, event);
});

test('a job carrying a real event to a made-up URL sends nothing', async (t) => {
  const event = await deliveredEvent('/real-url');
  for (const trigger of ['scheduled', 'redelivery'] as const) {
    const job = await runForged({
      eventId: event._id,
      trigger,
      merchantId,
      event: { linkId: event.linkId, url: receiver.url('/elsewhere'), body: event.body },
    });
    t.is(receiver.at('/elsewhere').length, 0, trigger);
    t.regex(job.failedReason ?? '', /does not match the stored event/);
  }
  t.is(receiver.at('/real-url').length, 1);
  await leftUntouched(t, event);
});

test("a job naming a real event under another merchant is not signed with that merchant's secret", async (t) => {
  const event = await deliveredEvent('/other-merchant');
  const job = await runForged({
    eventId: event._id,
    trigger: 'redelivery',
    merchantId: otherMerchantId,
    event: { linkId: event.linkId, url: event.url, body: event.body },
  });
  t.is(receiver.at('/other-merchant').length, 1, 'the first delivery only');
  t.regex(job.failedReason ?? '', /does not match the stored event/);
  await leftUntouched(t, event);
});

test('a job that only names a real event is a redelivery of it, exactly as stored', async (t) => {
  const event = await deliveredEvent('/named');
  const job = await runForged({ eventId: event._id, trigger: 'redelivery' });
  t.deepEqual(job.returnvalue, { statusCode: 200 });
  t.deepEqual(
    receiver.at('/named').map((r) => r.body),
    [event.body, event.body],
  );
});
