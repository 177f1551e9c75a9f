/**
 * Joi messages shared by every feature's schemas, in the wording merchants already see from
 * the spec's examples ("A valid integer is required"). Features spread these and add their own.
 */
import type { NumberSchema } from 'joi';

/** The spec's message for a number that is not an integer (a fraction, a string, a number past 2^53). */
export const INTEGER_REQUIRED = 'A valid integer is required.';

export const FIELD_MESSAGES = {
  'any.required': 'This field is required.',
  'object.base': 'Expected a JSON object.',
  'object.unknown': 'Unknown field.',
  'string.base': 'Not a valid string.',
  'string.empty': 'This field may not be blank.',
  'string.max': 'Ensure this field has no more than {#limit} characters.',
  'boolean.base': 'Must be a valid boolean (true or false).',
  'number.base': INTEGER_REQUIRED,
  'number.integer': INTEGER_REQUIRED,
  'number.unsafe': INTEGER_REQUIRED,
} as const;

/** What an integer field counts, said after the spec's message: an integer alone does not say what 250 is. */
const UNITS = {
  cents: 'in cents (1050 = R$ 10,50)',
  basisPoints: 'in basis points (250 = 2.5%)',
} as const;

/**
 * The messages of a number that is not an integer, for a field counted in `unit`: the spec's message,
 * then the field and its unit ("A valid integer is required: interest_rate_monthly is in basis points
 * (250 = 2.5%)."). Joi fills {#key} with the field's own name.
 */
export function integerMessagesIn(unit: keyof typeof UNITS): Record<string, string> {
  const text = `${INTEGER_REQUIRED.slice(0, -1)}: {#key} is ${UNITS[unit]}.`;
  return { 'number.base': text, 'number.integer': text, 'number.unsafe': text, 'number.infinity': text };
}

/**
 * Money: an integer of cents. Wraps a field's number schema (after its own messages, which it
 * overrides for a value that is not an integer only).
 */
export function inCents<S extends NumberSchema>(schema: S): S {
  return schema.messages(integerMessagesIn('cents')) as S;
}

/** A rate in basis points (1 bp = 0.01%), as inCents. */
export function inBasisPoints<S extends NumberSchema>(schema: S): S {
  return schema.messages(integerMessagesIn('basisPoints')) as S;
}
