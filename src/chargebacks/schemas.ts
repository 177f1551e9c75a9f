/**
 * The chargeback bodies, each declared once (src/http/schema.ts): the request checks of the proxied
 * operations (celebrate/Joi: each a 400 naming the field or rule, before any acquirer call), the
 * acquirer's bodies as it sends them (passed through, so documented only), and our views' answers,
 * with their Swagger definitions and TypeScript types. Only the acquirer's documented fields are
 * forwarded, so any other key of a request is refused rather than dropped in silence.
 */
import { celebrate, Joi, Segments } from 'celebrate';
import type { AnySchema, Schema } from 'joi';
import { definition, field, nullable, required, swaggerOnly, type Typed, type ValueOf } from '../http/schema';
import { ALLOWED_EXTENSIONS, MAX_EVIDENCE_BYTES, MAX_EVIDENCE_PAGES } from './evidence';

export const HISTORY_DEFAULT_LIMIT = 50;
export const HISTORY_MAX_LIMIT = 200;

const ID_PATTERN = /^[A-Za-z0-9]{1,20}$/;
const EC_PATTERN = /^\d{1,20}$/;

/**
 * The acquirer's case and chargeback ids are numbers: its notices send caseId as a number, its
 * consult items and accept replies send idCase and idChargeback as numbers, and it refuses a
 * non-numeric id (code 911). Our own views give them as numbers too. Digits sent as text are
 * accepted wherever we take one, so a value is typed as either.
 */
const INT64 = { type: 'integer', format: 'int64' };
const documentedAsId = <S extends Schema>(schema: S) => swaggerOnly(schema, INT64);
/** A case or chargeback number, documented as a non-negative int64. */
const documentedAsNumber = <S extends Schema>(schema: S) => swaggerOnly(schema, { ...INT64, minimum: 0 });

/**
 * An id the acquirer takes as a number or a string; checked, and forwarded as the caller sent it.
 * The check lets through only a safe non-negative integer or matching text, hence the narrower type.
 */
const idValue = (pattern: RegExp, message: string) =>
  field
    .any()
    .custom((value, helpers) => {
      const text = typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? String(value) : value;
      if (typeof text !== 'string' || !pattern.test(text)) return helpers.error('any.invalid');
      return value;
    })
    .messages({ 'any.invalid': message, 'any.required': 'This field is required.' }) as Typed<
    AnySchema,
    number | string
  >;

const establishmentNumber = () =>
  documentedAsId(idValue(EC_PATTERN, 'Must be an establishment number: 1 to 20 digits.'));
const chargebackId = (description: string) =>
  documentedAsNumber(idValue(ID_PATTERN, 'Must be 1 to 20 letters or digits.')).description(description);

/**
 * Only the fields the acquirer documents are forwarded: any other key is refused (400 naming it),
 * so nothing of ours or of the caller's (a second "EstablishmentNumber") reaches the acquirer.
 * Joi refuses unknown keys by itself; the document says so with additionalProperties.
 */
const NOT_FORWARDED = {
  'object.unknown': 'Not a field the acquirer accepts; only its documented fields are forwarded.',
};
const onlyDocumentedKeys = <S extends Schema>(schema: S) => swaggerOnly(schema, { additionalProperties: false });
/**
 * The messages of a required JSON object body whose unknown keys are refused. A body of another type (a bare list of
 * chargebacks, say) is told the shape expected, so the caller need not guess the key.
 */
/** A message as written: Joi would read its braces as references to the value. */
const literal = (message: string) => message.replaceAll('{', '\\{');
const bodyMessages = (expected: string) => ({
  'any.required': literal(`A JSON body is required: ${expected}.`),
  'object.base': literal(`The body must be a JSON object: ${expected}.`),
  ...NOT_FORWARDED,
});
const LIST_MAX = 200;
const date = () => swaggerOnly(field.string(), { format: 'date' });
const text = (max: number) =>
  field
    .string()
    .max(max)
    .messages({
      'string.base': 'Must be text.',
      'string.max': `Ensure this field has no more than ${max} characters.`,
    });
/** A number or a short text, as the acquirer takes codes and ids. */
const scalar = () =>
  field.either(field.number(), field.string().max(50)).messages({
    'alternatives.types': 'Must be a number or a text of at most 50 characters.',
    'alternatives.match': 'Must be a number or a text of at most 50 characters.',
  });
// The document has never stated the list and item limits.
const textList = () =>
  swaggerOnly(field.array(field.string().max(50)).max(LIST_MAX), {
    items: { type: 'string' },
    maxItems: null,
  }).messages({
    'array.base': 'Must be a list of texts.',
    'array.max': `At most ${LIST_MAX} items.`,
    'string.base': 'Must be a list of texts.',
    'string.max': 'Each item has at most 50 characters.',
  });
