/**
 * The subscription bodies, each declared once (src/http/schema.ts): the create body's validation with
 * the field messages the spec gives, the Swagger definitions of every body, and their TypeScript types.
 */
import { definition, field, nullable, required, swaggerOnly, withDefault, type ValueOf } from '../http/schema';
import { FIELD_MESSAGES, inCents } from '../http/validation';
import { Joi } from 'celebrate';
import { BILLING_CYCLES, MANDATE_STATUSES, PAYMENT_METHODS } from './model';
import { isCalendarDay } from './clock';
import { HARD_DECLINE_CODES, SUBSCRIPTION_CANCELLED, TRANSPORT_ERROR } from './retry-policy';
import { PIX_ABOVE_MAXIMUM, PIX_MANDATE_NOT_APPROVED, PIX_WINDOW_MISSED } from './pix-retry-policy';

const MESSAGES = {
  ...FIELD_MESSAGES,
  'string.pattern.base': 'Enter a valid date in the format YYYY-MM-DD.',
  'number.min': 'Ensure this value is greater than or equal to {#limit}.',
  'number.max': 'Ensure this value is less than or equal to {#limit}.',
  'any.only': 'Must be one of: {#valids}.',
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A day without a time (Swagger format date, which Joi has no rule for). */
const date = () => swaggerOnly(field.string(), { format: 'date' });

/** A UTC calendar day, YYYY-MM-DD, as the subscription bodies state it. */
const day = (description: string) => date().pattern(DAY).description(description).example('2030-01-10');

/** A day a request gives: of the right shape, and one the calendar has (no February 30). */
const calendarDay = (description: string) =>
  day(description).custom((value: string, helpers) =>
    isCalendarDay(value) ? value : helpers.error('string.pattern.base'),
  );

/** The served document states that a create body refuses unknown keys (as Joi does without `.unknown()`). */
const closed = { additionalProperties: false };

export const subscriptionCreate = definition(
  'SubscriptionCreate',
  swaggerOnly(
    field
      .object({
        // The document never stated the 100,000,000.00 ceiling: stating it changes the contract.
        value: swaggerOnly(required(inCents(field.number().integer().min(1).max(100_000_000_00))), { maximum: null })
          .description(
            'Amount of each charge, in cents. A number with a fraction gives "A valid integer is required: value ' +
              'is in cents (1050 = R$ 10,50)."',
          )
          .example(4990),
        billingCycle: required(field.oneOf(BILLING_CYCLES))
          .messages({ 'any.only': `Must be one of: ${BILLING_CYCLES.join(', ')}.` })
          .description(
            'Time between due dates. Months count from the first due date, clamped to the month end (Jan 31 ' +
              'then Feb 28, Mar 31)',
          ),
        firstDueDate: required(calendarDay('Due date of the first charge (UTC day); today or later')),
        paymentMethod: withDefault(field.oneOf(PAYMENT_METHODS), 'card')
          .messages({ 'any.only': `Must be one of: ${PAYMENT_METHODS.join(', ')}.` })
          .description(
            'Not in the contract. card (the default): each charge is a card sale on encryptedCard. pix_automatico: ' +
              "the payer authorises the recurrence once in their bank app (the mandate's QR code, see " +
              'pixAutomatico); no card. docs/api/pix-automatico.md',
          ),
        encryptedCard: swaggerOnly(
          field
            .string()
            .max(4096)
            .when('paymentMethod', { is: 'pix_automatico', then: Joi.forbidden(), otherwise: Joi.required() })
            .messages({ 'any.unknown': 'Not allowed with paymentMethod pix_automatico.' }),
          { maxLength: null },
        ).description(
          'Required with paymentMethod card (the default); refused with pix_automatico. ' +
            'The card encrypted as in checkout: base64 of the RSA (PKCS#1 v1.5) encryption, with the service ' +
            'public key, of the JSON {"number","holder","expMonth","expYear","cvv"}. ' +
            ('It is turned into an acquirer card token at once; only the token, brand, BIN, last four, holder ' +
              'and expiry are kept'),
        ),
        pixAutomatico: swaggerOnly(
          field
            .object({
              journey: required(field.number().integer().valid(2, 3))
                .messages({ 'any.only': 'Must be 2 or 3.' })
                .description(
                  '2: the QR code only authorises; the first charge is sent on the calendar. 3: the QR code pays ' +
                    'the first charge (value) now and authorises the rest',
                ),
              maximumValue: inCents(field.number().integer().min(1).max(100_000_000_00)).description(
                'Variable amounts: the most one charge may be, in cents (a charge above it is refused before it ' +
                  'is sent). Absent: every charge is value (fixed amount)',
              ),
              minimumValue: inCents(field.number().integer().min(1).max(100_000_000_00)).description(
                'Variable amounts only: the least one charge may be, in cents, sent to the acquirer as the ' +
                  "recurrence's MinimumAmount (the payer cannot set a ceiling below it). Default: 1",
              ),
            })
            .when('paymentMethod', { is: 'pix_automatico', then: Joi.required(), otherwise: Joi.forbidden() })
            .messages({
              'any.unknown': 'Only with paymentMethod pix_automatico.',
              'any.required': 'Required with paymentMethod pix_automatico.',
            }),
          closed,
        ).description(
          'Required with paymentMethod pix_automatico, refused otherwise. retry true sends the retry policy ' +
            'Allowed_3R_7D (a failed charge retried at most 3 times in 7 days), false none. billingCycle: weekly, ' +
            'monthly, quarterly, semiannual or annual (the Central Bank has no bimonthly). customer.name and ' +
            'customer.identity are required; description (up to 35 characters) is the plan the payer sees',
        ),
        retry: withDefault(field.boolean(), true).description(
          'Retry soft-declined charges on the retry schedule. false: each charge is sent once',
        ),
        endDate: nullable(calendarDay('Optional last day a charge may fall due; the subscription expires after it')),
        maxCycles: nullable(field.number().integer().min(1).max(1000)).description(
          'Optional number of cycles (charges); the subscription expires after the last',
        ),
        customer: swaggerOnly(
          field.object({
            name: field
              .string()
              .trim()
              .max(100)
              .description('Customer name sent to the acquirer; default: the card holder'),
            identity: field
              .string()
              .pattern(/^\d{11}(\d{3})?$/)
              .messages({ 'string.pattern.base': 'A CPF (11 digits) or CNPJ (14 digits), digits only.' })
              .description('CPF or CNPJ, digits only'),
          }),
          closed,
        ),
        description: nullable(field.string().max(100)).allow(''),
      })
      .messages(MESSAGES),
    closed,
  ),
);

/** A create body once validated (retry filled in). */
export type SubscriptionCreateInput = ValueOf<typeof subscriptionCreate>;

const success = required(field.oneOf(['success']));
const isoUtc = () => required(field.dateTime().description('ISO 8601, UTC'));

const instant = (description: string) => required(nullable(field.dateTime())).description(description);

/** A Pix Automático subscription's mandate: the payer's authorisation, as the acquirer confirmed it. */
/** setCycleValue's body: the amount of one coming cycle of a variable Pix Automático mandate. */
export const cycleValueUpdate = definition(
  'SubscriptionCycleValue',
  swaggerOnly(
    field
      .object({
        dueDate: required(calendarDay("The coming cycle's due date (one of the subscription's due dates)")),
        value: swaggerOnly(required(inCents(field.number().integer().min(1).max(100_000_000_00))), { maximum: null })
          .description("The cycle's amount in cents, between the mandate's minimumValue and maximumValue")
          .example(7350),
      })
      .messages({ ...MESSAGES, 'object.unknown': 'Unknown field.', 'object.base': 'Must be a JSON object.' }),
    closed,
  ),
);

export type CycleValueInput = ValueOf<typeof cycleValueUpdate>;

export const mandate = definition(
  'SubscriptionMandate',
  field.object({
    status: required(field.oneOf(MANDATE_STATUSES)).description(
      'CREATED: the QR code waits for the payer. APPROVED: the payer authorised it (charges can be sent). ' +
        'REJECTED: the payer refused it. EXPIRED: not authorised in time. CANCELLED: by the merchant or the payer ' +
        '(cancellation says which). Moves only after the acquirer confirmed it (a notice alone moves nothing); ' +
        'REJECTED, EXPIRED and CANCELLED cancel the subscription (no charge is sent)',
    ),
    authorizationUrl: required(nullable(field.string())).description(
      "The payer's authorisation page (public, in Portuguese, phone-sized): the QR code, the plan, the amount and " +
        'the state as it moves; send it to the payer. null on a mandate opened before the page existed',
    ),
    journey: required(field.number().integer().valid(2, 3)),
    acquirerRecurrenceId: required(field.string()).description("The acquirer's RecurrenceId"),
    retryPolicy: required(field.oneOf(['Allowed_3R_7D', 'none'])),
    amountType: required(field.oneOf(['fixed', 'variable'])),
    minimumValue: required(nullable(field.number().integer())).description('Variable amounts: cents; null when fixed'),
    maximumValue: required(nullable(field.number().integer())).description('Variable amounts: cents; null when fixed'),
    qrCodeImage: required(nullable(field.string())).description(
      'The authorisation QR code, data:image/png;base64,...; null once the mandate left CREATED',
    ),
    qrCodeText: required(nullable(field.string())).description(
      'The same as copy-and-paste text (Pix Copia e Cola); null once the mandate left CREATED',
    ),
    expiresAt: instant('When the QR code expires if not authorised'),
    approvedAt: instant('When the payer authorised it (as the acquirer dates it)'),
    rejectedAt: instant('When the payer refused it'),
    expiredAt: instant('When it expired unauthorised'),
    rejection: required(nullable(field.object({ code: field.string(), reason: field.string() }))).description(
      "The acquirer's (Central Bank) rejection code and text; null unless REJECTED",
    ),
    cancellation: required(
      nullable(
        field.object({
          by: field.oneOf(['merchant', 'payer']),
          at: field.dateTime(),
          code: field.string(),
          reason: field.string(),
        }),
      ),
    ).description('Who cancelled it, when, and why (code: the Central Bank reason code); null unless CANCELLED'),
  }),
);

export type MandateAnswer = ValueOf<typeof mandate>;

/** The subscription as every subscription answer presents it: every key always there, null where absent. */
export const subscription = definition(
  'Subscription',
  field.object({
    id: required(field.number().integer()).description('Subscription id'),
    status: required(field.oneOf(['active', 'cancelled', 'expired'])).description(
      'active: charged on each due date. cancelled: by the merchant; no new charge and no retry. expired: ' +
        'the last cycle (endDate or maxCycles) was charged and no charge is pending or awaiting a retry',
    ),
    value: required(field.number().integer()).description('Cents per charge'),
    amount: required(field.number()).description('value in currency units (reais)'),
    billingCycle: required(field.oneOf(BILLING_CYCLES)),
    firstDueDate: required(day('First due date')),
    nextDueDate: required(
      nullable(
        day('Due date of the next charge to be created; null when none is left or the subscription is not active'),
      ),
    ),
    endDate: required(nullable(day('Last day a charge may fall due'))),
    maxCycles: required(nullable(field.number().integer())),
    retry: required(field.boolean()),
    card: required(
      nullable(
        field.object({
          brand: field.string(),
          bin: field.string(),
          last4: field.string(),
          holder: field.string(),
          expMonth: field.number().integer(),
          expYear: field.number().integer(),
        }),
      ),
    ).description('What is kept of the card; the acquirer card token is never shown. null with pix_automatico'),
    paymentMethod: field
      .oneOf(['pix_automatico'])
      .description('Not in the contract: shown only on a subscription paid by Pix Automático (absent: a card)'),
    mandate: mandate.description('Not in the contract: only with paymentMethod pix_automatico'),
    cycleValues: field
      .record(field.number().integer())
      .description(
        "Not in the contract: only with paymentMethod pix_automatico. A variable mandate's amounts set for coming " +
          'cycles (setSubscriptionCycleValue), by due date; every other cycle is charged value',
      ),
    customer: required(field.object({ name: field.string(), identity: nullable(field.string()) })),
    description: required(nullable(field.string())),
    cancelledAt: required(nullable(field.dateTime())),
    createdAt: isoUtc(),
    updatedAt: isoUtc(),
  }),
);

export type SubscriptionAnswer = ValueOf<typeof subscription>;

export const subscriptionEnvelope = definition(
  'SubscriptionEnvelope',
  field.object({ status: success, data: required(subscription) }),
);

/** One charge exactly as the spec's Subscription charge table describes it: every key always there. */
export const subscriptionCharge = definition(
  'SubscriptionCharge',
  field
    .object({
      id: required(field.number().integer()).description('Charge id'),
      subscriptionId: required(field.number().integer()).description('Owning subscription'),
      status: required(field.number().integer().valid(0, 1, 2, 3)).description(
        '0 PENDING (created, first send under way; Pix Automático: also sent and scheduled at the acquirer until ' +
          'the due date settles it), 1 CONFIRMED, 2 DENIED, 3 REFUNDED',
      ),
      value: required(field.number().integer()).description(
        'Amount of this charge in cents: the amount charged at the acquirer, the same on every retry',
      ),
      amount: required(field.number()).description('value in currency units (value / 100)'),
      dueDate: required(day('Due date of the cycle this charge bills')),
      acquirerPaymentId: required(field.string()).description(
        'PaymentId of the last sale at the acquirer; empty string until the acquirer answers with one (and ' +
          'after a communication failure)',
      ),
      denialCode: required(field.string()).description(
        `Acquirer return code of the denied attempt; empty string unless status is 2. ${TRANSPORT_ERROR} means ` +
          `a communication failure with the acquirer (retried); ${SUBSCRIPTION_CANCELLED} means the subscription ` +
          `was cancelled after the charge was created and before it was sent (never sent, never retried). Hard ` +
          `declines, never retried: ${[...HARD_DECLINE_CODES].join(', ')}; any other code is retried. ` +
          `Pix Automático (never sent, never retried): ${PIX_WINDOW_MISSED} (its 10-to-2-day window passed), ` +
          `${PIX_ABOVE_MAXIMUM} (above the mandate's maximumValue), ${PIX_MANDATE_NOT_APPROVED}, acquirer_<code> ` +
          `(refused by the acquirer); any other code is the payer's bank's settlement failure (e.g. AM04), ` +
          `retried under Allowed_3R_7D`,
      ),
      denialMessage: required(field.string()).description(
        'Acquirer message of the denied attempt; empty string unless status is 2',
      ),
      attempts: required(field.number().integer().min(1)).description(
        'Times the charge was sent to the acquirer, retries included (1 while the first send is under way). ' +
          'Always 1 when the subscription has retry off; at most 4 for Pix Automático (3 retries)',
      ),
      nextRetryAt: required(nullable(date())).description(
        'Day of the next retry (YYYY-MM-DD). Set only on a denied charge with a retry scheduled; null ' +
          'otherwise: final denial (hard decline or retries used up), retry off, or a cancelled or expired ' +
          'subscription. Status 2 with nextRetryAt null is final. Pix Automático: the day the retry is sent and ' +
          'settles on, within 7 days of dueDate and before the next cycle',
      ),
      paymentTransactionId: required(nullable(field.number().integer())).description(
        'Financial transaction created on confirmation (kept after a refund); null when none',
      ),
      createdAt: isoUtc(),
      updatedAt: isoUtc(),
      refunded_value: field
        .number()
        .integer()
        .description(
          'Not in the contract: shown only once something of the charge was refunded (absent before, so a ' +
            'charge never refunded reads exactly as the contract shows it). Cents given back by succeeded ' +
            'refunds; status stays 1 CONFIRMED until it reaches value, then 3 REFUNDED',
        ),
    })
    .description('To know whether a charge was denied, use status, not denialCode.'),
);

export type ChargeAnswer = ValueOf<typeof subscriptionCharge>;

export const subscriptionChargeList = definition(
  'SubscriptionChargeList',
  field.object({
    status: success,
    data: required(field.array(subscriptionCharge)).description(
      'Every charge of the subscription, oldest due date first',
    ),
  }),
);

export const subscriptionChargeEnvelope = definition(
  'SubscriptionChargeEnvelope',
  field.object({ status: success, data: required(subscriptionCharge) }),
);

/** The payer's authorisation page's read (public): what the page shows, and nothing more. */
export const mandateCheckout = definition(
  'MandateCheckout',
  field.object({
    status: required(field.oneOf(['waiting', 'approved', 'rejected', 'expired', 'cancelled'])).description(
      'waiting: the QR code waits for the payer (until expiresAt); approved: the payer authorised it; rejected: ' +
        'the payer refused it; expired: not authorised in time (also once expiresAt passed, before the acquirer ' +
        'says so); cancelled: by the merchant or the payer',
    ),
    merchantName: required(field.string()).description("The merchant's company name"),
    plan: required(field.string()).description('What is paid for (the description the bank app shows)'),
    amountType: required(field.oneOf(['fixed', 'variable'])),
    value: required(field.number().integer()).description('Cents: each charge (fixed), or the first one (variable)'),
    maximumValue: required(nullable(field.number().integer())).description(
      'Variable amounts: the most one charge may be, cents ("até R$ X"); null when fixed',
    ),
    billingCycle: required(field.oneOf(['weekly', 'monthly', 'quarterly', 'semiannual', 'annual'])),
    firstDueDate: required(date()),
    journey: required(field.number().integer().valid(2, 3)),
    payNow: required(nullable(field.number().integer())).description(
      'Journey 3: the cents the QR code pays now with the authorisation; null on journey 2',
    ),
    payerName: required(field.string()),
    payerDocument: required(field.string()).description('The CPF or CNPJ masked (***.456.***-**)'),
    qrCodeImage: required(nullable(field.string())).description('data:image/png;base64 of the QR code, while waiting'),
    qrCodeText: required(nullable(field.string())).description('The copy-and-paste code (EMV), while waiting'),
    expiresAt: required(nullable(field.dateTime())),
    secondsLeft: required(nullable(field.number().integer())).description('Until the QR code expires, while waiting'),
    cancelledBy: required(nullable(field.oneOf(['merchant', 'payer']))).description('Who cancelled, when cancelled'),
  }),
);

export type MandateCheckoutAnswer = ValueOf<typeof mandateCheckout>;
