/** The events API's bodies and query, each declared once (src/http/schema.ts). */
import { celebrate, Joi, Segments } from 'celebrate';
import { definition, field, required, swaggerOnly, type ValueOf } from '../http/schema';
import { EVENT_TYPE_NAMES } from '../webhooks/event-types';
import { MAX_PAGE } from './limits';

export const event = definition(
  'AccountEvent',
  field.object({
    id: required(field.string()).description('evt_<object kind>_<object id>_<change>; the webhook-id header'),
    type: required(swaggerOnly(field.string(), { enum: [...EVENT_TYPE_NAMES] })),
    created_at: required(field.dateTime()),
    object: required(
      field.object({
        kind: required(field.string()).example('sale'),
        id: required(field.string()).example('1042'),
      }),
    ),
    sequence: required(field.number().integer()).description(
      "1, 2, 3... per object in recording order: ignore an event older than the object's last one seen",
    ),
    data: required(swaggerOnly(field.any(), { type: 'object' })).description('The object as the API shows it'),
  }),
);
export type EventAnswer = ValueOf<typeof event>;

export const eventList = definition(
  'AccountEventList',
  field.object({
    results: required(field.array(event)),
    next_cursor: required(field.string().allow(null)).description('Pass as cursor for the next page; null: last page'),
  }),
);
export type EventListAnswer = { results: EventAnswer[]; next_cursor: string | null };

export const validateEventQuery = celebrate(
  {
    [Segments.QUERY]: Joi.object({
      type: Joi.string()
        .valid(...EVENT_TYPE_NAMES)
        .messages({ '*': 'Not an event type.' }),
      object_id: Joi.string()
        .max(100)
        .pattern(/^[A-Za-z0-9_-]+$/)
        .messages({ '*': 'Not an object id.' }),
      since: Joi.string().isoDate().messages({ '*': 'An ISO 8601 date-time is required.' }),
      limit: Joi.number()
        .integer()
        .min(1)
        .max(MAX_PAGE)
        .messages({ '*': `An integer from 1 to ${MAX_PAGE}.` }),
      cursor: Joi.string().max(300).messages({ '*': 'Not a cursor.' }),
    }).messages({ 'object.unknown': 'Unknown query parameter.' }),
  },
  { abortEarly: false },
);

export const validateEventId = celebrate(
  {
    [Segments.PARAMS]: Joi.object({
      id: Joi.string()
        .max(300)
        .pattern(/^evt_[A-Za-z0-9_.-]+$/)
        .required()
        .messages({ '*': 'Not an event id (evt_...).' }),
    }),
  },
  { abortEarly: false },
);
