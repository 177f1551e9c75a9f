/**
 * The contact bodies, each declared once (src/http/schema.ts): celebrate validates the requests with
 * these schemas, the Swagger definitions and the service's types come from the same declarations.
 * Phones are taken as Brazilians type them and stored as E.164.
 */
import { celebrate, Joi, Segments } from 'celebrate';
import type { CustomHelpers } from 'joi';
import { definition, field, nullable, required, swaggerOnly, type ValueOf } from '../http/schema';
import { FIELD_MESSAGES } from '../http/validation';
import { BRAZILIAN_PHONE_MESSAGE, toBrazilianE164 } from './phone';

export const LIMITS = { name: 120, email: 100, phoneInput: 20, title: 100, merchantIds: 1000 } as const;

const MESSAGES = {
  ...FIELD_MESSAGES,
  'string.email': 'Enter a valid e-mail address.',
  'array.base': 'Expected a list of merchant ids.',
  'array.max': 'Ensure this list has no more than {#limit} items.',
  'number.min': 'A valid merchant id is required.',
  'phone.brazil': BRAZILIAN_PHONE_MESSAGE,
};

/** Any way a Brazilian types a number in ("(11) 98765-4321", "+55 11 98765-4321", ...), stored as E.164. */
function brazilianPhone(value: string, helpers: CustomHelpers): string | ReturnType<CustomHelpers['error']> {
  return toBrazilianE164(value) ?? helpers.error('phone.brazil');
}

const name = field
  .string()
  .trim()
  .max(LIMITS.name)
  .description('Full name; leading and trailing spaces are trimmed')
  .example('Álvaro Souza');
const email = field
  .string()
  .trim()
  .lowercase()
  .max(LIMITS.email)
  .email({ tlds: false })
  .description('E-mail, stored lower-cased. Not unique: a shared team mailbox may serve several contacts')
  .example('alvaro.souza@example.com');
const phone = nullable(field.string().trim().max(LIMITS.phoneInput).custom(brazilianPhone))
  .description(
    'Brazilian phone number, as Brazilians type it: (11) 98765-4321, 11987654321, +55 11 98765-4321, 011 ' +
      '98765 4321 (spaces, dots, hyphens, parentheses allowed); ' +
      ('stored and returned as E.164. Mobile: 9 digits starting with 9; landline: 8 digits starting with 2 to ' +
        '5. null clears it'),
  )
  .example('+5511987654321');
const title = nullable(field.string().trim().max(LIMITS.title))
  .description('Role or job title; null clears it')
  .example('Gerente comercial');
/** The service makes a contact active when the body does not say: the document states it as the default. */
const active = swaggerOnly(field.boolean(), { default: true }).description(
  'Whether the contact is currently in charge; inactive contacts stay listed and linked',
);
const merchantIds = field
  .array(field.number().integer().min(1))
  .max(LIMITS.merchantIds)
  .description(
    'Ids of the merchants this contact serves. Every id must be an existing merchant (400 names each one that ' +
      'is not); repeated ids are kept once. On PATCH the list replaces the current one',
  );
/** Joi refuses unknown keys of these bodies; the document says so (the answers do not). */
const noOtherKeys = { additionalProperties: false };

export const commercialContactCreate = definition(
  'CommercialContactCreate',
  swaggerOnly(
    field
      .object({
        name: required(name),
        email: required(email),
        phone,
        title,
        active,
        // The service links no merchant when the body names none.
        merchant_ids: swaggerOnly(merchantIds, { default: [] }),
      })
      .required()
      .messages(MESSAGES),
    noOtherKeys,
  ),
);

export type CommercialContactInput = ValueOf<typeof commercialContactCreate>;

export const commercialContactPatch = definition(
  'CommercialContactPatch',
  swaggerOnly(
    field
      .object({ name, email, phone, title, active: field.boolean(), merchant_ids: merchantIds })
      .messages(MESSAGES)
      .description(
        'Any subset of the contact fields; an absent field keeps its current value. An empty object changes nothing',
      ),
    noOtherKeys,
  ),
);

export type CommercialContactChanges = ValueOf<typeof commercialContactPatch>;

export const globalCeoPut = definition(
  'GlobalCeoPut',
  swaggerOnly(
    field
      .object({ name: required(name), email: required(email), phone, title })
      .required()
      .messages(MESSAGES)
      .description('The whole CEO contact: it replaces the current one; an absent optional field becomes null'),
    noOtherKeys,
  ),
);

export type GlobalCeoInput = ValueOf<typeof globalCeoPut>;

export const commercialContact = definition(
  'CommercialContact',
  field.object({
    id: required(field.number().integer()).description('Contact id (pk)'),
    name: required(name),
    email: required(email),
    phone: required(phone),
    title: required(title),
    active: required(active),
    merchant_ids: required(merchantIds),
    created_at: required(field.dateTime()).description('ISO 8601, UTC'),
    updated_at: required(field.dateTime()).description('ISO 8601, UTC'),
  }),
);

export type CommercialContactView = ValueOf<typeof commercialContact>;

export const globalCeo = definition(
  'GlobalCeo',
  field
    .object({
      name: required(name),
      email: required(email),
      phone: required(phone),
      title: required(title),
      created_at: required(field.dateTime()).description('When the CEO was first registered (ISO 8601, UTC)'),
      updated_at: required(field.dateTime()).description('Last PUT (ISO 8601, UTC)'),
    })
    .description('The single global CEO contact; it belongs to no merchant and no portfolio'),
);

export type GlobalCeoView = ValueOf<typeof globalCeo>;

export const validateCeo = celebrate({ [Segments.BODY]: globalCeoPut }, { abortEarly: false });
export const validateListQuery = celebrate(
  { [Segments.QUERY]: Joi.object({ active: Joi.boolean() }).messages(MESSAGES) },
  { abortEarly: false },
);
