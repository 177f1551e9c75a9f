/** The Swagger text of the refund routes: one doc per operation; the bodies come from schemas.ts. */
import { errorResponses, idempotencyKeyHeader, idempotentCreateErrors } from '../http/routes';
import { swaggerDefinitions, swaggerRef } from '../http/schema';
import { cancelSaleDoc } from '../sales';
import { PIX_REFUND_WINDOW_DAYS, REFUND_WINDOW_DAYS } from './admission';
import { chargeRefundRequest, refund, refundListResponse, refundRequest, refundResponse } from './schemas';

const saleIdParam = {
  name: 'id',
  in: 'path',
  required: true,
  type: 'integer',
  minimum: 1,
  description: 'Sale id',
};

export const refundsDefinitions = swaggerDefinitions(
  refundRequest,
  refund,
  refundResponse,
  refundListResponse,
  chargeRefundRequest,
);

export const refundsDocs = {
  // The contract's operation, described with the online sales (src/sales/swagger.ts), served from this area.
  cancelSale: { ...cancelSaleDoc, tags: ['online-sales'] },
  createRefund: {
    operationId: 'createRefund',
    summary: 'Refund part or all of a captured card sale or a paid PIX',
    description:
      'Gives back `value` cents (absent: all that is left) of a CONFIRMED or PARTIALLY_REFUNDED card or PIX sale, as ' +
      'many times as wanted up to the captured value: the pending and succeeded refunds of a sale never add up ' +
      "to more, whatever runs at once. A sale's refunds reach the acquirer one at a time, 5 s apart: 201 when " +
      'the acquirer settled this one at once (status succeeded or failed), 202 with status pending when it ' +
      'waits its turn or its outcome is being confirmed (read it with getRefund). Low balance at the acquirer ' +
      'or a refund it finds too late end as a failed refund with failure_reason, not an error. A PIX refund ' +
      "stays pending (202) until the acquirer's notice completes it. " +
      `Past ${REFUND_WINDOW_DAYS} days after a card capture, or ${PIX_REFUND_WINDOW_DAYS} days after a PIX ` +
      "payment: 422. Another merchant's sale is 404. See docs/api/refunds.md.",
    parameters: [
      saleIdParam,
      idempotencyKeyHeader(
        'Recommended. Per merchant, kept 24 h. The same key with the same sale and body replays the first ' +
          'answer (header Idempotent-Replayed: true) without a second refund; with another body it is 422.',
      ),
      { name: 'body', in: 'body', required: false, schema: swaggerRef(refundRequest) },
    ],
    responses: {
      201: { description: 'Settled at once: succeeded or failed', schema: swaggerRef(refundResponse) },
      202: {
        description: 'Accepted, pending: it waits its turn or is being confirmed',
        schema: swaggerRef(refundResponse),
      },
      ...idempotentCreateErrors(
        'The first request with this Idempotency-Key is still running, or the sale is being reconciled',
      ),
      400: {
        description:
          'Not a captured card sale (the detail names its state), or a malformed id or body (a field map naming ' +
          'value, reason or metadata)',
        schema: { $ref: '#/definitions/FieldErrors' },
      },
      404: errorResponses.detail('No such sale for this merchant'),
      422: errorResponses.detail(
        'More than is left to refund, nothing left, the refund window is over, or the Idempotency-Key was used ' +
          'with another body',
      ),
    },
  },
  listSaleRefunds: {
    operationId: 'listSaleRefunds',
    summary: "A sale's refunds, oldest first",
    description: "Stored data only. Another merchant's sale is 404.",
    parameters: [saleIdParam],
    responses: {
      200: { description: 'The refunds', schema: swaggerRef(refundListResponse) },
      400: errorResponses.fieldErrors,
      404: errorResponses.detail('No such sale for this merchant'),
    },
  },
  getRefund: {
    operationId: 'getRefund',
    summary: 'Read a refund',
    description: "Stored data only: pending, succeeded or failed. Another merchant's refund is 404.",
    parameters: [{ ...saleIdParam, description: 'Refund id' }],
    responses: {
      200: { description: 'The refund', schema: swaggerRef(refundResponse) },
      400: errorResponses.fieldErrors,
      404: errorResponses.detail('No such refund for this merchant'),
    },
  },
  refundSubscriptionCharge: {
    operationId: 'refundSubscriptionCharge',
    // The route row is the refunds area's (it uses the subscriptions area, never the reverse); the operation stays
    // with the subscriptions in the Swagger and the client.
    tags: ['subscriptions'],
    summary: 'Refund part or all of a confirmed charge',
    description:
      'No body (as the contract): refunds all that is left and moves the charge from 1 CONFIRMED to 3 REFUNDED ' +
      '(its paymentTransactionId is kept); on a charge already REFUNDED it returns it unchanged, so concurrent or ' +
      'repeated calls refund once. A body {"value": cents} refunds part of it, as many times as wanted up to the ' +
      'charge: the charge stays 1 CONFIRMED, with refunded_value, until all of it is back, then 3 REFUNDED. ' +
      "The charge's refunds are the refunds of its card sale (recorded at the first refund), sent to the " +
      'acquirer one at a time 5 s apart and settled against its VoidedAmount: 200 when the acquirer settled ' +
      'this one at once, 202 (header Location: the refund, getRefund) while it waits its turn. See ' +
      'docs/api/refunds.md.',
    parameters: [
      { name: 'id', in: 'path', required: true, type: 'integer', description: 'Subscription id' },
      { name: 'chargeId', in: 'path', required: true, type: 'integer', description: 'Charge id' },
      idempotencyKeyHeader(
        'Recommended with a value. Per merchant, kept 24 h, shared with createRefund. The same key with the same ' +
          'charge and body replays its refund (no second one); with another body it is 422.',
      ),
      { name: 'body', in: 'body', required: false, schema: swaggerRef(chargeRefundRequest) },
    ],
    responses: {
      200: {
        description: 'The charge: refunded (3), or 1 CONFIRMED with refunded_value after a partial refund',
        schema: { $ref: '#/definitions/SubscriptionChargeEnvelope' },
      },
      202: {
        description:
          'The charge, 1 CONFIRMED: the refund is pending (its turn, an acquirer that could not be reached or did ' +
          'not answer: it is sent or settled from VoidedAmount later, never twice)',
        schema: { $ref: '#/definitions/SubscriptionChargeEnvelope' },
      },
      400: {
        description: 'A malformed body or Idempotency-Key: a field map naming value (or the header)',
        schema: { $ref: '#/definitions/FieldErrors' },
      },
      404: errorResponses.detail("Unknown subscription or charge, or another merchant's"),
      409: errorResponses.detail(
        'The charge is not CONFIRMED (the detail names its status), the acquirer refused the refund (its code ' +
          'and reason), the outcome of the last acquirer call on its sale is being confirmed, or the first ' +
          'request with this Idempotency-Key is still running',
      ),
      422: errorResponses.detail(
        'A value above what is left to refund, a value on a charge already fully refunded, the refund window ' +
          'is over, or the Idempotency-Key was used with another body',
      ),
    },
  },
};
