/** Swagger text of the payment-link routes: definitions, parameters and each operation. */
import {
  bodyParameter,
  errorResponses,
  idempotencyKeyHeader,
  idempotentCreateErrors,
  type SwaggerOperation,
} from '../http/routes';
import { MAX_LINK_VALUE } from './service';

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

export const definitions = {
  PaymentLinkCreate: {
    type: 'object',
    required: ['value'],
    properties: {
      value: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_LINK_VALUE,
        description: 'Amount in cents. A number with a fraction gives {"value": ["A valid integer is required."]}',
      },
      merchant: { type: 'integer', readOnly: true, description: 'Set from the credential; ignored if sent' },
      description: { type: 'string', maxLength: 100 },
      payer_name: { type: 'string', maxLength: 20, description: 'Payer name pre-filled at checkout' },
      merchant_name: {
        type: 'string',
        maxLength: 20,
        description: 'Legacy alias of payer_name; payer_name wins when both are sent',
      },
      document: {
        type: 'string',
        maxLength: 20,
        description: 'Payer CPF or CNPJ (check digits are verified at the checkout payer step)',
      },
      email: {
        type: 'string',
        maxLength: 100,
        format: 'email',
        description: 'Payer e-mail; never shown in responses',
      },
      mobile: {
        type: 'string',
        maxLength: 20,
        description:
          'Payer phone, Brazilian, as Brazilians type it: (11) 98765-4321, 11987654321, +55 11 98765-4321, ' +
          '011 98765 4321 (at most 20 characters as sent). ' +
          ('Stored and answered as E.164 (+5511987654321); a number that is not a Brazilian mobile or ' +
            'landline is a field error.'),
        example: '(11) 98765-4321',
      },
      number_of_installments: { type: 'integer', minimum: 1, maximum: 12, default: 1 },
      link_exp_period: {
        type: 'integer',
        enum: [1, 2, 3],
        default: 2,
        description: '1 = 24 h, 2 = 48 h, 3 = 72 h after creation',
      },
      webhookUrl: {
        type: 'string',
        description:
          'Public HTTPS URL receiving signed events of this link (see the webhooks tag). Refused with ' +
          '{"webhookUrl": ["Enter a safe public HTTPS URL"]} ' +
          ('for http, credentials in the URL, localhost, names resolving to any internal address, numeric IP ' +
            'forms of internal addresses, and unresolvable hosts.'),
      },
      webhook_url: { type: 'string', description: 'Alias of webhookUrl' },
      callbackUrl: { type: 'string', description: 'Alias of webhookUrl' },
      callback_url: { type: 'string', description: 'Alias of webhookUrl' },
    },
  },
  PaymentLink: {
    type: 'object',
    required: [
      'id',
      'status',
      'status_label',
      'merchant_id',
      'merchant_company_name',
      'value',
      'description',
      'payer_name',
      'merchant_name',
      'document',
      'mobile',
      'link_exp_period',
      'number_of_installments',
      'payment_link_guid',
      'payment_link_url',
      'payment_date',
      'webhookUrl',
      'created_at',
    ],
    properties: {
      id: { type: 'integer', description: 'Keep it to follow the payment' },
      status: {
        type: 'integer',
        enum: [1, 2, 3],
        description: '1 Pendente, 2 Pago, 3 Expirado (a pending link past expires_at)',
      },
      status_label: { type: 'string', enum: ['Pendente', 'Pago', 'Expirado'] },
      merchant_id: { type: 'integer' },
      merchant_company_name: { type: 'string' },
      value: { type: 'integer', description: 'Cents' },
      description: { type: 'string' },
      payer_name: { type: 'string' },
      merchant_name: { type: 'string', description: 'Repeats payer_name (compatibility); not the merchant name' },
      document: { type: 'string' },
      mobile: {
        type: 'string',
        description: 'E.164 (+5511987654321), or empty when none was sent',
        example: '+5511987654321',
      },
      link_exp_period: { type: 'integer', enum: [1, 2, 3] },
      number_of_installments: { type: 'integer', minimum: 1, maximum: 12 },
      payment_link_guid: { type: 'string', format: 'uuid' },
      payment_link_url: {
        type: 'string',
        format: 'uri',
        description: 'The checkout page (step 1) under PUBLIC_BASE_URL: give this URL to the payer',
      },
      payment_date: {
        type: 'string',
        format: 'date-time',
        'x-nullable': true,
        description: 'Null until paid; ISO 8601 with offset once paid',
      },
      webhookUrl: { type: 'string', description: 'Empty when the link has none' },
      created_at: { type: 'string', format: 'date-time', description: 'ISO 8601 with UTC offset (+00:00)' },
      expires_at: { type: 'string', format: 'date-time', description: 'When the link stops being payable' },
    },
  },
};

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
    description: "Status 2 (Pago) once paid, with payment_date. Another merchant's link is 404.",
    parameters: [{ name: 'id', in: 'path', required: true, type: 'integer' }],
    responses: {
      200: { description: 'The link', schema: { $ref: '#/definitions/PaymentLink' } },
      400: errorResponses.fieldErrors,
      404: errorResponses.detail('No such link for this merchant'),
    },
  },
} satisfies Record<string, SwaggerOperation>;
