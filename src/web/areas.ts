/** Every area of the API, in the order its routes are registered and described. */
import type { Feature } from '../http/routes';
import { paymentLinksFeature } from '../payment-links/routes';
import { checkoutFeature } from '../checkout/routes';
import { webhooksFeature } from '../webhooks/routes';
import { webhookEndpointsFeature } from '../webhooks/endpoint-routes';
import { eventsFeature } from '../events/routes';
import { healthFeature } from '../health/routes';
import { docsFeature } from './docs-routes';
import { chargebacksFeature } from '../chargebacks/routes';
import { subscriptionsFeature } from '../subscriptions/routes';
import { authFeature } from '../auth/routes';
import { contactsFeature } from '../contacts/routes';
import { metricsFeature } from '../metrics/routes';
import { salesFeature } from '../sales/routes';
import { refundsFeature } from '../refunds/routes';
import { cardsFeature } from '../cards/routes';
import { customersFeature } from '../customers/routes';

export const features: Feature[] = [
  healthFeature,
  docsFeature(() => features),
  chargebacksFeature,
  subscriptionsFeature,
  authFeature,
  contactsFeature,
  metricsFeature,
  salesFeature,
  refundsFeature,
  cardsFeature,
  customersFeature,
  paymentLinksFeature,
  checkoutFeature,
  webhooksFeature,
  webhookEndpointsFeature,
  eventsFeature,
];
