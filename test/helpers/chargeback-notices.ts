/** The acquirer's "new chargeback" notice as it posts it to us, and the headers it sends with it. */
import crypto from 'node:crypto';
import { getConfig } from '../../config';
import { CHARGEBACK_NOTICE_SECRET_HEADER } from '../../src/acquirer/chargebacks';
import { applyNotice, receiveNotice } from '../../src/chargebacks';
import { callJson, send, type CallResult } from './http';

/** A fresh establishment number per test: views are scoped by it, so tests do not see each other. */
export const newEstablishment = () => `4${crypto.randomInt(100_000_000, 999_999_999)}`;

let lastIdCase = 7_000_000 + crypto.randomInt(0, 1_000_000);
/** Case and chargeback ids no other notice of this test process carries. */
export function newNoticeIds(): { idCase: number; idChargeback: number } {
  lastIdCase += 1;
  return { idCase: lastIdCase, idChargeback: lastIdCase + 10_000_000 };
}

/** A first chargeback of a R$ 150,90 Visa sale at establishment `ec`, with every field the acquirer fills. */
export function newChargebackNotice(
  ec: string,
  ids: { idCase: number; idChargeback: number },
  extra: { treatmentDeadline?: string; receptionDate?: string } = {},
) {
  return {
    idCase: ids.idCase,
    idChargeback: ids.idChargeback,
    establishmentNumber: Number(ec),
    process: 'PRIMEIRO_CHARGEBACK',
    treatmentDeadline: extra.treatmentDeadline ?? '2030-01-20',
    remainingDaysToTreat: 10,
    lifecycle: {},
    transactionAmount: 150.9,
    transactionDetails: {
      tid: '00000000000000012345',
      nsu: '000123',
      truncatedCard: '401200******1112',
      cardAssociationName: 'VISA',
    },
    chargebackDetails: {
      reasonCode: '4837',
      reasonDescription: 'Transação não reconhecida',
      receptionDate: extra.receptionDate ?? '2030-01-05',
      issuerDocument: [],
    },
  };
}

/** The acquirer's notice of a lifecycle step `message` of case `caseId` at `ec`, dated `date`. */
export const lifecycleNotice = (ec: string, caseId: number, message: string, date: string) => ({
  establishmentNumber: Number(ec),
  caseId,
  message,
  executionDate: date,
  ActionCicleDate: date,
});

/** A JSON body with the shared secret the acquirer's notices carry. */
export function chargebackNoticeHeaders(): Record<string, string> {
  return {
    'content-type': 'application/json',
    [CHARGEBACK_NOTICE_SECRET_HEADER]: getConfig().acquirer.chargeback.notificationSecret,
  };
}

/** Posts a notice to our intake at `baseUrl` as the acquirer does (its secret unless `secret` says otherwise). */
export function postChargebackNotice(baseUrl: string, body: unknown, secret?: string): Promise<Response> {
  const headers = chargebackNoticeHeaders();
  if (secret !== undefined) headers[CHARGEBACK_NOTICE_SECRET_HEADER] = secret;
  return send(
    { url: baseUrl },
    'POST',
    '/api/v1/acquirer/chargeback/notifications/',
    { 'content-type': undefined, ...headers },
    body,
  );
}

/**
 * A chargeback at `ec` of the payment the acquirer knows by `tid`, for `amountCents`: registered at the
 * sandbox, then notified to us and applied (stored here). Returns its idChargeback.
 */
export async function notifiedChargeback(
  sandbox: { url: string },
  ec: string,
  tid: string,
  amountCents: number,
): Promise<number> {
  const ids = newNoticeIds();
  const notice = newChargebackNotice(ec, ids);
  notice.transactionAmount = amountCents / 100;
  notice.transactionDetails.tid = tid;
  await callJson(sandbox, 'POST', '/sandbox-cb/_test/chargeback', {}, notice);
  const { noticeId } = await receiveNotice(notice);
  if ((await applyNotice(noticeId)) !== 'applied') throw new Error('chargeback notice not applied');
  return ids.idChargeback;
}

/** The merchant (by its bearer headers) accepts chargeback `idChargeback` of establishment `ec` through our API. */
export function acceptChargeback(
  app: { url: string },
  headers: Record<string, string>,
  ec: string,
  idChargeback: number,
): Promise<CallResult> {
  return callJson(app, 'PUT', '/api/v1/acquirer/chargeback/accept/', headers, {
    updateChargeback: [{ establishmentNumber: Number(ec), idChargeback }],
    userName: 'ops@loja.com.br',
  });
}
