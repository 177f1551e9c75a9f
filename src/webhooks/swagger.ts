/** Swagger text of the webhook routes: each operation; the bodies' definitions come from schemas.ts. */
import { errorResponses, type SwaggerOperation } from '../http/routes';
import { swaggerDefinitions, swaggerOf } from '../http/schema';
import { WEBHOOK_ATTEMPTS } from '../../jobs/link-webhook';
import {
  REDELIVERY_LIMITS,
  redeliveryQueued,
  webhookAttempt,
  webhookEvent,
  webhookEventList,
  webhookSecret,
} from './schemas';

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

export const definitions = swaggerDefinitions(webhookSecret, webhookAttempt, webhookEvent);

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
        schema: swaggerOf(webhookEventList),
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
        schema: swaggerOf(redeliveryQueued),
      },
      400: errorResponses.fieldErrors,
      404: errorResponses.detail('No such link or event for this merchant'),
      429: errorResponses.detail(
        'Too many redeliveries of this event or by this merchant; Retry-After says when to try again',
      ),
    },
  },
} satisfies Record<string, SwaggerOperation>;
