/**
 * The bodies of the online sales routes, each declared once (src/http/schema.ts): the request's
 * validation with the messages the API documents, the Swagger definitions and the TypeScript types.
 */
import { celebrate, Joi, Segments } from 'celebrate';
import { definition, field, nullable, required, swaggerOnly, withDefault, type ValueOf } from '../http/schema';
import { inCents } from '../http/validation';
import { SALE_ORIGIN_KINDS, PAYMENT_STATUSES } from '../payments/model';

/** R$ 10,000,000.00 */
export const MAX_SALE_VALUE = 1_000_000_000;

const INTEGER = 'A valid integer is required.';

export const preCaptureRequest = definition(
  'PreCaptureRequest',
  field
    .object({
      payment_method: required(field.oneOf(['card', 'pix'])).messages({
        'any.only': 'Must be card or pix.',
        'any.required': 'This field is required.',
      }),
      value: required(inCents(field.number().strict().integer().min(1).max(MAX_SALE_VALUE)))
        .messages({
          'number.min': 'Must be at least 1 (cents).',
          'number.max': `Must be at most ${MAX_SALE_VALUE} (cents).`,
          'any.required': 'This field is required.',
        })
        .description(
          'Amount in cents. A fraction gives {"value": ["A valid integer is required: value is in cents ' +
            '(1050 = R$ 10,50)."]}',
        ),
      installments: withDefault(field.number().strict().integer().min(1).max(12), 1)
        .when('payment_method', {
          is: 'pix',
          then: Joi.valid(1).messages({ 'any.only': 'A PIX sale has one installment.' }),
        })
        .messages({
          'number.base': INTEGER,
          'number.integer': INTEGER,
          'number.min': 'Must be 1 to 12.',
          'number.max': 'Must be 1 to 12.',
        })
        .description('Card only; a PIX sale has 1'),
      // The served document never stated the 4096 and 100 character ceilings: stating them changes the contract.
      encrypted_card: swaggerOnly(
        field
          .string()
          .max(4096)
          .when('payment_method', {
            is: 'pix',
            then: Joi.forbidden(),
            otherwise: Joi.when('card_token', { is: Joi.exist(), then: Joi.forbidden(), otherwise: Joi.required() }),
          })
          .messages({
            'any.required':
              'A card sale needs encrypted_card (the card encrypted with the service public key) or card_token.',
            'any.unknown': 'Send either encrypted_card or card_token, and neither for a PIX sale.',
            'string.base': 'Must be a base64 string.',
          })
          .description(
            'Card sale: base64 of the JSON {"number","holder","expMonth","expYear","cvv"} encrypted with the ' +
              'service RSA public key, PKCS#1 v1.5 padding ' +
              ('(as in checkout). Decrypted in memory only; the number and CVV are never stored or logged (brand, ' +
                'BIN and last four are kept).'),
          ),
        { maxLength: null },
      ),
      card_token: swaggerOnly(
        field
          .string()
          .max(100)
          .when('payment_method', { is: 'pix', then: Joi.forbidden() })
          .messages({ 'any.unknown': 'A PIX sale takes no card_token.', 'string.base': 'Must be a string.' })
          .description(
            'Card sale instead of encrypted_card: a card_token this merchant got from an earlier sale with save_card',
          ),
        { maxLength: null },
      ),
      save_card: withDefault(field.boolean().strict(), false)
        .messages({ 'boolean.base': 'Must be true or false.' })
        .description('Card sale with encrypted_card: return a card_token for later sales'),
      payer: required(
        field.object({
          name: swaggerOnly(
            required(field.string().trim().min(1).max(100)).messages({
              'any.required': 'This field is required.',
              'string.empty': 'This field may not be blank.',
              'string.max': 'At most 100 characters.',
            }),
            { minLength: null },
          ),
          document: field
            .string()
            .trim()
            .max(20)
            .when('...payment_method', { is: 'pix', then: Joi.required() })
            .messages({
              'any.required': 'A PIX sale needs the payer CPF or CNPJ.',
              'string.max': 'At most 20 characters.',
              'string.empty': 'This field may not be blank.',
            })
            .description('CPF or CNPJ with valid check digits (punctuation allowed). Required for PIX.'),
        }),
      ).messages({
        'any.required': 'This field is required.',
        'object.base': 'Must be an object with name and document.',
      }),
      order_reference: field
        .string()
        .trim()
        .max(64)
        .messages({ 'string.max': 'At most 64 characters.' })
        .description("The merchant's own order reference, echoed back"),
      pix_expires_in: field
        .number()
        .strict()
        .integer()
        .min(60)
        .max(86400)
        .when('payment_method', { is: 'card', then: Joi.forbidden() })
        .messages({
          'number.base': INTEGER,
          'number.integer': INTEGER,
          'number.min': 'Must be 60 to 86400 seconds.',
          'number.max': 'Must be 60 to 86400 seconds.',
          'any.unknown': 'Only for a PIX sale.',
        })
        .description('PIX only: seconds the QR code stays payable. Default: the acquirer default (2 hours).'),
    })
    .messages({ 'object.unknown': 'Unknown field.' }),
);

