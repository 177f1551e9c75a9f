/**
 * The Swagger text of the online sales routes: definitions and one doc per operation.
 */
import { NOTIFICATION_SIGNATURE_HEADER } from '../acquirer/client';
import { bodyParameter, errorResponses, idempotencyKeyHeader, idempotentCreateErrors } from '../http/routes';
import { SALE_STATUSES } from './model';
import { MAX_SALE_VALUE } from './schemas';

/**
 * A sale operation's 400: {"detail": ...} when the sale's state refuses it, or the field map of a
 * malformed id or body (FieldErrors admits both shapes).
 */
function refusedOrBadId(reason: string) {
  return {
    description: `${reason}: {"detail": "..."}; a malformed id or body is a field map`,
    schema: { $ref: '#/definitions/FieldErrors' },
  };
}

const idParam = {
  name: 'id',
  in: 'path',
  required: true,
  type: 'integer',
  minimum: 1,
  description: 'Sale id (from the pre-capture answer)',
};

const gatewayError = {
  description:
    'Payment gateway error. The body says what happened to the sale: sale_status FAILED means nothing was ' +
    'charged; reconciling true means the ' +
    ('acquirer did not answer in time and a job is confirming the outcome (the sale is then settled ' +
      'automatically). A capture or cancel keeps the sale in its state.'),
  schema: { $ref: '#/definitions/SaleGatewayError' },
};

const saleProperties = {
  id: { type: 'integer', description: 'Sale id, used by capture, cancel-capture and pix/status' },
  approved: {
    type: 'boolean',
    description:
      'true when the acquirer accepted the sale: the card was authorized (sale_status PRE_CAPTURED) or the PIX ' +
      'charge was created (PENDING, awaiting the payer). ' +
      'false for a denial (sale_status DENIED, with denial_code and denial_message). HTTP 200 alone is not approval.',
  },
  sale_status: {
    type: 'string',
    enum: [...SALE_STATUSES],
    description: 'See the README, Online sales, for the states and transitions',
  },
  payment_method: { type: 'string', enum: ['card', 'pix'] },
  value: { type: 'integer', description: 'Amount in cents' },
  installments: { type: 'integer', minimum: 1, maximum: 12 },
  order_reference: { type: 'string', 'x-nullable': true, description: "The merchant's order reference, as sent" },
  card: {
    type: 'object',
    'x-nullable': true,
    description: 'What is kept of the card: brand, BIN, last four. Null for PIX.',
    properties: { brand: { type: 'string' }, bin: { type: 'string' }, last4: { type: 'string' } },
  },
  card_token: {
    type: 'string',
    description:
      'Only when save_card was true and the card was approved: charge the card again with card_token (this ' +
      'merchant only). Shown once.',
  },
  card_token_issued: {
    type: 'boolean',
    description:
      'In an Idempotency-Key replay of an answer that carried card_token: the token was issued (it is shown ' +
      'only once and not repeated)',
  },
  pix: {
    type: 'object',
    'x-nullable': true,
    properties: {
      qr_code: { type: 'string', description: 'PIX copy-and-paste (EMV) code for the payer' },
      expires_at: { type: 'string', format: 'date-time', 'x-nullable': true },
      paid_at: { type: 'string', format: 'date-time', 'x-nullable': true },
    },
  },
  denial_code: {
    type: 'string',
    'x-nullable': true,
    description: 'Acquirer return code of a denial (e.g. 05, 51, 57); null otherwise',
  },
  denial_message: { type: 'string', 'x-nullable': true },
  acquirer: {
    type: 'object',
    properties: {
      payment_id: { type: 'string', 'x-nullable': true },
      tid: { type: 'string', 'x-nullable': true },
      authorization_code: { type: 'string', 'x-nullable': true },
      proof_of_sale: { type: 'string', 'x-nullable': true, description: 'NSU' },
    },
  },
  reconciling: { type: 'boolean', description: 'The outcome of an acquirer call on this sale is being confirmed' },
  captured_at: { type: 'string', format: 'date-time', 'x-nullable': true },
  cancelled_at: { type: 'string', format: 'date-time', 'x-nullable': true },
  refunded_at: { type: 'string', format: 'date-time', 'x-nullable': true },
  created_at: { type: 'string', format: 'date-time' },
  updated_at: { type: 'string', format: 'date-time' },
};

