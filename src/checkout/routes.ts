/**
 * The public checkout: four JSON routes under /api/v1/checkout-links/{guid} and the page itself
 * (GET /checkout/{guid}) with its static assets, all from our own origin (CSP default-src 'self').
 */
import fs from 'node:fs';
import path from 'node:path';
import type { RequestHandler } from 'express';
import { celebrate, Joi, Segments } from 'celebrate';
import { getConfig } from '../../config';
import { errorResponses, type Feature } from '../http/routes';
import { rateLimit } from '../http/rate-limit';
import { PaymentLinkModel } from '../payment-links/model';
import { loadCheckout, payLink, saveAddress, savePayer } from './service';

const PUBLIC_DIR = path.join(__dirname, 'public');

/** Served files: name -> [absolute path, content type]. Nothing else under /checkout/assets/ exists. */
const ASSETS: Record<string, [string, string]> = {
  'checkout.js': [path.join(PUBLIC_DIR, 'checkout.js'), 'text/javascript; charset=utf-8'],
  'checkout.css': [path.join(PUBLIC_DIR, 'checkout.css'), 'text/css; charset=utf-8'],
  // node-forge's browser bundle: RSAES-PKCS1-v1_5, which WebCrypto lacks.
  'forge.min.js': [require.resolve('node-forge/dist/forge.min.js'), 'text/javascript; charset=utf-8'],
};

const assetCache = new Map<string, Buffer>();
function readAsset(file: string): Buffer {
  let content = assetCache.get(file);
  if (!content) {
    content = fs.readFileSync(ASSETS[file][0]);
    assetCache.set(file, content);
  }
  return content;
}

let page: Buffer | undefined;
function readPage(): Buffer {
  page ??= fs.readFileSync(path.join(PUBLIC_DIR, 'index.html'));
  return page;
}

const UFS = [
  'AC',
  'AL',
  'AP',
  'AM',
  'BA',
  'CE',
  'DF',
  'ES',
  'GO',
  'MA',
  'MT',
  'MS',
  'MG',
  'PA',
  'PB',
  'PR',
  'PE',
  'PI',
  'RJ',
  'RN',
  'RS',
  'RO',
  'RR',
  'SC',
  'SP',
  'SE',
  'TO',
];

const guidParam = { [Segments.PARAMS]: Joi.object({ guid: Joi.string().max(100).required() }) };

const line = (max: number) =>
  Joi.string()
    .trim()
    .max(max)
    .allow('', null)
    .messages({
      'string.base': 'Not a valid string.',
      'string.max': `Ensure this field has no more than ${max} characters.`,
    });

/** merchant_name is the legacy alias of payer_name; payer_name wins when both are sent. */
const foldPayerAlias: RequestHandler = (req, _res, next) => {
  const body = req.body as Record<string, unknown> | undefined;
  if (body && typeof body === 'object' && !Array.isArray(body) && 'merchant_name' in body) {
    if (body.payer_name === undefined) body.payer_name = body.merchant_name;
    delete body.merchant_name;
  }
  next();
};

const payerBody = celebrate(
  {
    ...guidParam,
    [Segments.BODY]: Joi.object({
      payer_name: Joi.string().trim().min(1).max(20).required().messages({
        'any.required': 'This field is required.',
        'string.empty': 'This field may not be blank.',
        'string.base': 'Not a valid string.',
        'string.max': 'Ensure this field has no more than 20 characters.',
      }),
      document: Joi.string().trim().max(20).required().messages({
        'any.required': 'This field is required.',
        'string.empty': 'This field may not be blank.',
        'string.base': 'Not a valid string.',
        'string.max': 'Ensure this field has no more than 20 characters.',
      }),
    })
      .unknown(true)
      .required(),
  },
  { abortEarly: false },
);

const addressBody = celebrate(
  {
    ...guidParam,
    [Segments.BODY]: Joi.object({
      cep: Joi.string()
        .trim()
        .pattern(/^\d{5}-?\d{3}$/)
        .required()
        .messages({
          'any.required': 'This field is required.',
          'string.empty': 'This field may not be blank.',
          'string.base': 'Not a valid string.',
          'string.pattern.base': 'Enter a CEP of 8 digits.',
        }),
      street: line(100),
      number: line(20),
      complement: line(100),
      neighborhood: line(100),
      city: line(100),
      state: Joi.string()
        .trim()
        .uppercase()
        .valid(...UFS)
        .allow('', null)
        .messages({
          'any.only': 'Enter a Brazilian state abbreviation (UF), e.g. SP.',
          'string.base': 'Not a valid string.',
        }),
      reference: line(100),
    })
      .unknown(true)
      .required(),
  },
  { abortEarly: false },
);

