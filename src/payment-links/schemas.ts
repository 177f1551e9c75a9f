/** Joi validation of the payment-link routes (celebrate); the create body is checked by the service. */
import { celebrate, Joi, Segments } from 'celebrate';

export const linkIdParam = celebrate(
  {
    [Segments.PARAMS]: Joi.object({
      id: Joi.number().integer().min(1).required().messages({ '*': 'A valid integer is required.' }),
    }),
  },
  { abortEarly: false },
);
