/**
 * /api/v1/acquirer/chargeback/...: the acquirer's chargeback operations proxied for merchants
 * (answers passed through as received), the notification intake, and the views over the
 * chargebacks received by notice. One line per route at the end; request checks in schemas.ts,
 * Swagger text in swagger.ts.
 */
import { pipeline } from 'node:stream/promises';
import type { Request, RequestHandler, Response } from 'express';
import { getConfig } from '../../config';
import {
  CHARGEBACK_NOTICE_PATH,
  CHARGEBACK_NOTICE_SECRET_HEADER,
  type ChargebackResponse,
} from '../acquirer/chargebacks';
import { safeEqual } from '../platform/digests';
import type { CredentialPolicy } from '../http/credential-policy';
import { unauthorized } from '../platform/errors';
import { routeTable, type Feature, type RouteOptions } from '../http/routes';
import { logger } from '../platform/logger';
import {
  validateAccept,
  validateConsult,
  validateDocumentParams,
  validateHistory,
  validateLifecycle,
  validateRefuse,
} from './schemas';
import {
  acceptChargebacks,
  chargebackHistory,
  chargebackLifecycle,
  consultChargebacks,
  downloadIssuerDocument,
  establishmentsOfMerchant,
  listIssuerDocuments,
  pendingChargebacks,
  pendingCount,
  receiveNotice,
  refuseChargeback,
  supportDocument,
  type BufferedAnswer,
  type ConsultQuery,
  type EstablishmentScope,
} from './index';
import { definitions, docs, tag } from './swagger';

const BASE = '/api/v1/acquirer/chargeback';

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

/** The acquirer proves itself with the shared secret, compared in constant time. */
const requireNoticeSecret: RequestHandler = (req, _res, next) => {
  const given = req.headers[CHARGEBACK_NOTICE_SECRET_HEADER];
  if (typeof given !== 'string' || !safeEqual(given, getConfig().acquirer.chargeback.notificationSecret)) {
    throw unauthorized('Missing or wrong notification secret.');
  }
  next();
};

/** A document call: the establishment and one id from the path; the acquirer's answer streamed as received. */
const forwardDocument =
  (call: typeof supportDocument, id: 'idChargeback' | 'idDocumento'): RequestHandler =>
  async (req, res) => {
    const { establishmentNumber } = req.params as Record<string, string>;
    await forward(res, await call(await proxyScope(req), establishmentNumber, req.params[id] as string));
  };

const handlers = {
  consultChargebacks: async (req, res) => {
    const query = req.query as unknown as ConsultQuery;
    await forward(res, await consultChargebacks(await proxyScope(req), query, req.body ?? {}));
  },
  acceptChargebacks: async (req, res) => {
    sendBuffered(res, await acceptChargebacks(await proxyScope(req), req.body));
  },
  refuseChargeback: async (req, res) => {
    sendBuffered(res, await refuseChargeback(await proxyScope(req), req.body));
  },
  getChargebackLifecycle: async (req, res) => {
    sendBuffered(res, await chargebackLifecycle(await proxyScope(req), req.params.idCase as string));
  },
  listIssuerDocuments: forwardDocument(listIssuerDocuments, 'idChargeback'),
  downloadIssuerDocument: forwardDocument(downloadIssuerDocument, 'idDocumento'),
  getSupportDocument: forwardDocument(supportDocument, 'idChargeback'),
  listPendingChargebacks: async (req, res) => {
    res.json({ results: await pendingChargebacks(await viewScope(req)) });
  },
  listHandledChargebacks: async (req, res) => {
    const { limit, offset } = req.query as unknown as { limit: number; offset: number };
    res.json({ results: await chargebackHistory(await viewScope(req), limit, offset) });
  },
  countPendingChargebacks: async (req, res) => {
    res.json({ count: await pendingCount(await viewScope(req)) });
  },
  receiveChargebackNotification: async (req, res) => {
    const { duplicate } = await receiveNotice(req.body, {
      body: (req as typeof req & { rawBody?: Buffer }).rawBody,
      contentType: req.get('content-type'),
    });
    res.status(202).json({ received: true, duplicate });
  },
} satisfies Record<keyof typeof docs, RequestHandler>;

const route = routeTable(docs, handlers);
/** A row of the table: its path under BASE. */
const at = (method: Parameters<typeof route>[0], path: string, id: keyof typeof docs, options: RouteOptions) =>
  route(method, `${BASE}${path}`, id, options);
const merchant = { auth: CHARGEBACK_CREDENTIALS };
const checked = (...before: RequestHandler[]) => ({ ...merchant, before });
const byChargeback = checked(validateDocumentParams('idChargeback'));
const byDocument = checked(validateDocumentParams('idDocumento'));
/** The evidence document: up to 8 MB decoded, about 10.7 MB in base64. */
const withEvidence = { ...checked(validateRefuse), bodyLimit: 'max' as const };
/** The acquirer's notices: the secret is checked before the body is read; a notice is a few kilobytes. */
const acquirer = { beforeBody: [requireNoticeSecret], bodyLimit: 64 * 1024 };

export const chargebacksFeature: Feature = {
  name: tag.name,
  tag,
  definitions,
  routes: [
    at('post', '/consult/', 'consultChargebacks', checked(validateConsult)),
    at('put', '/accept/', 'acceptChargebacks', checked(validateAccept)),
    at('put', '/refuse/', 'refuseChargeback', withEvidence),
    at('get', '/lifecycle/:idCase/', 'getChargebackLifecycle', checked(validateLifecycle)),
    at('get', '/list-issuer-documents/:establishmentNumber/:idChargeback/', 'listIssuerDocuments', byChargeback),
    at('get', '/document-issuer/:establishmentNumber/:idDocumento/', 'downloadIssuerDocument', byDocument),
    at('get', '/support-document/:establishmentNumber/:idChargeback/', 'getSupportDocument', byChargeback),
    at('get', '/contested/', 'listPendingChargebacks', merchant),
    at('get', '/contested/history/', 'listHandledChargebacks', checked(validateHistory)),
    at('get', '/pending-count/', 'countPendingChargebacks', merchant),
    route('post', CHARGEBACK_NOTICE_PATH, 'receiveChargebackNotification', acquirer),
  ],
};
