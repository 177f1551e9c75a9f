/** Swagger text of the subscription routes: parameters and each operation; the bodies' definitions: schemas.ts. */
import { errorResponses, type SwaggerOperation } from '../http/routes';
import { swaggerDefinitions } from '../http/schema';
import {
  cycleValueUpdate,
  mandate,
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
  cycleValueUpdate,
  mandate,
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
  description:
    'Recurring charges: subscriptions on a card (charged on each due date, retried on a schedule) or on Pix ' +
    "Automático (the payer's mandate, authorised once in the bank app), their charges and refunds",
};

export const docs = {
  createSubscription: {
    operationId: 'createSubscription',
    summary: 'Create a subscription',
    description:
      'The card is tokenized at the acquirer at once (502 when the acquirer cannot be reached). The ' +
      'scheduler creates a charge on each due date (UTC day) and sends it to the acquirer. When firstDueDate ' +
      'is today (UTC), the first charge is created and queued with the subscription: it is listed at once, ' +
      'status 0 PENDING until the acquirer answers, with no wait for the next scheduler tick. With paymentMethod ' +
      'pix_automatico no card is sent: the recurrence is made at the acquirer (502 when it cannot be reached) and ' +
      "the answer's mandate (status CREATED) carries the QR code the payer authorises in the bank app; no charge " +
      'is sent until the acquirer confirms the approval (journey 3: the approval pays the first charge). ' +
      'docs/api/pix-automatico.md',
    tags: [TAG],
    parameters: [{ name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/SubscriptionCreate' } }],
    responses: {
      201: subscriptionResponse('The subscription, active'),
      400: {
        ...errorResponses.fieldErrors,
        description:
          'Invalid input: field name to messages, every bad field at once (encryptedCard when the card cannot ' +
          'be read or the acquirer refuses it; number, expiry, cvv or holder when the decrypted card breaks that ' +
          "field's rule; paymentMethod when the acquirer refuses the Pix Automático recurrence)",
      },
      502: errorResponses.detail(
        'The acquirer could not be reached to tokenize the card (or to make the Pix Automático recurrence)',
      ),
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
      'Cancelling a cancelled subscription returns it unchanged. Pix Automático: a mandate still CREATED or ' +
      'APPROVED is cancelled at the acquirer first (502, and nothing changed, when it cannot be reached); the ' +
      'answer shows it CANCELLED by the merchant once the acquirer confirmed it.',
    tags: [TAG],
    parameters: [idParam],
    responses: {
      200: subscriptionResponse('The subscription, cancelled'),
      404: subscriptionNotFound,
      409: errorResponses.detail('The subscription has already expired'),
      502: errorResponses.detail('The acquirer could not be reached to cancel the Pix Automático mandate'),
    },
  },
  setSubscriptionCycleValue: {
    operationId: 'setSubscriptionCycleValue',
    summary: "Set a coming cycle's amount (Pix Automático, variable amounts)",
    description:
      'Not in the contract. A Pix Automático subscription whose mandate has variable amounts (maximumValue) ' +
      "charges each cycle value unless the cycle's own amount is set here, before its send window opens (10 " +
      'days before its due date: 409 from then on, the charge is being sent with the amount it had). The amount ' +
      "stays between the mandate's minimumValue and maximumValue (400 naming value). Setting it again replaces " +
      'it. The answer shows it in cycleValues. docs/api/pix-automatico.md',
    tags: [TAG],
    parameters: [
      idParam,
      { name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/SubscriptionCycleValue' } },
    ],
    responses: {
      200: subscriptionResponse('The subscription, with the amount in cycleValues'),
      400: {
        ...errorResponses.fieldErrors,
        description:
          "Invalid input: field name to messages (value outside the mandate's range, or the subscription is not a " +
          'variable Pix Automático one; dueDate not one of its coming due dates)',
      },
      404: subscriptionNotFound,
      409: errorResponses.detail("The subscription is not active, or the cycle's send window has opened"),
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
