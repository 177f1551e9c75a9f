/** Joi validation of the webhook routes (celebrate) and the redelivery limits they apply. */
import { celebrate, Joi, Segments } from 'celebrate';

/**
 * Redeliveries are sends to the merchant's URL on request: bounded per event (a retry or two while
 * fixing an endpoint) and per merchant (every failed event once after an outage), each 429 with
 * Retry-After beyond its limit. Counted in Redis, so every web process shares the counts.
 */
export const REDELIVERY_LIMITS = {
  perEvent: { limit: 5, windowSeconds: 3600 },
  perMerchant: { limit: 100, windowSeconds: 600 },
};

const linkParams = {
  [Segments.PARAMS]: Joi.object({
    id: Joi.number().integer().min(1).required().messages({ '*': 'A valid integer is required.' }),
    eventId: Joi.string()
      .pattern(/^msg_\d+_\d+$/)
      .messages({ '*': 'Not an event id of this service (msg_<link>_<sequence>).' }),
  }),
};

export const validateLinkParams = celebrate(linkParams, { abortEarly: false });
