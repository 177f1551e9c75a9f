/**
 * The delivery queue's definition is jobs/link-webhook.ts; re-exported here for the modules that
 * import it from the webhooks area (service.ts, delivery.ts, tests).
 */
export {
  LINK_WEBHOOK_QUEUE,
  WEBHOOK_BACKOFF_TYPE,
  WEBHOOK_ATTEMPTS,
  WEBHOOK_MAX_DELAY_FACTOR,
  type CarriedEvent,
  type LinkWebhookJob,
  webhookRetryDelay,
  deliveryJobId,
  deliveryQueue,
  enqueueDelivery,
} from '../../jobs/link-webhook';
