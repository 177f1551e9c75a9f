/**
 * Commercial contacts (the platform's commercial managers, linked to merchants) and the single
 * global CEO contact. Staff only: a staff user's JWT or the system token; merchant credentials 403.
 */
import type { Request, RequestHandler } from 'express';
import { STAFF_CREDENTIALS } from '../http/credential-policy';
import { routeTable, type Feature } from '../http/routes';
import { notFound } from '../platform/errors';
import {
  createCommercialContact,
  getGlobalCeo,
  listCommercialContacts,
  listMerchantCommercialContacts,
  putGlobalCeo,
  updateCommercialContact,
} from './service';
import { validateCeo, validateListQuery } from './schemas';
import { definitions, docs, tag } from './swagger';

/** A path id that cannot be an id names no resource: 404, as an unknown id does. */
function pathId(req: Request, name: string, what: string): number {
  const raw = String(req.params[name]);
  const id = /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id)) throw notFound(`No ${what} has this id.`);
  return id;
}

function activeFilter(req: Request): { active?: boolean } {
  const active = (req.query as { active?: boolean }).active;
  return active === undefined ? {} : { active };
}

const handlers = {
  listCommercialContacts: async (req, res) => {
    res.json(await listCommercialContacts(activeFilter(req)));
  },
  createCommercialContact: async (req, res) => {
    res.status(201).json(await createCommercialContact(req.body));
  },
  updateCommercialContact: async (req, res) => {
    res.json(await updateCommercialContact(pathId(req, 'pk', 'commercial contact'), req.body ?? {}));
  },
  listMerchantCommercialContacts: async (req, res) => {
    res.json(await listMerchantCommercialContacts(pathId(req, 'id', 'merchant'), activeFilter(req)));
  },
  getGlobalCeo: async (_req, res) => {
    res.json(await getGlobalCeo());
  },
  putGlobalCeo: async (req, res) => {
    res.json(await putGlobalCeo(req.body));
  },
} satisfies Record<string, RequestHandler>;

const route = routeTable(docs, handlers);
const staff = { auth: STAFF_CREDENTIALS };

export const contactsFeature: Feature = {
  name: 'contacts',
  tag,
  definitions,
  routes: [
    route('get', '/api/v1/commercial-contacts/', 'listCommercialContacts', { ...staff, before: [validateListQuery] }),
    // Create and change bodies are checked by the service: the schema's rules and unknown merchant ids in one 400.
    route('post', '/api/v1/commercial-contacts/', 'createCommercialContact', staff),
    route('patch', '/api/v1/commercial-contacts/:pk/', 'updateCommercialContact', staff),
    route('get', '/api/v1/merchants/:id/commercial-contacts/', 'listMerchantCommercialContacts', {
      ...staff,
      before: [validateListQuery],
    }),
    route('get', '/api/v1/global-ceo/', 'getGlobalCeo', staff),
    route('put', '/api/v1/global-ceo/', 'putGlobalCeo', { ...staff, before: [validateCeo] }),
  ],
};
