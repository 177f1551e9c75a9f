/**
 * Delivers one account event to one webhook endpoint. A failed attempt throws so BullMQ retries it on
 * the webhook schedule; the last failed attempt of the automatic schedule fails the delivery and may
 * disable the endpoint (endpoint-delivery.ts). 410 Gone, a deleted or disabled endpoint, or a job
 * naming no stored delivery stop at once.
 */
import { UnrecoverableError, type Job } from 'bullmq';
import { deliverToEndpoint, failEndpointDelivery } from '../../src/webhooks/endpoint-delivery';
import {
  endpointWebhookJob,
  endpointWebhookWorkerOptions,
  type EndpointWebhookJob,
  type EndpointWebhookResult,
} from '../endpoint-webhook';
import { jobKind } from '../types';

export default async function deliverEndpointWebhook(job: Job<EndpointWebhookJob>): Promise<EndpointWebhookResult> {
  const outcome = await deliverToEndpoint(job.data.deliveryId, job.data.trigger, {
    firstRun: job.attemptsMade === 0 && !job.stalledCounter,
  });
  if (outcome.success) return { statusCode: outcome.statusCode ?? 0 };
  if (outcome.refused) throw new UnrecoverableError(outcome.error!);
  if (outcome.gone) throw new UnrecoverableError('receiver answered 410 Gone: retries stopped');
  const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
  if (lastAttempt && job.data.trigger === 'scheduled') await failEndpointDelivery(job.data.deliveryId, outcome);
  // The job's failure is the operator's: it keeps the transport's text (the merchant sees the category).
  throw new Error(outcome.detail ?? outcome.error ?? 'delivery failed');
}

export const endpointWebhookProcessor = jobKind(
  endpointWebhookJob,
  deliverEndpointWebhook,
  endpointWebhookWorkerOptions,
);
