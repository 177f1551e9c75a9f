/** The merchant's side of link webhooks: the signing secret (read, rotate), the delivery log, redelivery. */
import type { Request, RequestHandler } from 'express';
import { merchantIdOf } from '../auth/authenticate';
import { MERCHANT_CREDENTIALS } from '../http/credential-policy';
import { consumeRateLimit } from '../http/rate-limit';
import { routeTable, type Feature } from '../http/routes';
import { getMerchantLink } from '../payment-links/service';
import { getWebhookSecret, listLinkEvents, presentSecret, redeliverEvent, rotateWebhookSecret } from './service';
import {
  REDELIVERY_LIMITS,
  validateLinkParams,
  type RedeliveryQueuedAnswer,
  type WebhookEventListAnswer,
} from './schemas';
import { definitions, docs, tag } from './swagger';

export async function limitRedeliveries(req: Request, merchantId: number, eventId: string): Promise<void> {
  const { perEvent, perMerchant } = REDELIVERY_LIMITS;
  // The event first: a request refused for its event does not spend the merchant's allowance.
  await consumeRateLimit(
    {
      name: 'redeliver-event',
      key: `${merchantId}:${eventId}`,
      limit: () => perEvent.limit,
      windowSeconds: () => perEvent.windowSeconds,
    },
    req,
  );
  await consumeRateLimit(
    {
      name: 'redeliver-merchant',
      key: String(merchantId),
      limit: () => perMerchant.limit,
      windowSeconds: () => perMerchant.windowSeconds,
    },
    req,
  );
}

const handlers = {
  getWebhookSecret: async (req, res) => {
    res.json(presentSecret(await getWebhookSecret(merchantIdOf(req))));
  },
  rotateWebhookSecret: async (req, res) => {
    res.json(presentSecret(await rotateWebhookSecret(merchantIdOf(req))));
  },
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

const route = routeTable(docs, handlers);
const merchant = { auth: MERCHANT_CREDENTIALS };

export const webhooksFeature: Feature = {
  name: 'webhooks',
  tag,
  definitions,
  routes: [
    route('get', '/api/v1/webhooks/secret/', 'getWebhookSecret', merchant),
    route('post', '/api/v1/webhooks/secret/rotate/', 'rotateWebhookSecret', merchant),
    route('get', '/api/v1/payment-links/:id/webhooks/', 'listLinkWebhookEvents', {
      ...merchant,
      before: [validateLinkParams],
    }),
    route('post', '/api/v1/payment-links/:id/webhooks/:eventId/redeliver/', 'redeliverWebhookEvent', {
      ...merchant,
      before: [validateLinkParams],
    }),
  ],
};
