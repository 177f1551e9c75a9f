/**
 * Request checks of the chargeback routes (celebrate/Joi): each a 400 naming the field or rule,
 * before any acquirer call. Only the acquirer's documented fields are forwarded, so any other key
 * is refused rather than dropped in silence.
 */
import { celebrate, Joi, Segments } from 'celebrate';
import { HISTORY_DEFAULT_LIMIT, HISTORY_MAX_LIMIT } from './views';

const ID_PATTERN = /^[A-Za-z0-9]{1,20}$/;
const EC_PATTERN = /^\d{1,20}$/;

/** An id the acquirer takes as a number or a string; checked, and forwarded as the caller sent it. */
const idValue = (pattern: RegExp, message: string) =>
  Joi.any()
    .custom((value, helpers) => {
      const text = typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? String(value) : value;
      if (typeof text !== 'string' || !pattern.test(text)) return helpers.error('any.invalid');
      return value;
    })
    .messages({ 'any.invalid': message, 'any.required': 'This field is required.' });

const establishmentNumber = () => idValue(EC_PATTERN, 'Must be an establishment number: 1 to 20 digits.');
const chargebackId = () => idValue(ID_PATTERN, 'Must be 1 to 20 letters or digits.');

/**
 * Only the fields the acquirer documents are forwarded: any other key is refused (400 naming it),
 * so nothing of ours or of the caller's (a second "EstablishmentNumber") reaches the acquirer.
 */
const NOT_FORWARDED = {
  'object.unknown': 'Not a field the acquirer accepts; only its documented fields are forwarded.',
};
/** The messages of a required JSON object body whose unknown keys are refused. */
const BODY_MESSAGES = {
  'any.required': 'A JSON body is required.',
  'object.base': 'The body must be a JSON object.',
  ...NOT_FORWARDED,
};
const LIST_MAX = 200;
const text = (max: number) =>
  Joi.string()
    .max(max)
    .messages({
      'string.base': 'Must be text.',
      'string.max': `Ensure this field has no more than ${max} characters.`,
    });
/** A number or a short text, as the acquirer takes codes and ids. */
const scalar = () =>
  Joi.alternatives().try(Joi.number(), Joi.string().max(50)).messages({
    'alternatives.types': 'Must be a number or a text of at most 50 characters.',
    'alternatives.match': 'Must be a number or a text of at most 50 characters.',
  });
const textList = () =>
  Joi.array()
    .max(LIST_MAX)
    .items(Joi.string().max(50))
    .messages({
      'array.base': 'Must be a list of texts.',
      'array.max': `At most ${LIST_MAX} items.`,
      'string.base': 'Must be a list of texts.',
      'string.max': 'Each item has at most 50 characters.',
    });

const pathParam = (pattern: RegExp, message: string) =>
  Joi.string().pattern(pattern).required().messages({ 'string.pattern.base': message, 'string.empty': message });

const pathParams = {
  establishmentNumber: pathParam(EC_PATTERN, 'Must be an establishment number: 1 to 20 digits.'),
  idChargeback: pathParam(ID_PATTERN, 'Must be 1 to 20 letters or digits.'),
  idDocumento: pathParam(ID_PATTERN, 'Must be 1 to 20 letters or digits.'),
};

