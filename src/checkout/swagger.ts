/** Swagger text of the checkout calls and page: definitions, parameters and each operation. */
import { errorResponses, type SwaggerOperation } from '../http/routes';
import { ASSETS } from './assets';

const guidPath = {
  name: 'guid',
  in: 'path',
  required: true,
  type: 'string',
  description: 'payment_link_guid of the link',
};
const conflictResponse = errorResponses.detail(
  'The link is already paid, has expired (the detail says when), another pay of it is in progress ' +
    '(Retry-After), or (pay) it already declined 10 cards',
);
const notFoundResponse = errorResponses.detail('No link with this guid');

export const tag = {
  name: 'checkout',
  description: 'Public checkout of a payment link: the page and the four calls it makes. No credential.',
};

export const definitions = {
  CheckoutLink: {
    type: 'object',
    required: [
      'guid',
      'status',
      'statusLabel',
      'paid',
      'expired',
      'amount',
      'payerName',
      'merchantCompanyName',
      'installments',
      'expiresAt',
      'publicKey',
    ],
    properties: {
      guid: { type: 'string' },
      status: { type: 'integer', enum: [1, 2, 3], description: '1 Pendente, 2 Pago, 3 Expirado' },
      statusLabel: { type: 'string' },
      paid: { type: 'boolean' },
      expired: { type: 'boolean' },
      amount: { type: 'integer', description: 'Cents' },
      description: { type: 'string' },
      merchantCompanyName: { type: 'string' },
      installments: { type: 'integer', description: 'Installments of the charge, fixed by the link' },
      expiresAt: { type: 'string', format: 'date-time' },
      payerName: {
        type: 'string',
        description: 'The payer name saved by the payer step (or pre-filled by the merchant)',
      },
      payerDocument: {
        type: 'string',
        description: 'The payer document MASKED (***.456.***-**); the full document is never returned',
      },
      payerDocumentSaved: { type: 'boolean', description: 'A CPF/CNPJ with valid check digits is on file' },
      address: {
        type: 'object',
        'x-nullable': true,
        description: 'The address saved by the address step, or null',
        additionalProperties: { type: 'string' },
      },
      publicKey: {
        type: 'string',
        description: 'PEM RSA public key: encrypt the card JSON with it, RSAES-PKCS1-v1_5, base64',
      },
      encryption: { type: 'string', enum: ['RSAES-PKCS1-V1_5'] },
      receipt: {
        type: 'object',
        'x-nullable': true,
        description: 'Set once paid',
        properties: {
          paymentDate: { type: 'string', format: 'date-time' },
          amount: { type: 'integer' },
          installments: { type: 'integer' },
          cardBrand: { type: 'string' },
          cardLast4: { type: 'string' },
          authorization: {
            type: 'string',
            'x-nullable': true,
            description:
              "The issuer's authorization code (6 characters), what the receipt shows; null on links paid " +
              'before it was kept',
          },
          tid: {
            type: 'string',
            'x-nullable': true,
            description: "The acquirer's transaction id (20 digits): the page shows it only where it fits on one line",
          },
          merchantCompanyName: { type: 'string' },
          description: { type: 'string' },
        },
      },
    },
  },
  CheckoutPayer: {
    type: 'object',
    required: ['payer_name', 'document'],
    properties: {
      payer_name: { type: 'string', maxLength: 20 },
      merchant_name: { type: 'string', maxLength: 20, description: 'Alias of payer_name; payer_name wins' },
      document: {
        type: 'string',
        maxLength: 20,
        description:
          'CPF (11 digits) or CNPJ (14 characters, the new alphanumeric form included), punctuation allowed; ' +
          'check digits verified',
      },
    },
  },
  CheckoutAddress: {
    type: 'object',
    required: ['cep'],
    properties: {
      cep: { type: 'string', pattern: '^\\d{5}-?\\d{3}$', description: '8 digits, dash optional' },
      street: { type: 'string', maxLength: 100 },
      number: { type: 'string', maxLength: 20 },
      complement: { type: 'string', maxLength: 100 },
      neighborhood: { type: 'string', maxLength: 100 },
      city: { type: 'string', maxLength: 100 },
      state: { type: 'string', description: 'UF, e.g. SP' },
      reference: { type: 'string', maxLength: 100 },
    },
  },
  CheckoutPay: {
    type: 'object',
    required: ['encrypted_card'],
    properties: {
      encrypted_card: {
        type: 'string',
        description:
          'base64 of RSAES-PKCS1-v1_5(publicKey, UTF-8 JSON {"number","holder","expMonth","expYear","cvv"}). ' +
          'Any decryption or parsing failure gives the same ' +
          ('400 {"encrypted_card": [...]}; a readable card with a bad field names it: number (Luhn, brand), ' +
            'expiry, cvv (3 digits, 4 for Amex), holder.'),
      },
    },
  },
  CheckoutPayResult: {
    type: 'object',
    required: ['approved', 'checkout'],
    properties: {
      approved: {
        type: 'boolean',
        description: 'false: the card was denied; the link stays payable (status 1) and another card may be tried',
      },
      denial: {
        type: 'object',
        'x-nullable': true,
        properties: {
          code: { type: 'string', description: "The acquirer's ReturnCode, as the merchant's webhook carries it" },
          message: {
            type: 'string',
            description: "The acquirer's ReturnMessage (English), as the merchant's webhook carries it",
          },
          payerMessage: {
            type: 'string',
            description:
              'What the payer reads: Portuguese, chosen by the return code (a generic text for unknown codes ' +
              'and flagged cards)',
          },
        },
      },
      checkout: { $ref: '#/definitions/CheckoutLink' },
    },
  },
};

