/**
 * The public checkout: four JSON routes under /api/v1/checkout-links/{guid} and the page itself
 * (GET /checkout/{guid}) with its static assets, all from our own origin (CSP default-src 'self').
 * A Pix Automático mandate's authorisation page (GET /checkout/pix-automatico/{token}) and the read it
 * polls (GET /api/v1/checkout-mandates/{token}) share those assets: the PIX view is the same.
 */
import type { RequestHandler } from 'express';
import { getConfig } from '../../config';
import { routeTable, type Feature } from '../http/routes';
import { rateLimit } from '../http/rate-limit';
import { PaymentLinkModel } from '../payment-links/model';
import { linkInstallmentOptions, loadCheckout, payLink, saveAddress, savePayer } from './service';
import { mandateCheckout, mandatePageExists } from '../subscriptions/authorization-page';
import { ASSETS, readAsset, readMandatePage, readPage } from './assets';
import { linkPixStatus, startLinkPix } from './pix';
import { addressBody, foldPayerAlias, guidOnly, payBody, payerBody } from './schemas';
import { definitions, docs, tag } from './swagger';

/**
 * Card testing (trying stolen numbers through a public page) is the abuse a pay step invites: each
 * link already refuses cards after 10 declines, and this caps the card attempts of one address
 * across all links. Counted before validation, so malformed attempts count too. Payment needs no
 * Redis otherwise, so while Redis is down payers still pay, each web process counting the same
 * limit in its memory (a warning logged): the per-link stop, kept in the database, still holds.
 */
const payRateLimit = rateLimit({
  name: 'checkout-pay',
  limit: () => getConfig().checkoutPayRateLimit.limit,
  windowSeconds: () => getConfig().checkoutPayRateLimit.windowSeconds,
  whenStoreDown: 'count-per-process',
});

const handlers = {
  loadCheckout: async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await loadCheckout(String(req.params.guid)));
  },
  setCheckoutPayer: async (req, res) => {
    res
      .set('Cache-Control', 'no-store')
      .json(await savePayer(String(req.params.guid), { payerName: req.body.payer_name, document: req.body.document }));
  },
  setCheckoutAddress: async (req, res) => {
    const b = req.body as Record<string, string | null | undefined>;
    const address = {
      cep: String(b.cep).replace('-', ''),
      street: b.street ?? '',
      number: b.number ?? '',
      complement: b.complement ?? '',
      neighborhood: b.neighborhood ?? '',
      city: b.city ?? '',
      state: b.state ?? '',
      reference: b.reference ?? '',
    };
    res.set('Cache-Control', 'no-store').json(await saveAddress(String(req.params.guid), address));
  },
  payCheckout: async (req, res) => {
    const outcome = await payLink(String(req.params.guid), req.body.encrypted_card, req.body.installments);
    res.set('Cache-Control', 'no-store').json(outcome);
  },
  getCheckoutInstallments: async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await linkInstallmentOptions(String(req.params.guid)));
  },
  startCheckoutPix: async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await startLinkPix(String(req.params.guid)));
  },
  getCheckoutPix: async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await linkPixStatus(String(req.params.guid)));
  },
  getCheckoutPage: async (req, res) => {
    // The page loads its assets by relative URL (so a PUBLIC_BASE_URL with a path works): no trailing slash.
    if (req.path.endsWith('/')) {
      res.redirect(301, `${req.baseUrl}${req.path.replace(/\/+$/, '')}`);
      return;
    }
    // The page itself renders every state from the API; the status code tells crawlers and tests the truth.
    const exists =
      typeof req.params.guid === 'string' &&
      req.params.guid.length <= 100 &&
      (await PaymentLinkModel.exists({ guid: req.params.guid }));
    res
      .status(exists ? 200 : 404)
      .type('html')
      .set('Cache-Control', 'no-store')
      .send(readPage());
  },
  loadMandateCheckout: async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await mandateCheckout(req.params.token));
  },
  getMandateCheckoutPage: async (req, res) => {
    // Assets by relative URL (../assets/...), as the link's page: no trailing slash.
    if (req.path.endsWith('/')) {
      res.redirect(301, `${req.baseUrl}${req.path.replace(/\/+$/, '')}`);
      return;
    }
    const exists = await mandatePageExists(req.params.token);
    res
      .status(exists ? 200 : 404)
      .type('html')
      .set('Cache-Control', 'no-store')
      .send(readMandatePage());
  },
  getCheckoutAsset: (req, res) => {
    const file = String(req.params.file);
    if (!Object.hasOwn(ASSETS, file)) {
      res.status(404).json({ detail: 'Not found.' });
      return;
    }
    res.type(ASSETS[file][1]).set('Cache-Control', 'public, max-age=300').send(readAsset(file));
  },
} satisfies Record<string, RequestHandler>;

const route = routeTable(docs, handlers);

export const checkoutFeature: Feature = {
  name: 'checkout',
  tag,
  definitions,
  routes: [
    route('get', '/api/v1/checkout-links/:guid', 'loadCheckout', { before: [guidOnly] }),
    route('patch', '/api/v1/checkout-links/:guid/payer', 'setCheckoutPayer', { before: [foldPayerAlias, payerBody] }),
    route('patch', '/api/v1/checkout-links/:guid/address', 'setCheckoutAddress', { before: [addressBody] }),
    route('get', '/api/v1/checkout-links/:guid/installments', 'getCheckoutInstallments', { before: [guidOnly] }),
    route('put', '/api/v1/checkout-links/:guid/pay', 'payCheckout', { before: [payRateLimit, payBody] }),
    route('post', '/api/v1/checkout-links/:guid/pix', 'startCheckoutPix', { before: [payRateLimit, guidOnly] }),
    route('get', '/api/v1/checkout-links/:guid/pix', 'getCheckoutPix', { before: [guidOnly] }),
    route('get', '/api/v1/checkout-mandates/:token', 'loadMandateCheckout'),
    route('get', '/checkout/pix-automatico/:token', 'getMandateCheckoutPage'),
    route('get', '/checkout/:guid', 'getCheckoutPage'),
    route('get', '/checkout/assets/:file', 'getCheckoutAsset'),
  ],
};
