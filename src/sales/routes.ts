/**
 * Online sales: pre-capture (card or PIX), capture, cancel-capture, PIX status, and the intake of
 * the acquirer's card/PIX notifications. One line per route: request schemas in schemas.ts,
 * handlers in handlers.ts, Swagger text in swagger.ts.
 */
import { PAYMENT_NOTIFICATION_PATH } from '../acquirer/client';
import { ANY_MERCHANT_CREDENTIAL, type CredentialPolicy } from '../http/credential-policy';
import { refuseNulInBody } from '../http/nul-characters';
import { routeTable, type Feature } from '../http/routes';
import { requireSignatureHeader, requireValidSignature } from './notices';
import { salesHandlers } from './handlers';
import { captureValidation, saleIdParam } from './schemas';
import { salesDefinitions, salesDocs } from './swagger';

export { MAX_SALE_VALUE } from './schemas';

/** PIX status: the system token (any merchant, or one named in X-Merchant-Id) or a merchant token. */
const PIX_STATUS_CREDENTIALS: CredentialPolicy = { merchantToken: true, system: true, systemMerchant: 'optional' };

const PRE_CAPTURE = '/api/v1/online/sales/pre-capture/';
const SALE = '/api/v1/online/sales/:id';

const route = routeTable(salesDocs, salesHandlers);
const MERCHANT = ANY_MERCHANT_CREDENTIAL;
/** A merchant's route on one of its sales. */
const ONE_SALE = { auth: MERCHANT, before: [saleIdParam] };

export const salesFeature: Feature = {
  name: 'online-sales',
  tag: {
    name: 'online-sales',
    description: 'Online card and PIX sales through the acquirer: pre-capture, capture, cancel, PIX status',
  },
  definitions: salesDefinitions,
  routes: [
    // No celebrate step: preCapture checks the body, its card and the Idempotency-Key in one 400.
    route('post', PRE_CAPTURE, 'preCaptureSale', { auth: MERCHANT }),
    route('put', `${SALE}/capture/`, 'captureSale', { auth: MERCHANT, before: [captureValidation] }),
    // PUT ${SALE}/cancel-capture/ (cancelSale) is the refunds area's row: a CONFIRMED sale's cancel is a refund.
    route('get', `${SALE}/`, 'getSale', ONE_SALE),
    route('get', `${SALE}/pix/status/`, 'getPixStatus', { auth: PIX_STATUS_CREDENTIALS, before: [saleIdParam] }),
    // Called by the acquirer: authenticated by its signature over the raw body, no credential. A
    // request without one is refused unread; a NUL is judged only once the signature holds.
    route('post', PAYMENT_NOTIFICATION_PATH, 'receivePaymentNotification', {
      beforeBody: [requireSignatureHeader],
      nulInBody: 'handled',
      before: [requireValidSignature, refuseNulInBody],
    }),
  ],
};
