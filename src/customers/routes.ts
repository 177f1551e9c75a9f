/**
 * The customers API: a merchant's customers and their saved cards, with the credentials of the other merchant routes
 * (a merchant user's JWT or a merchant token). Bodies are validated by celebrate before the handler, but the card's,
 * whose decryption adds its own field errors to the same 400 (card-saving.ts).
 */
import type { Request, RequestHandler } from 'express';
import { merchantIdOf } from '../auth/authenticate';
import { MERCHANT_CREDENTIALS } from '../http/credential-policy';
import { routeTable, type Feature } from '../http/routes';
import { saveCard } from './card-saving';
import { deleteCard, listCards, presentCard, readCard } from './cards';
import { deleteCustomer } from './customer-deletion';
import { listCustomers } from './customer-list';
import { createCustomer, findCustomer, presentCustomer, updateCustomer } from './customers';
import {
  validateCustomerCreate,
  validateCustomerListQuery,
  validateCustomerPatch,
  type CustomerListQuery,
} from './schemas';
import { definitions, docs, tag } from './swagger';

const customerIdOf = (req: Request) => String(req.params.id);

const handlers = {
  createCustomer: async (req, res) => {
    res.status(201).json(await createCustomer(merchantIdOf(req), req.body));
  },
  listCustomers: async (req, res) => {
    res.json(await listCustomers(merchantIdOf(req), req.query as CustomerListQuery));
  },
  getCustomer: async (req, res) => {
    res.json(presentCustomer(await findCustomer(merchantIdOf(req), customerIdOf(req))));
  },
  updateCustomer: async (req, res) => {
    res.json(await updateCustomer(merchantIdOf(req), customerIdOf(req), req.body ?? {}));
  },
  deleteCustomer: async (req, res) => {
    await deleteCustomer(merchantIdOf(req), customerIdOf(req));
    res.status(204).end();
  },
  saveCustomerCard: async (req, res) => {
    const { card, created } = await saveCard(merchantIdOf(req), customerIdOf(req), req.body);
    res.status(created ? 201 : 200).json(card);
  },
  listCustomerCards: async (req, res) => {
    res.json({ results: await listCards(merchantIdOf(req), customerIdOf(req)) });
  },
  getCustomerCard: async (req, res) => {
    res.json(presentCard(await readCard(merchantIdOf(req), customerIdOf(req), String(req.params.card_id))));
  },
  deleteCustomerCard: async (req, res) => {
    await deleteCard(merchantIdOf(req), customerIdOf(req), String(req.params.card_id));
    res.status(204).end();
  },
} satisfies Record<string, RequestHandler>;

const route = routeTable(docs, handlers);
const merchant = { auth: MERCHANT_CREDENTIALS };

export const customersFeature: Feature = {
  name: 'customers',
  tag,
  definitions,
  routes: [
    route('post', '/api/v1/customers/', 'createCustomer', { ...merchant, before: [validateCustomerCreate] }),
    route('get', '/api/v1/customers/', 'listCustomers', { ...merchant, before: [validateCustomerListQuery] }),
    route('get', '/api/v1/customers/:id/', 'getCustomer', merchant),
    route('patch', '/api/v1/customers/:id/', 'updateCustomer', { ...merchant, before: [validateCustomerPatch] }),
    route('delete', '/api/v1/customers/:id/', 'deleteCustomer', merchant),
    route('post', '/api/v1/customers/:id/cards/', 'saveCustomerCard', merchant),
    route('get', '/api/v1/customers/:id/cards/', 'listCustomerCards', merchant),
    route('get', '/api/v1/customers/:id/cards/:card_id/', 'getCustomerCard', merchant),
    route('delete', '/api/v1/customers/:id/cards/:card_id/', 'deleteCustomerCard', merchant),
  ],
};
