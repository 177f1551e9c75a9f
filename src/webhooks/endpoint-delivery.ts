/**
 * Account events to the merchant's webhook endpoints: the fan-out (one stored delivery per event and
 * subscribed endpoint, then its job) and one delivery attempt. The same mechanics as the link
 * webhooks (delivery.ts): stored first then queued, the URL checked before every attempt and the
 * connection pinned to the checked addresses, Standard Webhooks signatures, any 2xx a success, 410
 * stops, every attempt recorded; the scheduler sweep queues what a failed add left unqueued.
 */
import mongoose from 'mongoose';
import { createOnce } from '../db/claims';
import { insertDocument } from '../db/inserts';
import { logger } from '../platform/logger';
import type { Resolver } from '../platform/url-safety';
import { endpointDeliveryJobId, endpointDeliveryQueue, enqueueEndpointDelivery } from '../../jobs/endpoint-webhook';
import { attemptPostTo, type DeliveryOutcome } from './delivery';
import { failureText, shownFailure } from './failures';
import {
  EndpointAttemptModel,
  EndpointDeliveryModel,
  WebhookEndpointModel,
  type EndpointDelivery,
  type WebhookEndpoint,
} from './endpoint-model';
import { subscribes } from './event-types';
import { signedHeaders } from './secrets';

export interface FannedOutEvent {
  id: string;
  merchantId: number;
  type: string;
  /** The exact JSON body to send (and sign). */
  body: string;
  createdAt: Date;
}

/**
 * Stores one delivery per enabled endpoint of the merchant subscribed to the event's type, and queues
 * each. Idempotent: a delivery exists once (`<eventId>.<endpointId>`), and its job id is fixed, so a
 * second fan-out of the same event (a sweep, a retried emitter) adds nothing. A failed add leaves the
 * delivery pending and unqueued: the sweep queues it. Returns the deliveries this call stored.
 */
export async function fanOutEvent(event: FannedOutEvent): Promise<number> {
  const endpoints = await WebhookEndpointModel.find({ merchantId: event.merchantId }).lean();
  const subscribed = endpoints.filter((e) => e.enabled && subscribes(e.enabledEvents, event.type));
  let stored = 0;
  await Promise.all(
    subscribed.map(async (endpoint) => {
      const delivery = await createOnce(EndpointDeliveryModel, {
        _id: `${event.id}.${endpoint._id}`,
        merchantId: event.merchantId,
        endpointId: endpoint._id,
        eventId: event.id,
        eventType: event.type,
        body: event.body,
        createdAt: event.createdAt,
        day: event.createdAt.toISOString().slice(0, 10),
        queued: true,
      });
      if (!delivery) return;
      stored++;
      try {
        await enqueueEndpointDelivery(delivery, 'scheduled');
      } catch (err) {
        logger.warn({ err, deliveryId: delivery._id }, 'could not queue a webhook endpoint delivery; the sweep will');
        await EndpointDeliveryModel.updateOne({ _id: delivery._id }, { $set: { queued: false } }).catch(() => {});
      }
    }),
  );
  return stored;
}

/** How stale an endpoint's lastSuccessAt may be (failEndpointDelivery reads it: a success within a minute counts). */
const SUCCESS_MARK_MS = 60_000;

const SKIPPED: DeliveryOutcome = { success: true, gone: false, skipped: true, statusCode: null, error: null };

export interface EndpointDeliveryOptions {
  resolve?: Resolver;
  /** The job's first run (not a retry, nor a rerun after its worker died). */
  firstRun?: boolean;
}

/**
 * One attempt of a stored delivery. The delivery and its endpoint are read first; what is sent is
 * the stored body, signed with the endpoint's secrets of this moment. An endpoint deleted or disabled
 * meanwhile gets nothing (the delivery is left as it is: enabling the endpoint and redelivering sends it).
 */
