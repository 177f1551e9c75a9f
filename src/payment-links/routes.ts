/** POST /api/v1/payment-links/ (create, with Idempotency-Key) and GET /api/v1/payment-links/{id}/. */
import type { RequestHandler } from 'express';
import { merchantIdOf } from '../auth/authenticate';
import { MERCHANT_CREDENTIALS } from '../http/credential-policy';
import { routeTable, type Feature } from '../http/routes';
import { createPaymentLink, getMerchantLink, presentLink } from './service';
import { withLinkSale } from './sale';
import { linkIdParam } from './schemas';
import { definitions, docs, tag } from './swagger';

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

const route = routeTable(docs, handlers);
const merchant = { auth: MERCHANT_CREDENTIALS };

export const paymentLinksFeature: Feature = {
  name: 'payment-links',
  tag,
  definitions,
  routes: [
    route('post', '/api/v1/payment-links/', 'createPaymentLink', merchant),
    route('get', '/api/v1/payment-links/:id/', 'getPaymentLink', { ...merchant, before: [linkIdParam] }),
  ],
};
