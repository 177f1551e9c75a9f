/** Swagger text of the contact routes: parameters and each operation; the bodies' definitions come from schemas.ts. */
import { errorResponses, type SwaggerOperation } from '../http/routes';
import { field, swaggerDefinitions, swaggerOf, swaggerRef } from '../http/schema';
import { commercialContact, commercialContactCreate, commercialContactPatch, globalCeo, globalCeoPut } from './schemas';

const TAG = 'commercial-contacts';

export const definitions = swaggerDefinitions(
  commercialContact,
  commercialContactCreate,
  commercialContactPatch,
  globalCeo,
  globalCeoPut,
);

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
  schema: swaggerOf(field.array(commercialContact)),
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
    parameters: [{ name: 'body', in: 'body', required: true, schema: swaggerRef(commercialContactCreate) }],
    responses: {
      201: { description: 'The contact created', schema: swaggerRef(commercialContact) },
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
      { name: 'body', in: 'body', required: true, schema: swaggerRef(commercialContactPatch) },
    ],
    responses: {
      200: { description: 'The contact after the change', schema: swaggerRef(commercialContact) },
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
        schema: { allOf: [swaggerRef(globalCeo)], 'x-nullable': true },
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
    parameters: [{ name: 'body', in: 'body', required: true, schema: swaggerRef(globalCeoPut) }],
    responses: {
      200: { description: 'The CEO contact as stored', schema: swaggerRef(globalCeo) },
      400: badInput,
    },
  },
} satisfies Record<string, SwaggerOperation>;
