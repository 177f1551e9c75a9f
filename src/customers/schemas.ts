/**
 * The customer and saved-card bodies, each declared once (src/http/schema.ts): celebrate validates with them, the
 * Swagger definitions and the services' types come from the same declarations. Bodies refuse unknown keys, as the
 * API's newer bodies do (subscriptions, contacts, chargebacks): a misspelt optional field is an error, not ignored.
 */
import { celebrate, Joi, Segments } from 'celebrate';
import type { CustomHelpers, ObjectSchema } from 'joi';
import { BRAZILIAN_PHONE_MESSAGE, toBrazilianE164 } from '../contacts/phone';
import { definition, field, nullable, required, swaggerOnly, type Typed, type ValueOf } from '../http/schema';
import { FIELD_MESSAGES } from '../http/validation';
import { documentKind, normalizeDocument } from '../platform/brazilian-documents';
import { CARD_CHECK_STATUSES } from './model';

export const LIMITS = {
  name: 120,
  email: 100,
  /** As typed, punctuation included: the spec's limit of a payer's document. */
  document: 20,
  phone: 20,
  metadataKeys: 20,
  metadataValue: 500,
  defaultPage: 20,
  maxPage: 100,
  /** A base64 RSA ciphertext: 344 characters for a 2048-bit key, 684 for 4096. */
  encryptedCard: 2048,
} as const;

export const INVALID_DOCUMENT = 'Enter a valid CPF (11 digits) or CNPJ (14 characters) with correct check digits.';
const METADATA_KEY = /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/;

const MESSAGES = {
  ...FIELD_MESSAGES,
  'string.email': 'Enter a valid e-mail address.',
  'phone.brazil': BRAZILIAN_PHONE_MESSAGE,
  'document.invalid': INVALID_DOCUMENT,
};

/** A CPF or CNPJ as typed (dots, dashes, slash, spaces), stored without punctuation once its digits check. */
function brazilianDocument(value: string, helpers: CustomHelpers): string | ReturnType<CustomHelpers['error']> {
  const normalized = normalizeDocument(value);
  return documentKind(normalized) ? normalized : helpers.error('document.invalid');
}

function brazilianPhone(value: string, helpers: CustomHelpers): string | ReturnType<CustomHelpers['error']> {
  return toBrazilianE164(value) ?? helpers.error('phone.brazil');
}

const name = field
  .string()
  .trim()
  .max(LIMITS.name)
  .description('Full name or company name; leading and trailing spaces are trimmed')
  .example('Maria Silva');
const email = nullable(field.string().trim().lowercase().max(LIMITS.email).email({ tlds: false }))
  .description('E-mail, stored lower-cased; not unique. null clears it')
  .example('maria.silva@example.com');
const document = nullable(field.string().max(LIMITS.document).custom(brazilianDocument))
  .description(
    'CPF or CNPJ (the alphanumeric CNPJ too), punctuation allowed, with correct check digits; stored and answered ' +
      'without punctuation. null clears it',
  )
  .example('529.982.247-25');
const phone = nullable(field.string().trim().max(LIMITS.phone).custom(brazilianPhone))
  .description(
    'Brazilian phone with its area code, as Brazilians type it ((11) 98765-4321, +55 11 98765-4321...); stored ' +
      'and answered as E.164. null clears it',
  )
  .example('(11) 98765-4321');
const metadata = (
  Joi.object().pattern(METADATA_KEY, Joi.string().max(LIMITS.metadataValue)) as unknown as Typed<
    ObjectSchema,
    Record<string, string>
  >
)
  .max(LIMITS.metadataKeys)
  .messages({
    'object.base': 'Must be an object of strings.',
    'object.unknown': 'Keys are 1 to 40 letters, digits, _ or -, starting with a letter or digit.',
    'object.max': `At most ${LIMITS.metadataKeys} keys.`,
    'string.base': 'Every value must be a string.',
    'string.max': `Every value has at most ${LIMITS.metadataValue} characters.`,
  })
  .description(
    `Your own keys and string values (at most ${LIMITS.metadataKeys} keys of up to 40 characters, values of up ` +
      `to ${LIMITS.metadataValue}), answered back. On PATCH it replaces the whole object; {} clears it`,
  )
  .example({ crm_id: 'C-1042' });

/** Joi refuses unknown keys by itself; the served document says so. */
const closed = { additionalProperties: false };

export const customerCreate = definition(
  'CustomerCreate',
  swaggerOnly(
    field
      .object({ name: required(name), email, document, phone, metadata })
      .required()
      .messages(MESSAGES)
      .description('A new customer; only name is required'),
    closed,
  ),
);
export type CustomerInput = ValueOf<typeof customerCreate>;

