/** POST /api/v1/payment-links/ (create, with Idempotency-Key) and GET /api/v1/payment-links/{id}/. */
import type { RequestHandler } from 'express';
import { merchantIdOf } from '../auth/authenticate';
import { MERCHANT_CREDENTIALS } from '../http/credential-policy';
import { routeTable, type Feature } from '../http/routes';
import { createPaymentLink, getMerchantLink, presentLink } from './service';
import { withLinkSale } from './sale';
import { linkIdParam } from './schemas';
import { definitions, docs, tag } from './swagger';
import { limitRedeliveries } from '../webhooks/routes';
import { listLinkEvents, redeliverEvent } from '../webhooks/service';
import { validateLinkParams, type RedeliveryQueuedAnswer, type WebhookEventListAnswer } from '../webhooks/schemas';
import { docs as webhookDocs } from '../webhooks/swagger';

const handlers = {
  createPaymentLink: async (req, res) => {
    const key = req.get('idempotency-key');
    const { link, replayed } = await createPaymentLink(merchantIdOf(req), req.body, key);
    if (replayed) res.set('Idempotent-Replayed', 'true');
    res.status(201).json(link);
  },
  getPaymentLink: async (req, res) => {
    const link = await withLinkSale(await getMerchantLink(merchantIdOf(req), Number(req.params.id)));
    res.json({ ...presentLink(link), sale_id: link.saleId ?? null });
  },
} satisfies Record<string, RequestHandler>;

/** A link's webhook deliveries: described with the webhooks (their tag), served here where the link is. */
const linkWebhookHandlers = {
  listLinkWebhookEvents: async (req, res) => {
    const link = await getMerchantLink(merchantIdOf(req), Number(req.params.id));
    res.json({ results: await listLinkEvents(link.merchantId, link._id) } satisfies WebhookEventListAnswer);
  },
  redeliverWebhookEvent: async (req, res) => {
    const link = await getMerchantLink(merchantIdOf(req), Number(req.params.id));
    await limitRedeliveries(req, link.merchantId, String(req.params.eventId));
    const event = await redeliverEvent(link.merchantId, link._id, String(req.params.eventId));
    res.status(202).json({ detail: 'Redelivery queued.', id: event._id } satisfies RedeliveryQueuedAnswer);
  },
} satisfies Record<string, RequestHandler>;

const linkWebhookRoute = routeTable(
  {
    listLinkWebhookEvents: { ...webhookDocs.listLinkWebhookEvents, tags: ['webhooks'] },
    redeliverWebhookEvent: { ...webhookDocs.redeliverWebhookEvent, tags: ['webhooks'] },
  },
  linkWebhookHandlers,
);
const route = routeTable(docs, handlers);
const merchant = { auth: MERCHANT_CREDENTIALS };

export const paymentLinksFeature: Feature = {
  name: 'payment-links',
  tag,
  definitions,
  routes: [
    route('post', '/api/v1/payment-links/', 'createPaymentLink', merchant),
    route('get', '/api/v1/payment-links/:id/', 'getPaymentLink', { ...merchant, before: [linkIdParam] }),
    linkWebhookRoute('get', '/api/v1/payment-links/:id/webhooks/', 'listLinkWebhookEvents', {
      ...merchant,
      before: [validateLinkParams],
    }),
    linkWebhookRoute('post', '/api/v1/payment-links/:id/webhooks/:eventId/redeliver/', 'redeliverWebhookEvent', {
      ...merchant,
      before: [validateLinkParams],
    }),
  ],
};
