/**
 * The merchant's side of link webhooks: the signing secret (read, rotate). A link's delivery log and
 * redelivery are rows of the payment-links area (src/payment-links/routes.ts), which owns the link they
 * need: webhooks sit below the areas that record events, so they import no area that records them.
 */
import type { Request, RequestHandler } from 'express';
import { merchantIdOf } from '../auth/authenticate';
import { MERCHANT_CREDENTIALS } from '../http/credential-policy';
import { consumeRateLimit } from '../http/rate-limit';
import { routeTable, type Feature } from '../http/routes';
import { getWebhookSecret, presentSecret, rotateWebhookSecret } from './service';
import { REDELIVERY_LIMITS } from './schemas';
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
} satisfies Record<string, RequestHandler>;

const route = routeTable(
  { getWebhookSecret: docs.getWebhookSecret, rotateWebhookSecret: docs.rotateWebhookSecret },
  handlers,
);
const merchant = { auth: MERCHANT_CREDENTIALS };

export const webhooksFeature: Feature = {
  name: 'webhooks',
  tag,
  definitions,
  routes: [
    route('get', '/api/v1/webhooks/secret/', 'getWebhookSecret', merchant),
    route('post', '/api/v1/webhooks/secret/rotate/', 'rotateWebhookSecret', merchant),
  ],
};
