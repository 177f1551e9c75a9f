/** Swagger text of the subscription routes: parameters and each operation; the bodies' definitions: schemas.ts. */
import { errorResponses, type SwaggerOperation } from '../http/routes';
import { swaggerDefinitions } from '../http/schema';
import {
  subscription,
  subscriptionCharge,
  subscriptionChargeEnvelope,
  subscriptionChargeList,
  subscriptionCreate,
  subscriptionEnvelope,
} from './schemas';

const TAG = 'subscriptions';

export const definitions = swaggerDefinitions(
  subscriptionCreate,
  subscription,
  subscriptionEnvelope,
  subscriptionCharge,
  subscriptionChargeList,
  subscriptionChargeEnvelope,
);

const idParam = { name: 'id', in: 'path', required: true, type: 'integer', description: 'Subscription id' };
const subscriptionNotFound = errorResponses.detail(
  "No subscription with this id belongs to the calling merchant (unknown, another merchant's, or not an integer)",
);
const subscriptionResponse = (description: string) => ({
  description,
  schema: { $ref: '#/definitions/SubscriptionEnvelope' },
});

export const tag = {
  name: TAG,
  description: 'Recurring card charges: subscriptions, their charges (retried on a schedule) and refunds',
};

export const docs = {
  createSubscription: {
    operationId: 'createSubscription',
    summary: 'Create a subscription',
    description:
      'The card is tokenized at the acquirer at once (502 when the acquirer cannot be reached). The ' +
      'scheduler creates a charge on each due date (UTC day) and sends it to the acquirer. When firstDueDate ' +
      'is today (UTC), the first charge is created and queued with the subscription: it is listed at once, ' +
      'status 0 PENDING until the acquirer answers, with no wait for the next scheduler tick.',
    tags: [TAG],
    parameters: [{ name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/SubscriptionCreate' } }],
    responses: {
      201: subscriptionResponse('The subscription, active'),
      400: {
        ...errorResponses.fieldErrors,
        description:
          'Invalid input: field name to messages (encryptedCard when the card cannot be read, is expired ' +
          'or invalid)',
      },
      502: errorResponses.detail('The acquirer could not be reached to tokenize the card'),
    },
  },
  getSubscription: {
    operationId: 'getSubscription',
    summary: 'Read a subscription',
    tags: [TAG],
    parameters: [idParam],
    responses: { 200: subscriptionResponse('The subscription'), 404: subscriptionNotFound },
  },
  cancelSubscription: {
    operationId: 'cancelSubscription',
    summary: 'Cancel a subscription',
    description:
      "No new charge is created and no retry is scheduled (every charge's nextRetryAt becomes null). " +
      'Cancelling a cancelled subscription returns it unchanged.',
    tags: [TAG],
    parameters: [idParam],
    responses: {
      200: subscriptionResponse('The subscription, cancelled'),
      404: subscriptionNotFound,
      409: errorResponses.detail('The subscription has already expired'),
    },
  },
  listSubscriptionCharges: {
    operationId: 'listSubscriptionCharges',
    summary: 'List the charges of a subscription',
    description:
      "Every charge, oldest due date first, with the fields of the spec's Subscription charge table. " +
      "Another merchant's subscription or an unknown id: 404.",
    tags: [TAG],
    parameters: [idParam],
    responses: {
      200: {
        description: 'status success and the charges',
        schema: { $ref: '#/definitions/SubscriptionChargeList' },
      },
      404: subscriptionNotFound,
    },
  },
} satisfies Record<string, SwaggerOperation>;
