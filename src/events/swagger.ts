/** Swagger text of the events API. */
import { errorResponses, type SwaggerOperation } from '../http/routes';
import { swaggerDefinitions, swaggerRef } from '../http/schema';
import { EVENT_TYPE_NAMES } from '../webhooks/event-types';
import { DEFAULT_PAGE, MAX_PAGE } from './limits';
import { event, eventList } from './schemas';

export const tag = {
  name: 'events',
  description:
    "Every state change of the merchant's money objects, kept 30 days: the same bodies the webhook endpoints " +
    'receive. Types: ' +
    EVENT_TYPE_NAMES.join(', ') +
    '. See docs/api/events.md.',
};

export const definitions = swaggerDefinitions(event, eventList);

export const docs = {
  listEvents: {
    operationId: 'listEvents',
    summary: 'List events, newest first',
    parameters: [
      { name: 'type', in: 'query', required: false, type: 'string', enum: [...EVENT_TYPE_NAMES] },
      { name: 'object_id', in: 'query', required: false, type: 'string', description: "The object's id" },
      { name: 'since', in: 'query', required: false, type: 'string', format: 'date-time' },
      {
        name: 'limit',
        in: 'query',
        required: false,
        type: 'integer',
        minimum: 1,
        maximum: MAX_PAGE,
        default: DEFAULT_PAGE,
      },
      { name: 'cursor', in: 'query', required: false, type: 'string', description: 'next_cursor of the last page' },
    ],
    responses: {
      200: { description: 'A page of events', schema: swaggerRef(eventList) },
      400: errorResponses.fieldErrors,
    },
  },
  getEvent: {
    operationId: 'getEvent',
    summary: 'Read one event',
    parameters: [{ name: 'id', in: 'path', required: true, type: 'string' }],
    responses: {
      200: { description: 'The event', schema: swaggerRef(event) },
      400: errorResponses.fieldErrors,
      404: errorResponses.detail('No such event for this merchant'),
    },
  },
} satisfies Record<string, SwaggerOperation>;
