/**
 * The merchant's account webhook endpoints: create, read, change, delete, rotate the signing
 * secret, the delivery log and redelivery. Another merchant's endpoint is "not found".
 *
 * The count is bounded by inserting under a unique {merchantId, slot} (slots 0..MAX_ENDPOINTS-1): two
 * concurrent creates cannot both take the last slot, which a count-then-insert would let through.
 */
import crypto from 'node:crypto';
import { createOnce } from '../db/claims';
import { badRequest, conflict, notFound } from '../platform/errors';
import { checkWebhookUrl, configuredUrlRules, type Resolver } from '../platform/url-safety';
import { enqueueEndpointDelivery } from '../../jobs/endpoint-webhook';
import {
  EndpointAttemptModel,
  EndpointDeliveryModel,
  WebhookEndpointModel,
  type EndpointDelivery,
  type WebhookEndpoint,
} from './endpoint-model';
import {
  MAX_ENDPOINTS,
  type EndpointAnswer,
  type EndpointCreateInput,
  type EndpointDeliveryAnswer,
  type EndpointUpdateInput,
  type EndpointWithSecretAnswer,
} from './endpoint-schemas';
import { ROTATION_GRACE_MS } from './secrets';
import { shownDisabledReason, shownFailure } from './failures';

/** The newest deliveries an endpoint's log shows. */
export const DELIVERY_LOG_SIZE = 100;

function newSecret(): string {
  return `whsec_${crypto.randomBytes(32).toString('base64')}`;
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function presentEndpoint(endpoint: WebhookEndpoint): EndpointAnswer {
  return {
    id: endpoint._id,
    url: endpoint.url,
    description: endpoint.description,
    enabled_events: endpoint.enabledEvents,
    enabled: endpoint.enabled,
    disabled_reason: shownDisabledReason(endpoint.disabledReason),
    disabled_at: iso(endpoint.disabledAt),
    created_at: endpoint.createdAt.toISOString(),
    updated_at: endpoint.updatedAt.toISOString(),
  };
}

function presentWithSecret(endpoint: WebhookEndpoint): EndpointWithSecretAnswer {
  return {
    ...presentEndpoint(endpoint),
    secret: endpoint.secret,
    previous_secret_valid_until: iso(endpoint.previousValidUntil),
  };
}

async function checkUrl(url: string, resolve?: Resolver): Promise<void> {
  const verdict = await checkWebhookUrl(url, configuredUrlRules(resolve));
  if (!verdict.safe) throw badRequest({ url: [verdict.message] });
}

export async function createEndpoint(
  merchantId: number,
  input: EndpointCreateInput,
  resolve?: Resolver,
): Promise<EndpointWithSecretAnswer> {
  await checkUrl(input.url, resolve);
  const now = new Date();
  for (let tries = 0; tries < MAX_ENDPOINTS + 4; tries++) {
    const taken = new Set(
      (await WebhookEndpointModel.find({ merchantId }, { slot: 1 }).lean()).map((endpoint) => endpoint.slot),
    );
    const slot = [...Array(MAX_ENDPOINTS).keys()].find((s) => !taken.has(s));
    if (slot === undefined) throw conflict(`At most ${MAX_ENDPOINTS} webhook endpoints per merchant.`);
    const created = await createOnce(WebhookEndpointModel, {
      _id: `we_${crypto.randomBytes(12).toString('hex')}`,
      merchantId,
      slot,
      url: input.url,
      description: input.description ?? '',
      enabledEvents: input.enabled_events,
      enabled: input.enabled ?? true,
      secret: newSecret(),
      createdAt: now,
      updatedAt: now,
    });
    if (created) return presentWithSecret(created);
  }
  throw conflict('Too many concurrent creations of webhook endpoints; try again.');
}

export async function findEndpoint(merchantId: number, endpointId: string): Promise<WebhookEndpoint> {
  // By _id alone; another merchant's endpoint is not found (its existence is not revealed).
  const endpoint = await WebhookEndpointModel.findById(endpointId).lean();
  if (!endpoint || endpoint.merchantId !== merchantId) throw notFound('No such webhook endpoint.');
  return endpoint;
}

export async function listEndpoints(merchantId: number): Promise<EndpointAnswer[]> {
  const endpoints = await WebhookEndpointModel.find({ merchantId }).lean();
  return endpoints.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime()).map(presentEndpoint);
}

