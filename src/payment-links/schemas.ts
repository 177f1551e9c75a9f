/**
 * The payment-link bodies, each declared once (src/http/schema.ts): the create body (validated by the
 * service, not celebrate, because the webhook URL check resolves DNS), the link answer, and the id.
 */
import { celebrate, Joi, Segments } from 'celebrate';
import { BRAZILIAN_PHONE_MESSAGE, toBrazilianE164 } from '../contacts/phone';
import { definition, field, nullable, required, swaggerOnly, withDefault, type ValueOf } from '../http/schema';
import { inBasisPoints, inCents } from '../http/validation';
import { MAX_INTEREST_RATE_BP } from '../platform/installments';
import { UNSAFE_WEBHOOK_URL } from '../platform/url-safety';

export const INTEGER_REQUIRED = 'A valid integer is required.';
export const MAX_LINK_VALUE = 2_147_483_647;

/** Empty and null are accepted (as no value), which the served document has never called nullable. */
const emptyOrNull = <S extends Joi.Schema>(schema: S) =>
  swaggerOnly(schema.allow('', null) as S, { 'x-nullable': null });

/** A text field that may be empty or null, trimmed, at most `max` characters (links and their checkout). */
export const optionalText = (max: number) =>
  emptyOrNull(field.string().trim().max(max)).messages({
    'string.base': 'Not a valid string.',
    'string.max': `Ensure this field has no more than ${max} characters.`,
  });

const integer = field.number().integer().strict(false).messages({
  'number.base': INTEGER_REQUIRED,
  'number.integer': INTEGER_REQUIRED,
  'number.unsafe': INTEGER_REQUIRED,
  'number.infinity': INTEGER_REQUIRED,
});

const WEBHOOK_ALIAS = swaggerOnly(field.any(), { type: 'string', description: 'Alias of webhookUrl' });

/**
 * The create body. Aliases are folded into their canonical names before this runs, so their keys here
 * only document them; `merchant` is set from the credential (read-only, as the spec says callers must
 * not send it); unknown keys are ignored.
 */
export const paymentLinkCreate = definition(
  'PaymentLinkCreate',
  field
    .object({
      value: required(inCents(integer.min(1).max(MAX_LINK_VALUE)))
        .messages({
          'any.required': 'This field is required.',
          'number.min': 'Ensure this value is greater than or equal to 1.',
          'number.max': `Ensure this value is less than or equal to ${MAX_LINK_VALUE}.`,
        })
        .description(
          'Amount in cents. A number with a fraction gives {"value": ["A valid integer is required: value is in ' +
            'cents (1050 = R$ 10,50)."]}',
        ),
      merchant: swaggerOnly(field.any(), { type: 'integer', readOnly: true }).description(
        'Set from the credential; ignored if sent',
      ),
      description: optionalText(100),
      payer_name: optionalText(20).description('Payer name pre-filled at checkout'),
      merchant_name: swaggerOnly(field.any(), { type: 'string', maxLength: 20 }).description(
        'Legacy alias of payer_name; payer_name wins when both are sent',
      ),
      document: optionalText(20).description(
        'Payer CPF or CNPJ (check digits are verified at the checkout payer step)',
      ),
      email: emptyOrNull(field.string().trim().max(100).email({ tlds: false }))
        .messages({
          'string.base': 'Not a valid string.',
          'string.max': 'Ensure this field has no more than 100 characters.',
          'string.email': 'Enter a valid email address.',
        })
        .description('Payer e-mail; never shown in responses'),
      // At most 20 characters as typed (the spec's limit), then normalised to E.164 by the one phone normaliser.
      mobile: optionalText(20)
        .custom((typed: string, helpers) =>
          typed.length > 20 ? typed : (toBrazilianE164(typed) ?? helpers.error('phone.brazil')),
        )
        .messages({ 'phone.brazil': BRAZILIAN_PHONE_MESSAGE })
        .description(
          'Payer phone, Brazilian, as Brazilians type it: (11) 98765-4321, 11987654321, +55 11 98765-4321, ' +
            '011 98765 4321 (at most 20 characters as sent). ' +
            ('Stored and answered as E.164 (+5511987654321); a number that is not a Brazilian mobile or ' +
              'landline is a field error.'),
        )
        .example('(11) 98765-4321'),
      number_of_installments: withDefault(integer.min(1).max(12), 1)
        .messages({
          'number.min': 'Ensure this value is greater than or equal to 1.',
          'number.max': 'Ensure this value is less than or equal to 12.',
        })
        .description(
          'The most installments the payer may choose at checkout (the options: GET ' +
            '/api/v1/checkout-links/{guid}/installments); a pay step naming none charges this many',
        ),
      free_installments: integer
        .min(0)
        .max(12)
        .messages({
          'number.min': 'Ensure this value is greater than or equal to 0.',
          'number.max': 'Ensure this value is less than or equal to 12.',
        })
        .description(
          'Up to this many installments the payer pays no interest. Default: all of them when ' +
            'interest_rate_monthly is 0, else 1. More than number_of_installments is a field error',
        ),
      interest_rate_monthly: withDefault(inBasisPoints(integer.min(0).max(MAX_INTEREST_RATE_BP)), 0)
        .messages({
          'number.min': 'Ensure this value is greater than or equal to 0.',
          'number.max': `Ensure this value is less than or equal to ${MAX_INTEREST_RATE_BP}.`,
        })
        .description(
          'Monthly interest beyond the free installments, in basis points (199 = 1.99% a month), applied by ' +
            'the Price table: the payer pays n equal installments rounded half up to the cent',
        ),
      min_installment_value: withDefault(inCents(integer.min(0).max(MAX_LINK_VALUE)), 0)
        .messages({
          'number.min': 'Ensure this value is greater than or equal to 0.',
          'number.max': `Ensure this value is less than or equal to ${MAX_LINK_VALUE}.`,
        })
        .description('Cents: options whose installment would be smaller are not offered (one installment always is)'),
      payment_methods: withDefault(
        field
          .array(field.oneOf(['card', 'pix']))
          .min(1)
          .unique(),
        ['card'],
      )
        .messages({
          'array.base': 'A list of payment methods is required: ["card"], ["pix"] or ["card", "pix"].',
          'array.min': 'Name at least one payment method.',
          'array.unique': 'Name each payment method once.',
          'any.only': 'Payment methods are "card" and "pix".',
        })
        .description('How the payer may pay at checkout: ["card"] (default), ["pix"] or ["card", "pix"]'),
      pix_expires_in: withDefault(integer.min(60).max(86_400), 1_800)
        .messages({
          'number.min': 'Ensure this value is greater than or equal to 60.',
          'number.max': 'Ensure this value is less than or equal to 86400.',
        })
        .description(
          "Seconds each PIX QR code lives (60 to 86400, default 1800); a code made near the link's end lives " +
            'only until the link expires',
        ),
      link_exp_period: withDefault(integer.valid(1, 2, 3), 2)
        .messages({ 'any.only': 'Choose 1 (24 h), 2 (48 h) or 3 (72 h).' })
        .description('1 = 24 h, 2 = 48 h, 3 = 72 h after creation'),
      webhookUrl: emptyOrNull(field.string())
        .messages({ 'string.base': UNSAFE_WEBHOOK_URL })
        .description(
          'Public HTTPS URL on port 443 (or a port the deployment allows) receiving signed events of this link ' +
            '(see the webhooks tag). Refused with {"webhookUrl": ["Enter a safe public HTTPS URL"]} ' +
            ('for http, credentials in the URL, localhost, names resolving to any internal address, numeric IP ' +
              'forms of internal addresses, and unresolvable hosts; with {"webhookUrl": ["Enter a safe public ' +
              'HTTPS URL on port 443 (not 6379)"]} for any other port.'),
        ),
      webhook_url: WEBHOOK_ALIAS,
      callbackUrl: WEBHOOK_ALIAS,
      callback_url: WEBHOOK_ALIAS,
    })
    .unknown(true),
);

