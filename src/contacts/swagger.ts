/** Swagger text of the contact routes: definitions, parameters and each operation. */
import { errorResponses, type SwaggerOperation } from '../http/routes';
import { LIMITS } from './schemas';

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

export const definitions = {
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

export const tag = {
  name: TAG,
  description: 'Commercial managers linked to merchants, and the global CEO contact. Staff credentials only',
};

export const docs = {
  listCommercialContacts: {
    operationId: 'listCommercialContacts',
    summary: 'List commercial contacts, alphabetical',
    tags: [TAG],
    parameters: [activeQuery],
    responses: { 200: contactList, 400: badInput },
  },
  createCommercialContact: {
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
  updateCommercialContact: {
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
  listMerchantCommercialContacts: {
    operationId: 'listMerchantCommercialContacts',
    summary: "List a merchant's commercial contacts, alphabetical",
    description: 'The contacts whose merchant_ids contain this merchant; an empty list when none is linked.',
    tags: [TAG],
    parameters: [{ name: 'id', in: 'path', required: true, type: 'integer', description: 'Merchant id' }, activeQuery],
    responses: { 200: contactList, 400: badInput, 404: errorResponses.detail('No merchant has this id') },
  },
  getGlobalCeo: {
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
  putGlobalCeo: {
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
} satisfies Record<string, SwaggerOperation>;