const userName = () =>
  field.string().max(256).messages({ 'string.max': 'Ensure this field has no more than 256 characters.' });

/** The filter body of a consult; its text limits and the forms of its codes were never in the document. */
export const consultFilter = definition(
  'ChargebackConsultFilter',
  onlyDocumentedKeys(
    field.object({
      startNotificationPeriod: swaggerOnly(text(10), { maxLength: null, format: 'date' }).description(
        'yyyy-MM-dd; required by the acquirer for DONE; span <= 180 days',
      ),
      endNotificationPeriod: swaggerOnly(text(10), { maxLength: null, format: 'date' }),
      cardAssociationCode: swaggerOnly(scalar(), { type: 'integer' }).description(
        '1 Visa, 2 Mastercard, 3 Amex, 7 Elo, 40 Hipercard',
      ),
      process: textList(),
      reason: textList(),
      establishmentNumber: swaggerOnly(field.array(establishmentNumber()).max(LIST_MAX), {
        items: { type: 'integer' },
        maxItems: null,
      }).messages({ 'array.base': 'Must be a list of establishment numbers.' }),
      idCase: documentedAsNumber(scalar()).description('Case number at the acquirer'),
      tid: swaggerOnly(scalar(), { type: 'string', maxLength: 20 }),
      nsu: swaggerOnly(scalar(), { type: 'string' }),
    }),
  )
    .messages({ 'object.base': 'The filter must be a JSON object.', ...NOT_FORWARDED })
    .description(
      'Filters forwarded to the acquirer. Only these fields are accepted: any other key is a 400 naming it ' +
        '(nothing else is forwarded). For a merchant credential, establishmentNumber must list only its own ' +
        'establishments; when absent it is set to all of them.',
    ),
);
export type ConsultFilter = ValueOf<typeof consultFilter>;

const ACCEPT_ITEMS = 'a list of {"establishmentNumber", "idChargeback"}';
const ACCEPT_SHAPE = `{"updateChargeback": [{"establishmentNumber", "idChargeback"}, ...], "userName"?}`;

export const acceptRequest = definition(
  'AcceptRequest',
  onlyDocumentedKeys(
    field.object({
      updateChargeback: required(
        swaggerOnly(
          field
            .array(
              // Its unknown keys are refused too, which the document never said of the items.
              field
                .object({
                  establishmentNumber: required(establishmentNumber()),
                  idChargeback: required(chargebackId('Chargeback number at the acquirer')),
                })
                .messages(NOT_FORWARDED),
            )
            .min(1),
          { minItems: 1 },
        ),
      ).messages({
        'any.required': literal(`This field is required: ${ACCEPT_ITEMS}.`),
        'array.min': 'List at least one chargeback.',
        'array.base': literal(`Must be ${ACCEPT_ITEMS}.`),
      }),
      userName: userName().description('E-mail of the person handling the dispute'),
    }),
  )
    .messages(bodyMessages(ACCEPT_SHAPE))
    .description(
      'Only these fields are forwarded to the acquirer; any other key (here or in an item) is a 400 naming it.',
    ),
);
export type AcceptBody = ValueOf<typeof acceptRequest>;

const NOT_BLANK = { 'any.required': 'This field is required.', 'string.empty': 'This field may not be blank.' };

export const refuseRequest = definition(
  'RefuseRequest',
  onlyDocumentedKeys(
    field.object({
      establishmentNumber: required(establishmentNumber()),
      idChargeback: required(chargebackId('Chargeback number at the acquirer')),
      IdCase: required(chargebackId('Case number of the chargeback (the evidence file is named after it)')),
      reasonToRefuse: field
        .string()
        .allow('')
        .messages({ 'string.base': 'Must be text.' })
        .description('Justification; the acquirer allows at most 100 characters (its code 905)'),
      file: required(swaggerOnly(field.string(), { format: 'byte' }))
        .messages(NOT_BLANK)
        .description(
          `The evidence document in base64: TIFF, PDF or JPEG by its content, at most ${MAX_EVIDENCE_BYTES} ` +
            `bytes (8 MB) decoded, at most ${MAX_EVIDENCE_PAGES} pages (PDF page objects, TIFF directories).`,
        ),
      // The 100 characters are checked but were never in the document.
      fileName: required(swaggerOnly(field.string().max(100), { maxLength: null }))
        .messages(NOT_BLANK)
        .example('5000123.pdf')
        .description(
          `The document name: IdCase followed by the extension (${ALLOWED_EXTENSIONS.join(', ')}, any case). ` +
            'The part before the extension must equal IdCase, and the extension must agree with the content.',
        ),
      userName: userName(),
    }),
  )
    .messages(
      bodyMessages(
        '{"establishmentNumber", "idChargeback", "IdCase", "reasonToRefuse"?, "file", "fileName", "userName"?}',
      ),
    )
    .description('Only these fields are forwarded to the acquirer; any other key is a 400 naming it.'),
);
export type RefuseBody = ValueOf<typeof refuseRequest>;