export const paymentLink = definition(
  'PaymentLink',
  field.object({
    id: required(field.number().integer()).description('Keep it to follow the payment'),
    status: required(field.number().integer().valid(1, 2, 3)).description(
      '1 Pendente, 2 Pago, 3 Expirado (a pending link past expires_at)',
    ),
    status_label: required(field.oneOf(['Pendente', 'Pago', 'Expirado'])),
    merchant_id: required(field.number().integer()),
    merchant_company_name: required(field.string()),
    value: required(field.number().integer()).description('Cents'),
    description: required(field.string()),
    payer_name: required(field.string()),
    merchant_name: required(field.string()).description('Repeats payer_name (compatibility); not the merchant name'),
    document: required(field.string()),
    mobile: required(field.string())
      .description('E.164 (+5511987654321), or empty when none was sent')
      .example('+5511987654321'),
    link_exp_period: required(field.number().integer().valid(1, 2, 3)),
    payment_methods: required(field.array(field.oneOf(['card', 'pix']))),
    pix_expires_in: required(field.number().integer()).description('Seconds each PIX QR code lives'),
    number_of_installments: required(field.number().integer().min(1).max(12)).description(
      'The most installments the payer may choose',
    ),
    free_installments: required(field.number().integer().min(0).max(12)),
    interest_rate_monthly: required(field.number().integer().min(0)).description('Basis points a month'),
    min_installment_value: required(field.number().integer().min(0)).description('Cents'),
    payment: required(
      nullable(
        field.object({
          installments: required(field.number().integer().min(1).max(12)).description('What the payer chose'),
          installment_value: required(field.number().integer()).description(
            'Cents of each installment (interest-free: rounded down; the first carries the rest)',
          ),
          total: required(field.number().integer()).description(
            'Cents charged in all (the value, or more with interest)',
          ),
          interest_free: required(field.boolean()),
        }),
      ),
    ).description('Null until paid: the installments the payer chose and what was charged'),
    payment_link_guid: required(field.string().guid()),
    payment_link_url: required(field.string().uri()).description(
      'The checkout page (step 1) under PUBLIC_BASE_URL: give this URL to the payer',
    ),
    payment_date: required(nullable(field.dateTime())).description('Null until paid; ISO 8601 with offset once paid'),
    webhookUrl: required(field.string()).description('Empty when the link has none'),
    created_at: required(field.dateTime()).description('ISO 8601 with UTC offset (+00:00)'),
    expires_at: field.dateTime().description('When the link stops being payable'),
    sale_id: nullable(field.number().integer()).description(
      'On reads (getPaymentLink), not on create: the card sale the payment is recorded as, null until paid. ' +
        'Refund the link through that sale: POST /api/v1/online/sales/{sale_id}/refunds/',
    ),
  }),
);

export type PaymentLinkAnswer = ValueOf<typeof paymentLink>;

export const linkIdParam = celebrate(
  {
    [Segments.PARAMS]: Joi.object({
      id: Joi.number().integer().min(1).required().messages({ '*': INTEGER_REQUIRED }),
    }),
  },
  { abortEarly: false },
);