export const salesDefinitions = {
  PreCaptureRequest: {
    type: 'object',
    required: ['payment_method', 'value', 'payer'],
    properties: {
      payment_method: { type: 'string', enum: ['card', 'pix'] },
      value: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_SALE_VALUE,
        description: 'Amount in cents. A fraction gives {"value": ["A valid integer is required."]}',
      },
      installments: {
        type: 'integer',
        minimum: 1,
        maximum: 12,
        default: 1,
        description: 'Card only; a PIX sale has 1',
      },
      encrypted_card: {
        type: 'string',
        description:
          'Card sale: base64 of the JSON {"number","holder","expMonth","expYear","cvv"} encrypted with the ' +
          'service RSA public key, PKCS#1 v1.5 padding ' +
          ('(as in checkout). Decrypted in memory only; the number and CVV are never stored or logged (brand, ' +
            'BIN and last four are kept).'),
      },
      card_token: {
        type: 'string',
        description:
          'Card sale instead of encrypted_card: a card_token this merchant got from an earlier sale with save_card',
      },
      save_card: {
        type: 'boolean',
        default: false,
        description: 'Card sale with encrypted_card: return a card_token for later sales',
      },
      payer: {
        type: 'object',
        required: ['name'],
        properties: {
          name: { type: 'string', maxLength: 100 },
          document: {
            type: 'string',
            maxLength: 20,
            description: 'CPF or CNPJ with valid check digits (punctuation allowed). Required for PIX.',
          },
        },
      },
      order_reference: {
        type: 'string',
        maxLength: 64,
        description: "The merchant's own order reference, echoed back",
      },
      pix_expires_in: {
        type: 'integer',
        minimum: 60,
        maximum: 86400,
        description: 'PIX only: seconds the QR code stays payable. Default: the acquirer default (2 hours).',
      },
    },
  },
  OnlineSale: {
    type: 'object',
    required: ['id', 'approved', 'sale_status', 'payment_method', 'value'],
    properties: saleProperties,
  },
  OnlineSaleResponse: {
    type: 'object',
    required: ['status', 'data'],
    properties: { status: { type: 'string', enum: ['success'] }, data: { $ref: '#/definitions/OnlineSale' } },
  },
  PixStatusResponse: {
    type: 'object',
    required: ['status', 'data'],
    properties: {
      status: { type: 'string', enum: ['success'] },
      data: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          sale_status: {
            type: 'string',
            enum: ['PROCESSING', 'PENDING', 'CONFIRMED', 'EXPIRED', 'REFUNDED', 'FAILED'],
            description: 'PENDING awaiting the payer; CONFIRMED paid; EXPIRED not paid in time',
          },
          paid: { type: 'boolean' },
          value: { type: 'integer', description: 'Cents' },
          qr_code: { type: 'string', 'x-nullable': true, description: 'Copy-and-paste code' },
          expires_at: { type: 'string', format: 'date-time', 'x-nullable': true },
          paid_at: { type: 'string', format: 'date-time', 'x-nullable': true },
          reconciling: { type: 'boolean' },
          updated_at: { type: 'string', format: 'date-time' },
        },
      },
    },
  },
  SaleGatewayError: {
    type: 'object',
    required: ['detail'],
    properties: {
      detail: { type: 'string' },
      sale_id: { type: 'integer' },
      sale_status: { type: 'string', enum: [...SALE_STATUSES] },
      reconciling: { type: 'boolean' },
    },
  },
  PaymentNotice: {
    type: 'object',
    required: ['PaymentId', 'ChangeType'],
    properties: {
      PaymentId: { type: 'string', description: 'The acquirer PaymentId' },
      ChangeType: {
        type: 'integer',
        description:
          '1 status changed (applied: the sale is read from the acquirer and settled); other types are ' +
          'stored and ignored',
      },
      RecurrentPaymentId: { type: 'string' },
    },
  },
};

