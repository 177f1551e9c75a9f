/**
 * The delivery queue of account events to the merchant's webhook endpoints (processor:
 * processors/endpoint-webhook.ts). One stored delivery (`<eventId>.<endpointId>`) has one automatic
 * schedule (WEBHOOK_ENDPOINT_ATTEMPTS attempts on the link webhooks' backoff) under a job id fixed
 * per delivery, and any number of one-attempt redeliveries a merchant asks for.
 */
import crypto from 'node:crypto';
import { getConfig } from '../config';
import { defineJob } from '../src/queue/job-definition';
import { linkWebhookWorkerOptions, WEBHOOK_BACKOFF_TYPE } from './link-webhook';

export const ENDPOINT_WEBHOOK_QUEUE = 'endpoint-webhook';

export interface EndpointWebhookJob {
  /** The stored delivery's id: <eventId>.<endpointId>. The worker reads it before anything is sent. */
  deliveryId: string;
  trigger: 'scheduled' | 'redelivery';
}

export interface EndpointWebhookResult {
  statusCode: number;
}

export const endpointWebhookJob = defineJob<EndpointWebhookJob, EndpointWebhookResult>()(
  ENDPOINT_WEBHOOK_QUEUE,
  'deliver',
);

/** Same retry schedule as the link webhooks (exponential, jittered, capped). */
export const endpointWebhookWorkerOptions = linkWebhookWorkerOptions;

/** Deterministic per stored delivery (its creation time guards against ids repeated after a reset); no ':'. */
export function endpointDeliveryJobId(delivery: { _id: string; createdAt: Date }): string {
  return `deliver-${delivery._id}-${new Date(delivery.createdAt).getTime()}`;
}

export function endpointDeliveryQueue() {
  return endpointWebhookJob.queueOf();
}

export async function enqueueEndpointDelivery(
  delivery: { _id: string; createdAt: Date },
  trigger: EndpointWebhookJob['trigger'],
): Promise<void> {
  const config = getConfig();
  const jobId =
    trigger === 'scheduled'
      ? endpointDeliveryJobId(delivery)
      : `redeliver-${delivery._id}-${Date.now()}-${crypto.randomBytes(3).toString('hex')}`;
  await endpointWebhookJob.add(
    { deliveryId: delivery._id, trigger },
    {
      jobId,
      attempts: trigger === 'scheduled' ? config.webhooks.endpointAttempts : 1,
      backoff: { type: WEBHOOK_BACKOFF_TYPE, delay: config.webhooks.retryBaseMs },
    },
  );
}
