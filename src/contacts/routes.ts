/**
 * Commercial contacts (the platform's commercial managers, linked to merchants) and the single
 * global CEO contact. Staff only: a staff user's JWT or the system token; merchant credentials 403.
 */
import type { Request } from 'express';
import { celebrate, Joi, Segments } from 'celebrate';
import type { CustomHelpers } from 'joi';
import { STAFF_CREDENTIALS } from '../http/auth';
import { errorResponses, type Feature } from '../http/routes';
import { notFound } from '../http/errors';
import { FIELD_MESSAGES } from '../http/validation';
import { BRAZILIAN_PHONE_MESSAGE, toBrazilianE164 } from './phone';
import {
  createCommercialContact,
  getGlobalCeo,
  listCommercialContacts,
  listMerchantCommercialContacts,
  putGlobalCeo,
  updateCommercialContact,
} from './service';

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

const contactFields = {
  name: Joi.string().trim().max(LIMITS.name),
  email: Joi.string().trim().lowercase().max(LIMITS.email).email({ tlds: false }),
  phone: Joi.string().trim().max(LIMITS.phoneInput).custom(brazilianPhone).allow(null),
  title: Joi.string().trim().max(LIMITS.title).allow(null),
};

const contactBody = {
  ...contactFields,
  active: Joi.boolean(),
  merchant_ids: Joi.array().items(Joi.number().integer().min(1)).max(LIMITS.merchantIds),
};

const validateCreate = celebrate(
  {
    [Segments.BODY]: Joi.object({
      ...contactBody,
      name: contactBody.name.required(),
      email: contactBody.email.required(),
    })
      .required()
      .messages(MESSAGES),
  },
  { abortEarly: false },
);
const validatePatch = celebrate({ [Segments.BODY]: Joi.object(contactBody).messages(MESSAGES) }, { abortEarly: false });
const validateCeo = celebrate(
  {
    [Segments.BODY]: Joi.object({
      ...contactFields,
      name: contactFields.name.required(),
      email: contactFields.email.required(),
    })
      .required()
      .messages(MESSAGES),
  },
  { abortEarly: false },
);
const validateListQuery = celebrate(
  { [Segments.QUERY]: Joi.object({ active: Joi.boolean() }).messages(MESSAGES) },
  { abortEarly: false },
);

/** A path id that cannot be an id names no resource: 404, as an unknown id does. */
function pathId(req: Request, name: string, what: string): number {
  const raw = String(req.params[name]);
  const id = /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id)) throw notFound(`No ${what} has this id.`);
  return id;
}

function activeFilter(req: Request): { active?: boolean } {
  const active = (req.query as { active?: boolean }).active;
  return active === undefined ? {} : { active };
}

const TAG = 'commercial-contacts';

const contactProperties = {
  name: {
    type: 'string',
    maxLength: LIMITS.name,
    description: 'Full name; leading and trailing spaces are trimmed',
    example: 'Álvaro Souza',
  },
  email: {
    type: 'string',
    format: 'email',
    maxLength: LIMITS.email,
    description: 'E-mail, stored lower-cased. Not unique: a shared team mailbox may serve several contacts',
    example: 'alvaro.souza@example.com',
  },
  phone: {
    type: 'string',
    maxLength: LIMITS.phoneInput,
    'x-nullable': true,
    description:
      'Brazilian phone number, as Brazilians type it: (11) 98765-4321, 11987654321, +55 11 98765-4321, 011 ' +
      '98765 4321 (spaces, dots, hyphens, parentheses allowed); ' +
      ('stored and returned as E.164. Mobile: 9 digits starting with 9; landline: 8 digits starting with 2 to ' +
        '5. null clears it'),
    example: '+5511987654321',
  },
  title: {
    type: 'string',
    maxLength: LIMITS.title,
    'x-nullable': true,
    description: 'Role or job title; null clears it',
    example: 'Gerente comercial',
  },
};

const activeProperty = {
  type: 'boolean',
  description: 'Whether the contact is currently in charge; inactive contacts stay listed and linked',
  default: true,
};
const merchantIdsProperty = {
  type: 'array',
  maxItems: LIMITS.merchantIds,
  items: { type: 'integer', minimum: 1 },
  description:
    'Ids of the merchants this contact serves. Every id must be an existing merchant (400 names each one that ' +
    'is not); repeated ids are kept once. On PATCH the list replaces the current one',
};

const definitions = {
  CommercialContact: {
    type: 'object',
    required: ['id', 'name', 'email', 'phone', 'title', 'active', 'merchant_ids', 'created_at', 'updated_at'],
    properties: {
      id: { type: 'integer', description: 'Contact id (pk)' },
      ...contactProperties,
      active: activeProperty,
      merchant_ids: merchantIdsProperty,
      created_at: { type: 'string', format: 'date-time', description: 'ISO 8601, UTC' },
      updated_at: { type: 'string', format: 'date-time', description: 'ISO 8601, UTC' },
    },
  },
  CommercialContactCreate: {
    type: 'object',
    required: ['name', 'email'],
    additionalProperties: false,
    properties: { ...contactProperties, active: activeProperty, merchant_ids: { ...merchantIdsProperty, default: [] } },
  },
  CommercialContactPatch: {
    type: 'object',
    description:
      'Any subset of the contact fields; an absent field keeps its current value. An empty object changes nothing',
    additionalProperties: false,
    properties: { ...contactProperties, active: { type: 'boolean' }, merchant_ids: merchantIdsProperty },
  },
  GlobalCeo: {
    type: 'object',
    description: 'The single global CEO contact; it belongs to no merchant and no portfolio',
    required: ['name', 'email', 'phone', 'title', 'created_at', 'updated_at'],
    properties: {
      ...contactProperties,
      created_at: {
        type: 'string',
        format: 'date-time',
        description: 'When the CEO was first registered (ISO 8601, UTC)',
      },
      updated_at: { type: 'string', format: 'date-time', description: 'Last PUT (ISO 8601, UTC)' },
    },
  },
  GlobalCeoPut: {
    type: 'object',
    description: 'The whole CEO contact: it replaces the current one; an absent optional field becomes null',
    required: ['name', 'email'],
    additionalProperties: false,
    properties: contactProperties,
  },
};