/** An optional part of a sale, in whole cents (a partial capture, a refund): 1 to MAX_SALE_VALUE. */
export const partOfSaleValue = () =>
  inCents(field.number().strict().integer().min(1).max(MAX_SALE_VALUE)).messages({
    'number.min': 'Must be at least 1 (cents).',
    'number.max': `Must be at most ${MAX_SALE_VALUE} (cents).`,
  });

/** A capture's optional body: no body (or no value) captures everything authorized. */
export const captureRequest = definition(
  'CaptureRequest',
  field
    .object({
      value: partOfSaleValue().description(
        'Cents to capture, at most the authorized value; less captures part of the sale, once (the rest of ' +
          'the authorization is released). Absent: everything authorized.',
      ),
    })
    .messages({ 'object.unknown': 'Unknown field.', 'object.base': 'Must be a JSON object.' }),
);

export type CaptureInput = ValueOf<typeof captureRequest>;

/** A pre-capture's body once validated (defaults filled). */
export type PreCaptureInput = ValueOf<typeof preCaptureRequest>;

/** A sale's id in the path: a positive safe integer (the refunds routes read their ids the same way). */
export const saleIdParams = Joi.object({
  id: Joi.number().integer().min(1).max(Number.MAX_SAFE_INTEGER).required().messages({ '*': INTEGER }),
});

export const saleIdParam = celebrate(
  {
    [Segments.PARAMS]: saleIdParams,
  },
  { abortEarly: false },
);

/** The sale id and the capture's optional body, every bad field reported at once. */
export const captureValidation = celebrate(
  {
    [Segments.PARAMS]: saleIdParams,
    [Segments.BODY]: captureRequest,
  },
  { abortEarly: false },
);

/** The Idempotency-Key header of a route that takes one (pre-capture, refunds). */
export const idempotencyKeyHeader = Joi.object({
  'idempotency-key': Joi.string()
    .min(1)
    .max(255)
    .pattern(/^[\x21-\x7e]+$/)
    .messages({ '*': 'At most 255 visible ASCII characters.' }),
}).unknown(true);

const nullableString = () => nullable(field.string());