export const customerPatch = definition(
  'CustomerPatch',
  swaggerOnly(
    field
      .object({ name, email, document, phone, metadata })
      .messages(MESSAGES)
      .description('Any subset of the fields; an absent field keeps its value, null clears an optional one'),
    closed,
  ),
);
export type CustomerChanges = ValueOf<typeof customerPatch>;

const dateTime = (description: string) => required(field.dateTime()).description(description);

export const customer = definition(
  'Customer',
  field.object({
    id: required(field.string()).description('cus_<24 hex>').example('cus_5f2b9c0e4a7d1e3f9b6c8a20'),
    name: required(name),
    email: required(nullable(field.string())).example('maria.silva@example.com'),
    document: required(nullable(field.string())).description('Without punctuation').example('52998224725'),
    document_type: required(nullable(field.oneOf(['CPF', 'CNPJ']))),
    phone: required(nullable(field.string())).description('E.164').example('+5511987654321'),
    metadata: required(field.record(field.string())),
    created_at: dateTime('ISO 8601, UTC'),
    updated_at: dateTime('ISO 8601, UTC'),
  }),
);
export type CustomerAnswer = ValueOf<typeof customer>;

export const customerList = definition(
  'CustomerList',
  field.object({
    results: required(field.array(customer)),
    next_cursor: required(nullable(field.string())).description('Pass as cursor for the next page; null: last page'),
  }),
);
export type CustomerListAnswer = ValueOf<typeof customerList>;

export const customerListQuery = Joi.object({
  email: Joi.string().trim().lowercase().max(LIMITS.email).messages({ '*': 'Not an e-mail.' }),
  document: Joi.string()
    .max(LIMITS.document)
    .custom((value: string) => normalizeDocument(value))
    .messages({ '*': 'Not a CPF or CNPJ.' }),
  limit: Joi.number()
    .integer()
    .min(1)
    .max(LIMITS.maxPage)
    .messages({ '*': `An integer from 1 to ${LIMITS.maxPage}.` }),
  cursor: Joi.string().max(300).messages({ '*': 'Not a cursor.' }),
}).messages({ 'object.unknown': 'Unknown query parameter.' });
export type CustomerListQuery = { email?: string; document?: string; limit?: number; cursor?: string };

export const cardSave = definition(
  'CustomerCardSave',
  swaggerOnly(
    field
      .object({
        encrypted_card: required(field.string().max(LIMITS.encryptedCard)).description(
          "The card JSON encrypted with the service public key (RSAES-PKCS1-v1_5, base64), as a sale's " +
            'encrypted_card: docs/cards.md. Decrypted in memory only; the number and the CVV are never kept',
        ),
      })
      .required()
      .messages(MESSAGES),
    closed,
  ),
);

export const cardCheck = definition(
  'CustomerCardCheck',
  field
    .object({
      status: required(field.oneOf(CARD_CHECK_STATUSES)).description(
        'passed: the issuer said the card is valid (Zero Auth, nothing charged); skipped: the acquirer does not run ' +
          'Zero Auth for this brand, so the card was saved unchecked',
      ),
      reason: required(nullable(field.string())).description('Why the check was skipped; null when passed'),
      checked_at: dateTime('When the card was checked (or the check skipped), ISO 8601, UTC'),
    })
    .description('How the card was checked when it was saved'),
);

export const card = definition(
  'CustomerCard',
  field.object({
    id: required(field.string()).description('card_<24 hex>').example('card_0d3e8f1a2b4c6d8e0f1a2b3c'),
    customer_id: required(field.string()),
    brand: required(field.string()).description("The acquirer's spelling: Visa, Master, Elo, Amex..."),
    last4: required(field.string()).example('0010'),
    exp_month: required(field.number().integer()).example(12),
    exp_year: required(field.number().integer()).example(2031),
    holder: required(field.string()).example('MARIA SILVA'),
    check: required(cardCheck),
    created_at: dateTime('ISO 8601, UTC'),
  }),
);
export type CardAnswer = ValueOf<typeof card>;

export const cardList = definition(
  'CustomerCardList',
  field.object({ results: required(field.array(card)).description("The customer's saved cards, newest first") }),
);

export const cardRefused = definition(
  'CustomerCardRefused',
  field
    .object({
      detail: required(field.string()).description("The issuer's refusal in words, and what to do about it"),
      return_code: required(field.string()).description("The issuer's code (ABECS): 05, 51, 57...").example('05'),
      return_message: required(field.string()).description("The acquirer's own text").example('Not Authorized'),
    })
    .description('Zero Auth refused the card: it was not saved'),
);
export type CardRefusedAnswer = ValueOf<typeof cardRefused>;

export const validateCustomerCreate = celebrate({ [Segments.BODY]: customerCreate }, { abortEarly: false });
export const validateCustomerPatch = celebrate({ [Segments.BODY]: customerPatch }, { abortEarly: false });
export const validateCustomerListQuery = celebrate({ [Segments.QUERY]: customerListQuery }, { abortEarly: false });
