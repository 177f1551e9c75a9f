/**
 * Online sales: pre-capture (card or PIX), capture, cancel-capture, PIX status, and the intake of
 * the acquirer's card/PIX notifications. One line per route: request schemas in schemas.ts,
 * handlers in handlers.ts, Swagger text in swagger.ts.
 */
import { PAYMENT_NOTIFICATION_PATH } from '../acquirer/client';
import { ANY_MERCHANT_CREDENTIAL, type CredentialPolicy } from '../http/auth';
import type { RequestHandler } from 'express';
import type { Feature, HttpMethod, RouteSpec } from '../http/routes';
import { salesHandlers as handle } from './handlers';
import { preCaptureValidation, saleIdParam } from './schemas';
import { salesDefinitions, salesDocs as doc } from './swagger';

export { MAX_SALE_VALUE } from './schemas';

/** PIX status: the system token (any merchant, or one named in X-Merchant-Id) or a merchant token. */
const PIX_STATUS_CREDENTIALS: CredentialPolicy = { merchantToken: true, system: true, systemMerchant: 'optional' };

const SALE = '/api/v1/online/sales/:id';

/** One route of the table: its handler and its doc share the name. */
function route(
  method: HttpMethod,
  path: string,
  name: keyof typeof handle,
  auth: CredentialPolicy = ANY_MERCHANT_CREDENTIAL,
  before: RequestHandler[] = [saleIdParam],
): RouteSpec {
  return { method, path, auth, before, handler: handle[name], doc: doc[name] };
}

export const salesFeature: Feature = {
  name: 'online-sales',
  tag: {
    name: 'online-sales',
    description: 'Online card and PIX sales through the acquirer: pre-capture, capture, cancel, PIX status',
  },
  definitions: salesDefinitions,
  routes: [
    route('post', '/api/v1/online/sales/pre-capture/', 'preCapture', ANY_MERCHANT_CREDENTIAL, [preCaptureValidation]),
    route('put', `${SALE}/capture/`, 'capture'),
    route('put', `${SALE}/cancel-capture/`, 'cancel'),
    route('get', `${SALE}/`, 'read'),
    route('get', `${SALE}/pix/status/`, 'pixStatus', PIX_STATUS_CREDENTIALS),
    // Called by the acquirer: authenticated by its signature, no credential, no schema (the raw body is signed).
    { method: 'post', path: PAYMENT_NOTIFICATION_PATH, handler: handle.notice, doc: doc.notice },
  ],
};