/**
 * Card testing (trying stolen numbers through a public page) is the abuse a pay step invites: each
 * link already refuses cards after 10 declines, and this caps the card attempts of one address
 * across all links. Counted before validation, so malformed attempts count too. Payment needs no
 * Redis otherwise, so while Redis is down payers still pay (unlimited, a warning logged): the
 * per-link stop, kept in the database, still holds.
 */
const payRateLimit = rateLimit({
  name: 'checkout-pay',
  limit: () => getConfig().checkoutPayRateLimit.limit,
  windowSeconds: () => getConfig().checkoutPayRateLimit.windowSeconds,
  whenStoreDown: 'allow',
});

const payBody = celebrate(
  {
    ...guidParam,
    [Segments.BODY]: Joi.object({
      encrypted_card: Joi.string().max(4096).required().messages({
        'any.required': 'This field is required.',
        'string.empty': 'This field may not be blank.',
        'string.base': 'Not a valid string.',
        'string.max': 'Too long to be an encrypted card.',
      }),
    })
      .unknown(true)
      .required(),
  },
  { abortEarly: false },
);

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

export const checkoutFeature: Feature = {
  name: 'checkout',
  tag: {
    name: 'checkout',
    description: 'Public checkout of a payment link: the page and the four calls it makes. No credential.',
  },
  definitions: {
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
              description:
                "The acquirer's transaction id (20 digits): the page shows it only where it fits on one line",
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
  },
  routes: [
    {
      method: 'get',
      path: '/api/v1/checkout-links/:guid',
      before: [celebrate(guidParam)],
      handler: async (req, res) => {
        res.set('Cache-Control', 'no-store').json(await loadCheckout(String(req.params.guid)));
      },
      doc: {
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
    },
    {
      method: 'patch',
      path: '/api/v1/checkout-links/:guid/payer',
      before: [foldPayerAlias, payerBody],
      handler: async (req, res) => {
        res
          .set('Cache-Control', 'no-store')
          .json(
            await savePayer(String(req.params.guid), { payerName: req.body.payer_name, document: req.body.document }),
          );
      },
      doc: {
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
    },
    {
      method: 'patch',
      path: '/api/v1/checkout-links/:guid/address',
      before: [addressBody],
      handler: async (req, res) => {
        const b = req.body as Record<string, string | null | undefined>;
        const address = {
          cep: String(b.cep).replace('-', ''),
          street: b.street ?? '',
          number: b.number ?? '',
          complement: b.complement ?? '',
          neighborhood: b.neighborhood ?? '',
          city: b.city ?? '',
          state: b.state ?? '',
          reference: b.reference ?? '',
        };
        res.set('Cache-Control', 'no-store').json(await saveAddress(String(req.params.guid), address));
      },
      doc: {
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
    },
    {
      method: 'put',
      path: '/api/v1/checkout-links/:guid/pay',
      before: [payRateLimit, payBody],
      handler: async (req, res) => {
        const outcome = await payLink(String(req.params.guid), req.body.encrypted_card);
        res.set('Cache-Control', 'no-store').json(outcome);
      },
      doc: {
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
        parameters: [
          guidPath,
          { name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/CheckoutPay' } },
        ],
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
    },
    {
      method: 'get',
      path: '/checkout/:guid',
      handler: async (req, res) => {
        // The page loads its assets by relative URL (so a PUBLIC_BASE_URL with a path works): no trailing slash.
        if (req.path.endsWith('/')) {
          res.redirect(301, `${req.baseUrl}${req.path.replace(/\/+$/, '')}`);
          return;
        }
        // The page itself renders every state from the API; the status code tells crawlers and tests the truth.
        const exists =
          typeof req.params.guid === 'string' &&
          req.params.guid.length <= 100 &&
          (await PaymentLinkModel.exists({ guid: req.params.guid }));
        res
          .status(exists ? 200 : 404)
          .type('html')
          .set('Cache-Control', 'no-store')
          .send(readPage());
      },
      doc: {
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
    },
    {
      method: 'get',
      path: '/checkout/assets/:file',
      handler: (req, res) => {
        const file = String(req.params.file);
        if (!Object.hasOwn(ASSETS, file)) {
          res.status(404).json({ detail: 'Not found.' });
          return;
        }
        res.type(ASSETS[file][1]).set('Cache-Control', 'public, max-age=300').send(readAsset(file));
      },
      doc: {
        operationId: 'getCheckoutAsset',
        summary: 'Static assets of the checkout page (checkout.js, checkout.css, forge.min.js)',
        // An unknown file is the JSON error body every route answers.
        produces: ['text/javascript', 'text/css', 'application/json'],
        parameters: [{ name: 'file', in: 'path', required: true, type: 'string', enum: Object.keys(ASSETS) }],
        responses: { 200: { description: 'The file' }, 404: errorResponses.detail('No such asset') },
      },
    },
  ],
};
