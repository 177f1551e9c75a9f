/**
 * The webhook endpoint bodies, each declared once (src/http/schema.ts): validation, Swagger text and
 * TypeScript types. URLs are checked further by the service (SSRF rules, src/platform/url-safety.ts).
 */
import { celebrate, Joi, Segments } from 'celebrate';
import { definition, field, nullable, required, type ValueOf } from '../http/schema';
import { FIELD_MESSAGES } from '../http/validation';
import { UNSAFE_WEBHOOK_URL } from '../platform/url-safety';
import { DELIVERY_STATES } from './endpoint-model';
import { ALL_EVENTS, EVENT_TYPE_NAMES } from './event-types';
import { DELIVERY_FAILURE_TEXT, DELIVERY_FAILURES } from './failures';

/** At most this many endpoints per merchant (Stripe allows 16 too). */
export const MAX_ENDPOINTS = 16;
export const MAX_DESCRIPTION = 200;

const MESSAGES = {
  ...FIELD_MESSAGES,
  'array.base': 'Expected a list of event types.',
  'array.min': 'Name at least one event type, or "*".',
  'array.max': 'Ensure this list has no more than {#limit} items.',
  'any.only': `Not an event type: use "*" or one of ${EVENT_TYPE_NAMES.join(', ')}.`,
  'array.unique': 'An event type is listed twice.',
};

const url = field
  .string()
  .trim()
  .max(2000)
  .messages({ 'string.base': UNSAFE_WEBHOOK_URL, 'string.empty': UNSAFE_WEBHOOK_URL })
  .description(
    'Public HTTPS URL on port 443 (or a port the deployment allows) receiving signed events. Refused with ' +
      '{"url": ["Enter a safe public HTTPS URL"]} for http, credentials in the URL, localhost, names resolving to ' +
      'any internal address and unresolvable hosts, and with {"url": ["Enter a safe public HTTPS URL on port 443 ' +
      '(not 6379)"]} for any other port',
  )
  .example('https://partner.example.com/webhooks/payments');
const enabledEvents = field
  .array(field.oneOf([ALL_EVENTS, ...EVENT_TYPE_NAMES] as const))
  .min(1)
  .max(EVENT_TYPE_NAMES.length + 1)
  .unique()
  .description('Event types this endpoint receives, or ["*"] for every type')
  .example(['sale.captured', 'refund.succeeded']);
const description = field.string().allow('').max(MAX_DESCRIPTION).example('ERP integration');
const enabled = field
  .boolean()
  .description('A disabled endpoint receives nothing; enabling it again clears the reason');

export const endpointCreate = definition(
  'WebhookEndpointCreate',
  field
    .object({ url: required(url), enabled_events: required(enabledEvents), description, enabled })
    .messages(MESSAGES),
);
export type EndpointCreateInput = ValueOf<typeof endpointCreate>;

export const endpointUpdate = definition(
  'WebhookEndpointUpdate',
  field.object({ url, enabled_events: enabledEvents, description, enabled }).messages(MESSAGES),
);
export type EndpointUpdateInput = ValueOf<typeof endpointUpdate>;

const endpointFields = {
  id: required(field.string()).example('we_6745a1b2c3d4e5f6a7b8c9d0'),
  url: required(field.string()),
  description: required(field.string()),
  enabled_events: required(field.array(field.string())),
  enabled: required(field.boolean()),
  disabled_reason: nullable(field.string()).description(
    'Why the service disabled this endpoint (every attempt of a delivery failed, about 3 days, ending "last: ' +
      '<failure category>[ <HTTP status>]"); null otherwise',
  ),
  disabled_at: nullable(field.dateTime()),
  created_at: required(field.dateTime()),
  updated_at: required(field.dateTime()),
};

export const endpoint = definition('WebhookEndpoint', field.object(endpointFields));
export type EndpointAnswer = ValueOf<typeof endpoint>;

export const endpointWithSecret = definition(
  'WebhookEndpointWithSecret',
  field.object({
    ...endpointFields,
    secret: required(field.string()).description(
      'whsec_<base64>: shown only here (creation, rotation). Verify deliveries with any Standard Webhooks library',
    ),
    previous_secret_valid_until: nullable(field.dateTime()).description(
      'After a rotation the previous secret also signs until then (two v1 signatures)',
    ),
  }),
);
export type EndpointWithSecretAnswer = ValueOf<typeof endpointWithSecret>;

export const endpointList = field.object({ results: required(field.array(endpoint)) });
export type EndpointListAnswer = ValueOf<typeof endpointList>;

export const endpointAttempt = definition(
  'WebhookEndpointAttempt',
  field.object({
    at: required(field.dateTime()),
    trigger: required(field.oneOf(['scheduled', 'redelivery'] as const)),
    status_code: nullable(field.number().integer()),
    duration_ms: required(field.number().integer()),
    success: required(field.boolean()),
    error: nullable(field.oneOf(DELIVERY_FAILURES)).description(DELIVERY_FAILURE_TEXT),
  }),
);

export const endpointDelivery = definition(
  'WebhookEndpointDelivery',
  field.object({
    id: required(field.string()).description('<event id>.<endpoint id>'),
    event_id: required(field.string()).description('The webhook-id header'),
    event_type: required(field.string()),
    state: required(field.oneOf(DELIVERY_STATES)).description(
      'failed: every scheduled attempt failed; gone: the receiver answered 410',
    ),
    attempt_count: required(field.number().integer()),
    created_at: required(field.dateTime()),
    delivered_at: nullable(field.dateTime()),
    attempts: required(field.array(endpointAttempt)),
  }),
);
export type EndpointDeliveryAnswer = ValueOf<typeof endpointDelivery>;

export const endpointDeliveryList = field.object({ results: required(field.array(endpointDelivery)) });
export type EndpointDeliveryListAnswer = ValueOf<typeof endpointDeliveryList>;

const endpointId = Joi.string()
  .pattern(/^we_[0-9a-f]{24}$/)
  .required()
  .messages({ '*': 'Not a webhook endpoint id (we_<24 hex>).' });
const deliveryId = Joi.string()
  .max(300)
  .pattern(/^evt_[A-Za-z0-9_.-]+$/)
  .messages({ '*': 'Not a delivery id (<event id>.<endpoint id>).' });

export const validateEndpointParams = celebrate(
  { [Segments.PARAMS]: Joi.object({ id: endpointId, deliveryId }) },
  { abortEarly: false },
);
export const validateEndpointCreate = celebrate({ [Segments.BODY]: endpointCreate }, { abortEarly: false });
export const validateEndpointUpdate = celebrate(
  { [Segments.PARAMS]: Joi.object({ id: endpointId }), [Segments.BODY]: endpointUpdate },
  { abortEarly: false },
);
