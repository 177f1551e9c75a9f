/**
 * The Swagger text of the online sales routes: one doc per operation; the bodies' definitions come from schemas.ts.
 */
import { NOTIFICATION_SIGNATURE_HEADER } from '../acquirer/client';
import { bodyParameter, errorResponses, idempotencyKeyHeader, idempotentCreateErrors } from '../http/routes';
import { swaggerDefinitions, swaggerOf, swaggerRef } from '../http/schema';
import {
  captureRequest,
  noticeReceipt,
  onlineSale,
  onlineSaleResponse,
  paymentNotice,
  pixStatusResponse,
  preCaptureRequest,
  saleGatewayError,
} from './schemas';

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

export const salesDefinitions = swaggerDefinitions(
  preCaptureRequest,
  onlineSale,
  onlineSaleResponse,
  pixStatusResponse,
  saleGatewayError,
  paymentNotice,
  captureRequest,
);

/**
 * The contract's cancel-capture, described with the online sales; its route row is the refunds area's
 * (a CONFIRMED sale's cancel is a whole refund through that core).
 */
export const cancelSaleDoc = {
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
      400: {
        ...errorResponses.fieldErrors,
        description:
          'Invalid input: a map of field name to a list of messages, every bad field at once (encrypted_card when ' +
          'the card cannot be read; number, expiry, cvv or holder when the decrypted card breaks that ' +
          "field's rule, number for a brand not accepted; payer.document for bad check digits)",
      },
      500: errorResponses.detail('Internal error'),
      502: gatewayError,
    },
  },
  captureSale: {
    operationId: 'captureSale',
    summary: 'Capture a pre-captured card sale',
    description:
      'PRE_CAPTURED becomes CONFIRMED. With no body, the whole authorized value is captured, as the contract ' +
      'says; a body {"value": <cents>} captures less, once: the acquirer releases the rest of the ' +
      'authorization, and a second capture is 400 (the sale is CONFIRMED). captured_value shows what was ' +
      'captured. Two captures at once capture once: one gets 200, the ' +
      'other 409 while the first runs or 400 after. ' +
      ("A PIX sale, or a sale in another state, is 400 with the reason. Another merchant's sale is 404, " +
        'like an unknown id (its existence is not revealed).'),
    parameters: [idParam, { name: 'body', in: 'body', required: false, schema: swaggerRef(captureRequest) }],
    responses: {
      200: { description: 'Captured: sale_status CONFIRMED', schema: { $ref: '#/definitions/OnlineSaleResponse' } },
      400: refusedOrBadId(
        'Not a PRE_CAPTURED card sale (the detail names the state), or a value that is not a whole number of ' +
          'cents from 1 to the authorized value (the field map names value)',
      ),
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
        schema: swaggerOf(noticeReceipt),
      },
      400: errorResponses.fieldErrors,
      401: errorResponses.detail('Missing or invalid signature'),
    },
  },
};
