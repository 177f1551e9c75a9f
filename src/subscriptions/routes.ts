/**
 * Subscriptions and their charges. The spec shows only the charge list; the subscription record
 * (create, read, cancel) is ours, the least that makes charges real. A charge's refund route
 * (refundSubscriptionCharge) is a row of src/refunds, which uses this area (never the reverse).
 * Every route acts for one merchant: another merchant's subscription is 404, like an unknown one.
 */
import type { RequestHandler } from 'express';
import { merchantIdOf } from '../auth/authenticate';
import { ANY_MERCHANT_CREDENTIAL } from '../http/credential-policy';
import { routeTable, type Feature } from '../http/routes';
import {
  cancelSubscription,
  createSubscription,
  findSubscription,
  listCharges,
  setCycleValue,
  subscriptionView,
} from './service';
import { definitions, docs, tag } from './swagger';

const handlers = {
  createSubscription: async (req, res) => {
    const sub = await createSubscription(merchantIdOf(req), req.body);
    res.status(201).json({ status: 'success', data: subscriptionView(sub) });
  },
  getSubscription: async (req, res) => {
    res.json({
      status: 'success',
      data: subscriptionView(await findSubscription(merchantIdOf(req), req.params.id)),
    });
  },
  cancelSubscription: async (req, res) => {
    res.json({
      status: 'success',
      data: subscriptionView(await cancelSubscription(merchantIdOf(req), req.params.id)),
    });
  },
  setSubscriptionCycleValue: async (req, res) => {
    res.json({
      status: 'success',
      data: subscriptionView(await setCycleValue(merchantIdOf(req), req.params.id, req.body)),
    });
  },
  listSubscriptionCharges: async (req, res) => {
    res.json({ status: 'success', data: await listCharges(merchantIdOf(req), req.params.id) });
  },
} satisfies Record<string, RequestHandler>;

const route = routeTable(docs, handlers);
const merchant = { auth: ANY_MERCHANT_CREDENTIAL };

export const subscriptionsFeature: Feature = {
  name: 'subscriptions',
  tag,
  definitions,
  routes: [
    // The body is checked by the service: the schema's rules and the card's decryption answer in one 400.
    route('post', '/api/v1/subscriptions/', 'createSubscription', merchant),
    route('get', '/api/v1/subscriptions/:id/', 'getSubscription', merchant),
    route('put', '/api/v1/subscriptions/:id/cancel/', 'cancelSubscription', merchant),
    // The body is checked by the service, after the subscription is found (another merchant's: 404 first).
    route('put', '/api/v1/subscriptions/:id/cycle-values/', 'setSubscriptionCycleValue', merchant),
    route('get', '/api/v1/subscriptions/:id/charges/', 'listSubscriptionCharges', merchant),
  ],
};
