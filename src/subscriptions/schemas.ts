/** Joi validation of the subscription routes (celebrate): the field messages the spec gives. */
import { celebrate, Joi, Segments } from 'celebrate';
import { FIELD_MESSAGES } from '../http/validation';
import { BILLING_CYCLES } from './model';
import { isCalendarDay } from './clock';

const MESSAGES = {
  ...FIELD_MESSAGES,
  'string.pattern.base': 'Enter a valid date in the format YYYY-MM-DD.',
  'number.min': 'Ensure this value is greater than or equal to {#limit}.',
  'number.max': 'Ensure this value is less than or equal to {#limit}.',
  'any.only': 'Must be one of: {#valids}.',
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const calendarDay = () =>
  Joi.string()
    .pattern(DAY)
    .custom((value: string, helpers) => (isCalendarDay(value) ? value : helpers.error('string.pattern.base')));

export const validateCreate = celebrate(
  {
    [Segments.BODY]: Joi.object({
      value: Joi.number().integer().min(1).max(100_000_000_00).required(),
      billingCycle: Joi.string()
        .valid(...BILLING_CYCLES)
        .required()
        .messages({ 'any.only': `Must be one of: ${BILLING_CYCLES.join(', ')}.` }),
      firstDueDate: calendarDay().required(),
      encryptedCard: Joi.string().max(4096).required(),
      retry: Joi.boolean().default(true),
      endDate: calendarDay().allow(null),
      maxCycles: Joi.number().integer().min(1).max(1000).allow(null),
      customer: Joi.object({
        name: Joi.string().trim().max(100),
        identity: Joi.string()
          .pattern(/^\d{11}(\d{3})?$/)
          .messages({ 'string.pattern.base': 'A CPF (11 digits) or CNPJ (14 digits), digits only.' }),
      }),
      description: Joi.string().max(100).allow(null, ''),
    })
      .required()
      .messages(MESSAGES),
  },
  { abortEarly: false },
);
