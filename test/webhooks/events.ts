/** Stored events and their delivery jobs, for the tests of this folder. */
import { getQueue } from '../../src/queue/queues';
import { LINK_WEBHOOK_QUEUE, type LinkWebhookJob } from '../../jobs/link-webhook';
import { WebhookEventModel } from '../../src/webhooks/model';
import { eventually } from '../helpers/processes';

export const deliveryQueue = () => getQueue<LinkWebhookJob>(LINK_WEBHOOK_QUEUE);

/** An event stored while Redis was down: saved, never queued. */
export async function storeUnqueuedEvent(event: { merchantId: number; linkId: number; url: string; createdAt: Date }) {
  const { merchantId, linkId, url, createdAt } = event;
  const body = JSON.stringify({
    type: 'payment_link.paid',
    timestamp: createdAt.toISOString(),
    data: { id: linkId, sequence: 1 },
  });
  const stored = await WebhookEventModel.create({
    _id: `msg_${linkId}_1`,
    merchantId,
    linkId,
    sequence: 1,
    type: 'payment_link.paid',
    url,
    body,
    createdAt,
  });
  return stored._id;
}

/** Every delivery job of an event, whatever its state (reads Redis only: no database command). */
export async function jobsOf(eventId: string) {
  const jobs = await deliveryQueue().getJobs(['waiting', 'paused', 'delayed', 'active', 'completed', 'failed']);
  return jobs.filter((job) => job?.data.eventId === eventId);
}

/** Until every delivery job of the event has finished (its writes are done). Redis only. */
export async function jobsFinished(eventId: string) {
  await eventually(async () => (await jobsOf(eventId)).every((job) => job.finishedOn), 30_000, 20);
}

export async function deliveredOnce(eventId: string) {
  await eventually(async () => (await WebhookEventModel.findById(eventId).lean())?.state === 'delivered', 30_000, 100);
  await jobsFinished(eventId);
}
