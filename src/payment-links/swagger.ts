/** Swagger text of the payment-link routes: parameters and each operation (the bodies are in schemas.ts). */
import {
  bodyParameter,
  errorResponses,
  idempotencyKeyHeader,
  idempotentCreateErrors,
  type SwaggerOperation,
} from '../http/routes';
import { swaggerDefinitions } from '../http/schema';
import { paymentLink, paymentLinkCreate } from './schemas';

const idempotencyHeader = idempotencyKeyHeader(
  'Optional, per merchant, kept 24 h. The same key with the same body replays the first answer (header ' +
    'Idempotent-Replayed: true) ' +
    ('and creates no second link; the same key with a different body is 422; the same key while the first ' +
      'request still runs is 409.'),
);

export const tag = {
  name: 'payment-links',
  description: 'Payment links: a URL of a public checkout page the payer opens to pay by card',
};

export const definitions = swaggerDefinitions(paymentLinkCreate, paymentLink);

export const docs = {
  createPaymentLink: {
    operationId: 'createPaymentLink',
    summary: 'Create a payment link',
    description:
      'The merchant comes from the credential only. Every bad field is reported at once as a field map. ' +
      ('The response never shows the e-mail. Aliases: merchant_name for payer_name; webhook_url, ' +
        'callbackUrl, callback_url for webhookUrl.'),
    parameters: [idempotencyHeader, bodyParameter('PaymentLinkCreate')],
    responses: {
      201: {
        description: 'Created (or replayed by Idempotency-Key)',
        schema: { $ref: '#/definitions/PaymentLink' },
      },
      ...idempotentCreateErrors('The first request with this Idempotency-Key is still running'),
    },
  },
  getPaymentLink: {
    operationId: 'getPaymentLink',
    summary: 'Read a payment link of the caller',
    description:
      'Status 2 (Pago) once paid, with payment_date and sale_id: the card sale the payment is recorded as. The ' +
      'link is refunded through that sale (createRefund: partial and repeated, up to the value); the link ' +
      'stays 2 (Pago) and its webhook receives payment_link.refund_succeeded or payment_link.refund_failed. ' +
      "Another merchant's link is 404.",
    parameters: [{ name: 'id', in: 'path', required: true, type: 'integer' }],
    responses: {
      200: { description: 'The link', schema: { $ref: '#/definitions/PaymentLink' } },
      400: errorResponses.fieldErrors,
      404: errorResponses.detail('No such link for this merchant'),
    },
  },
} satisfies Record<string, SwaggerOperation>;