export async function updateEndpoint(
  merchantId: number,
  endpointId: string,
  input: EndpointUpdateInput,
  resolve?: Resolver,
): Promise<EndpointAnswer> {
  const endpoint = await findEndpoint(merchantId, endpointId);
  if (input.url !== undefined) await checkUrl(input.url, resolve);
  const set: Partial<WebhookEndpoint> = { updatedAt: new Date() };
  if (input.url !== undefined) set.url = input.url;
  if (input.description !== undefined) set.description = input.description;
  if (input.enabled_events !== undefined) set.enabledEvents = input.enabled_events;
  if (input.enabled !== undefined) {
    set.enabled = input.enabled;
    // Enabled again by the merchant, or disabled by the merchant: no reason of ours stands.
    set.disabledReason = null;
    set.disabledAt = input.enabled ? null : new Date();
  }
  const updated = await WebhookEndpointModel.findOneAndUpdate(
    { _id: endpoint._id },
    { $set: set },
    { new: true },
  ).lean();
  if (!updated) throw notFound('No such webhook endpoint.');
  return presentEndpoint(updated);
}

/** Removes the endpoint: nothing more is delivered to it (a queued delivery finds it gone and stops). */
export async function deleteEndpoint(merchantId: number, endpointId: string): Promise<void> {
  const endpoint = await findEndpoint(merchantId, endpointId);
  await WebhookEndpointModel.deleteOne({ _id: endpoint._id });
}

/** A new secret signs from now on; the old one also signs for ROTATION_GRACE_MS (as the link secret). */
export async function rotateEndpointSecret(merchantId: number, endpointId: string): Promise<EndpointWithSecretAnswer> {
  const endpoint = await findEndpoint(merchantId, endpointId);
  const now = new Date();
  const rotated = {
    secret: newSecret(),
    previousSecret: endpoint.secret,
    previousValidUntil: new Date(now.getTime() + ROTATION_GRACE_MS),
    rotatedAt: now,
    updatedAt: now,
  };
  await WebhookEndpointModel.updateOne({ _id: endpoint._id }, { $set: rotated });
  return presentWithSecret({ ...endpoint, ...rotated });
}

function presentDelivery(
  delivery: EndpointDelivery,
  attempts: Awaited<ReturnType<typeof attemptsOf>>,
): EndpointDeliveryAnswer {
  return {
    id: delivery._id,
    event_id: delivery.eventId,
    event_type: delivery.eventType,
    state: delivery.state,
    attempt_count: delivery.attemptCount,
    created_at: delivery.createdAt.toISOString(),
    delivered_at: iso(delivery.deliveredAt),
    attempts: attempts
      .filter((a) => a.deliveryId === delivery._id)
      .map((a) => ({
        at: a.at.toISOString(),
        trigger: a.trigger,
        status_code: a.statusCode,
        duration_ms: a.durationMs,
        success: a.success,
        error: shownFailure(a.error),
      })),
  };
}

/** The endpoint's attempts, newest first, at most a few per delivery of the log. */
async function attemptsOf(endpointId: string) {
  return EndpointAttemptModel.find({ endpointId })
    .sort({ at: -1 })
    .limit(DELIVERY_LOG_SIZE * 5)
    .lean()
    .then((attempts) => attempts.reverse());
}

/** The endpoint's newest deliveries, each with every attempt. */
export async function listEndpointDeliveries(
  merchantId: number,
  endpointId: string,
): Promise<EndpointDeliveryAnswer[]> {
  const endpoint = await findEndpoint(merchantId, endpointId);
  const [deliveries, attempts] = await Promise.all([
    EndpointDeliveryModel.find({ endpointId: endpoint._id }).sort({ createdAt: -1 }).limit(DELIVERY_LOG_SIZE).lean(),
    attemptsOf(endpoint._id),
  ]);
  return deliveries.map((delivery) => presentDelivery(delivery, attempts));
}

/** One more attempt of a delivery, on the merchant's request (rate-limited by the route). */
export async function redeliverEndpointDelivery(
  merchantId: number,
  endpointId: string,
  deliveryId: string,
): Promise<EndpointDelivery> {
  const endpoint = await findEndpoint(merchantId, endpointId);
  const delivery = await EndpointDeliveryModel.findById(deliveryId).lean();
  if (!delivery || delivery.endpointId !== endpoint._id) throw notFound('No such delivery for this endpoint.');
  await enqueueEndpointDelivery(delivery, 'redelivery');
  return delivery;
}
