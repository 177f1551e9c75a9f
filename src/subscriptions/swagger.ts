/** Swagger text of the subscription routes: definitions, parameters and each operation. */
import { errorResponses, type SwaggerOperation } from '../http/routes';
import { BILLING_CYCLES } from './model';
import { HARD_DECLINE_CODES, SUBSCRIPTION_CANCELLED, TRANSPORT_ERROR } from './retry-policy';

const TAG = 'subscriptions';

const day = (description: string) => ({
  type: 'string',
  format: 'date',
  pattern: '^\\d{4}-\\d{2}-\\d{2}$',
  description,
  example: '2030-01-10',
});

/** An answer's object whose properties are all always there (null where a value is absent): all are required. */
function withEveryPropertyRequired<S extends { type: string; description?: string; properties: object }>({
  properties,
  ...rest
}: S) {
  return { ...rest, required: Object.keys(properties), properties };
}

export const definitions = {
  SubscriptionCreate: {
    type: 'object',
    required: ['value', 'billingCycle', 'firstDueDate', 'encryptedCard'],
    additionalProperties: false,
    properties: {
      value: {
        type: 'integer',
        minimum: 1,
        description: 'Amount of each charge, in cents. A number with a fraction gives "A valid integer is required."',
        example: 4990,
      },
      billingCycle: {
        type: 'string',
        enum: [...BILLING_CYCLES],
        description:
          'Time between due dates. Months count from the first due date, clamped to the month end (Jan 31 then ' +
          'Feb 28, Mar 31)',
      },
      firstDueDate: day('Due date of the first charge (UTC day); today or later'),
      encryptedCard: {
        type: 'string',
        description:
          'The card encrypted as in checkout: base64 of the RSA (PKCS#1 v1.5) encryption, with the service ' +
          'public key, of the JSON {"number","holder","expMonth","expYear","cvv"}. ' +
          ('It is turned into an acquirer card token at once; only the token, brand, BIN, last four, holder and ' +
            'expiry are kept'),
      },
      retry: {
        type: 'boolean',
        default: true,
        description: 'Retry soft-declined charges on the retry schedule. false: each charge is sent once',
      },
      endDate: {
        ...day('Optional last day a charge may fall due; the subscription expires after it'),
        'x-nullable': true,
      },
      maxCycles: {
        type: 'integer',
        minimum: 1,
        maximum: 1000,
        'x-nullable': true,
        description: 'Optional number of cycles (charges); the subscription expires after the last',
      },
      customer: {
        type: 'object',
        additionalProperties: false,
        properties: {
          name: {
            type: 'string',
            maxLength: 100,
            description: 'Customer name sent to the acquirer; default: the card holder',
          },
          identity: { type: 'string', pattern: '^\\d{11}(\\d{3})?$', description: 'CPF or CNPJ, digits only' },
        },
      },
      description: { type: 'string', maxLength: 100, 'x-nullable': true },
    },
  },
  Subscription: withEveryPropertyRequired({
    type: 'object',
    properties: {
      id: { type: 'integer', description: 'Subscription id' },
      status: {
        type: 'string',
        enum: ['active', 'cancelled', 'expired'],
        description:
          'active: charged on each due date. cancelled: by the merchant; no new charge and no retry. expired: ' +
          'the last cycle (endDate or maxCycles) was charged and no charge is pending or awaiting a retry',
      },
      value: { type: 'integer', description: 'Cents per charge' },
      amount: { type: 'number', description: 'value in currency units (reais)' },
      billingCycle: { type: 'string', enum: [...BILLING_CYCLES] },
      firstDueDate: day('First due date'),
      nextDueDate: {
        ...day('Due date of the next charge to be created; null when none is left or the subscription is not active'),
        'x-nullable': true,
      },
      endDate: { ...day('Last day a charge may fall due'), 'x-nullable': true },
      maxCycles: { type: 'integer', 'x-nullable': true },
      retry: { type: 'boolean' },
      card: {
        type: 'object',
        description: 'What is kept of the card; the acquirer card token is never shown',
        properties: {
          brand: { type: 'string' },
          bin: { type: 'string' },
          last4: { type: 'string' },
          holder: { type: 'string' },
          expMonth: { type: 'integer' },
          expYear: { type: 'integer' },
        },
      },
      customer: {
        type: 'object',
        properties: { name: { type: 'string' }, identity: { type: 'string', 'x-nullable': true } },
      },
      description: { type: 'string', 'x-nullable': true },
      cancelledAt: { type: 'string', format: 'date-time', 'x-nullable': true },
      createdAt: { type: 'string', format: 'date-time', description: 'ISO 8601, UTC' },
      updatedAt: { type: 'string', format: 'date-time', description: 'ISO 8601, UTC' },
    },
  }),
  SubscriptionEnvelope: {
    type: 'object',
    required: ['status', 'data'],
    properties: { status: { type: 'string', enum: ['success'] }, data: { $ref: '#/definitions/Subscription' } },
  },
  SubscriptionCharge: withEveryPropertyRequired({
    type: 'object',
    description: 'To know whether a charge was denied, use status, not denialCode.',
    properties: {
      id: { type: 'integer', description: 'Charge id' },
      subscriptionId: { type: 'integer', description: 'Owning subscription' },
      status: {
        type: 'integer',
        enum: [0, 1, 2, 3],
        description: '0 PENDING (created, first send under way), 1 CONFIRMED, 2 DENIED, 3 REFUNDED',
      },
      value: {
        type: 'integer',
        description: 'Amount of this charge in cents: the amount charged at the acquirer, the same on every retry',
      },
      amount: { type: 'number', description: 'value in currency units (value / 100)' },
      dueDate: day('Due date of the cycle this charge bills'),
      acquirerPaymentId: {
        type: 'string',
        description:
          'PaymentId of the last sale at the acquirer; empty string until the acquirer answers with one (and ' +
          'after a communication failure)',
      },
      denialCode: {
        type: 'string',
        description:
          `Acquirer return code of the denied attempt; empty string unless status is 2. ${TRANSPORT_ERROR} means ` +
          `a communication failure with the acquirer (retried); ${SUBSCRIPTION_CANCELLED} means the subscription ` +
          `was cancelled after the charge was created and before it was sent (never sent, never retried). Hard ` +
          `declines, never retried: ${[...HARD_DECLINE_CODES].join(', ')}; any other code is retried`,
      },
      denialMessage: {
        type: 'string',
        description: 'Acquirer message of the denied attempt; empty string unless status is 2',
      },
      attempts: {
        type: 'integer',
        minimum: 1,
        description:
          'Times the charge was sent to the acquirer, retries included (1 while the first send is under way). ' +
          'Always 1 when the subscription has retry off',
      },
      nextRetryAt: {
        type: 'string',
        format: 'date',
        'x-nullable': true,
        description:
          'Day of the next retry (YYYY-MM-DD). Set only on a denied charge with a retry scheduled; null ' +
          'otherwise: final denial (hard decline or retries used up), retry off, or a cancelled or expired ' +
          'subscription. Status 2 with nextRetryAt null is final',
      },
      paymentTransactionId: {
        type: 'integer',
        'x-nullable': true,
        description: 'Financial transaction created on confirmation (kept after a refund); null when none',
      },
      createdAt: { type: 'string', format: 'date-time', description: 'ISO 8601, UTC' },
      updatedAt: { type: 'string', format: 'date-time', description: 'ISO 8601, UTC' },
    },
  }),
  SubscriptionChargeList: {
    type: 'object',
    required: ['status', 'data'],
    properties: {
      status: { type: 'string', enum: ['success'] },
      data: {
        type: 'array',
        description: 'Every charge of the subscription, oldest due date first',
        items: { $ref: '#/definitions/SubscriptionCharge' },
      },
    },
  },
  SubscriptionChargeEnvelope: {
    type: 'object',
    required: ['status', 'data'],
    properties: { status: { type: 'string', enum: ['success'] }, data: { $ref: '#/definitions/SubscriptionCharge' } },
  },
};

const idParam = { name: 'id', in: 'path', required: true, type: 'integer', description: 'Subscription id' };
const chargeIdParam = { name: 'chargeId', in: 'path', required: true, type: 'integer', description: 'Charge id' };
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
  refundSubscriptionCharge: {
    operationId: 'refundSubscriptionCharge',
    summary: 'Refund a confirmed charge',
    description:
      'Voids the captured sale at the acquirer and moves the charge from 1 CONFIRMED to 3 REFUNDED (its ' +
      'paymentTransactionId is kept). Concurrent calls refund once; refunding a REFUNDED charge returns it ' +
      'unchanged.',
    tags: [TAG],
    parameters: [idParam, chargeIdParam],
    responses: {
      200: { description: 'The charge, refunded', schema: { $ref: '#/definitions/SubscriptionChargeEnvelope' } },
      404: errorResponses.detail("Unknown subscription or charge, or another merchant's"),
      409: errorResponses.detail('The charge is not CONFIRMED, or the acquirer refused the refund'),
      502: errorResponses.detail('The acquirer could not be reached; the refund can be asked again safely'),
    },
  },
} satisfies Record<string, SwaggerOperation>;
