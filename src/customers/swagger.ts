/** Swagger text of the customers and their saved cards: parameters and each operation (bodies: schemas.ts). */
import { bodyParameter, errorResponses, type SwaggerOperation } from '../http/routes';
import { swaggerDefinitions, swaggerRef } from '../http/schema';
import {
  card,
  cardCheck,
  cardList,
  cardRefused,
  cardSave,
  customer,
  customerCreate,
  customerList,
  customerPatch,
  LIMITS,
} from './schemas';

const TAG = 'customers';

export const tag = {
  name: TAG,
  description:
    "The merchant's customers and their saved cards: a card is checked with Zero Auth (nothing charged) and kept as " +
    "the acquirer's token, never its number or CVV. Merchant credentials; another merchant's customer is not " +
    'found. See docs/api/customers.md.',
};

export const definitions = swaggerDefinitions(
  customerCreate,
  customerPatch,
  customer,
  customerList,
  cardSave,
  cardCheck,
  card,
  cardList,
  cardRefused,
);

const customerId = { name: 'id', in: 'path', required: true, type: 'string', description: 'cus_<24 hex>' };
const cardId = { name: 'card_id', in: 'path', required: true, type: 'string', description: 'card_<24 hex>' };
const noCustomer = errorResponses.detail("No such customer for this merchant (another merchant's is not found)");
const noCard = errorResponses.detail('No such customer, or no such saved card of this customer');
const cardInUse = errorResponses.detail(
  'Something charges this card on its own (a subscription): move it to another card first. Nothing was deleted',
);

export const docs = {
  createCustomer: {
    operationId: 'createCustomer',
    summary: 'Create a customer',
    tags: [TAG],
    parameters: [bodyParameter('CustomerCreate')],
    responses: {
      201: { description: 'The customer', schema: swaggerRef(customer) },
      400: errorResponses.fieldErrors,
    },
  },
  listCustomers: {
    operationId: 'listCustomers',
    summary: 'List customers, newest first, or find them by e-mail or document',
    tags: [TAG],
    parameters: [
      {
        name: 'email',
        in: 'query',
        required: false,
        type: 'string',
        description: 'Only customers with this e-mail (case does not matter)',
      },
      {
        name: 'document',
        in: 'query',
        required: false,
        type: 'string',
        description: 'Only customers with this CPF or CNPJ (punctuation does not matter)',
      },
      {
        name: 'limit',
        in: 'query',
        required: false,
        type: 'integer',
        minimum: 1,
        maximum: LIMITS.maxPage,
        default: LIMITS.defaultPage,
      },
      { name: 'cursor', in: 'query', required: false, type: 'string', description: 'next_cursor of the last page' },
    ],
    responses: {
      200: { description: 'A page of customers', schema: swaggerRef(customerList) },
      400: errorResponses.fieldErrors,
    },
  },
  getCustomer: {
    operationId: 'getCustomer',
    summary: 'Read a customer',
    tags: [TAG],
    parameters: [customerId],
    responses: { 200: { description: 'The customer', schema: swaggerRef(customer) }, 404: noCustomer },
  },
  updateCustomer: {
    operationId: 'updateCustomer',
    summary: 'Change a customer (only the fields sent)',
    tags: [TAG],
    parameters: [customerId, bodyParameter('CustomerPatch')],
    responses: {
      200: { description: 'The customer', schema: swaggerRef(customer) },
      400: errorResponses.fieldErrors,
      404: noCustomer,
    },
  },
  deleteCustomer: {
    operationId: 'deleteCustomer',
    summary: 'Delete a customer and forget its saved cards',
    tags: [TAG],
    parameters: [customerId],
    responses: { 204: { description: 'Deleted, with its cards' }, 404: noCustomer, 409: cardInUse },
  },
  saveCustomerCard: {
    operationId: 'saveCustomerCard',
    summary: "Save a customer's card: checked with Zero Auth, kept as the acquirer's token",
    description:
      'The same card (number and expiry) saved again for the same customer is the same card: 200 with it, nothing ' +
      'sent to the acquirer. A brand the acquirer runs no Zero Auth for (it checks Visa, Master and Elo) is saved ' +
      'with check.status skipped.',
    tags: [TAG],
    parameters: [customerId, bodyParameter('CustomerCardSave')],
    responses: {
      200: { description: 'This card was saved before: the same card', schema: swaggerRef(card) },
      201: { description: 'The card, checked and saved', schema: swaggerRef(card) },
      400: {
        ...errorResponses.fieldErrors,
        description:
          'Invalid input: encrypted_card missing or unreadable (one message for every decryption failure), or the ' +
          'card breaks a rule (number, expiry, cvv, holder), or its brand is not accepted',
      },
      404: noCustomer,
      409: errorResponses.detail('Another request is still saving the same card: try again (Retry-After)'),
      422: { description: 'Zero Auth refused the card; nothing was saved', schema: swaggerRef(cardRefused) },
      502: errorResponses.detail('The acquirer could not be reached; nothing was saved, saving again is safe'),
    },
  },
  listCustomerCards: {
    operationId: 'listCustomerCards',
    summary: "A customer's saved cards, newest first",
    tags: [TAG],
    parameters: [customerId],
    responses: { 200: { description: 'The saved cards', schema: swaggerRef(cardList) }, 404: noCustomer },
  },
  getCustomerCard: {
    operationId: 'getCustomerCard',
    summary: 'Read a saved card',
    tags: [TAG],
    parameters: [customerId, cardId],
    responses: { 200: { description: 'The saved card', schema: swaggerRef(card) }, 404: noCard },
  },
  deleteCustomerCard: {
    operationId: 'deleteCustomerCard',
    summary: 'Delete a saved card (its token is forgotten)',
    tags: [TAG],
    parameters: [customerId, cardId],
    responses: { 204: { description: 'Deleted' }, 404: noCard, 409: cardInUse },
  },
} satisfies Record<string, SwaggerOperation>;
