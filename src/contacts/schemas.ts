/** Joi validation of the contact routes (celebrate); phones as Brazilians type them, stored as E.164. */
import { celebrate, Joi, Segments } from 'celebrate';
import type { CustomHelpers } from 'joi';
import { FIELD_MESSAGES } from '../http/validation';
import { BRAZILIAN_PHONE_MESSAGE, toBrazilianE164 } from './phone';

export const LIMITS = { name: 120, email: 100, phoneInput: 20, title: 100, merchantIds: 1000 } as const;

const MESSAGES = {
  ...FIELD_MESSAGES,
  'string.email': 'Enter a valid e-mail address.',
  'array.base': 'Expected a list of merchant ids.',
  'array.max': 'Ensure this list has no more than {#limit} items.',
  'number.min': 'A valid merchant id is required.',
  'phone.brazil': BRAZILIAN_PHONE_MESSAGE,
};

/** Any way a Brazilian types a number in ("(11) 98765-4321", "+55 11 98765-4321", ...), stored as E.164. */
function brazilianPhone(value: string, helpers: CustomHelpers): string | ReturnType<CustomHelpers['error']> {
  return toBrazilianE164(value) ?? helpers.error('phone.brazil');
}

const contactFields = {
  name: Joi.string().trim().max(LIMITS.name),
  email: Joi.string().trim().lowercase().max(LIMITS.email).email({ tlds: false }),
  phone: Joi.string().trim().max(LIMITS.phoneInput).custom(brazilianPhone).allow(null),
  title: Joi.string().trim().max(LIMITS.title).allow(null),
};

const contactBody = {
  ...contactFields,
  active: Joi.boolean(),
  merchant_ids: Joi.array().items(Joi.number().integer().min(1)).max(LIMITS.merchantIds),
};

export const validateCreate = celebrate(
  {
    [Segments.BODY]: Joi.object({
      ...contactBody,
      name: contactBody.name.required(),
      email: contactBody.email.required(),
    })
      .required()
      .messages(MESSAGES),
  },
  { abortEarly: false },
);
export const validatePatch = celebrate(
  { [Segments.BODY]: Joi.object(contactBody).messages(MESSAGES) },
  { abortEarly: false },
);
export const validateCeo = celebrate(
  {
    [Segments.BODY]: Joi.object({
      ...contactFields,
      name: contactFields.name.required(),
      email: contactFields.email.required(),
    })
      .required()
      .messages(MESSAGES),
  },
  { abortEarly: false },
);
export const validateListQuery = celebrate(
  { [Segments.QUERY]: Joi.object({ active: Joi.boolean() }).messages(MESSAGES) },
  { abortEarly: false },
);