/** The sale as every sales answer presents it (presentation.ts builds it). */
export const onlineSale = definition(
  'OnlineSale',
  field.object({
    id: required(field.number().integer()).description('Sale id, used by capture, cancel-capture and pix/status'),
    approved: required(field.boolean()).description(
      'true when the acquirer accepted the sale: the card was authorized (sale_status PRE_CAPTURED) or the PIX ' +
        'charge was created (PENDING, awaiting the payer). ' +
        'false for a denial (sale_status DENIED, with denial_code and denial_message). HTTP 200 alone is not approval.',
    ),
    sale_status: required(field.oneOf(PAYMENT_STATUSES)).description(
      'See docs/api/sales.md for the states and transitions',
    ),
    payment_method: required(field.oneOf(['card', 'pix'])),
    value: required(field.number().integer()).description('Amount in cents'),
    installments: field.number().integer().min(1).max(12),
    order_reference: nullableString().description("The merchant's order reference, as sent"),
    card: nullable(field.object({ brand: field.string(), bin: field.string(), last4: field.string() })).description(
      'What is kept of the card: brand, BIN, last four. Null for PIX.',
    ),
    card_token: field
      .string()
      .description(
        'Only when save_card was true and the card was approved: charge the card again with card_token (this ' +
          'merchant only). Shown once.',
      ),
    card_token_issued: field
      .boolean()
      .description(
        'In an Idempotency-Key replay of an answer that carried card_token: the token was issued (it is shown ' +
          'only once and not repeated)',
      ),
    pix: nullable(
      field.object({
        qr_code: field.string().description('PIX copy-and-paste (EMV) code for the payer'),
        expires_at: nullable(field.dateTime()),
        paid_at: nullable(field.dateTime()),
      }),
    ),
    denial_code: nullableString().description('Acquirer return code of a denial (e.g. 05, 51, 57); null otherwise'),
    denial_message: nullableString(),
    acquirer: field.object({
      payment_id: nullableString(),
      tid: nullableString(),
      authorization_code: nullableString(),
      proof_of_sale: nullableString().description('NSU'),
    }),
    reconciling: field.boolean().description('The outcome of an acquirer call on this sale is being confirmed'),
    captured_value: nullable(field.number().integer()).description(
      'Cents captured: the whole value, or less after a partial capture; null until captured',
    ),
    captured_at: nullable(field.dateTime()),
    refunded_value: field
      .number()
      .integer()
      .description(
        'Cents given back by succeeded refunds (docs/api/refunds.md); 0 when none. PARTIALLY_REFUNDED while it is ' +
          'less than captured_value, REFUNDED once it is all of it',
      ),
    cancelled_at: nullable(field.dateTime()),
    refunded_at: nullable(field.dateTime()),
    created_at: field.dateTime(),
    updated_at: field.dateTime(),
    origin: field
      .object({
        kind: required(field.oneOf(SALE_ORIGIN_KINDS)),
        id: required(field.number().integer()).description('The payment link id, or the subscription charge id'),
      })
      .description(
        'Only on a sale recorded for a charge another area made (docs/api/refunds.md): a paid payment link, or a ' +
          'subscription charge (recorded at its first refund). Absent on a sale made by pre-capture',
      ),
  }),
);

export type SaleAnswer = ValueOf<typeof onlineSale>;

/** The envelope of a sales answer: {"status": "success", "data": ...}. */
const success = required(field.oneOf(['success']));

export const onlineSaleResponse = definition(
  'OnlineSaleResponse',
  field.object({ status: success, data: required(onlineSale) }),
);

export const pixStatusAnswer = field.object({
  id: field.number().integer(),
  sale_status: field
    .oneOf(['PROCESSING', 'PENDING', 'CONFIRMED', 'EXPIRED', 'PARTIALLY_REFUNDED', 'REFUNDED', 'FAILED'])
    .description(
      'PENDING awaiting the payer; CONFIRMED paid; EXPIRED not paid in time; PARTIALLY_REFUNDED or REFUNDED paid, ' +
        'then refunded in part or whole (docs/api/refunds.md)',
    ),
  paid: field.boolean(),
  value: field.number().integer().description('Cents'),
  qr_code: nullableString().description('Copy-and-paste code'),
  expires_at: nullable(field.dateTime()),
  paid_at: nullable(field.dateTime()),
  reconciling: field.boolean(),
  updated_at: field.dateTime(),
});

export type PixStatusAnswer = ValueOf<typeof pixStatusAnswer>;

export const pixStatusResponse = definition(
  'PixStatusResponse',
  field.object({ status: success, data: required(pixStatusAnswer) }),
);

export const saleGatewayError = definition(
  'SaleGatewayError',
  field.object({
    detail: required(field.string()),
    sale_id: field.number().integer(),
    sale_status: field.oneOf(PAYMENT_STATUSES),
    reconciling: field.boolean(),
  }),
);

export type SaleGatewayErrorBody = ValueOf<typeof saleGatewayError>;

/** The acquirer's notice; read by hand in notices.ts, which checks its signature over the raw body first. */
export const paymentNotice = definition(
  'PaymentNotice',
  field
    .object({
      PaymentId: required(field.string())
        .messages({ '*': 'PaymentId is required.' })
        .description('The acquirer PaymentId'),
      ChangeType: required(field.number().strict().integer())
        .messages({ '*': 'ChangeType must be an integer.' })
        .description(
          '1 status changed (applied: the sale is read from the acquirer and settled); other types are ' +
            'stored and ignored',
        ),
      // Stored as sent, never read: its shape is the acquirer's to change.
      RecurrentPaymentId: swaggerOnly(field.any(), { type: 'string' }),
    })
    .messages({ 'object.base': 'A notice is one JSON object.' }),
);

export const noticeReceipt = field.object({ received: field.boolean(), duplicate: field.boolean() });

export type NoticeReceipt = ValueOf<typeof noticeReceipt>;
