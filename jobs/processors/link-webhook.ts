/**
 * Delivers one payment-link webhook event. A failed attempt throws so BullMQ retries it on the
 * webhook schedule (exponential, jittered, about 3 days); a 410 Gone throws UnrecoverableError,
 * which stops the retries at once, as does a job that does not match its stored event (delivery.ts).
 */
import { UnrecoverableError, type Job } from 'bullmq';
import { deliverEvent, markEventFailed } from '../../src/webhooks/delivery';
import { type LinkWebhookJob, linkWebhookJob, linkWebhookWorkerOptions } from '../link-webhook';
import { jobKind } from '../types';

export default async function deliverLinkWebhook(job: Job<LinkWebhookJob>) {
  const outcome = await deliverEvent(job.data.eventId, job.data.trigger, {
    merchantId: job.data.merchantId,
    carried: job.data.event,
    firstRun: job.attemptsMade === 0 && !job.stalledCounter,
  });
  if (outcome.success) return { statusCode: outcome.statusCode };
  // A job that names no stored event, or disagrees with it, is never retried: nothing it says is sent.
  if (outcome.refused) throw new UnrecoverableError(outcome.error!);
  if (outcome.gone) throw new UnrecoverableError(`receiver answered 410 Gone: retries stopped`);
  const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
  if (lastAttempt && job.data.trigger === 'scheduled') await markEventFailed(job.data.eventId);
  // The job's failure is the operator's: it keeps the transport's text (the merchant sees the category).
  throw new Error(outcome.detail ?? outcome.error ?? 'delivery failed');
}

export const linkWebhookProcessor = jobKind(linkWebhookJob, deliverLinkWebhook, linkWebhookWorkerOptions);
