/**
 * Refunds of captured card sales: request one, list a sale's, read one. The credentials are those of
 * capture and cancel-capture (a merchant's).
 */
import { ANY_MERCHANT_CREDENTIAL } from '../http/credential-policy';
import { routeTable, type Feature } from '../http/routes';
import { refundsHandlers } from './handlers';
import { chargeRefundValidation, createRefundValidation, idParam } from './schemas';
import { refundsDefinitions, refundsDocs } from './swagger';

const SALE_REFUNDS = '/api/v1/online/sales/:id/refunds/';

const route = routeTable(refundsDocs, refundsHandlers);
const MERCHANT = ANY_MERCHANT_CREDENTIAL;

export const refundsFeature: Feature = {
  name: 'refunds',
  tag: {
    name: 'refunds',
    description: 'Partial and repeated refunds of captured card sales and paid PIX, reconciled against the acquirer',
  },
  definitions: refundsDefinitions,
  routes: [
    route('post', SALE_REFUNDS, 'createRefund', { auth: MERCHANT, before: [createRefundValidation] }),
    route('get', SALE_REFUNDS, 'listSaleRefunds', { auth: MERCHANT, before: [idParam] }),
    route('get', '/api/v1/refunds/:id/', 'getRefund', { auth: MERCHANT, before: [idParam] }),
    // The contract's charge refund, partial and repeated (subscription-charges.ts): the subscriptions area cannot use
    // refunds, so its row is here; its operation keeps the subscriptions tag.
    route('put', '/api/v1/subscriptions/:id/charges/:chargeId/refund/', 'refundSubscriptionCharge', {
      auth: MERCHANT,
      before: [chargeRefundValidation],
    }),
    // The contract's cancel-capture (tag online-sales): a CONFIRMED sale's is a whole refund of this core.
    route('put', '/api/v1/online/sales/:id/cancel-capture/', 'cancelSale', { auth: MERCHANT, before: [idParam] }),
  ],
};
