/**
 * Link webhooks: what the rest of the project calls. The parts, each in its own file:
 *   secrets.ts        the merchant's signing secret (read, rotate) and the signature
 *   outbox.ts         storing an event and queuing its delivery; the sweeps that queue what was missed
 *   jobs/link-webhook.ts  the delivery queue: payload, retry schedule, job ids
 *   delivery.ts       one delivery attempt, recorded
 * This file holds the merchant's view of the events: the log and redelivery on request.
 */
import { notFound } from '../platform/errors';
import { enqueueDelivery } from '../../jobs/link-webhook';
import { WebhookAttemptModel, WebhookEventModel, type WebhookAttempt, type WebhookEvent } from './model';
import type { WebhookEventAnswer } from './schemas';
import { shownFailure } from './failures';

export * from './outbox';
export * from './secrets';

/** A merchant asks for one more delivery of an event of one of its links. */
export async function redeliverEvent(merchantId: number, linkId: number, eventId: string): Promise<WebhookEvent> {
  const event = await WebhookEventModel.findOne({ _id: eventId, linkId, merchantId }).lean();
  if (!event) throw notFound('No such event for this payment link.');
  await enqueueDelivery(event, 'redelivery', event);
  return event;
}

export function presentEvent(
  event: WebhookEvent,
  attempts: Pick<WebhookAttempt, 'at' | 'durationMs' | 'statusCode' | 'success' | 'error' | 'trigger'>[],
): WebhookEventAnswer {
  return {
    id: event._id,
    type: event.type,
    sequence: event.sequence,
    url: event.url,
    state: event.state,
    created_at: event.createdAt.toISOString(),
    delivered_at: event.deliveredAt ? event.deliveredAt.toISOString() : null,
    payload: JSON.parse(event.body),
    attempts: attempts.map((a) => ({
      at: a.at.toISOString(),
      trigger: a.trigger,
      status_code: a.statusCode,
      duration_ms: a.durationMs,
      success: a.success,
      error: shownFailure(a.error),
    })),
  };
}

/** Every event of a link, oldest first, each with every attempt. */
export async function listLinkEvents(merchantId: number, linkId: number): Promise<WebhookEventAnswer[]> {
  const [events, attempts] = await Promise.all([
    WebhookEventModel.find({ linkId, merchantId }).sort({ sequence: 1 }).lean(),
    WebhookAttemptModel.find({ linkId, merchantId }).sort({ at: 1 }).lean(),
  ]);
  return events.map((event) =>
    presentEvent(
      event,
      attempts.filter((a) => a.eventId === event._id),
    ),
  );
}