export const salesDocs = {
  preCaptureSale: {
    operationId: 'preCaptureSale',
    summary: 'Start an online sale: authorize a card (capture later) or create a PIX charge',
    description:
      'HTTP 200 does not mean approval: check data.approved and data.sale_status. An approved card is ' +
      'PRE_CAPTURED (capture or cancel it later); ' +
      ('a denied card is 200 with approved false, sale_status DENIED, denial_code and denial_message, and ' +
        'can be neither captured nor cancelled. ') +
      ('A PIX sale is PENDING with the copy-and-paste code (data.pix.qr_code) and its expiry; it becomes ' +
        'CONFIRMED when the acquirer notifies the payment. ') +
      ('On 502 the body tells whether nothing was charged (sale_status FAILED) or the outcome is being ' +
        'confirmed (reconciling true).'),
    parameters: [
      idempotencyKeyHeader(
        'Recommended. Per merchant, kept 24 h. The same key with the same body replays the first answer ' +
          '(header Idempotent-Replayed: true) without a second ' +
          ('authorization; the same key with a different body is 422; the same key while the first request ' +
            'still runs, or while its timed-out outcome is being ') +
          ('confirmed, is 409 (retry later to get the answer). A key whose request failed validation or ' +
            'reached no acquirer (502 with FAILED) may be used again.'),
      ),
      bodyParameter('PreCaptureRequest'),
    ],
    responses: {
      200: {
        description: 'The sale (approved, denied or PIX pending)',
        schema: { $ref: '#/definitions/OnlineSaleResponse' },
      },
      ...idempotentCreateErrors('The first request with this Idempotency-Key is still running or being confirmed'),
      500: errorResponses.detail('Internal error'),
      502: gatewayError,
    },
  },
  captureSale: {
    operationId: 'captureSale',
    summary: 'Capture a pre-captured card sale',
    description:
      'PRE_CAPTURED becomes CONFIRMED (full amount). Two captures at once capture once: one gets 200, the ' +
      'other 409 while the first runs or 400 after. ' +
      ("A PIX sale, or a sale in another state, is 400 with the reason. Another merchant's sale is 404, " +
        'like an unknown id (its existence is not revealed).'),
    parameters: [idParam],
    responses: {
      200: { description: 'Captured: sale_status CONFIRMED', schema: { $ref: '#/definitions/OnlineSaleResponse' } },
      400: refusedOrBadId('Not a PRE_CAPTURED card sale (the detail names the state)'),
      404: errorResponses.detail('No such sale for this merchant'),
      409: errorResponses.detail(
        'Another operation on this sale is running, or its last outcome is being confirmed; retry later',
      ),
      502: gatewayError,
    },
  },
  cancelSale: {
    operationId: 'cancelSale',
    summary: 'Cancel a card sale: void a pre-captured one, refund a confirmed one',
    description:
      "PRE_CAPTURED is voided (CANCELLED). CONFIRMED is refunded (REFUNDED) only when the merchant's " +
      'allow_void_on_confirmed setting is on; otherwise 400 ' +
      "saying so. A PIX sale or any other state is 400 with the reason. Another merchant's sale is 404.",
    parameters: [idParam],
    responses: {
      200: {
        description: 'sale_status CANCELLED or REFUNDED',
        schema: { $ref: '#/definitions/OnlineSaleResponse' },
      },
      400: refusedOrBadId('Not cancellable (PIX, wrong state, or allow_void_on_confirmed off)'),
      404: errorResponses.detail('No such sale for this merchant'),
      409: errorResponses.detail(
        'Another operation on this sale is running, or its last outcome is being confirmed; retry later',
      ),
      502: gatewayError,
    },
  },
  getSale: {
    operationId: 'getSale',
    summary: 'Read an online sale (stored data only)',
    description:
      'The sale as recorded, card or PIX. After a 502 with reconciling true, this shows the settled ' +
      'outcome once reconciling is false. ' +
      "Never calls the acquirer. Another merchant's sale is 404.",
    parameters: [idParam],
    responses: {
      200: { description: 'The sale', schema: { $ref: '#/definitions/OnlineSaleResponse' } },
      400: errorResponses.fieldErrors,
      404: errorResponses.detail('No such sale for this merchant'),
    },
  },
  getPixStatus: {
    operationId: 'getPixStatus',
    summary: 'Current PIX payment status of a sale (stored data only)',
    description:
      'Reads only what is stored (updated by the acquirer notifications): it never calls the acquirer. An ' +
      'unpaid charge past its expiry reads EXPIRED. ' +
      ("A card sale is 400. A merchant token sees its own sales only (another merchant's is 404); the " +
        'system token sees any sale, or only the merchant named in X-Merchant-Id.'),
    parameters: [idParam],
    responses: {
      200: { description: 'PIX status', schema: { $ref: '#/definitions/PixStatusResponse' } },
      400: refusedOrBadId('Not a PIX sale'),
      404: errorResponses.detail('No such sale for this merchant'),
    },
  },
  receivePaymentNotification: {
    operationId: 'receivePaymentNotification',
    summary: 'Acquirer card/PIX notification intake',
    description:
      `Called by the acquirer, not by merchants. Authenticated by ${NOTIFICATION_SIGNATURE_HEADER}: ` +
      `"sha256=" + hex HMAC-SHA256 of the raw body keyed with ` +
      ('ACQUIRER_NOTIFICATION_SECRET (compared in constant time). The raw notice is stored (one document ' +
        'per body, so retries are one notice) and 200 is ') +
      ('answered at once; a worker reads the sale from the acquirer and settles ours. Repeated or ' +
        'out-of-order notices change nothing twice.'),
    parameters: [
      {
        name: NOTIFICATION_SIGNATURE_HEADER,
        in: 'header',
        required: true,
        type: 'string',
        description: 'sha256=<hex HMAC-SHA256 of the raw body>',
      },
      { name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/PaymentNotice' } },
    ],
    responses: {
      200: {
        description: 'Stored (duplicate true for a repeated notice)',
        schema: { type: 'object', properties: { received: { type: 'boolean' }, duplicate: { type: 'boolean' } } },
      },
      400: errorResponses.fieldErrors,
      401: errorResponses.detail('Missing or invalid signature'),
    },
  },
};