// The acquirer's bodies, passed through as received: documented, never validated here.

/** The fields of an error body: the acquirer's own ({code, message}) or ours ({detail}). */
const errorBodyFields = (exampleCode: string) => ({
  code: field.string().example(exampleCode),
  message: field.string(),
  detail: field.string(),
});

export const acquirerError = definition(
  'AcquirerError',
  field
    .object(errorBodyFields('931'))
    .description(
      "The acquirer's error body passed through as received ({code, message}), or our own refusal before any " +
        'acquirer call ({detail})',
    ),
);

export const chargebackBadRequest = definition(
  'ChargebackBadRequest',
  field
    .object(errorBodyFields('905'))
    .pattern(/./, field.array(field.string()))
    .description(
      'One of: our validation, a map of each bad field (or non_field_errors) to its messages, checked before ' +
        "any acquirer call; the acquirer's business error passed through as received ({code, message}); or " +
        '{detail} when the request could not be read (a body that is not JSON)',
    ),
);

/** An id in the acquirer's bodies and our views: a number, or text where it was no safe integer. */
const acquirerId = (description: string) =>
  documentedAsNumber(field.either(field.number(), field.string())).description(description);
const idCase = () => acquirerId('Case number at the acquirer');
const idChargeback = () => acquirerId('Chargeback number at the acquirer');
const establishment = () => documentedAsId(field.either(field.number(), field.string()));
/** An object the acquirer fills: its keys are not ours to state. */
const acquirerObject = () => swaggerOnly(field.any(), { type: 'object' });

export const issuerDocument = definition(
  'IssuerDocument',
  field.object({ idDocumento: field.number().integer(), nameFile: field.string() }),
);

const lifecycleStep = () => field.object({ action: field.string(), actionDate: field.string() });

/**
 * The fields of a chargeback as the acquirer describes it, its lifecycle apart (an object in its
 * items, a list in our history).
 */
const chargebackFields = {
  idCase: idCase(),
  idChargeback: idChargeback(),
  establishmentNumber: establishment(),
  process: field.string().example('PRIMEIRO_CHARGEBACK'),
  treatmentDeadline: nullable(date()),
  remainingDaysToTreat: field.number().integer(),
  transactionAmount: field.number().description("Decimal reais (the acquirer's unit for chargebacks)"),
  actionTakenCode: field.string(),
  transactionDetails: acquirerObject(),
  chargebackDetails: field.object({
    reasonCode: field.string(),
    reasonDescription: field.string(),
    receptionDate: nullable(date()),
    issuerDocument: field.array(issuerDocument),
  }),
};

export const chargebackItem = definition(
  'ChargebackItem',
  field
    .object({ ...chargebackFields, lifecycle: lifecycleStep() })
    .description('A chargeback as the acquirer describes it (consult item; also the new-chargeback notice)'),
);
/** A chargeback as the acquirer sent it in its notice (only its ids were checked). */
export type ChargebackItem = ValueOf<typeof chargebackItem>;

export const chargebackPage = definition(
  'ChargebackPage',
  field
    .object({
      content: field.array(chargebackItem),
      pageable: acquirerObject(),
      last: field.boolean(),
      totalElements: field.number().integer(),
      totalPages: field.number().integer(),
      number: field.number().integer(),
      first: field.boolean(),
      numberOfElements: field.number().integer(),
      size: field.number().integer(),
      empty: field.boolean(),
    })
    .description("The acquirer's pagination envelope, as received"),
);

export const acceptReply = definition(
  'AcceptReply',
  field.array(
    field.object({
      establishmentNumber: establishment(),
      idChargeback: idChargeback(),
      code: field.string().example('101'),
      message: field.string(),
    }),
  ),
);

export const refuseReply = definition(
  'RefuseReply',
  field.object({ code: field.string().example('102'), message: field.string() }),
);

