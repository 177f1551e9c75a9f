/**
 * Joi messages shared by every feature's schemas, in the wording merchants already see from
 * the spec's examples ("A valid integer is required"). Features spread these and add their own.
 */
export const FIELD_MESSAGES = {
  'any.required': 'This field is required.',
  'object.base': 'Expected a JSON object.',
  'object.unknown': 'Unknown field.',
  'string.base': 'Not a valid string.',
  'string.empty': 'This field may not be blank.',
  'string.max': 'Ensure this field has no more than {#limit} characters.',
  'boolean.base': 'Must be a valid boolean (true or false).',
  'number.base': 'A valid integer is required.',
  'number.integer': 'A valid integer is required.',
  'number.unsafe': 'A valid integer is required.',
} as const;
