/**
 * Swagger definitions (schemas) of the chargeback routes: the acquirer's bodies as it sends them
 * (passed through) and our own views' answers. Operations are in swagger.ts.
 */
import { ALLOWED_EXTENSIONS, MAX_EVIDENCE_BYTES, MAX_EVIDENCE_PAGES } from './evidence';

/**
 * The acquirer's case and chargeback ids are numbers: its notices send caseId as a number, its
 * consult items and accept replies send idCase and idChargeback as numbers, and it refuses a
 * non-numeric id (code 911). Our own views give them as numbers too. Digits sent as text are
 * accepted wherever we take one.
 */
const acquirerId = (description: string) => ({ type: 'integer', format: 'int64', minimum: 0, description });
const idCase = acquirerId('Case number at the acquirer');
const idChargeback = acquirerId('Chargeback number at the acquirer');

/**
 * The fields of a chargeback as the acquirer describes it, its lifecycle apart (an object in its
 * items, a list in our history).
 */
const chargebackFields = {
  idCase,
  idChargeback,
  establishmentNumber: { type: 'integer', format: 'int64' },
  process: { type: 'string', example: 'PRIMEIRO_CHARGEBACK' },
  treatmentDeadline: { type: 'string', format: 'date', 'x-nullable': true },
  remainingDaysToTreat: { type: 'integer' },
  transactionAmount: { type: 'number', description: "Decimal reais (the acquirer's unit for chargebacks)" },
  actionTakenCode: { type: 'string' },
  transactionDetails: { type: 'object' },
  chargebackDetails: {
    type: 'object',
    properties: {
      reasonCode: { type: 'string' },
      reasonDescription: { type: 'string' },
      receptionDate: { type: 'string', format: 'date', 'x-nullable': true },
      issuerDocument: { type: 'array', items: { $ref: '#/definitions/IssuerDocument' } },
    },
  },
};

/** The fields of an error body: the acquirer's own ({code, message}) or ours ({detail}). */
const errorBodyProperties = (exampleCode: string) => ({
  code: { type: 'string', example: exampleCode },
  message: { type: 'string' },
  detail: { type: 'string' },
});

export const definitions = {
  AcquirerError: {
    type: 'object',
    description:
      "The acquirer's error body passed through as received ({code, message}), or our own refusal before any " +
      'acquirer call ({detail})',
    properties: errorBodyProperties('931'),
  },
  ChargebackBadRequest: {
    type: 'object',
    description:
      'One of: our validation, a map of each bad field (or non_field_errors) to its messages, checked before ' +
      "any acquirer call; the acquirer's business error passed through as received ({code, message}); or " +
      '{detail} when the request could not be read (a body that is not JSON)',
    properties: errorBodyProperties('905'),
    additionalProperties: { type: 'array', items: { type: 'string' } },
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
      idCase,
      tid: { type: 'string', maxLength: 20 },
      nsu: { type: 'string' },
    },
  },
  ChargebackItem: {
    type: 'object',
    description: 'A chargeback as the acquirer describes it (consult item; also the new-chargeback notice)',
    properties: {
      ...chargebackFields,
      lifecycle: { type: 'object', properties: { action: { type: 'string' }, actionDate: { type: 'string' } } },
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
          properties: { establishmentNumber: { type: 'integer', format: 'int64' }, idChargeback },
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
        establishmentNumber: { type: 'integer', format: 'int64' },
        idChargeback,
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
      establishmentNumber: { type: 'integer', format: 'int64' },
      idChargeback,
      IdCase: acquirerId('Case number of the chargeback (the evidence file is named after it)'),
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
      establishmentNumber: { type: 'integer', format: 'int64' },
      caseId: idCase,
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
    properties: { results: { type: 'array', items: { $ref: '#/definitions/PendingChargeback' } } },
  },
  PendingChargeback: {
    type: 'object',
    description: 'A pending chargeback: the consult item of its notice, as the acquirer sent it, and its status',
    required: ['idCase', 'idChargeback', 'establishmentNumber', 'status'],
    properties: {
      ...chargebackFields,
      lifecycle: { type: 'object', properties: { action: { type: 'string' }, actionDate: { type: 'string' } } },
      status: { type: 'string', enum: ['PENDING'] },
    },
  },
  PendingCount: { type: 'object', required: ['count'], properties: { count: { type: 'integer' } } },
  ChargebackHistoryItem: {
    type: 'object',
    description:
      'A handled chargeback: the fields of its notice (none but its ids when it was accepted before its ' +
      'notice came) plus how it ended',
    required: ['idCase', 'idChargeback', 'establishmentNumber', 'outcome', 'outcomeDate', 'handling', 'lifecycle'],
    properties: {
      ...chargebackFields,
      idCase: { ...idCase, 'x-nullable': true, description: 'Case number; null when accepted before its notice came' },
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
      establishmentNumber: { type: 'integer', format: 'int64' },
      caseId: idCase,
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
