/** Swagger text of the webhook routes: definitions and each operation. */
import { errorResponses, type SwaggerOperation } from '../http/routes';
import { WEBHOOK_ATTEMPTS } from '../../jobs/link-webhook';
import { REDELIVERY_LIMITS } from './schemas';

const secretSchema = {
  type: 'object',
  required: ['secret', 'created_at'],
  properties: {
    secret: {
      type: 'string',
      description: 'whsec_<base64 of 32 bytes>. Verify with any Standard Webhooks library (e.g. npm standardwebhooks).',
    },
    created_at: { type: 'string', format: 'date-time' },
    rotated_at: { type: 'string', format: 'date-time', 'x-nullable': true },
    previous_secret_valid_until: {
      type: 'string',
      format: 'date-time',
      'x-nullable': true,
      description:
        'Until then the previous secret also signs: webhook-signature carries two space-separated v1 signatures',
    },
  },
};

export const tag = {
  name: 'webhooks',
  description:
    "Events POSTed to a payment link's webhookUrl, signed per Standard Webhooks: headers webhook-id " +
    '(msg_<link>_<sequence>, the same on every retry), ' +
    ('webhook-timestamp (unix seconds), webhook-signature ("v1,<base64 HMAC-SHA256 of id.timestamp.body>" ' +
      'with the merchant secret). ') +
    ('Body {"type", "timestamp", "data": {..., "sequence"}}; types payment_link.paid and ' +
      'payment_link.payment_denied; data.sequence increases per link so ') +
    (`receivers can ignore stale events. Any 2xx is success; 410 stops retries; redirects are not followed; ` +
      `others retry with exponential backoff and jitter, ${WEBHOOK_ATTEMPTS} attempts over about 3 days.`),
};

export const definitions = {
  WebhookSecret: secretSchema,
  WebhookAttempt: {
    type: 'object',
    properties: {
      at: { type: 'string', format: 'date-time' },
      trigger: { type: 'string', enum: ['scheduled', 'redelivery'] },
      status_code: {
        type: 'integer',
        'x-nullable': true,
        description: 'Null when no HTTP answer came (timeout, refused connection, unsafe URL)',
      },
      duration_ms: { type: 'integer' },
      success: { type: 'boolean' },
      error: { type: 'string', 'x-nullable': true },
    },
  },
  WebhookEvent: {
    type: 'object',
    properties: {
      id: { type: 'string', description: 'The webhook-id header' },
      type: { type: 'string', enum: ['payment_link.paid', 'payment_link.payment_denied'] },
      sequence: { type: 'integer' },
      url: { type: 'string' },
      state: {
        type: 'string',
        enum: ['pending', 'delivered', 'failed', 'gone'],
        description: 'failed: every scheduled attempt failed; gone: the receiver answered 410',
      },
      created_at: { type: 'string', format: 'date-time' },
      delivered_at: { type: 'string', format: 'date-time', 'x-nullable': true },
      payload: { type: 'object', description: 'The exact JSON body sent' },
      attempts: { type: 'array', items: { $ref: '#/definitions/WebhookAttempt' } },
    },
  },
};

export const docs = {
  getWebhookSecret: {
    operationId: 'getWebhookSecret',
    summary: 'Read the webhook signing secret (created on first read)',
    responses: { 200: { description: 'The secret', schema: { $ref: '#/definitions/WebhookSecret' } } },
  },
  rotateWebhookSecret: {
    operationId: 'rotateWebhookSecret',
    summary: 'Rotate the webhook signing secret',
    description:
      'The new secret signs at once; the previous one keeps signing beside it for 24 hours, so a receiver ' +
      'can switch without rejecting events.',
    responses: { 200: { description: 'The new secret', schema: { $ref: '#/definitions/WebhookSecret' } } },
  },
  listLinkWebhookEvents: {
    operationId: 'listLinkWebhookEvents',
    summary: 'Webhook events of a link, each with every delivery attempt',
    parameters: [{ name: 'id', in: 'path', required: true, type: 'integer' }],
    responses: {
      200: {
        description: 'Events, oldest first',
        schema: {
          type: 'object',
          properties: { results: { type: 'array', items: { $ref: '#/definitions/WebhookEvent' } } },
        },
      },
      400: errorResponses.fieldErrors,
      404: errorResponses.detail('No such link for this merchant'),
    },
  },
  redeliverWebhookEvent: {
    operationId: 'redeliverWebhookEvent',
    summary: 'Deliver an event once more',
    description:
      'One more attempt, queued now, with the same webhook-id and body (a fresh timestamp and signature); ' +
      'recorded with trigger redelivery. Works on any event, delivered or not. ' +
      (`At most ${REDELIVERY_LIMITS.perEvent.limit} per event per hour and ` +
        `${REDELIVERY_LIMITS.perMerchant.limit} per merchant per 10 minutes (429 with Retry-After).`),
    parameters: [
      { name: 'id', in: 'path', required: true, type: 'integer' },
      { name: 'eventId', in: 'path', required: true, type: 'string' },
    ],
    responses: {
      202: {
        description: 'Queued',
        schema: { type: 'object', properties: { detail: { type: 'string' }, id: { type: 'string' } } },
      },
      400: errorResponses.fieldErrors,
      404: errorResponses.detail('No such link or event for this merchant'),
      429: errorResponses.detail(
        'Too many redeliveries of this event or by this merchant; Retry-After says when to try again',
      ),
    },
  },
} satisfies Record<string, SwaggerOperation>;