export const validateConsult = celebrate(
  {
    [Segments.QUERY]: Joi.object({
      status: Joi.string()
        .valid('PENDING', 'DONE')
        .required()
        .messages({ 'any.required': 'This field is required.', 'any.only': 'Must be PENDING or DONE.' }),
      page: Joi.number().integer().min(0).default(0).messages({
        'number.base': 'A valid integer is required.',
        'number.integer': 'A valid integer is required.',
        'number.min': 'Must be 0 or more; 0 is the first page.',
      }),
      pageSize: Joi.number().integer().min(1).max(200).default(200).messages({
        'number.base': 'A valid integer is required.',
        'number.integer': 'A valid integer is required.',
        'number.min': 'Must be between 1 and 200.',
        'number.max': 'Must be between 1 and 200.',
      }),
      orderBy: Joi.string()
        .valid('receptionDate', 'treatmentDeadline')
        .messages({ 'any.only': 'Must be receptionDate or treatmentDeadline.' }),
      Order: Joi.string().valid('asc', 'desc').messages({ 'any.only': 'Must be asc or desc.' }),
    }),
    [Segments.BODY]: Joi.object({
      establishmentNumber: Joi.array()
        .max(LIST_MAX)
        .items(establishmentNumber())
        .messages({ 'array.base': 'Must be a list of establishment numbers.' }),
      startNotificationPeriod: text(10),
      endNotificationPeriod: text(10),
      cardAssociationCode: scalar(),
      process: textList(),
      reason: textList(),
      idCase: scalar(),
      tid: scalar(),
      nsu: scalar(),
    }).messages({ 'object.base': 'The filter must be a JSON object.', ...NOT_FORWARDED }),
  },
  { abortEarly: false },
);

export const validateAccept = celebrate(
  {
    [Segments.BODY]: Joi.object({
      updateChargeback: Joi.array()
        .min(1)
        .items(
          Joi.object({
            establishmentNumber: establishmentNumber().required(),
            idChargeback: chargebackId().required(),
          }).messages(NOT_FORWARDED),
        )
        .required()
        .messages({
          'any.required': 'This field is required.',
          'array.min': 'List at least one chargeback.',
          'array.base': 'Must be a list of objects with establishmentNumber and idChargeback.',
        }),
      userName: Joi.string().max(256).messages({ 'string.max': 'Ensure this field has no more than 256 characters.' }),
    })
      .required()
      .messages(BODY_MESSAGES),
  },
  { abortEarly: false },
);

export const validateRefuse = celebrate(
  {
    [Segments.BODY]: Joi.object({
      establishmentNumber: establishmentNumber().required(),
      idChargeback: chargebackId().required(),
      IdCase: chargebackId().required(),
      reasonToRefuse: Joi.string().allow('').messages({ 'string.base': 'Must be text.' }),
      file: Joi.string()
        .required()
        .messages({ 'any.required': 'This field is required.', 'string.empty': 'This field may not be blank.' }),
      fileName: Joi.string()
        .max(100)
        .required()
        .messages({ 'any.required': 'This field is required.', 'string.empty': 'This field may not be blank.' }),
      userName: Joi.string().max(256).messages({ 'string.max': 'Ensure this field has no more than 256 characters.' }),
    })
      .required()
      .messages(BODY_MESSAGES),
  },
  { abortEarly: false },
);

export const validateLifecycle = celebrate(
  {
    [Segments.PARAMS]: Joi.object({
      idCase: Joi.string()
        .max(20)
        .pattern(/^[A-Za-z0-9]+$/)
        .required()
        .messages({
          'string.max': 'Ensure this field has no more than 20 characters.',
          'string.pattern.base': 'Must be letters or digits only.',
        }),
    }),
  },
  { abortEarly: false },
);

export const validateDocumentParams = (second: 'idChargeback' | 'idDocumento') =>
  celebrate(
    {
      [Segments.PARAMS]: Joi.object({
        establishmentNumber: pathParams.establishmentNumber,
        [second]: pathParams[second],
      }),
    },
    { abortEarly: false },
  );

export const validateHistory = celebrate(
  {
    [Segments.QUERY]: Joi.object({
      limit: Joi.number()
        .integer()
        .min(1)
        .max(HISTORY_MAX_LIMIT)
        .default(HISTORY_DEFAULT_LIMIT)
        .messages({
          'number.base': 'A valid integer is required.',
          'number.integer': 'A valid integer is required.',
          'number.min': `Must be between 1 and ${HISTORY_MAX_LIMIT}.`,
          'number.max': `Must be between 1 and ${HISTORY_MAX_LIMIT}.`,
        }),
      offset: Joi.number().integer().min(0).default(0).messages({
        'number.base': 'A valid integer is required.',
        'number.integer': 'A valid integer is required.',
        'number.min': 'Must be 0 or more.',
      }),
    }),
  },
  { abortEarly: false },
);