const badInput = {
  ...errorResponses.fieldErrors,
  description: 'Invalid input: field name to messages (unknown fields, formats, lengths, merchants that do not exist)',
};
const activeQuery = {
  name: 'active',
  in: 'query',
  required: false,
  type: 'boolean',
  description: 'true: only active contacts; false: only inactive ones; absent: all',
};
const contactList = {
  description:
    'Contacts in alphabetical order of name, accents and case ignored (Álvaro and Alvaro together, before Bruno)',
  schema: { type: 'array', items: { $ref: '#/definitions/CommercialContact' } },
};

export const contactsFeature: Feature = {
  name: 'contacts',
  tag: {
    name: TAG,
    description: 'Commercial managers linked to merchants, and the global CEO contact. Staff credentials only',
  },
  definitions,
  routes: [
    {
      method: 'get',
      path: '/api/v1/commercial-contacts/',
      auth: STAFF_CREDENTIALS,
      before: [validateListQuery],
      handler: async (req, res) => {
        res.json(await listCommercialContacts(activeFilter(req)));
      },
      doc: {
        operationId: 'listCommercialContacts',
        summary: 'List commercial contacts, alphabetical',
        tags: [TAG],
        parameters: [activeQuery],
        responses: { 200: contactList, 400: badInput },
      },
    },
    {
      method: 'post',
      path: '/api/v1/commercial-contacts/',
      auth: STAFF_CREDENTIALS,
      before: [validateCreate],
      handler: async (req, res) => {
        res.status(201).json(await createCommercialContact(req.body));
      },
      doc: {
        operationId: 'createCommercialContact',
        summary: 'Create a commercial contact',
        tags: [TAG],
        parameters: [
          { name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/CommercialContactCreate' } },
        ],
        responses: {
          201: { description: 'The contact created', schema: { $ref: '#/definitions/CommercialContact' } },
          400: badInput,
        },
      },
    },
    {
      method: 'patch',
      path: '/api/v1/commercial-contacts/:pk/',
      auth: STAFF_CREDENTIALS,
      before: [validatePatch],
      handler: async (req, res) => {
        res.json(await updateCommercialContact(pathId(req, 'pk', 'commercial contact'), req.body ?? {}));
      },
      doc: {
        operationId: 'updateCommercialContact',
        summary: 'Change some fields of a commercial contact',
        description: 'Only the fields sent change; an absent field keeps its value.',
        tags: [TAG],
        parameters: [
          { name: 'pk', in: 'path', required: true, type: 'integer', description: 'Contact id' },
          { name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/CommercialContactPatch' } },
        ],
        responses: {
          200: { description: 'The contact after the change', schema: { $ref: '#/definitions/CommercialContact' } },
          400: badInput,
          404: errorResponses.detail('No commercial contact has this id'),
        },
      },
    },
    {
      method: 'get',
      path: '/api/v1/merchants/:id/commercial-contacts/',
      auth: STAFF_CREDENTIALS,
      before: [validateListQuery],
      handler: async (req, res) => {
        res.json(await listMerchantCommercialContacts(pathId(req, 'id', 'merchant'), activeFilter(req)));
      },
      doc: {
        operationId: 'listMerchantCommercialContacts',
        summary: "List a merchant's commercial contacts, alphabetical",
        description: 'The contacts whose merchant_ids contain this merchant; an empty list when none is linked.',
        tags: [TAG],
        parameters: [
          { name: 'id', in: 'path', required: true, type: 'integer', description: 'Merchant id' },
          activeQuery,
        ],
        responses: { 200: contactList, 400: badInput, 404: errorResponses.detail('No merchant has this id') },
      },
    },
    {
      method: 'get',
      path: '/api/v1/global-ceo/',
      auth: STAFF_CREDENTIALS,
      handler: async (_req, res) => {
        res.json(await getGlobalCeo());
      },
      doc: {
        operationId: 'getGlobalCeo',
        summary: 'Read the global CEO contact',
        tags: [TAG],
        responses: {
          200: {
            description: 'The CEO contact, or JSON null when none is registered yet',
            schema: { allOf: [{ $ref: '#/definitions/GlobalCeo' }], 'x-nullable': true },
          },
        },
      },
    },
    {
      method: 'put',
      path: '/api/v1/global-ceo/',
      auth: STAFF_CREDENTIALS,
      before: [validateCeo],
      handler: async (req, res) => {
        res.json(await putGlobalCeo(req.body));
      },
      doc: {
        operationId: 'putGlobalCeo',
        summary: 'Register or replace the global CEO contact',
        description:
          'Creates the CEO contact or replaces it whole. Concurrent PUTs leave exactly one record: the last ' +
          'one written.',
        tags: [TAG],
        parameters: [{ name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/GlobalCeoPut' } }],
        responses: {
          200: { description: 'The CEO contact as stored', schema: { $ref: '#/definitions/GlobalCeo' } },
          400: badInput,
        },
      },
    },
  ],
};
