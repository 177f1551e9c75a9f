/**
 * /api/v1/acquirer/chargeback/...: the acquirer's chargeback operations proxied for merchants
 * (answers passed through as received), the notification intake, and the views over the
 * chargebacks received by notice.
 */
import { pipeline } from 'node:stream/promises';
import type { Request, RequestHandler, Response } from 'express';
import { celebrate, Joi, Segments } from 'celebrate';
import { getConfig } from '../../config';
import {
  CHARGEBACK_NOTICE_PATH,
  CHARGEBACK_NOTICE_SECRET_HEADER,
  type ChargebackResponse,
} from '../acquirer/chargebacks';
import { safeEqual } from '../auth/crypto';
import type { CredentialPolicy } from '../http/auth';
import { unauthorized } from '../http/errors';
import { errorResponses, type Feature } from '../http/routes';
import { logger } from '../logger';
import { ALLOWED_EXTENSIONS, MAX_EVIDENCE_BYTES, MAX_EVIDENCE_PAGES } from './evidence';
import {
  acceptChargebacks,
  chargebackHistory,
  chargebackLifecycle,
  consultChargebacks,
  downloadIssuerDocument,
  establishmentsOfMerchant,
  HISTORY_DEFAULT_LIMIT,
  HISTORY_MAX_LIMIT,
  listIssuerDocuments,
  pendingChargebacks,
  pendingCount,
  receiveNotice,
  refuseChargeback,
  supportDocument,
  type BufferedAnswer,
  type EstablishmentScope,
} from './service';

const BASE = '/api/v1/acquirer/chargeback';
const TAG = 'chargebacks';

/** A merchant user's JWT, a merchant token, or the system token (which may act for any merchant). */
export const CHARGEBACK_CREDENTIALS: CredentialPolicy = {
  jwt: ['merchant'],
  merchantToken: true,
  system: true,
  systemMerchant: 'optional',
};

/** Proxy calls: the system token is unrestricted; a merchant only reaches its own establishments. */
async function proxyScope(req: Request): Promise<EstablishmentScope> {
  const principal = req.principal!;
  if (principal.kind === 'system') return null;
  return establishmentsOfMerchant(principal.merchantId!);
}

/** Views: the system token sees every merchant's, or one merchant's when it names one in X-Merchant-Id. */
async function viewScope(req: Request): Promise<EstablishmentScope> {
  const principal = req.principal!;
  if (principal.kind === 'system' && principal.merchantId === undefined) return null;
  return establishmentsOfMerchant(principal.merchantId!);
}

const PASSED_HEADERS = ['content-type', 'content-disposition', 'content-length', 'content-encoding'];

/** Sends the acquirer's status, headers and body as received, streaming the body (never held whole in memory). */
async function forward(res: Response, answer: ChargebackResponse): Promise<void> {
  res.status(answer.status);
  for (const name of PASSED_HEADERS) {
    const value = answer.headers[name];
    if (value !== undefined) res.setHeader(name, value);
  }
  try {
    await pipeline(answer.body, res);
  } catch (error) {
    logger.warn({ err: { message: (error as Error).message } }, 'chargeback answer broke off while streaming');
    if (!res.headersSent) {
      for (const name of PASSED_HEADERS) res.removeHeader(name);
      res
        .status(502)
        .json({ detail: 'Payment gateway error: the acquirer could not be reached or did not answer in time.' });
    } else res.destroy();
  }
}

function sendBuffered(res: Response, answer: BufferedAnswer): void {
  res.status(answer.status);
  if (answer.contentType) res.setHeader('content-type', answer.contentType);
  res.end(answer.text);
}

// --- validation ----------------------------------------------------------------------------------

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

const validateConsult = celebrate(
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

const validateAccept = celebrate(
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
      .messages({
        'any.required': 'A JSON body is required.',
        'object.base': 'The body must be a JSON object.',
        ...NOT_FORWARDED,
      }),
  },
  { abortEarly: false },
);

