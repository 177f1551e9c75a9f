/**
 * The acquirer's chargeback operations for merchants: each checks our own rules (400, 403) before
 * calling the acquirer, then returns its answer as received. An accept or refuse it answered 2xx is
 * recorded at once (the chargeback leaves the pending list).
 */
import { callChargebackApi, type ChargebackResponse } from '../acquirer/chargebacks';
import { badRequest, forbidden } from '../platform/errors';
import { logger } from '../platform/logger';
import {
  acquirerNumber,
  assertInScope,
  buffered,
  fetchLifecycle,
  normalisedEstablishment,
  parseJson,
  segment,
  type BufferedAnswer,
  type EstablishmentScope,
} from './common';
import { checkEvidence } from './evidence';
import { establishmentNumberOf } from '../merchants/establishments';
import { ChargebackModel } from './model';
import type { AcceptBody, ConsultFilter, RefuseBody } from './schemas';
import { holdChargeback, insertEvent, refreshChargeback } from './projection';
import { holdSaleForChargeback, settleChargebackHold, type ChargebackHold } from '../refunds';

export interface ConsultQuery {
  status: 'PENDING' | 'DONE';
  page: number;
  pageSize: number;
  orderBy?: string;
  Order?: string;
}

/** The fields of each body the acquirer documents: only these are forwarded (routes refuse others; this drops them). */
export const CONSULT_FIELDS = [
  'startNotificationPeriod',
  'endNotificationPeriod',
  'cardAssociationCode',
  'process',
  'reason',
  'establishmentNumber',
  'idCase',
  'tid',
  'nsu',
];
const ACCEPT_FIELDS = ['updateChargeback', 'userName'];
const ACCEPT_ITEM_FIELDS = ['establishmentNumber', 'idChargeback'];
const REFUSE_FIELDS = [
  'establishmentNumber',
  'idChargeback',
  'IdCase',
  'reasonToRefuse',
  'file',
  'fileName',
  'userName',
];

/** A body as the route validated it; another caller's may hold more keys, which documented() leaves out. */
type WithOtherKeys<Body> = Body & Record<string, unknown>;

function documented(body: Record<string, unknown>, fields: string[]): Record<string, unknown> {
  return Object.fromEntries(
    fields
      .filter((field) => Object.hasOwn(body, field) && body[field] !== undefined)
      .map((field) => [field, body[field]]),
  );
}

/**
 * The body as JSON for the acquirer. One we cannot serialize (nesting too deep) is the caller's 400, never the
 * acquirer's 502.
 */
function jsonFor(body: unknown): string {
  try {
    return JSON.stringify(body);
  } catch {
    throw badRequest({ non_field_errors: ['The body cannot be forwarded to the acquirer: it is nested too deeply.'] });
  }
}

export async function consultChargebacks(
  scope: EstablishmentScope,
  query: ConsultQuery,
  filter: WithOtherKeys<ConsultFilter>,
): Promise<ChargebackResponse> {
  const body = documented(filter, CONSULT_FIELDS);
  // Establishment numbers are checked and forwarded in one form: `0123` is 123 at the acquirer.
  if (Array.isArray(body.establishmentNumber))
    body.establishmentNumber = body.establishmentNumber.map(normalisedEstablishment);
  if (scope !== null) {
    const requested = Array.isArray(body.establishmentNumber) ? body.establishmentNumber.map(String) : [];
    if (requested.length) assertInScope(scope, requested);
    else {
      // Without establishment numbers the acquirer would answer for the parent (mainCustomer) hierarchy: pin the
      // merchant's own.
      if (!scope.length) throw forbidden('This merchant has no establishment number at the acquirer.');
      body.establishmentNumber = scope.map(acquirerNumber);
    }
  }
  return callChargebackApi({
    method: 'POST',
    path: `/${query.status}`,
    query: { page: query.page, pageSize: query.pageSize, orderBy: query.orderBy, Order: query.Order },
    json: jsonFor(body),
  });
}

