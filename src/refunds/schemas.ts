/**
 * The bodies of the refund routes, each declared once (src/http/schema.ts): validation with the
 * messages docs/api/refunds.md states, the Swagger definitions and the TypeScript types.
 */
import { celebrate, Segments } from 'celebrate';
import { definition, field, nullable, required, type ValueOf } from '../http/schema';
import { idempotencyKeyHeader, partOfSaleValue, saleIdParams } from '../sales';
import { REFUND_REASONS, REFUND_STATUSES } from '../payments/refund-model';

/** Metadata stays small: it is shown on every read of the refund. */
const METADATA_MAX_KEYS = 20;
const METADATA_MAX_VALUE = 500;

export const refundRequest = definition(
  'RefundRequest',
  field
    .object({
      value: partOfSaleValue().description(
        'Cents to give back, at most what is left to refund. Absent: all that is left.',
      ),
      reason: field
        .oneOf(REFUND_REASONS)
        .messages({ 'any.only': `Must be one of ${REFUND_REASONS.join(', ')}.`, 'string.base': 'Must be a string.' })
        .description('Why the money goes back'),
      metadata: field
        .record(field.string().max(METADATA_MAX_VALUE))
        .max(METADATA_MAX_KEYS)
        .messages({
          'object.base': 'Must be an object of strings.',
          'object.max': `At most ${METADATA_MAX_KEYS} keys.`,
          'string.base': 'Every value must be a string.',
          'string.max': `Every value has at most ${METADATA_MAX_VALUE} characters.`,
        })
        .description(`Your own keys and string values (at most ${METADATA_MAX_KEYS}), echoed back`),
    })
    .messages({ 'object.unknown': 'Unknown field.', 'object.base': 'Must be a JSON object.' }),
);

export type RefundInput = ValueOf<typeof refundRequest>;

/** A refund request: the sale id, the Idempotency-Key and the body, every bad field reported at once. */
export const createRefundValidation = celebrate(
  { [Segments.PARAMS]: saleIdParams, [Segments.HEADERS]: idempotencyKeyHeader, [Segments.BODY]: refundRequest },
  { abortEarly: false },
);

/** A sale's or a refund's id in the path. */
export const idParam = celebrate({ [Segments.PARAMS]: saleIdParams }, { abortEarly: false });

export const refund = definition(
  'Refund',
  field.object({
    id: required(field.number().integer()),
    sale_id: required(field.number().integer()),
    value: required(field.number().integer()).description('Cents'),
    reason: nullable(field.oneOf(REFUND_REASONS)),
    metadata: nullable(field.record(field.string())),
    status: required(field.oneOf(REFUND_STATUSES)).description(
      'pending: accepted, not yet confirmed by the acquirer; succeeded: the money went back; failed: it did not ' +
        '(failure_reason says why)',
    ),
    acquirer_code: nullable(field.string()).description("The acquirer's cancel code of a failed refund (43, 40...)"),
    failure_reason: nullable(field.string()),
    created_at: required(field.dateTime()),
    updated_at: required(field.dateTime()),
    settled_at: nullable(field.dateTime()).description('When it became succeeded or failed'),
  }),
);

export type RefundAnswer = ValueOf<typeof refund>;

const success = required(field.oneOf(['success']));

export const refundResponse = definition('RefundResponse', field.object({ status: success, data: required(refund) }));

export const refundListResponse = definition(
  'RefundListResponse',
  field.object({ status: success, data: required(field.array(refund)) }),
);

/** refundSubscriptionCharge's optional body: no body (or no value) refunds all that is left, as the contract does. */
export const chargeRefundRequest = definition(
  'ChargeRefundRequest',
  field
    .object({
      value: partOfSaleValue().description(
        'Cents to give back, at most what is left to refund of the charge. Absent (or no body): all that is left.',
      ),
    })
    .messages({ 'object.unknown': 'Unknown field.', 'object.base': 'Must be a JSON object.' }),
);

export type ChargeRefundInput = ValueOf<typeof chargeRefundRequest>;

/**
 * The Idempotency-Key and the body: the ids keep the subscriptions area's rule (not a positive integer: 404, like an
 * unknown one), so a contract caller sees the answers it always did.
 */
export const chargeRefundValidation = celebrate(
  { [Segments.HEADERS]: idempotencyKeyHeader, [Segments.BODY]: chargeRefundRequest },
  { abortEarly: false },
);
