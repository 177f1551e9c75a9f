/** Joi validation of the checkout calls (celebrate), and the payer step's legacy field alias. */
import type { RequestHandler } from 'express';
import { celebrate, Joi, Segments } from 'celebrate';
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

export const payerBody = celebrate(
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

export const addressBody = celebrate(
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
      street: optionalText(100),
      number: optionalText(20),
      complement: optionalText(100),
      neighborhood: optionalText(100),
      city: optionalText(100),
      state: Joi.string()
        .trim()
        .uppercase()
        .valid(...UFS)
        .allow('', null)
        .messages({
          'any.only': 'Enter a Brazilian state abbreviation (UF), e.g. SP.',
          'string.base': 'Not a valid string.',
        }),
      reference: optionalText(100),
    })
      .unknown(true)
      .required(),
  },
  { abortEarly: false },
);

export const payBody = celebrate(
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

export const guidOnly = celebrate(guidParam);