export async function acceptChargebacks(
  scope: EstablishmentScope,
  given: WithOtherKeys<AcceptBody>,
): Promise<BufferedAnswer> {
  const body = {
    ...given,
    updateChargeback: given.updateChargeback.map((item) => ({
      ...item,
      establishmentNumber: normalisedEstablishment(item.establishmentNumber),
    })),
  };
  assertInScope(
    scope,
    body.updateChargeback.map((item) => String(item.establishmentNumber)),
  );
  const forwarded = {
    ...documented(body, ACCEPT_FIELDS),
    updateChargeback: body.updateChargeback.map((item) => documented(item, ACCEPT_ITEM_FIELDS)),
  };
  // Before the acquirer is asked: each chargeback's hold on the sale it names, so a refund of the same
  // sale cannot also return its money (a refund pending or made: 409, nothing is asked).
  const holds = await holdSalesOf(body.updateChargeback);
  // An accept with no answer leaves its holds pending: no refund passes them until an operator settles them.
  const answer = await buffered(await callChargebackApi({ method: 'PUT', path: '/accept', json: jsonFor(forwarded) }));
  const ok = answer.status >= 200 && answer.status < 300;
  const replies = ok ? parseJson(answer.text) : undefined;
  const refusedItems = new Set(
    (Array.isArray(replies) ? replies : [])
      .filter((r) => r && r.code !== undefined && String(r.code) !== '101')
      .map((r) => `${r.establishmentNumber}:${r.idChargeback}`),
  );
  // Accepted: the hold stands for good; refused or not done: the sale's value is free again.
  for (const hold of holds) await settleChargebackHold(hold, ok && !refusedItems.has(hold.chargebackKey));
  if (ok) {
    const accepted = body.updateChargeback.filter(
      (item) => !refusedItems.has(`${item.establishmentNumber}:${item.idChargeback}`),
    );
    await recordOwnAction(
      'accepted',
      accepted.map((item) => ({
        establishmentNumber: String(item.establishmentNumber),
        idChargeback: String(item.idChargeback),
      })),
    );
  }
  return answer;
}

/** Each item's hold on the sale it names (src/refunds/chargebacks.ts): all taken, or none. */
async function holdSalesOf(
  items: { establishmentNumber: unknown; idChargeback: unknown }[],
): Promise<(ChargebackHold & { chargebackKey: string })[]> {
  const holds: (ChargebackHold & { chargebackKey: string })[] = [];
  try {
    for (const item of items) {
      const chargebackKey = `${item.establishmentNumber}:${item.idChargeback}`;
      // The sale is named by our stored record of the chargeback (its notice's item), never by the caller.
      const stored = await ChargebackModel.findById(chargebackKey, { item: 1 }).lean();
      const tid = tidOf(stored?.item);
      const hold = tid ? await holdSaleForChargeback(tid, chargebackKey) : null;
      if (hold) holds.push({ ...hold, chargebackKey });
    }
  } catch (error) {
    for (const hold of holds) await settleChargebackHold(hold, false);
    throw error;
  }
  return holds;
}

/** The TID of the sale a stored consult item names ('' or unparsable: none). */
function tidOf(item: string | undefined): string | null {
  if (!item) return null;
  const tid = (parseJson(item) as { transactionDetails?: { tid?: unknown } } | null)?.transactionDetails?.tid;
  return typeof tid === 'string' && tid ? tid : null;
}

export async function refuseChargeback(
  scope: EstablishmentScope,
  given: WithOtherKeys<RefuseBody>,
): Promise<BufferedAnswer> {
  const body = { ...given, establishmentNumber: normalisedEstablishment(given.establishmentNumber) };
  const { errors } = checkEvidence({ file: body.file, fileName: body.fileName, IdCase: String(body.IdCase) });
  if (Object.keys(errors).length) throw badRequest(errors);
  assertInScope(scope, [String(body.establishmentNumber)]);
  const answer = await buffered(
    await callChargebackApi({ method: 'PUT', path: '/refuse', json: jsonFor(documented(body, REFUSE_FIELDS)) }),
  );
  if (answer.status >= 200 && answer.status < 300) {
    // The caller's IdCase is not recorded: the case comes from our stored record of this establishment's chargeback.
    await recordOwnAction('refused', [
      { establishmentNumber: String(body.establishmentNumber), idChargeback: String(body.idChargeback) },
    ]);
  }
  return answer;
}

