/**
 * The request schemas of the online sales routes (celebrate/Joi): field messages as the API documents them.
 */
import { celebrate, Joi, Segments } from 'celebrate';

/** R$ 10,000,000.00 */
export const MAX_SALE_VALUE = 1_000_000_000;

const INTEGER = 'A valid integer is required.';

const preCaptureBody = Joi.object({
  payment_method: Joi.string()
    .valid('card', 'pix')
    .required()
    .messages({ 'any.only': 'Must be card or pix.', 'any.required': 'This field is required.' }),
  value: Joi.number()
    .strict()
    .integer()
    .min(1)
    .max(MAX_SALE_VALUE)
    .required()
    .messages({
      'number.base': INTEGER,
      'number.integer': INTEGER,
      'number.min': 'Must be at least 1 (cents).',
      'number.max': `Must be at most ${MAX_SALE_VALUE} (cents).`,
      'any.required': 'This field is required.',
    }),
  installments: Joi.number()
    .strict()
    .integer()
    .min(1)
    .max(12)
    .default(1)
    .when('payment_method', {
      is: 'pix',
      then: Joi.valid(1).messages({ 'any.only': 'A PIX sale has one installment.' }),
    })
    .messages({
      'number.base': INTEGER,
      'number.integer': INTEGER,
      'number.min': 'Must be 1 to 12.',
      'number.max': 'Must be 1 to 12.',
    }),
  encrypted_card: Joi.string()
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
    }),
  card_token: Joi.string()
    .max(100)
    .when('payment_method', { is: 'pix', then: Joi.forbidden() })
    .messages({ 'any.unknown': 'A PIX sale takes no card_token.', 'string.base': 'Must be a string.' }),
  save_card: Joi.boolean().strict().default(false).messages({ 'boolean.base': 'Must be true or false.' }),
  payer: Joi.object({
    name: Joi.string().trim().min(1).max(100).required().messages({
      'any.required': 'This field is required.',
      'string.empty': 'This field may not be blank.',
      'string.max': 'At most 100 characters.',
    }),
    document: Joi.string().trim().max(20).when('...payment_method', { is: 'pix', then: Joi.required() }).messages({
      'any.required': 'A PIX sale needs the payer CPF or CNPJ.',
      'string.max': 'At most 20 characters.',
      'string.empty': 'This field may not be blank.',
    }),
  })
    .required()
    .messages({
      'any.required': 'This field is required.',
      'object.base': 'Must be an object with name and document.',
    }),
  order_reference: Joi.string().trim().max(64).messages({ 'string.max': 'At most 64 characters.' }),
  pix_expires_in: Joi.number()
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
    }),
}).messages({ 'object.unknown': 'Unknown field.' });

export const saleIdParam = celebrate(
  {
    [Segments.PARAMS]: Joi.object({
      id: Joi.number().integer().min(1).max(Number.MAX_SAFE_INTEGER).required().messages({ '*': INTEGER }),
    }),
  },
  { abortEarly: false },
);

const idempotencyKeyHeader = Joi.object({
  'idempotency-key': Joi.string()
    .min(1)
    .max(255)
    .pattern(/^[\x21-\x7e]+$/)
    .messages({ '*': 'At most 255 visible ASCII characters.' }),
}).unknown(true);

/** The pre-capture's header and body, every bad field reported at once. */
export const preCaptureValidation = celebrate(
  { [Segments.HEADERS]: idempotencyKeyHeader, [Segments.BODY]: preCaptureBody },
  { abortEarly: false },
);
