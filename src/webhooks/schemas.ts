/**
 * The webhook routes' bodies, each declared once (src/http/schema.ts): the answers' Swagger definitions
 * and TypeScript types. Also the routes' path validation (celebrate) and the redelivery limits they apply.
 */
import { celebrate, Joi, Segments } from 'celebrate';
import { definition, field, nullable, required, swaggerOnly, type ValueOf } from '../http/schema';
import { ATTEMPT_TRIGGERS, EVENT_STATES, WEBHOOK_EVENT_TYPES } from './model';
import { DELIVERY_FAILURE_TEXT, DELIVERY_FAILURES } from './failures';

/**
 * Redeliveries are sends to the merchant's URL on request: bounded per event (a retry or two while
 * fixing an endpoint) and per merchant (every failed event once after an outage), each 429 with
 * Retry-After beyond its limit. Counted in Redis, so every web process shares the counts.
 */
export const REDELIVERY_LIMITS = {
  perEvent: { limit: 5, windowSeconds: 3600 },
  perMerchant: { limit: 100, windowSeconds: 600 },
};

const linkParams = {
  [Segments.PARAMS]: Joi.object({
    id: Joi.number().integer().min(1).required().messages({ '*': 'A valid integer is required.' }),
    eventId: Joi.string()
      .pattern(/^msg_\d+_\d+$/)
      .messages({ '*': 'Not an event id of this service (msg_<link>_<sequence>).' }),
  }),
};

export const validateLinkParams = celebrate(linkParams, { abortEarly: false });

export const webhookSecret = definition(
  'WebhookSecret',
  field.object({
    secret: required(field.string()).description(
      'whsec_<base64 of 32 bytes>. Verify with any Standard Webhooks library (e.g. npm standardwebhooks).',
    ),
    created_at: required(field.dateTime()),
    rotated_at: nullable(field.dateTime()),
    previous_secret_valid_until: nullable(field.dateTime()).description(
      'Until then the previous secret also signs: webhook-signature carries two space-separated v1 signatures',
    ),
  }),
);

export type WebhookSecretAnswer = ValueOf<typeof webhookSecret>;

export const webhookAttempt = definition(
  'WebhookAttempt',
  field.object({
    at: field.dateTime(),
    trigger: field.oneOf(ATTEMPT_TRIGGERS),
    status_code: nullable(field.number().integer()).description(
      'Null when no HTTP answer came (timeout, refused connection, unsafe URL)',
    ),
    duration_ms: field.number().integer(),
    success: field.boolean(),
    error: nullable(field.oneOf(DELIVERY_FAILURES)).description(DELIVERY_FAILURE_TEXT),
  }),
);

export const webhookEvent = definition(
  'WebhookEvent',
  field.object({
    id: field.string().description('The webhook-id header'),
    // The document lists the types the service emits, but the store takes any name (tests store their own).
    type: swaggerOnly(field.string(), { enum: [...WEBHOOK_EVENT_TYPES] }),
    sequence: field.number().integer(),
    url: field.string(),
    state: field
      .oneOf(EVENT_STATES)
      .description('failed: every scheduled attempt failed; gone: the receiver answered 410'),
    created_at: field.dateTime(),
    delivered_at: nullable(field.dateTime()),
    payload: swaggerOnly(field.any(), { type: 'object' }).description('The exact JSON body sent'),
    attempts: field.array(webhookAttempt),
  }),
);

export type WebhookEventAnswer = ValueOf<typeof webhookEvent>;

/** A link's events, oldest first. */
export const webhookEventList = field.object({ results: field.array(webhookEvent) });

export type WebhookEventListAnswer = ValueOf<typeof webhookEventList>;

/** The answer to a redelivery request: queued, and which event. */
export const redeliveryQueued = field.object({ detail: field.string(), id: field.string() });

export type RedeliveryQueuedAnswer = ValueOf<typeof redeliveryQueued>;
