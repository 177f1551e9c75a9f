/** The events API: GET /api/v1/events/ and /api/v1/events/{id}/, merchant credentials. */
import type { RequestHandler } from 'express';
import { merchantIdOf } from '../auth/authenticate';
import { MERCHANT_CREDENTIALS } from '../http/credential-policy';
import { routeTable, type Feature } from '../http/routes';
import { getEvent, listEvents, type EventQuery } from './reads';
import { validateEventId, validateEventQuery } from './schemas';
import { definitions, docs, tag } from './swagger';

const handlers = {
  listEvents: async (req, res) => {
    res.json(await listEvents(merchantIdOf(req), req.query as EventQuery));
  },
  getEvent: async (req, res) => {
    res.json(await getEvent(merchantIdOf(req), String(req.params.id)));
  },
} satisfies Record<string, RequestHandler>;

const route = routeTable(docs, handlers);
const merchant = { auth: MERCHANT_CREDENTIALS };

export const eventsFeature: Feature = {
  name: 'events',
  tag,
  definitions,
  routes: [
    route('get', '/api/v1/events/', 'listEvents', { ...merchant, before: [validateEventQuery] }),
    route('get', '/api/v1/events/:id/', 'getEvent', { ...merchant, before: [validateEventId] }),
  ],
};
