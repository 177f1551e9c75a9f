/**
 * The checkout bodies, each declared once (src/http/schema.ts): the three steps' requests (validated
 * by celebrate), the checkout and pay answers; and the payer step's legacy field alias.
 */
import type { RequestHandler } from 'express';
import { celebrate, Joi, Segments } from 'celebrate';
import { definition, field, nullable, required, swaggerOnly, type ValueOf } from '../http/schema';
import { optionalText } from '../payment-links/schemas';

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

/** merchant_name is the legacy alias of payer_name; payer_name wins when both are sent. */
export const foldPayerAlias: RequestHandler = (req, _res, next) => {
  const body = req.body as Record<string, unknown> | undefined;
  if (body && typeof body === 'object' && !Array.isArray(body) && 'merchant_name' in body) {
    if (body.payer_name === undefined) body.payer_name = body.merchant_name;
    delete body.merchant_name;
  }
  next();
};

/** A required text of at most 20 characters (the payer step's two fields). */
const requiredText20Messages = {
  'any.required': 'This field is required.',
  'string.empty': 'This field may not be blank.',
  'string.base': 'Not a valid string.',
  'string.max': 'Ensure this field has no more than 20 characters.',
};

export const checkoutPayer = definition(
  'CheckoutPayer',
  field
    .object({
      // The served document never stated the minimum of 1 (a blank name is refused as blank).
      payer_name: swaggerOnly(required(field.string().trim().min(1).max(20)).messages(requiredText20Messages), {
        minLength: null,
      }),
      // Folded into payer_name by foldPayerAlias before validation: only documented here.
      merchant_name: swaggerOnly(field.any(), { type: 'string', maxLength: 20 }).description(
        'Alias of payer_name; payer_name wins',
      ),
      document: required(field.string().trim().max(20))
        .messages(requiredText20Messages)
        .description(
          'CPF (11 digits) or CNPJ (14 characters, the new alphanumeric form included), punctuation allowed; ' +
            'check digits verified',
        ),
    })
    .unknown(true),
);

export const checkoutAddress = definition(
  'CheckoutAddress',
  field
    .object({
      cep: required(
        field
          .string()
          .trim()
          .pattern(/^\d{5}-?\d{3}$/),
      )
        .messages({
          'any.required': 'This field is required.',
          'string.empty': 'This field may not be blank.',
          'string.base': 'Not a valid string.',
          'string.pattern.base': 'Enter a CEP of 8 digits.',
        })
        .description('8 digits, dash optional'),
      street: optionalText(100),
      number: optionalText(20),
      complement: optionalText(100),
      neighborhood: optionalText(100),
      city: optionalText(100),
      // The served document names no list of states, and no empty or null one.
      state: swaggerOnly(
        field
          .string()
          .trim()
          .uppercase()
          .valid(...UFS)
          .allow('', null)
          .messages({
            'any.only': 'Enter a Brazilian state abbreviation (UF), e.g. SP.',
            'string.base': 'Not a valid string.',
          })
          .description('UF, e.g. SP'),
        { enum: null, 'x-nullable': null },
      ),
      reference: optionalText(100),
    })
    .unknown(true),
);

export const checkoutPay = definition(
  'CheckoutPay',
  field
    .object({
      // The served document never stated the 4096 character ceiling: stating it changes the contract.
      encrypted_card: swaggerOnly(
        required(field.string().max(4096))
          .messages({
            'any.required': 'This field is required.',
            'string.empty': 'This field may not be blank.',
            'string.base': 'Not a valid string.',
            'string.max': 'Too long to be an encrypted card.',
          })
          .description(
            'base64 of RSAES-PKCS1-v1_5(publicKey, UTF-8 JSON {"number","holder","expMonth","expYear","cvv"}). ' +
              'Any decryption or parsing failure gives the same ' +
              ('400 {"encrypted_card": [...]}; a readable card with a bad field names it: number (Luhn, brand), ' +
                'expiry, cvv (3 digits, 4 for Amex), holder.'),
          ),
        { maxLength: null },
      ),
      installments: field
        .number()
        .strict()
        .integer()
        .min(1)
        .max(12)
        .messages({
          'number.base': 'A valid integer is required.',
          'number.integer': 'A valid integer is required.',
          'number.min': 'Ensure this value is greater than or equal to 1.',
          'number.max': 'Ensure this value is less than or equal to 12.',
        })
        .description(
          'How many installments the payer chose: one of GET /api/v1/checkout-links/{guid}/installments. ' +
            "Absent: the link's number_of_installments, as before the payer could choose",
        ),
    })
    .unknown(true),
);

export const payerBody = celebrate({ ...guidParam, [Segments.BODY]: checkoutPayer.required() }, { abortEarly: false });

export const addressBody = celebrate(
  { ...guidParam, [Segments.BODY]: checkoutAddress.required() },
  { abortEarly: false },
);

export const payBody = celebrate({ ...guidParam, [Segments.BODY]: checkoutPay.required() }, { abortEarly: false });