export const docs = {
  loadCheckout: {
    operationId: 'loadCheckout',
    summary: 'Load a checkout',
    description:
      'What the page needs: amount, description, merchant company name, installments, expiry, status, ' +
      'payerName, the RSA public key, and the receipt once paid.',
    parameters: [guidPath],
    responses: {
      200: { description: 'The checkout', schema: { $ref: '#/definitions/CheckoutLink' } },
      400: errorResponses.fieldErrors,
      404: notFoundResponse,
    },
  },
  setCheckoutPayer: {
    operationId: 'setCheckoutPayer',
    summary: 'Payer step: name and CPF/CNPJ',
    parameters: [
      guidPath,
      { name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/CheckoutPayer' } },
    ],
    responses: {
      200: { description: 'Saved; the checkout as it now is', schema: { $ref: '#/definitions/CheckoutLink' } },
      400: errorResponses.fieldErrors,
      404: notFoundResponse,
      409: conflictResponse,
    },
  },
  setCheckoutAddress: {
    operationId: 'setCheckoutAddress',
    summary: 'Address step',
    description: 'cep is required; the other lines are optional and replace what was saved.',
    parameters: [
      guidPath,
      { name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/CheckoutAddress' } },
    ],
    responses: {
      200: { description: 'Saved; the checkout as it now is', schema: { $ref: '#/definitions/CheckoutLink' } },
      400: errorResponses.fieldErrors,
      404: notFoundResponse,
      409: conflictResponse,
    },
  },
  payCheckout: {
    operationId: 'payCheckout',
    summary: 'Pay step: charge the encrypted card',
    description:
      'Decrypts the card, checks Luhn, expiry and CVV shape, and charges it through the acquirer as a ' +
      "captured sale with the link's installments. " +
      'Needs the payer step done (payer name and a valid CPF/CNPJ on the link), else 400. ' +
      ('Approved: 200 approved true, the link is paid (status 2, payment_date set). Denied: 200 approved ' +
        'false with the denial; the link stays payable. ') +
      'Of many concurrent pays exactly one charges; the others get 409. ' +
      ('One client address may make CHECKOUT_PAY_RATE_LIMIT pay calls (default 30) per ' +
        'CHECKOUT_PAY_RATE_WINDOW_SECONDS (default 600) across all links, counted in Redis and shared by ' +
        'every web process; ') +
      ('over it the answer is 429 with Retry-After. The limit is generous because phones on mobile networks ' +
        'share addresses (CGNAT). ') +
      ('While Redis is down the limit is not applied (payment needs no Redis; the per-link stop after 10 ' +
        'declines still holds).'),
    parameters: [guidPath, { name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/CheckoutPay' } }],
    responses: {
      200: {
        description: 'Approved (link paid) or denied (link still payable)',
        schema: { $ref: '#/definitions/CheckoutPayResult' },
      },
      400: errorResponses.fieldErrors,
      404: notFoundResponse,
      409: conflictResponse,
      429: errorResponses.detail('Too many pay calls from this address; Retry-After says when to try again'),
      502: errorResponses.detail('The acquirer could not be reached; nothing was charged, the link stays payable'),
    },
  },
  getCheckoutPage: {
    operationId: 'getCheckoutPage',
    summary: 'The checkout page (HTML): payment_link_url points here',
    produces: ['text/html'],
    parameters: [guidPath],
    responses: {
      200: { description: 'The page' },
      301: { description: 'To the same address without a trailing slash' },
      404: { description: 'The page, showing that the link does not exist' },
    },
  },
  getCheckoutAsset: {
    operationId: 'getCheckoutAsset',
    summary: 'Static assets of the checkout page (checkout.js, checkout.css, forge.min.js)',
    produces: ['text/javascript', 'text/css'],
    parameters: [{ name: 'file', in: 'path', required: true, type: 'string', enum: Object.keys(ASSETS) }],
    responses: { 200: { description: 'The file' }, 404: errorResponses.detail('No such asset') },
  },
} satisfies Record<string, SwaggerOperation>;
