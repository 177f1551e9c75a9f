/** Swagger text of the checkout calls and page: parameters and each operation (the bodies are in schemas.ts). */
import { errorResponses, type SwaggerOperation } from '../http/routes';
import { swaggerDefinitions } from '../http/schema';
import { ASSETS } from './assets';
import {
  checkoutAddress,
  checkoutInstallments,
  checkoutLink,
  checkoutPix,
  checkoutPixWait,
  checkoutPay,
  checkoutPayer,
  checkoutPayResult,
} from './schemas';
import { mandateCheckout } from '../subscriptions/schemas';

const guidPath = {
  name: 'guid',
  in: 'path',
  required: true,
  type: 'string',
  description: 'payment_link_guid of the link',
};
const tokenPath = {
  name: 'token',
  in: 'path',
  required: true,
  type: 'string',
  description: "The page token of the mandate (the end of the subscription mandate's authorizationUrl)",
};
const conflictResponse = errorResponses.detail(
  'The link is already paid, has expired (the detail says when), another pay of it is in progress ' +
    '(Retry-After), or (pay) it already declined 10 cards',
);
const notFoundResponse = errorResponses.detail('No link with this guid');

export const tag = {
  name: 'checkout',
  description:
    'Public checkout of a payment link, and the authorisation page of a Pix Automático mandate: the pages and ' +
    'the calls they make. No credential.',
};

export const definitions = swaggerDefinitions(
  checkoutLink,
  checkoutPayer,
  checkoutAddress,
  checkoutPay,
  checkoutPayResult,
  checkoutInstallments,
  checkoutPix,
  checkoutPixWait,
  mandateCheckout,
);

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
      "captured sale in the installments the payer chose (`installments`, one of the link's options; absent: " +
      "the link's number_of_installments); with interest the charged total is the option's total. " +
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
  getCheckoutInstallments: {
    operationId: 'getCheckoutInstallments',
    summary: 'The installment options the payer may choose',
    description:
      "From 1 up to the link's number_of_installments, while each installment is at least its " +
      'min_installment_value: each with its installment value, total and whether it is interest-free, in ' +
      'integer cents (interest by the Price table, the installment rounded half up; interest-free: rounded ' +
      'down, the first installment carrying the rest), and a Portuguese label for the page.',
    parameters: [guidPath],
    responses: {
      200: { description: 'The options', schema: { $ref: '#/definitions/CheckoutInstallments' } },
      400: errorResponses.fieldErrors,
      404: notFoundResponse,
    },
  },
  startCheckoutPix: {
    operationId: 'startCheckoutPix',
    summary: 'PIX: the QR code to pay the link',
    description:
      'For a link whose payment_methods include pix, once the payer step is done. Answers the live QR code ' +
      'if there is one (the same for whoever asks), else makes a new one once the one before has expired ' +
      "(lifetime: the link's pix_expires_in, never past the link's expiry). 409 with Retry-After while " +
      'another payer is making it or a card pay is in progress. Counted in the pay rate limit. ' +
      ('When the acquirer fails a new code (502, or 200 with status failed), the link makes no new one for ' +
        'a while: each POST meanwhile is 503 with Retry-After, calling nobody. The wait is ' +
        'CHECKOUT_PIX_BACKOFF_MS (default 5 s), doubled by each failure in a row up to ' +
        'CHECKOUT_PIX_BACKOFF_MAX_MS (default 60 s), kept in Redis for every web process, forgotten once a ' +
        'code is made. Other links are not affected.'),
    parameters: [guidPath],
    responses: {
      200: { description: 'The QR code', schema: { $ref: '#/definitions/CheckoutPix' } },
      400: errorResponses.fieldErrors,
      404: notFoundResponse,
      409: conflictResponse,
      429: errorResponses.detail('Too many pay calls from this address; Retry-After says when to try again'),
      502: errorResponses.detail(
        'The acquirer failed the new code (could not be reached, refused, or did not answer in time); ' +
          'nothing was charged. Retry-After: the wait before this link makes another',
      ),
      503: {
        description:
          "The acquirer failed this link's last code moments ago: no new one until Retry-After (seconds); " +
          'payerMessage is the Portuguese text the page shows. Or a backing service (MongoDB, Redis) does not ' +
          'answer (detail alone)',
        schema: { $ref: '#/definitions/CheckoutPixWait' },
      },
    },
  },
  getCheckoutPix: {
    operationId: 'getCheckoutPix',
    summary: 'PIX: the state of the newest QR code (the page polls it)',
    description:
      "paid once the acquirer's notice has been confirmed with it and applied: the link is then paid (load " +
      'the checkout for its receipt). A QR code paid after the link already was is paid_twice: never the ' +
      "link's payment; its money goes back.",
    parameters: [guidPath],
    responses: {
      200: { description: 'The newest QR code', schema: { $ref: '#/definitions/CheckoutPix' } },
      400: errorResponses.fieldErrors,
      404: notFoundResponse,
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
  loadMandateCheckout: {
    operationId: 'loadMandateCheckout',
    summary: "Pix Automático: what the payer's authorisation page shows (it polls this)",
    description:
      "The mandate's state for the payer, the merchant's name, the plan, the amount and its period, the first due " +
      "date, journey 3's payment now, and the QR code while it waits. The payer document is masked; no id.",
    parameters: [tokenPath],
    responses: {
      200: { description: 'The authorisation', schema: { $ref: '#/definitions/MandateCheckout' } },
      404: errorResponses.detail('No mandate with this token (unknown or malformed)'),
    },
  },
  getMandateCheckoutPage: {
    operationId: 'getMandateCheckoutPage',
    summary: "Pix Automático: the payer's authorisation page (HTML): the mandate's authorizationUrl points here",
    produces: ['text/html'],
    parameters: [tokenPath],
    responses: {
      200: { description: 'The page' },
      301: { description: 'To the same address without a trailing slash' },
      404: { description: 'The page, showing that the authorisation does not exist' },
    },
  },
  getCheckoutAsset: {
    operationId: 'getCheckoutAsset',
    summary: 'Static assets of the checkout pages (checkout.js, checkout.css, pix-view.js, forge.min.js...)',
    produces: ['text/javascript', 'text/css'],
    parameters: [{ name: 'file', in: 'path', required: true, type: 'string', enum: Object.keys(ASSETS) }],
    responses: { 200: { description: 'The file' }, 404: errorResponses.detail('No such asset') },
  },
} satisfies Record<string, SwaggerOperation>;