/** What the page needs, and nothing more: the payer document is masked, the e-mail never shown. */
export const checkoutLink = definition(
  'CheckoutLink',
  field.object({
    guid: required(field.string()),
    status: required(field.number().integer().valid(1, 2, 3)).description('1 Pendente, 2 Pago, 3 Expirado'),
    statusLabel: required(field.string()),
    paid: required(field.boolean()),
    expired: required(field.boolean()),
    amount: required(field.number().integer()).description('Cents'),
    description: field.string(),
    merchantCompanyName: required(field.string()),
    installments: required(field.number().integer()).description(
      'The most installments the payer may choose (the options: GET /api/v1/checkout-links/{guid}/installments)',
    ),
    paymentMethods: required(field.array(field.oneOf(['card', 'pix']))).description(
      'How the payer may pay: card, PIX (POST .../pix gives the QR code) or both',
    ),
    expiresAt: required(field.dateTime()),
    payerName: required(field.string()).description(
      'The payer name saved by the payer step (or pre-filled by the merchant)',
    ),
    payerDocument: field
      .string()
      .description('The payer document MASKED (***.456.***-**); the full document is never returned'),
    payerDocumentSaved: field.boolean().description('A CPF/CNPJ with valid check digits is on file'),
    address: nullable(field.record(field.string())).description('The address saved by the address step, or null'),
    publicKey: required(field.string()).description(
      'PEM RSA public key: encrypt the card JSON with it, RSAES-PKCS1-v1_5, base64',
    ),
    encryption: field.oneOf(['RSAES-PKCS1-V1_5']),
    receipt: nullable(
      field.object({
        paymentDate: field.dateTime(),
        method: field.oneOf(['card', 'pix']).description('How the link was paid (card fields are empty for PIX)'),
        amount: field.number().integer().description("Cents: the link's value"),
        installments: field.number().integer().description('What the payer chose'),
        installmentValue: field
          .number()
          .integer()
          .description('Cents of each installment (interest-free: rounded down; the first carries the rest)'),
        total: field.number().integer().description('Cents charged in all: the amount, or more with interest'),
        interestFree: field.boolean(),
        cardBrand: field.string(),
        cardLast4: field.string(),
        authorization: nullable(field.string()).description(
          "The issuer's authorization code (6 characters), what the receipt shows; null on links paid " +
            'before it was kept',
        ),
        tid: nullable(field.string()).description(
          "The acquirer's transaction id (20 digits): the page shows it only where it fits on one line",
        ),
        merchantCompanyName: field.string(),
        description: field.string(),
      }),
    ).description('Set once paid'),
  }),
);

export type CheckoutLinkAnswer = ValueOf<typeof checkoutLink>;

export const checkoutPayResult = definition(
  'CheckoutPayResult',
  field.object({
    approved: required(field.boolean()).description(
      'false: the card was denied; the link stays payable (status 1) and another card may be tried',
    ),
    denial: nullable(
      field.object({
        code: field
          .string()
          .description("The acquirer's ReturnCode (the merchant's webhook carries it as denial.return_code)"),
        message: field
          .string()
          .description("The acquirer's ReturnMessage, English (the webhook's denial.return_message)"),
        payerMessage: field
          .string()
          .description(
            'What the payer reads: Portuguese, chosen by the return code (a generic text for unknown codes ' +
              'and flagged cards)',
          ),
      }),
    ),
    checkout: required(checkoutLink),
  }),
);

export type CheckoutPayAnswer = ValueOf<typeof checkoutPayResult>;

export const checkoutInstallments = definition(
  'CheckoutInstallments',
  field.object({
    amount: required(field.number().integer()).description("Cents: the link's value"),
    max_installments: required(field.number().integer()).description("The link's number_of_installments"),
    options: required(
      field.array(
        field.object({
          installments: required(field.number().integer().min(1).max(12)),
          installment_value: required(field.number().integer()).description(
            'Cents of each installment (interest-free: rounded down; the first carries the rest)',
          ),
          total: required(field.number().integer()).description('Cents the payer pays in all'),
          interest_free: required(field.boolean()),
          label: required(field.string())
            .description('Portuguese, e.g. "3x de R$ 33,33 sem juros"')
            .example('3x de R$ 33,33 sem juros'),
        }),
      ),
    ).description("From 1 installment up, those whose installment is at least the link's minimum"),
  }),
);

export type CheckoutInstallmentsAnswer = ValueOf<typeof checkoutInstallments>;

export const guidOnly = celebrate(guidParam);

export const checkoutPix = definition(
  'CheckoutPix',
  field.object({
    status: required(
      field.oneOf(['none', 'creating', 'waiting', 'paid', 'expired', 'failed', 'paid_twice', 'returned']),
    ).description(
      'The newest QR code: none yet; creating (ask again in a moment); waiting for the payer; paid (the link ' +
        'is paid: load the checkout for the receipt); expired (POST for a new one); failed (the acquirer ' +
        'refused it: POST again); paid_twice (paid after the link already was: its money goes back), then ' +
        'returned once that refund was asked of the acquirer',
    ),
    linkPaid: required(field.boolean()),
    amount: required(field.number().integer()).description('Cents'),
    qrCode: required(nullable(field.string())).description('The PIX copy-and-paste code (EMV), while waiting'),
    qrCodeImage: required(nullable(field.string())).description('data:image/png;base64 of the QR code, while waiting'),
    expiresAt: required(nullable(field.dateTime())),
    secondsLeft: required(nullable(field.number().integer())).description('Until the QR code expires, while waiting'),
  }),
);

export type CheckoutPixAnswer = ValueOf<typeof checkoutPix>;

/** startCheckoutPix's 503 while the link waits after failed PIX codes (pix-backoff.ts). */
export const checkoutPixWait = definition(
  'CheckoutPixWait',
  field.object({
    detail: required(field.string()).description('Why, in English, with the wait in seconds'),
    payerMessage: field
      .string()
      .description(
        'When the link waits after failed codes (absent when a backing service is down): what the payer ' +
          'reads, Portuguese, naming no time (the page counts down Retry-After)',
      ),
  }),
);

export type CheckoutPixWait = ValueOf<typeof checkoutPixWait>;