export const lifecycleEntry = definition(
  'LifecycleEntry',
  field.object({
    action: field.string().example('Em análise com o Emissor'),
    actionDate: field.string(),
    message: field.string(),
    ActionCicleDate: date(),
    executionDate: date(),
    establishmentNumber: establishment(),
    caseId: idCase(),
  }),
);

export const supportDocument = definition(
  'SupportDocument',
  field.object({
    dateInclusion: field.string(),
    nameFile: field.string(),
    codigo: field.number().integer().example(104),
    mensagem: field.string(),
    file: swaggerOnly(field.string(), { format: 'byte' }),
  }),
);

// Our views' answers (views.ts builds them).

export const pendingChargeback = definition(
  'PendingChargeback',
  field
    .object({
      ...chargebackFields,
      idCase: required(idCase()),
      idChargeback: required(idChargeback()),
      establishmentNumber: required(establishment()),
      lifecycle: lifecycleStep(),
      status: required(field.oneOf(['PENDING'])),
    })
    .description('A pending chargeback: the consult item of its notice, as the acquirer sent it, and its status'),
);
export type PendingChargebackAnswer = ValueOf<typeof pendingChargeback>;

export const pendingChargebacks = definition(
  'PendingChargebacks',
  field.object({ results: required(field.array(pendingChargeback)) }),
);

export const pendingCount = definition('PendingCount', field.object({ count: required(field.number().integer()) }));

const HISTORY_OUTCOMES = ['ACCEPTED', 'WIN', 'LOSS'] as const;

export const chargebackHistoryItem = definition(
  'ChargebackHistoryItem',
  field
    .object({
      ...chargebackFields,
      idCase: required(nullable(idCase())).description('Case number; null when accepted before its notice came'),
      idChargeback: required(idChargeback()),
      establishmentNumber: required(establishment()),
      outcome: required(field.oneOf(HISTORY_OUTCOMES)).description(
        'ACCEPTED: the merchant accepted it; WIN/LOSS: final lifecycle step of a refused one',
      ),
      outcomeDate: required(field.dateTime()).description(
        'Acceptance time, or the date of the final lifecycle step (midnight UTC)',
      ),
      handling: required(nullable(field.oneOf(['ACCEPTED', 'REFUSED']))).description(
        'How it was answered through this service; null when answered elsewhere',
      ),
      acceptedAt: nullable(field.dateTime()),
      refusedAt: nullable(field.dateTime()),
      lifecycle: required(field.array(lifecycleStep())),
    })
    .description(
      'A handled chargeback: the fields of its notice (none but its ids when it was accepted before its ' +
        'notice came) plus how it ended',
    ),
);
export type ChargebackHistoryItemAnswer = ValueOf<typeof chargebackHistoryItem>;

export const chargebackHistory = definition(
  'ChargebackHistory',
  field.object({ results: required(field.array(chargebackHistoryItem)) }),
);

/** An id in a notice: a number, or its digits as text. */
export const noticeId = () =>
  field.either(field.number().integer().min(0), field.string().pattern(/^\d{1,15}$/)).messages({
    'alternatives.match': 'Must be a number (or its digits as text, at most 15).',
  });
// The document states neither the message's length limits nor that a date may carry a time.
const noticeDate = () =>
  swaggerOnly(field.string().isoDate(), { format: 'date' }).messages({
    'string.isoDate': 'Must be a date yyyy-MM-dd.',
  });

/** A lifecycle step notice, checked by notices.ts (which tells it from a new-chargeback one); other keys are kept. */
export const lifecycleNotice = definition(
  'LifecycleNotice',
  field
    .object({
      establishmentNumber: required(documentedAsId(noticeId())),
      caseId: required(documentedAsNumber(noticeId())).description('Case number at the acquirer'),
      message: required(
        swaggerOnly(field.string().trim().min(1).max(200), { minLength: null, maxLength: null }),
      ).description('Lifecycle text; "A favor do Estabelecimento" (win) and "A favor do Emissor" (loss) are final'),
      executionDate: noticeDate(),
      ActionCicleDate: required(noticeDate()),
    })
    .unknown(true),
);

export const noticeReceipt = definition(
  'NoticeReceipt',
  field.object({ received: field.boolean(), duplicate: field.boolean() }),
);

/** The notice intake's body: either notice, told apart and checked by notices.ts. */
export const noticeBody = acquirerObject().description('ChargebackItem or LifecycleNotice');

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
    [Segments.BODY]: consultFilter,
  },
  { abortEarly: false },
);

export const validateAccept = celebrate({ [Segments.BODY]: acceptRequest.required() }, { abortEarly: false });

export const validateRefuse = celebrate({ [Segments.BODY]: refuseRequest.required() }, { abortEarly: false });

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