const validateRefuse = celebrate(
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
      .messages({
        'any.required': 'A JSON body is required.',
        'object.base': 'The body must be a JSON object.',
        ...NOT_FORWARDED,
      }),
  },
  { abortEarly: false },
);

const validateLifecycle = celebrate(
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

const validateDocumentParams = (second: 'idChargeback' | 'idDocumento') =>
  celebrate(
    {
      [Segments.PARAMS]: Joi.object({
        establishmentNumber: pathParams.establishmentNumber,
        [second]: pathParams[second],
      }),
    },
    { abortEarly: false },
  );

const validateHistory = celebrate(
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

/** The acquirer proves itself with the shared secret, compared in constant time. */
const requireNoticeSecret: RequestHandler = (req, _res, next) => {
  const given = req.headers[CHARGEBACK_NOTICE_SECRET_HEADER];
  if (typeof given !== 'string' || !safeEqual(given, getConfig().acquirer.chargeback.notificationSecret)) {
    throw unauthorized('Missing or wrong notification secret.');
  }
  next();
};

// --- Swagger ---------------------------------------------------------------------------------------

const acquirerAnswers = {
  400: {
    description:
      "Our validation (field map naming each bad field or rule), or the acquirer's business error passed " +
      'through as received ({code, message})',
    schema: { $ref: '#/definitions/FieldErrors' },
  },
  403: {
    description:
      "An establishment number that is not the calling merchant's (checked here before any acquirer call), a " +
      "credential this operation does not accept, or the acquirer's 403 (e.g. code 902: case and establishment " +
      'do not match) passed through',
    schema: { $ref: '#/definitions/AcquirerError' },
  },
  412: {
    description: 'Acquirer precondition failed, passed through (e.g. code 931: already handled)',
    schema: { $ref: '#/definitions/AcquirerError' },
  },
  500: {
    description: 'Acquirer internal error passed through (e.g. code 901: try again later)',
    schema: { $ref: '#/definitions/AcquirerError' },
  },
  502: errorResponses.detail('The acquirer could not be reached or did not answer in time'),
  503: errorResponses.detail('Chargeback integration not configured (no acquirer chargeback credentials)'),
};

const pathDoc = (name: string, description: string, pattern: string, maxLength = 20) => ({
  name,
  in: 'path',
  required: true,
  type: 'string',
  pattern,
  maxLength,
  description,
});
const ecPathDoc = pathDoc(
  'establishmentNumber',
  "Establishment number (EC) at the acquirer; must be one of the calling merchant's",
  '^[0-9]{1,20}$',
);

const definitions = {
  AcquirerError: {
    type: 'object',
    description: 'Error body of the acquirer, passed through as received',
    properties: { code: { type: 'string', example: '931' }, message: { type: 'string' } },
  },
  ChargebackConsultFilter: {
    type: 'object',
    description:
      'Filters forwarded to the acquirer. Only these fields are accepted: any other key is a 400 naming it ' +
      '(nothing else is forwarded). For a merchant credential, establishmentNumber must list only its own ' +
      'establishments; when absent it is set to all of them.',
    additionalProperties: false,
    properties: {
      startNotificationPeriod: {
        type: 'string',
        format: 'date',
        description: 'yyyy-MM-dd; required by the acquirer for DONE; span <= 180 days',
      },
      endNotificationPeriod: { type: 'string', format: 'date' },
      cardAssociationCode: { type: 'integer', description: '1 Visa, 2 Mastercard, 3 Amex, 7 Elo, 40 Hipercard' },
      process: { type: 'array', items: { type: 'string' } },
      reason: { type: 'array', items: { type: 'string' } },
      establishmentNumber: { type: 'array', items: { type: 'integer' } },
      idCase: { type: 'string' },
      tid: { type: 'string', maxLength: 20 },
      nsu: { type: 'string' },
    },
  },
  ChargebackItem: {
    type: 'object',
    description: 'A chargeback as the acquirer describes it (consult item; also the new-chargeback notice)',
    properties: {
      idCase: { type: 'string' },
      idChargeback: { type: 'string' },
      establishmentNumber: { type: 'integer' },
      process: { type: 'string', example: 'PRIMEIRO_CHARGEBACK' },
      treatmentDeadline: { type: 'string', format: 'date' },
      remainingDaysToTreat: { type: 'integer' },
      transactionAmount: { type: 'number', description: "Decimal reais (the acquirer's unit for chargebacks)" },
      actionTakenCode: { type: 'string' },
      lifecycle: { type: 'object', properties: { action: { type: 'string' }, actionDate: { type: 'string' } } },
      transactionDetails: { type: 'object' },
      chargebackDetails: {
        type: 'object',
        properties: {
          reasonCode: { type: 'string' },
          reasonDescription: { type: 'string' },
          receptionDate: { type: 'string', format: 'date' },
          issuerDocument: { type: 'array', items: { $ref: '#/definitions/IssuerDocument' } },
        },
      },
    },
  },
  ChargebackPage: {
    type: 'object',
    description: "The acquirer's pagination envelope, as received",
    properties: {
      content: { type: 'array', items: { $ref: '#/definitions/ChargebackItem' } },
      pageable: { type: 'object' },
      last: { type: 'boolean' },
      totalElements: { type: 'integer' },
      totalPages: { type: 'integer' },
      number: { type: 'integer' },
      first: { type: 'boolean' },
      numberOfElements: { type: 'integer' },
      size: { type: 'integer' },
      empty: { type: 'boolean' },
    },
  },
  AcceptRequest: {
    type: 'object',
    description:
      'Only these fields are forwarded to the acquirer; any other key (here or in an item) is a 400 naming it.',
    additionalProperties: false,
    required: ['updateChargeback'],
    properties: {
      updateChargeback: {
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          required: ['establishmentNumber', 'idChargeback'],
          properties: { establishmentNumber: { type: 'integer' }, idChargeback: { type: 'string' } },
        },
      },
      userName: { type: 'string', maxLength: 256, description: 'E-mail of the person handling the dispute' },
    },
  },
  AcceptReply: {
    type: 'array',
    items: {
      type: 'object',
      properties: {
        establishmentNumber: { type: 'integer' },
        idChargeback: { type: 'string' },
        code: { type: 'string', example: '101' },
        message: { type: 'string' },
      },
    },
  },
  RefuseRequest: {
    type: 'object',
    description: 'Only these fields are forwarded to the acquirer; any other key is a 400 naming it.',
    additionalProperties: false,
    required: ['establishmentNumber', 'idChargeback', 'IdCase', 'file', 'fileName'],
    properties: {
      establishmentNumber: { type: 'integer' },
      idChargeback: { type: 'string' },
      IdCase: { type: 'string', maxLength: 20, description: 'Case id of the chargeback' },
      reasonToRefuse: {
        type: 'string',
        description: 'Justification; the acquirer allows at most 100 characters (its code 905)',
      },
      file: {
        type: 'string',
        format: 'byte',
        description:
          `The evidence document in base64: TIFF, PDF or JPEG by its content, at most ${MAX_EVIDENCE_BYTES} ` +
          `bytes (8 MB) decoded, at most ${MAX_EVIDENCE_PAGES} pages (PDF page objects, TIFF directories).`,
      },
      fileName: {
        type: 'string',
        example: '5000123.pdf',
        description:
          `The document name: IdCase followed by the extension (${ALLOWED_EXTENSIONS.join(', ')}, any case). The ` +
          `part before the extension must equal IdCase, and the extension must agree with the content.`,
      },
      userName: { type: 'string', maxLength: 256 },
    },
  },
  RefuseReply: {
    type: 'object',
    properties: { code: { type: 'string', example: '102' }, message: { type: 'string' } },
  },
  LifecycleEntry: {
    type: 'object',
    properties: {
      action: { type: 'string', example: 'Em análise com o Emissor' },
      actionDate: { type: 'string' },
      message: { type: 'string' },
      ActionCicleDate: { type: 'string', format: 'date' },
      executionDate: { type: 'string', format: 'date' },
    },
  },
  IssuerDocument: { type: 'object', properties: { idDocumento: { type: 'integer' }, nameFile: { type: 'string' } } },
  SupportDocument: {
    type: 'object',
    properties: {
      dateInclusion: { type: 'string' },
      nameFile: { type: 'string' },
      codigo: { type: 'integer', example: 104 },
      mensagem: { type: 'string' },
      file: { type: 'string', format: 'byte' },
    },
  },
  PendingChargebacks: {
    type: 'object',
    required: ['results'],
    properties: { results: { type: 'array', items: { $ref: '#/definitions/ChargebackItem' } } },
  },
  PendingCount: { type: 'object', required: ['count'], properties: { count: { type: 'integer' } } },
  ChargebackHistoryItem: {
    type: 'object',
    description: 'A handled chargeback: the fields of its notice plus how it ended',
    allOf: [{ $ref: '#/definitions/ChargebackItem' }],
    properties: {
      outcome: {
        type: 'string',
        enum: ['ACCEPTED', 'WIN', 'LOSS'],
        description: 'ACCEPTED: the merchant accepted it; WIN/LOSS: final lifecycle step of a refused one',
      },
      outcomeDate: {
        type: 'string',
        format: 'date-time',
        description: 'Acceptance time, or the date of the final lifecycle step (midnight UTC)',
      },
      handling: {
        type: 'string',
        enum: ['ACCEPTED', 'REFUSED'],
        'x-nullable': true,
        description: 'How it was answered through this service; null when answered elsewhere',
      },
      acceptedAt: { type: 'string', format: 'date-time', 'x-nullable': true },
      refusedAt: { type: 'string', format: 'date-time', 'x-nullable': true },
      lifecycle: {
        type: 'array',
        items: { type: 'object', properties: { action: { type: 'string' }, actionDate: { type: 'string' } } },
      },
    },
  },
  ChargebackHistory: {
    type: 'object',
    required: ['results'],
    properties: { results: { type: 'array', items: { $ref: '#/definitions/ChargebackHistoryItem' } } },
  },
  LifecycleNotice: {
    type: 'object',
    required: ['establishmentNumber', 'caseId', 'message', 'ActionCicleDate'],
    properties: {
      establishmentNumber: { type: 'integer' },
      caseId: { type: 'integer' },
      message: {
        type: 'string',
        description: 'Lifecycle text; "A favor do Estabelecimento" (win) and "A favor do Emissor" (loss) are final',
      },
      executionDate: { type: 'string', format: 'date' },
      ActionCicleDate: { type: 'string', format: 'date' },
    },
  },
  NoticeReceipt: { type: 'object', properties: { received: { type: 'boolean' }, duplicate: { type: 'boolean' } } },
};

// --- routes ----------------------------------------------------------------------------------------

export const chargebacksFeature: Feature = {
  name: TAG,
  tag: {
    name: TAG,
    description:
      "The acquirer's chargeback operations proxied for merchants (its status and body pass through as " +
      'received), the intake of its chargeback notifications, and the pending, pending-count and history views ' +
      'built from them.',
  },
  definitions,
  routes: [
    {
      method: 'post',
      path: `${BASE}/consult/`,
      auth: CHARGEBACK_CREDENTIALS,
      before: [validateConsult],
      handler: async (req, res) => {
        const query = req.query as unknown as {
          status: 'PENDING' | 'DONE';
          page: number;
          pageSize: number;
          orderBy?: string;
          Order?: string;
        };
        await forward(
          res,
          await consultChargebacks(await proxyScope(req), query, (req.body ?? {}) as Record<string, unknown>),
        );
      },
      doc: {
        operationId: 'consultChargebacks',
        summary: 'Consult chargebacks at the acquirer',
        description:
          'Query status PENDING (awaiting treatment) or DONE (handled). The JSON filter body is forwarded with ' +
          'its documented fields only (any other key is a 400).',
        parameters: [
          { name: 'status', in: 'query', required: true, type: 'string', enum: ['PENDING', 'DONE'] },
          { name: 'page', in: 'query', type: 'integer', minimum: 0, default: 0, description: '0 is the first page' },
          { name: 'pageSize', in: 'query', type: 'integer', minimum: 1, maximum: 200, default: 200 },
          { name: 'orderBy', in: 'query', type: 'string', enum: ['receptionDate', 'treatmentDeadline'] },
          { name: 'Order', in: 'query', type: 'string', enum: ['asc', 'desc'] },
          { name: 'body', in: 'body', required: false, schema: { $ref: '#/definitions/ChargebackConsultFilter' } },
        ],
        responses: {
          200: {
            description: "The acquirer's pagination envelope, items in content",
            schema: { $ref: '#/definitions/ChargebackPage' },
          },
          ...acquirerAnswers,
        },
      },
    },
    {
      method: 'put',
      path: `${BASE}/accept/`,
      auth: CHARGEBACK_CREDENTIALS,
      before: [validateAccept],
      handler: async (req, res) => {
        sendBuffered(res, await acceptChargebacks(await proxyScope(req), req.body));
      },
      doc: {
        operationId: 'acceptChargebacks',
        summary: 'Accept chargebacks',
        description:
          'Accepting treats the sale as invalid and agrees to the reversal. On an acquirer 2xx the accepted ' +
          'chargebacks leave the pending list at once.',
        parameters: [{ name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/AcceptRequest' } }],
        responses: {
          200: {
            description: "The acquirer's answer, one entry per chargeback (code 101 = accepted)",
            schema: { $ref: '#/definitions/AcceptReply' },
          },
          ...acquirerAnswers,
        },
      },
    },
    {
      method: 'put',
      path: `${BASE}/refuse/`,
      auth: CHARGEBACK_CREDENTIALS,
      // The evidence document: up to 8 MB decoded, about 10.7 MB in base64.
      bodyLimit: 'max',
      before: [validateRefuse],
      handler: async (req, res) => {
        sendBuffered(res, await refuseChargeback(await proxyScope(req), req.body));
      },
      doc: {
        operationId: 'refuseChargeback',
        summary: 'Refuse a chargeback with evidence',
        description:
          'Refusing defends the sale with an evidence document. Checked here before the acquirer is called, ' +
          'each a 400 naming the rule: ' +
          (`the content is TIFF, PDF or JPEG (by its first bytes) and the extension of fileName agrees; at most ` +
            `8 MB decoded; at most ${MAX_EVIDENCE_PAGES} pages; `) +
          ('the document name equals IdCase, the extension NOT being part of the name (fileName = IdCase + "." ' +
            '+ extension, e.g. 5000123.pdf). ') +
          'On an acquirer 2xx the chargeback leaves the pending list at once.',
        parameters: [{ name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/RefuseRequest' } }],
        responses: {
          200: {
            description: "The acquirer's answer (code 102 = refused)",
            schema: { $ref: '#/definitions/RefuseReply' },
          },
          ...acquirerAnswers,
        },
      },
    },
    {
      method: 'get',
      path: `${BASE}/lifecycle/:idCase/`,
      auth: CHARGEBACK_CREDENTIALS,
      before: [validateLifecycle],
      handler: async (req, res) => {
        sendBuffered(res, await chargebackLifecycle(await proxyScope(req), req.params.idCase as string));
      },
      doc: {
        operationId: 'getChargebackLifecycle',
        summary: 'Lifecycle of a chargeback case',
        description:
          'A merchant may read only a case of one of its establishments: one we hold a chargeback of, received ' +
          'by notice, and whose steps the acquirer names for that establishment (403 otherwise, whatever case ' +
          'a refusal named). The system token reads any. ' +
          'The payload has the fields of the lifecycle notification, ActionCicleDate included.',
        parameters: [pathDoc('idCase', 'Case id', '^[A-Za-z0-9]+$')],
        responses: {
          200: {
            description: 'Lifecycle steps',
            schema: { type: 'array', items: { $ref: '#/definitions/LifecycleEntry' } },
          },
          ...acquirerAnswers,
        },
      },
    },
    {
      method: 'get',
      path: `${BASE}/list-issuer-documents/:establishmentNumber/:idChargeback/`,
      auth: CHARGEBACK_CREDENTIALS,
      before: [validateDocumentParams('idChargeback')],
      handler: async (req, res) => {
        await forward(
          res,
          await listIssuerDocuments(
            await proxyScope(req),
            req.params.establishmentNumber as string,
            req.params.idChargeback as string,
          ),
        );
      },
      doc: {
        operationId: 'listIssuerDocuments',
        summary: 'List the issuer documents of a chargeback (step 1 of 2)',
        description:
          'Step 1 of the document flow: list, then download each with GET ' +
          'document-issuer/{establishmentNumber}/{idDocumento}/ using idDocumento from this list.',
        parameters: [ecPathDoc, pathDoc('idChargeback', 'Chargeback id', '^[A-Za-z0-9]{1,20}$')],
        responses: {
          200: {
            description: 'Issuer documents',
            schema: { type: 'array', items: { $ref: '#/definitions/IssuerDocument' } },
          },
          ...acquirerAnswers,
        },
      },
    },
    {
      method: 'get',
      path: `${BASE}/document-issuer/:establishmentNumber/:idDocumento/`,
      auth: CHARGEBACK_CREDENTIALS,
      before: [validateDocumentParams('idDocumento')],
      handler: async (req, res) => {
        await forward(
          res,
          await downloadIssuerDocument(
            await proxyScope(req),
            req.params.establishmentNumber as string,
            req.params.idDocumento as string,
          ),
        );
      },
      doc: {
        operationId: 'downloadIssuerDocument',
        summary: 'Download an issuer document (step 2 of 2)',
        description:
          'Step 2 of the document flow: idDocumento comes from GET list-issuer-documents/. The raw bytes are ' +
          "streamed as received with the acquirer's Content-Type and Content-Disposition (never converted to " +
          'JSON).',
        produces: ['application/octet-stream', 'application/pdf', 'image/tiff', 'image/jpeg', 'application/json'],
        parameters: [ecPathDoc, pathDoc('idDocumento', 'Document id from the listing', '^[A-Za-z0-9]{1,20}$')],
        responses: {
          200: {
            description: 'The document bytes',
            schema: { type: 'file' },
            headers: { 'Content-Type': { type: 'string' }, 'Content-Disposition': { type: 'string' } },
          },
          ...acquirerAnswers,
        },
      },
    },
    {
      method: 'get',
      path: `${BASE}/support-document/:establishmentNumber/:idChargeback/`,
      auth: CHARGEBACK_CREDENTIALS,
      before: [validateDocumentParams('idChargeback')],
      handler: async (req, res) => {
        await forward(
          res,
          await supportDocument(
            await proxyScope(req),
            req.params.establishmentNumber as string,
            req.params.idChargeback as string,
          ),
        );
      },
      doc: {
        operationId: 'getSupportDocument',
        summary: 'The defense document attached on refusal',
        parameters: [ecPathDoc, pathDoc('idChargeback', 'Chargeback id', '^[A-Za-z0-9]{1,20}$')],
        responses: {
          200: {
            description: 'Defense documents (code 104)',
            schema: { type: 'array', items: { $ref: '#/definitions/SupportDocument' } },
          },
          ...acquirerAnswers,
        },
      },
    },
    {
      method: 'get',
      path: `${BASE}/contested/`,
      auth: CHARGEBACK_CREDENTIALS,
      handler: async (req, res) => {
        res.json({ results: await pendingChargebacks(await viewScope(req)) });
      },
      doc: {
        operationId: 'listPendingChargebacks',
        summary: 'Pending chargebacks',
        description:
          'Chargebacks received by notice and not yet accepted or refused, nearest treatmentDeadline first. A ' +
          "merchant sees its own establishments'; the system token sees all, or one merchant's with " +
          'X-Merchant-Id.',
        responses: {
          200: { description: 'Pending chargebacks', schema: { $ref: '#/definitions/PendingChargebacks' } },
          500: errorResponses.detail('Internal error'),
        },
      },
    },
    {
      method: 'get',
      path: `${BASE}/contested/history/`,
      auth: CHARGEBACK_CREDENTIALS,
      before: [validateHistory],
      handler: async (req, res) => {
        const { limit, offset } = req.query as unknown as { limit: number; offset: number };
        res.json({ results: await chargebackHistory(await viewScope(req), limit, offset) });
      },
      doc: {
        operationId: 'listHandledChargebacks',
        summary: 'Handled chargebacks',
        description:
          'One item per chargeback: accepted ones, and refused ones once they have a final outcome (win or ' +
          'loss). Most recent outcome first.',
        parameters: [
          {
            name: 'limit',
            in: 'query',
            type: 'integer',
            minimum: 1,
            maximum: HISTORY_MAX_LIMIT,
            default: HISTORY_DEFAULT_LIMIT,
          },
          { name: 'offset', in: 'query', type: 'integer', minimum: 0, default: 0 },
        ],
        responses: {
          200: { description: 'Handled chargebacks', schema: { $ref: '#/definitions/ChargebackHistory' } },
          400: errorResponses.fieldErrors,
          500: errorResponses.detail('Internal error'),
        },
      },
    },
    {
      method: 'get',
      path: `${BASE}/pending-count/`,
      auth: CHARGEBACK_CREDENTIALS,
      handler: async (req, res) => {
        res.json({ count: await pendingCount(await viewScope(req)) });
      },
      doc: {
        operationId: 'countPendingChargebacks',
        summary: 'Number of pending chargebacks',
        responses: {
          200: { description: 'Count of the pending list', schema: { $ref: '#/definitions/PendingCount' } },
          500: errorResponses.detail('Internal error'),
        },
      },
    },
    {
      method: 'post',
      path: CHARGEBACK_NOTICE_PATH,
      // The secret is checked before the body is read; a notice is a few kilobytes.
      beforeBody: [requireNoticeSecret],
      bodyLimit: 64 * 1024,
      handler: async (req, res) => {
        const { duplicate } = await receiveNotice(req.body, {
          body: (req as typeof req & { rawBody?: Buffer }).rawBody,
          contentType: req.get('content-type'),
        });
        res.status(202).json({ received: true, duplicate });
      },
      doc: {
        operationId: 'receiveChargebackNotification',
        summary: "Intake of the acquirer's chargeback notifications",
        description:
          `Called by the acquirer, not by merchants. Authenticated by the shared secret ` +
          `CHARGEBACK_NOTIFICATION_SECRET in the ${CHARGEBACK_NOTICE_SECRET_HEADER} header. ` +
          ('Body: a new chargeback (one consult item, unwrapped) or a lifecycle change {establishmentNumber, ' +
            'caseId, message, executionDate, ActionCicleDate}. ') +
          'The secret is checked before the body is read; a body is at most 64 KB. ' +
          'The notice is stored durably before the 202; the same notice twice is stored once; a worker applies it. ' +
          ("A lifecycle step is a hint: it is applied only once the acquirer's own lifecycle of the case shows " +
            'it for that establishment (asked again for up to two days).'),
        parameters: [
          {
            name: CHARGEBACK_NOTICE_SECRET_HEADER,
            in: 'header',
            required: true,
            type: 'string',
            description: 'The shared notification secret',
          },
          {
            name: 'body',
            in: 'body',
            required: true,
            schema: { type: 'object', description: 'ChargebackItem or LifecycleNotice' },
          },
        ],
        responses: {
          202: {
            description: 'Stored (or already stored); applied shortly by a worker',
            schema: { $ref: '#/definitions/NoticeReceipt' },
          },
          400: errorResponses.fieldErrors,
          401: errorResponses.detail('Missing or wrong notification secret'),
          413: errorResponses.detail('Body over 64 KB'),
          503: errorResponses.detail('Database or queue unavailable: not stored, retry'),
        },
      },
    },
  ],
};