export async function deliverToEndpoint(
  deliveryId: string,
  trigger: 'scheduled' | 'redelivery',
  options: EndpointDeliveryOptions = {},
): Promise<DeliveryOutcome & { endpoint?: WebhookEndpoint; delivery?: EndpointDelivery }> {
  // The delivery's id ends with its endpoint's (<eventId>.<endpointId>): both are read at once, then checked.
  const [delivery, endpoint] = await Promise.all([
    EndpointDeliveryModel.findById(deliveryId).lean(),
    WebhookEndpointModel.findById(deliveryId.slice(deliveryId.lastIndexOf('.') + 1)).lean(),
  ]);
  if (!delivery) {
    return { success: false, gone: false, refused: true, statusCode: null, error: `no stored delivery ${deliveryId}` };
  }
  if (!endpoint || endpoint._id !== delivery.endpointId || endpoint.merchantId !== delivery.merchantId) {
    return { success: false, gone: false, refused: true, statusCode: null, error: 'the endpoint was deleted' };
  }
  if (trigger === 'scheduled' && !options.firstRun && delivery.state !== 'pending') return SKIPPED;
  if (!endpoint.enabled && trigger === 'scheduled') {
    return { success: false, gone: false, refused: true, statusCode: null, error: 'the endpoint is disabled' };
  }
  const started = new Date();
  const startedMs = performance.now();
  const outcome = await attemptPostTo(
    endpoint.url,
    options.resolve,
    () => signedHeaders(endpoint, delivery.eventId, delivery.body, started),
    delivery.body,
  );
  const durationMs = Math.round(performance.now() - startedMs);
  const attempted = { lastAttemptAt: started };
  const state = outcome.success
    ? { state: 'delivered', deliveredAt: started }
    : outcome.gone && delivery.state !== 'delivered'
      ? { state: 'gone' }
      : {};
  await Promise.all([
    insertDocument(EndpointAttemptModel, {
      deliveryId,
      endpointId: endpoint._id,
      merchantId: endpoint.merchantId,
      day: delivery.day,
      trigger,
      at: started,
      durationMs,
      statusCode: outcome.statusCode,
      success: outcome.success,
      error: outcome.error,
    }),
    EndpointDeliveryModel.updateOne(
      { _id: deliveryId },
      { $set: { ...attempted, ...state }, $inc: { attemptCount: 1 } },
    ),
    // The endpoint's last success, kept to the minute: one write per endpoint and minute, not per delivery.
    outcome.success &&
    (!endpoint.lastSuccessAt || started.getTime() - endpoint.lastSuccessAt.getTime() > SUCCESS_MARK_MS)
      ? WebhookEndpointModel.updateOne({ _id: endpoint._id }, { $set: { lastSuccessAt: started } })
      : Promise.resolve(),
  ]);
  logger.info(
    {
      deliveryId,
      endpointId: endpoint._id,
      statusCode: outcome.statusCode,
      success: outcome.success,
      error: outcome.error,
      detail: outcome.detail,
      durationMs,
    },
    'webhook endpoint attempt',
  );
  return { ...outcome, endpoint, delivery };
}

/**
 * The automatic schedule of a delivery ran out without a success: the delivery is failed, and its
 * endpoint disabled, with the reason shown to the merchant, unless a delivery to it succeeded since
 * this one was stored (the endpoint works; this event alone failed).
 */
export async function failEndpointDelivery(
  deliveryId: string,
  last: Pick<DeliveryOutcome, 'error' | 'statusCode'>,
): Promise<void> {
  const delivery = await EndpointDeliveryModel.findById(deliveryId).lean();
  if (!delivery || delivery.state !== 'pending') return;
  await EndpointDeliveryModel.updateOne(
    { _id: deliveryId, state: mongoose.trusted({ $in: ['pending'] }) },
    { $set: { state: 'failed' } },
  );
  const endpoint = await WebhookEndpointModel.findById(delivery.endpointId).lean();
  if (!endpoint || !endpoint.enabled) return;
  if (endpoint.lastSuccessAt && endpoint.lastSuccessAt.getTime() >= delivery.createdAt.getTime() - SUCCESS_MARK_MS)
    return;
  const now = new Date();
  const reason =
    `Disabled on ${now.toISOString()}: every attempt to deliver ${delivery.eventId} failed ` +
    `(${delivery.attemptCount} attempts, last: ${failureText(shownFailure(last.error), last.statusCode)}), ` +
    'with no successful delivery since.';
  await WebhookEndpointModel.updateOne(
    { _id: endpoint._id },
    { $set: { enabled: false, disabledReason: reason, disabledAt: now, updatedAt: now } },
  );
  logger.warn({ endpointId: endpoint._id, merchantId: endpoint.merchantId }, 'webhook endpoint disabled');
}