/**
 * The lifecycle call names only the case, so a merchant may read it only for a case of one of its
 * establishments: by our stored chargeback record (from a notice the acquirer confirmed, never
 * from what a caller sent), and by the acquirer's own answer, whose steps must name one of the
 * merchant's establishments and none other's. A step that names no establishment proves nothing:
 * an answer of only such steps is refused (an empty one says nothing and is answered). The system
 * token reads any. The answer is small JSON, so it is read whole to be checked.
 */
export async function chargebackLifecycle(scope: EstablishmentScope, idCase: string): Promise<BufferedAnswer> {
  const notTheCallers = () => forbidden(`Case ${idCase} is not a chargeback of this merchant.`);
  if (scope !== null && !(await isCaseOfScope(scope, idCase))) throw notTheCallers();
  const answer = await fetchLifecycle(idCase);
  if (scope !== null && answer.status >= 200 && answer.status < 300) {
    const parsed = parseJson(answer.text);
    const steps: unknown[] = Array.isArray(parsed) ? parsed : [];
    const named = steps
      .map((step) => (step as { establishmentNumber?: unknown } | null)?.establishmentNumber)
      .filter((ec) => ec !== undefined && ec !== null)
      .map(establishmentNumberOf);
    if (named.some((ec) => !scope.includes(ec)) || (steps.length > 0 && named.length === 0)) throw notTheCallers();
  }
  return answer;
}

/** Whether a stored chargeback of one of these establishments has this case (an equality on idCase: an index read). */
async function isCaseOfScope(scope: string[], idCase: string): Promise<boolean> {
  if (!scope.length) return false;
  const rows = await ChargebackModel.find({ idCase }, { establishmentNumber: 1 }).lean();
  return rows.some((row) => scope.includes(row.establishmentNumber));
}

/** A document call names its establishment and one id: the establishment must be the caller's. */
function documentCall(path: string) {
  return async (scope: EstablishmentScope, given: string, id: string): Promise<ChargebackResponse> => {
    const establishmentNumber = establishmentNumberOf(given);
    assertInScope(scope, [establishmentNumber]);
    return callChargebackApi({ method: 'GET', path: `/${path}/${segment(establishmentNumber)}/${segment(id)}` });
  };
}

/** The issuer documents of a chargeback (by idChargeback). */
export const listIssuerDocuments = documentCall('ListIssuerDocuments');
/** One issuer document (by idDocumento, from the listing). */
export const downloadIssuerDocument = documentCall('DocumentIssuer');
/** The defense document attached on refusal (by idChargeback). */
export const supportDocument = documentCall('supportDocument');

/**
 * Accept or refuse answered 2xx by the acquirer: the chargeback leaves pending now, not when a notice
 * comes. The acquirer has checked that the chargeback is the establishment's; its case is taken only
 * from our stored record of that chargeback (null until its notice comes), never from the caller.
 */
async function recordOwnAction(
  kind: 'accepted' | 'refused',
  items: { establishmentNumber: string; idChargeback: string }[],
): Promise<void> {
  const now = new Date();
  for (const item of items) {
    try {
      const stored = await ChargebackModel.findById(`${item.establishmentNumber}:${item.idChargeback}`, {
        idCase: 1,
      }).lean();
      // Its case unknown (no notice yet), the fact is recorded without one: the document goes first, so the
      // notice's first projection finds it there and reads this chargeback's own facts too (projectReceived).
      if (!stored) await holdChargeback(item.establishmentNumber, item.idChargeback);
      const idCase = stored?.idCase ?? null;
      await insertEvent({
        _id: `${kind}:${item.establishmentNumber}:${item.idChargeback}`,
        kind,
        ...item,
        idCase,
        at: now,
        data: '{}',
      });
      // Its account events are owed and recorded by the projection's write (src/chargebacks/projection.ts).
      await refreshChargeback(item.establishmentNumber, item.idChargeback, idCase);
    } catch (error) {
      // The acquirer has acted and cannot be undone: answer with its result; its notices will catch us up.
      logger.error(
        { err: error, establishmentNumber: item.establishmentNumber, idChargeback: item.idChargeback },
        `could not record chargeback ${kind}`,
      );
    }
  }
}
