/** The merchant's account webhook endpoints: CRUD, secret rotation, the delivery log, redelivery. */
import type { RequestHandler } from 'express';
import { merchantIdOf } from '../auth/authenticate';
import { MERCHANT_CREDENTIALS } from '../http/credential-policy';
import { routeTable, type Feature } from '../http/routes';
import {
  createEndpoint,
  deleteEndpoint,
  findEndpoint,
  listEndpointDeliveries,
  listEndpoints,
  presentEndpoint,
  redeliverEndpointDelivery,
  rotateEndpointSecret,
  updateEndpoint,
} from './endpoints';
import { validateEndpointCreate, validateEndpointParams, validateEndpointUpdate } from './endpoint-schemas';
import { endpointDefinitions, endpointDocs, endpointTag } from './endpoint-swagger';
import { limitRedeliveries } from './routes';
import type { RedeliveryQueuedAnswer } from './schemas';

const id = (req: Parameters<RequestHandler>[0]) => String(req.params.id);

const handlers = {
  createWebhookEndpoint: async (req, res) => {
    res.status(201).json(await createEndpoint(merchantIdOf(req), req.body));
  },
  listWebhookEndpoints: async (req, res) => {
    res.json({ results: await listEndpoints(merchantIdOf(req)) });
  },
  getWebhookEndpoint: async (req, res) => {
    res.json(presentEndpoint(await findEndpoint(merchantIdOf(req), id(req))));
  },
  updateWebhookEndpoint: async (req, res) => {
    res.json(await updateEndpoint(merchantIdOf(req), id(req), req.body ?? {}));
  },
  deleteWebhookEndpoint: async (req, res) => {
    await deleteEndpoint(merchantIdOf(req), id(req));
    res.status(204).end();
  },
  rotateWebhookEndpointSecret: async (req, res) => {
    res.json(await rotateEndpointSecret(merchantIdOf(req), id(req)));
  },
  listWebhookEndpointDeliveries: async (req, res) => {
    res.json({ results: await listEndpointDeliveries(merchantIdOf(req), id(req)) });
  },
  redeliverWebhookEndpointDelivery: async (req, res) => {
    const merchantId = merchantIdOf(req);
    const deliveryId = String(req.params.deliveryId);
    await findEndpoint(merchantId, id(req));
    await limitRedeliveries(req, merchantId, deliveryId);
    const delivery = await redeliverEndpointDelivery(merchantId, id(req), deliveryId);
    res.status(202).json({ detail: 'Redelivery queued.', id: delivery._id } satisfies RedeliveryQueuedAnswer);
  },
} satisfies Record<string, RequestHandler>;

const route = routeTable(endpointDocs, handlers);
const merchant = { auth: MERCHANT_CREDENTIALS };
const withId = { ...merchant, before: [validateEndpointParams] };

export const webhookEndpointsFeature: Feature = {
  name: 'webhook-endpoints',
  tag: endpointTag,
  definitions: endpointDefinitions,
  routes: [
    route('post', '/api/v1/webhook-endpoints/', 'createWebhookEndpoint', {
      ...merchant,
      before: [validateEndpointCreate],
    }),
    route('get', '/api/v1/webhook-endpoints/', 'listWebhookEndpoints', merchant),
    route('get', '/api/v1/webhook-endpoints/:id/', 'getWebhookEndpoint', withId),
    route('patch', '/api/v1/webhook-endpoints/:id/', 'updateWebhookEndpoint', {
      ...merchant,
      before: [validateEndpointUpdate],
    }),
    route('delete', '/api/v1/webhook-endpoints/:id/', 'deleteWebhookEndpoint', withId),
    route('post', '/api/v1/webhook-endpoints/:id/rotate-secret/', 'rotateWebhookEndpointSecret', withId),
    route('get', '/api/v1/webhook-endpoints/:id/deliveries/', 'listWebhookEndpointDeliveries', withId),
    route(
      'post',
      '/api/v1/webhook-endpoints/:id/deliveries/:deliveryId/redeliver/',
      'redeliverWebhookEndpointDelivery',
      withId,
    ),
  ],
};
