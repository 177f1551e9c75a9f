/** Swagger text of the account webhook endpoints. */
import { errorResponses, type SwaggerOperation } from '../http/routes';
import { swaggerDefinitions, swaggerOf, swaggerRef } from '../http/schema';
import {
  endpoint,
  endpointAttempt,
  endpointCreate,
  endpointDelivery,
  endpointDeliveryList,
  endpointList,
  endpointUpdate,
  endpointWithSecret,
  MAX_ENDPOINTS,
} from './endpoint-schemas';
import { REDELIVERY_LIMITS, redeliveryQueued } from './schemas';

export const endpointTag = {
  name: 'webhook-endpoints',
  description:
    'Account webhook endpoints: every event of the account whose type an endpoint subscribes to is POSTed to it, ' +
    "signed per Standard Webhooks with the endpoint's own secret (webhook-id = the event id). At least once: " +
    'retried with exponential backoff for about 3 days; an endpoint whose delivery failed that long, with no ' +
    `success since, is disabled (disabled_reason says why). At most ${MAX_ENDPOINTS} per merchant. ` +
    'See docs/api/events.md.',
};

export const endpointDefinitions = swaggerDefinitions(
  endpointCreate,
  endpointUpdate,
  endpoint,
  endpointWithSecret,
  endpointAttempt,
  endpointDelivery,
);

const idParam = { name: 'id', in: 'path', required: true, type: 'string', description: 'we_<24 hex>' };
const notFound = errorResponses.detail('No such webhook endpoint for this merchant');

export const endpointDocs = {
  createWebhookEndpoint: {
    operationId: 'createWebhookEndpoint',
    summary: 'Create a webhook endpoint (its secret is shown only now)',
    parameters: [{ name: 'body', in: 'body', required: true, schema: swaggerRef(endpointCreate) }],
    responses: {
      201: { description: 'Created, with its signing secret', schema: swaggerRef(endpointWithSecret) },
      400: errorResponses.fieldErrors,
      409: errorResponses.detail(`The merchant has ${MAX_ENDPOINTS} endpoints already`),
    },
  },
  listWebhookEndpoints: {
    operationId: 'listWebhookEndpoints',
    summary: "The merchant's webhook endpoints, oldest first",
    responses: { 200: { description: 'Endpoints', schema: swaggerOf(endpointList) } },
  },
  getWebhookEndpoint: {
    operationId: 'getWebhookEndpoint',
    summary: 'Read a webhook endpoint',
    parameters: [idParam],
    responses: {
      200: { description: 'The endpoint', schema: swaggerRef(endpoint) },
      400: errorResponses.fieldErrors,
      404: notFound,
    },
  },
  updateWebhookEndpoint: {
    operationId: 'updateWebhookEndpoint',
    summary: 'Change a webhook endpoint (enabled: true enables it again after the service disabled it)',
    parameters: [idParam, { name: 'body', in: 'body', required: true, schema: swaggerRef(endpointUpdate) }],
    responses: {
      200: { description: 'The endpoint', schema: swaggerRef(endpoint) },
      400: errorResponses.fieldErrors,
      404: notFound,
    },
  },
  deleteWebhookEndpoint: {
    operationId: 'deleteWebhookEndpoint',
    summary: 'Delete a webhook endpoint',
    parameters: [idParam],
    responses: { 204: { description: 'Deleted' }, 400: errorResponses.fieldErrors, 404: notFound },
  },
  rotateWebhookEndpointSecret: {
    operationId: 'rotateWebhookEndpointSecret',
    summary: "Rotate an endpoint's signing secret",
    description: 'The new secret signs at once; the previous one keeps signing beside it for 24 hours.',
    parameters: [idParam],
    responses: {
      200: { description: 'The endpoint with its new secret', schema: swaggerRef(endpointWithSecret) },
      400: errorResponses.fieldErrors,
      404: notFound,
    },
  },
  listWebhookEndpointDeliveries: {
    operationId: 'listWebhookEndpointDeliveries',
    summary: "An endpoint's newest 100 deliveries, each with every attempt",
    parameters: [idParam],
    responses: {
      200: { description: 'Deliveries, newest first', schema: swaggerOf(endpointDeliveryList) },
      400: errorResponses.fieldErrors,
      404: notFound,
    },
  },
  redeliverWebhookEndpointDelivery: {
    operationId: 'redeliverWebhookEndpointDelivery',
    summary: 'Deliver an event to this endpoint once more',
    description:
      'One more attempt, same webhook-id and body. ' +
      `At most ${REDELIVERY_LIMITS.perEvent.limit} per delivery per hour and ` +
      `${REDELIVERY_LIMITS.perMerchant.limit} per merchant per 10 minutes (429 with Retry-After).`,
    parameters: [idParam, { name: 'deliveryId', in: 'path', required: true, type: 'string' }],
    responses: {
      202: { description: 'Queued', schema: swaggerOf(redeliveryQueued) },
      400: errorResponses.fieldErrors,
      404: errorResponses.detail('No such endpoint or delivery for this merchant'),
      429: errorResponses.detail('Too many redeliveries; Retry-After says when to try again'),
    },
  },
} satisfies Record<string, SwaggerOperation>;
