/** The merchant's side of link webhooks: the signing secret (read, rotate), the delivery log, redelivery. */
import type { Request } from 'express';
import { celebrate, Joi, Segments } from 'celebrate';
import { MERCHANT_CREDENTIALS, merchantIdOf } from '../http/auth';
import { consumeRateLimit } from '../http/rate-limit';
import { errorResponses, type Feature } from '../http/routes';
import { getMerchantLink } from '../payment-links/service';
import {
  getWebhookSecret,
  listLinkEvents,
  presentSecret,
  redeliverEvent,
  rotateWebhookSecret,
  WEBHOOK_ATTEMPTS,
} from './service';

/**
 * Redeliveries are sends to the merchant's URL on request: bounded per event (a retry or two while
 * fixing an endpoint) and per merchant (every failed event once after an outage), each 429 with
 * Retry-After beyond its limit. Counted in Redis, so every web process shares the counts.
 */
export const REDELIVERY_LIMITS = {
  perEvent: { limit: 5, windowSeconds: 3600 },
  perMerchant: { limit: 100, windowSeconds: 600 },
};

async function limitRedeliveries(req: Request, merchantId: number, eventId: string): Promise<void> {
  const { perEvent, perMerchant } = REDELIVERY_LIMITS;
  // The event first: a request refused for its event does not spend the merchant's allowance.
  await consumeRateLimit(
    {
      name: 'redeliver-event',
      key: `${merchantId}:${eventId}`,
      limit: () => perEvent.limit,
      windowSeconds: () => perEvent.windowSeconds,
    },
    req,
  );
  await consumeRateLimit(
    {
      name: 'redeliver-merchant',
      key: String(merchantId),
      limit: () => perMerchant.limit,
      windowSeconds: () => perMerchant.windowSeconds,
    },
    req,
  );
}

const linkParams = {
  [Segments.PARAMS]: Joi.object({
    id: Joi.number().integer().min(1).required().messages({ '*': 'A valid integer is required.' }),
    eventId: Joi.string()
      .pattern(/^msg_\d+_\d+$/)
      .messages({ '*': 'Not an event id of this service (msg_<link>_<sequence>).' }),
  }),
};

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

export const webhooksFeature: Feature = {
  name: 'webhooks',
  tag: {
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
  },
  definitions: {
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
  },
  routes: [
    {
      method: 'get',
      path: '/api/v1/webhooks/secret/',
      auth: MERCHANT_CREDENTIALS,
      handler: async (req, res) => {
        res.json(presentSecret(await getWebhookSecret(merchantIdOf(req))));
      },
      doc: {
        operationId: 'getWebhookSecret',
        summary: 'Read the webhook signing secret (created on first read)',
        responses: { 200: { description: 'The secret', schema: { $ref: '#/definitions/WebhookSecret' } } },
      },
    },
    {
      method: 'post',
      path: '/api/v1/webhooks/secret/rotate/',
      auth: MERCHANT_CREDENTIALS,
      handler: async (req, res) => {
        res.json(presentSecret(await rotateWebhookSecret(merchantIdOf(req))));
      },
      doc: {
        operationId: 'rotateWebhookSecret',
        summary: 'Rotate the webhook signing secret',
        description:
          'The new secret signs at once; the previous one keeps signing beside it for 24 hours, so a receiver ' +
          'can switch without rejecting events.',
        responses: { 200: { description: 'The new secret', schema: { $ref: '#/definitions/WebhookSecret' } } },
      },
    },
    {
      method: 'get',
      path: '/api/v1/payment-links/:id/webhooks/',
      auth: MERCHANT_CREDENTIALS,
      before: [celebrate(linkParams, { abortEarly: false })],
      handler: async (req, res) => {
        const link = await getMerchantLink(merchantIdOf(req), Number(req.params.id));
        res.json({ results: await listLinkEvents(link.merchantId, link._id) });
      },
      doc: {
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
    },
    {
      method: 'post',
      path: '/api/v1/payment-links/:id/webhooks/:eventId/redeliver/',
      auth: MERCHANT_CREDENTIALS,
      before: [celebrate(linkParams, { abortEarly: false })],
      handler: async (req, res) => {
        const link = await getMerchantLink(merchantIdOf(req), Number(req.params.id));
        await limitRedeliveries(req, link.merchantId, String(req.params.eventId));
        const event = await redeliverEvent(link.merchantId, link._id, String(req.params.eventId));
        res.status(202).json({ detail: 'Redelivery queued.', id: event._id });
      },
      doc: {
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
    },
  ],
};
