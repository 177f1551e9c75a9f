/**
 * Swagger text of the chargeback routes, one operation per operationId (the route table in
 * routes.ts names each by it); the bodies' definitions come from schemas.ts.
 */
import { CHARGEBACK_NOTICE_SECRET_HEADER } from '../acquirer/chargebacks';
import { errorResponses, type SwaggerOperation } from '../http/routes';
import { field, swaggerDefinitions, swaggerOf } from '../http/schema';
import { MAX_EVIDENCE_PAGES } from './evidence';
import {
  acceptReply,
  acceptRequest,
  acquirerError,
  chargebackBadRequest,
  chargebackHistory,
  chargebackHistoryItem,
  chargebackItem,
  chargebackPage,
  consultFilter,
  HISTORY_DEFAULT_LIMIT,
  HISTORY_MAX_LIMIT,
  issuerDocument,
  lifecycleEntry,
  lifecycleNotice,
  noticeBody,
  noticeReceipt,
  pendingChargeback,
  pendingChargebacks,
  pendingCount,
  refuseReply,
  refuseRequest,
  supportDocument,
} from './schemas';

export const definitions = swaggerDefinitions(
  acquirerError,
  chargebackBadRequest,
  consultFilter,
  chargebackItem,
  chargebackPage,
  acceptRequest,
  acceptReply,
  refuseRequest,
  refuseReply,
  lifecycleEntry,
  issuerDocument,
  supportDocument,
  pendingChargebacks,
  pendingChargeback,
  pendingCount,
  chargebackHistoryItem,
  chargebackHistory,
  lifecycleNotice,
  noticeReceipt,
);

export const tag = {
  name: 'chargebacks',
  description:
    "The acquirer's chargeback operations proxied for merchants (its status and body pass through as " +
    'received), the intake of its chargeback notifications, and the pending, pending-count and history views ' +
    'built from them.',
};

const acquirerAnswers = {
  400: {
    description:
      "Our validation (field map naming each bad field or rule), or the acquirer's business error passed " +
      'through as received ({code, message})',
    schema: { $ref: '#/definitions/ChargebackBadRequest' },
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

export const docs = {
  consultChargebacks: {
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
  acceptChargebacks: {
    operationId: 'acceptChargebacks',
    summary: 'Accept chargebacks',
    description:
      'Accepting treats the sale as invalid and agrees to the reversal. On an acquirer 2xx the accepted ' +
      'chargebacks leave the pending list at once. The reversal returns the money of our sale the chargeback ' +
      "names (by TID): before the acquirer is asked, the acceptance takes that sale's captured value under the " +
      "refunds' admission slots, so no refund of it can return the money again (a later refund is 422); while " +
      'a refund of the sale is pending, or once one was made, the acceptance is 409 and nothing is asked ' +
      '(docs/api/refunds.md).',
    parameters: [{ name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/AcceptRequest' } }],
    responses: {
      200: {
        description: "The acquirer's answer, one entry per chargeback (code 101 = accepted)",
        schema: { $ref: '#/definitions/AcceptReply' },
      },
      ...acquirerAnswers,
      409: errorResponses.detail(
        'A refund of the sale this chargeback names is pending (retry once it settled, Retry-After), or money of ' +
          'it was already refunded (refuse the chargeback instead); nothing was sent to the acquirer',
      ),
    },
  },
  refuseChargeback: {
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
  getChargebackLifecycle: {
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
        schema: swaggerOf(field.array(lifecycleEntry)),
      },
      ...acquirerAnswers,
    },
  },
  listIssuerDocuments: {
    operationId: 'listIssuerDocuments',
    summary: 'List the issuer documents of a chargeback (step 1 of 2)',
    description:
      'Step 1 of the document flow: list, then download each with GET ' +
      'document-issuer/{establishmentNumber}/{idDocumento}/ using idDocumento from this list.',
    parameters: [ecPathDoc, pathDoc('idChargeback', 'Chargeback id', '^[A-Za-z0-9]{1,20}$')],
    responses: {
      200: {
        description: 'Issuer documents',
        schema: swaggerOf(field.array(issuerDocument)),
      },
      ...acquirerAnswers,
    },
  },
  downloadIssuerDocument: {
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
  getSupportDocument: {
    operationId: 'getSupportDocument',
    summary: 'The defense document attached on refusal',
    parameters: [ecPathDoc, pathDoc('idChargeback', 'Chargeback id', '^[A-Za-z0-9]{1,20}$')],
    responses: {
      200: {
        description: 'Defense documents (code 104)',
        schema: swaggerOf(field.array(supportDocument)),
      },
      ...acquirerAnswers,
    },
  },
  listPendingChargebacks: {
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
  listHandledChargebacks: {
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
  countPendingChargebacks: {
    operationId: 'countPendingChargebacks',
    summary: 'Number of pending chargebacks',
    responses: {
      200: { description: 'Count of the pending list', schema: { $ref: '#/definitions/PendingCount' } },
      500: errorResponses.detail('Internal error'),
    },
  },
  receiveChargebackNotification: {
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
        schema: swaggerOf(noticeBody),
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
} satisfies Record<string, SwaggerOperation>;