/** Scheduler task: deliveries stored but never queued (Redis was down) for a minute are queued. */
export async function sweepUnqueuedEndpointDeliveries(
  now = new Date(),
  graceMs = 60_000,
  batch = 500,
): Promise<number> {
  const cutoff = new Date(now.getTime() - graceMs);
  const pending = await EndpointDeliveryModel.find(
    { queued: false, createdAt: mongoose.trusted({ $lt: cutoff }) as { $lt: Date } },
    { _id: 1, createdAt: 1 },
  )
    .limit(batch)
    .lean();
  for (const delivery of pending) {
    if (!(await endpointDeliveryQueue().getJob(endpointDeliveryJobId(delivery))))
      await enqueueEndpointDelivery(delivery, 'scheduled');
    await EndpointDeliveryModel.updateOne({ _id: delivery._id }, { $set: { queued: true } });
  }
  if (pending.length) logger.warn({ queued: pending.length }, 'queued webhook endpoint deliveries never queued');
  return pending.length;
}

/** A pending delivery idle this long (no attempt since) has its job looked for. */
export const LOST_DELIVERY_JOB_MS = 10 * 60_000;

/**
 * Scheduler task, second half: pending deliveries whose job is no longer in Redis (Redis lost its data:
 * a restart without persistence, a flush) are queued again. Every pending delivery idle for
 * LOST_DELIVERY_JOB_MS is looked up in BullMQ (one Redis read each); one waiting out a retry delay still
 * has its delayed job, and a job kept failed or completed is left alone.
 */
export async function requeueLostEndpointDeliveries(now = new Date(), batch = 500): Promise<number> {
  const idleSince = now.getTime() - LOST_DELIVERY_JOB_MS;
  const pending = await EndpointDeliveryModel.find({ state: 'pending' }, { createdAt: 1, lastAttemptAt: 1, queued: 1 })
    .sort({ createdAt: 1 })
    .lean();
  const queue = endpointDeliveryQueue();
  let queued = 0;
  for (const delivery of pending) {
    if (queued >= batch) break;
    if (!delivery.queued || delivery.createdAt.getTime() >= idleSince) continue;
    if (delivery.lastAttemptAt && delivery.lastAttemptAt.getTime() >= idleSince) continue;
    if (await queue.getJob(endpointDeliveryJobId(delivery))) continue;
    await enqueueEndpointDelivery(delivery, 'scheduled');
    queued++;
  }
  if (queued) logger.warn({ queued }, 'queued again webhook endpoint deliveries whose job was lost');
  return queued;
}

/** The scheduler task form: deliveries never queued, then deliveries whose job was lost. */
export async function requeueUndeliveredEndpointDeliveries(now: Date): Promise<void> {
  await sweepUnqueuedEndpointDeliveries(now);
  await requeueLostEndpointDeliveries(now);
}

/** A delivery still pending this long is behind: the receiver is failing, or the queue is. */
export const DELIVERY_BEHIND_MS = 60 * 60_000;

/**
 * For needs_attention (src/metrics): endpoints the service disabled after their deliveries failed,
 * and deliveries pending for over an hour. Each read is an equality on an indexed field.
 */
export async function webhookEndpointsNeedingAttention(now = new Date()): Promise<Record<string, number>> {
  const cutoff = now.getTime() - DELIVERY_BEHIND_MS;
  const [disabled, pending] = await Promise.all([
    WebhookEndpointModel.find({ enabled: false }, { disabledReason: 1 }).lean(),
    EndpointDeliveryModel.find({ state: 'pending' }, { createdAt: 1 }).lean(),
  ]);
  return {
    webhook_endpoint_disabled_by_failures: disabled.filter((e) => e.disabledReason !== null).length,
    webhook_delivery_pending_over_1h: pending.filter((d) => d.createdAt.getTime() < cutoff).length,
  };
}

/** Seconds since the oldest pending delivery was stored (0 when none): the outbox's age, for /metrics. */
export async function endpointOutboxAgeSeconds(now = new Date()): Promise<number> {
  const oldest = await EndpointDeliveryModel.findOne({ state: 'pending' }, { createdAt: 1 })
    .sort({ createdAt: 1 })
    .lean();
  return oldest ? Math.max(0, Math.round((now.getTime() - oldest.createdAt.getTime()) / 1000)) : 0;
}

/** The retention: a day's deliveries and their attempts (with the events of that day, src/events/reads.ts). */
export async function removeEndpointDeliveriesOfDay(day: string): Promise<number> {
  const [deliveries] = await Promise.all([
    EndpointDeliveryModel.deleteMany({ day }),
    EndpointAttemptModel.deleteMany({ day }),
  ]);
  return deliveries.deletedCount ?? 0;
}
