/**
 * Chargeback rules: scoping proxy calls to the caller's establishments, the refusal document
 * rules, notice intake and application, and the pending / history views. Knows nothing of Express.
 */
import crypto from 'node:crypto';
import { Joi } from 'celebrate';
import mongoose from 'mongoose';
import { callChargebackApi, readChargebackText, type ChargebackResponse } from '../acquirer/chargebacks';
import { MerchantModel } from '../auth/model';
import { insertOnce } from '../db/claims';
import { ApiError, badRequest, forbidden } from '../http/errors';
import { logger } from '../logger';
import { getQueue, jobWillRun, recordJobId } from '../queue';
import { checkEvidence } from './evidence';
import {
  eventsOfCase,
  insertEvent,
  lifecycleEventId,
  normalise,
  projectReceived,
  refreshChargeback,
} from './projection';
import {
  ChargebackModel,
  ChargebackNoticeModel,
  type Chargeback,
  type ChargebackEvent,
  type ChargebackStatus,
  type NoticeKind,
} from './model';

export const CHARGEBACK_NOTICE_QUEUE = 'chargeback-notices';
export const HISTORY_DEFAULT_LIMIT = 50;
export const HISTORY_MAX_LIMIT = 200;

// ---------------------------------------------------------------------------------------------
// Scope: which establishment numbers (EC) the caller may act for. null = any (the system token).

export type EstablishmentScope = string[] | null;

/** Our own operators in a filter (sanitizeFilter is on: anything else with a $ key is neutralised). */
const trusted = <T>(operator: T): T => mongoose.trusted(operator) as T;

export async function establishmentsOfMerchant(merchantId: number): Promise<string[]> {
  const merchant = await MerchantModel.findById(merchantId, { establishmentNumbers: 1 }).lean();
  return (merchant?.establishmentNumbers ?? []).map(String);
}

function assertInScope(scope: EstablishmentScope, establishmentNumbers: string[]): void {
  if (scope === null) return;
  const foreign = establishmentNumbers.filter((ec) => !scope.includes(ec));
  if (!establishmentNumbers.length) throw forbidden('No establishment number given.');
  if (foreign.length) throw forbidden(`Establishment number ${foreign[0]} does not belong to this merchant.`);
}

const segment = (value: string) => encodeURIComponent(value);

/** The acquirer's answer as text with its status and content type, for answers we must read (accept, refuse). */
export interface BufferedAnswer {
  status: number;
  contentType: string | undefined;
  text: string;
}

async function buffered(response: ChargebackResponse): Promise<BufferedAnswer> {
  const contentType = response.headers['content-type'];
  return {
    status: response.status,
    contentType: Array.isArray(contentType) ? contentType[0] : contentType,
    text: await readChargebackText(response),
  };
}

// ---------------------------------------------------------------------------------------------
// Proxy operations. Each checks our own rules (400, 403) before calling the acquirer, then returns
// its answer as received.

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
  filter: Record<string, unknown>,
): Promise<ChargebackResponse> {
  const body = documented(filter, CONSULT_FIELDS);
  if (scope !== null) {
    const requested = Array.isArray(body.establishmentNumber) ? body.establishmentNumber.map(String) : [];
    if (requested.length) assertInScope(scope, requested);
    else {
      // Without establishment numbers the acquirer would answer for the parent (mainCustomer) hierarchy: pin the
      // merchant's own.
      if (!scope.length) throw forbidden('This merchant has no establishment number at the acquirer.');
      body.establishmentNumber = scope.map((ec) => (/^\d{1,15}$/.test(ec) ? Number(ec) : ec));
    }
  }
  return callChargebackApi({
    method: 'POST',
    path: `/${query.status}`,
    query: { page: query.page, pageSize: query.pageSize, orderBy: query.orderBy, Order: query.Order },
    json: jsonFor(body),
  });
}

export interface AcceptBody {
  updateChargeback: { establishmentNumber: string | number; idChargeback: string | number }[];
  userName?: string;
  [key: string]: unknown;
}

export async function acceptChargebacks(scope: EstablishmentScope, body: AcceptBody): Promise<BufferedAnswer> {
  assertInScope(
    scope,
    body.updateChargeback.map((item) => String(item.establishmentNumber)),
  );
  const forwarded = {
    ...documented(body, ACCEPT_FIELDS),
    updateChargeback: body.updateChargeback.map((item) => documented(item, ACCEPT_ITEM_FIELDS)),
  };
  const answer = await buffered(await callChargebackApi({ method: 'PUT', path: '/accept', json: jsonFor(forwarded) }));
  if (answer.status >= 200 && answer.status < 300) {
    const replies = parseJson(answer.text);
    const refusedItems = new Set(
      (Array.isArray(replies) ? replies : [])
        .filter((r) => r && r.code !== undefined && String(r.code) !== '101')
        .map((r) => `${r.establishmentNumber}:${r.idChargeback}`),
    );
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

export interface RefuseBody {
  establishmentNumber: string | number;
  idChargeback: string | number;
  IdCase: string;
  reasonToRefuse?: string;
  file: string;
  fileName: string;
  userName?: string;
  [key: string]: unknown;
}

export async function refuseChargeback(scope: EstablishmentScope, body: RefuseBody): Promise<BufferedAnswer> {
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
 * establishments: by our stored chargeback record (from the acquirer's notice, never from what a
 * caller sent), and by the acquirer's own answer, whose steps name their establishment. The system
 * token reads any. The answer is small JSON, so it is read whole to be checked.
 */
export async function chargebackLifecycle(scope: EstablishmentScope, idCase: string): Promise<BufferedAnswer> {
  if (scope !== null && !(await isCaseOfScope(scope, idCase)))
    throw forbidden(`Case ${idCase} is not a chargeback of this merchant.`);
  const answer = await buffered(await callChargebackApi({ method: 'GET', path: `/lifecycle/${segment(idCase)}` }));
  if (scope !== null && answer.status >= 200 && answer.status < 300) {
    const steps = parseJson(answer.text);
    const named = (Array.isArray(steps) ? steps : [])
      .map((step) => step?.establishmentNumber)
      .filter((ec) => ec !== undefined && ec !== null);
    if (named.some((ec) => !scope.includes(String(ec))))
      throw forbidden(`Case ${idCase} is not a chargeback of this merchant.`);
  }
  return answer;
}

/** Whether a stored chargeback of one of these establishments has this case (an equality on idCase: an index read). */
async function isCaseOfScope(scope: string[], idCase: string): Promise<boolean> {
  if (!scope.length) return false;
  const rows = await ChargebackModel.find({ idCase }, { establishmentNumber: 1 }).lean();
  return rows.some((row) => scope.includes(row.establishmentNumber));
}

export async function listIssuerDocuments(
  scope: EstablishmentScope,
  establishmentNumber: string,
  idChargeback: string,
): Promise<ChargebackResponse> {
  assertInScope(scope, [establishmentNumber]);
  return callChargebackApi({
    method: 'GET',
    path: `/ListIssuerDocuments/${segment(establishmentNumber)}/${segment(idChargeback)}`,
  });
}

export async function downloadIssuerDocument(
  scope: EstablishmentScope,
  establishmentNumber: string,
  idDocumento: string,
): Promise<ChargebackResponse> {
  assertInScope(scope, [establishmentNumber]);
  return callChargebackApi({
    method: 'GET',
    path: `/DocumentIssuer/${segment(establishmentNumber)}/${segment(idDocumento)}`,
  });
}

export async function supportDocument(
  scope: EstablishmentScope,
  establishmentNumber: string,
  idChargeback: string,
): Promise<ChargebackResponse> {
  assertInScope(scope, [establishmentNumber]);
  return callChargebackApi({
    method: 'GET',
    path: `/supportDocument/${segment(establishmentNumber)}/${segment(idChargeback)}`,
  });
}

function parseJson(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

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
      const idCase =
        (await ChargebackModel.findById(`${item.establishmentNumber}:${item.idChargeback}`, { idCase: 1 }).lean())
          ?.idCase ?? null;
      await insertEvent({
        _id: `${kind}:${item.establishmentNumber}:${item.idChargeback}`,
        kind,
        ...item,
        idCase,
        at: now,
        data: '{}',
      });
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

// ---------------------------------------------------------------------------------------------
// Notices

/** JSON with keys sorted at every level: the same notice gives the same text however it was serialised. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value as object)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function noticeFingerprint(payload: unknown): string {
  return crypto.createHash('sha256').update(canonicalJson(payload)).digest('hex');
}

const id = Joi.alternatives(Joi.number().integer().min(0), Joi.string().pattern(/^[A-Za-z0-9]{1,20}$/)).messages({
  'alternatives.match': 'Must be a number or 1 to 20 letters and digits.',
});
const dateText = Joi.string().isoDate().messages({ 'string.isoDate': 'Must be a date yyyy-MM-dd.' });

const lifecycleNoticeSchema = Joi.object({
  establishmentNumber: id.required(),
  caseId: id.required(),
  message: Joi.string().trim().min(1).max(200).required(),
  executionDate: dateText,
  ActionCicleDate: dateText.required(),
}).unknown(true);

const newChargebackNoticeSchema = Joi.object({
  establishmentNumber: id.required(),
  idCase: id.required(),
  idChargeback: id.required(),
  treatmentDeadline: Joi.string().allow('', null),
  chargebackDetails: Joi.object({ receptionDate: Joi.string().allow('', null) }).unknown(true),
}).unknown(true);

export function noticeKindOf(payload: Record<string, unknown>): NoticeKind {
  return 'ActionCicleDate' in payload || ('caseId' in payload && 'message' in payload) ? 'lifecycle' : 'new';
}

function validateNotice(payload: unknown): NoticeKind {
  if (!payload || typeof payload !== 'object' || Array.isArray(payload))
    throw badRequest({ non_field_errors: ['A notice is one JSON object.'] });
  const kind = noticeKindOf(payload as Record<string, unknown>);
  const { error } = (kind === 'lifecycle' ? lifecycleNoticeSchema : newChargebackNoticeSchema).validate(payload, {
    abortEarly: false,
  });
  if (error) {
    const fields: Record<string, string[]> = {};
    for (const detail of error.details)
      (fields[detail.path.join('.') || 'non_field_errors'] ??= []).push(detail.message);
    throw badRequest(fields);
  }
  return kind;
}

/**
 * Stores the notice once (its fingerprint is its _id) and queues its application. Answering only
 * after the insert means an acknowledged notice is never lost; if queueing fails the caller gets an
 * error, the acquirer retries, and the retry (a duplicate) queues it again under the record's job id.
 * Round trips: one insert and one queue add; a duplicate adds one read.
 */
export async function receiveNotice(
  payload: unknown,
  received?: { body?: Buffer; contentType?: string },
): Promise<{ noticeId: string; duplicate: boolean }> {
  const kind = validateNotice(payload);
  const noticeId = noticeFingerprint(payload);
  // The bytes as the acquirer sent them are the evidence of what it said, kept as they came (base64:
  // the charset may not be UTF-8); the worker applies the parsed JSON. The fingerprint is of the
  // parsed content, so the same notice sent again with other spacing or key order is still one.
  const evidence = received?.body?.length
    ? { receivedBody: received.body.toString('base64'), receivedContentType: received.contentType ?? '' }
    : {};
  let jobId = newNoticeJobId(noticeId);
  const inserted = await insertOnce(ChargebackNoticeModel, {
    _id: noticeId,
    kind,
    raw: JSON.stringify(payload),
    ...evidence,
    receivedAt: new Date(),
    appliedAt: null,
    applied: false,
    jobId,
  });
  if (inserted === 'exists') {
    const stored = await ChargebackNoticeModel.findById(noticeId, { appliedAt: 1, jobId: 1 }).lean();
    if (stored?.appliedAt) return { noticeId, duplicate: true };
    // Same record, same job: the add is a no-op while that job exists. A record stored before job ids
    // were kept gets a new one here, and the sweep covers it if this add were lost.
    jobId = stored?.jobId ?? jobId;
    await enqueueNotice({ noticeId, kind, raw: JSON.stringify(payload) }, jobId);
    return { noticeId, duplicate: true };
  }
  await enqueueNotice({ noticeId, kind, raw: JSON.stringify(payload) }, jobId);
  return { noticeId, duplicate: false };
}

function newNoticeJobId(noticeId: string): string {
  return recordJobId('cbn', noticeId);
}

/**
 * What a notice job carries: the record's id, and its content (kind and JSON, a few hundred bytes),
 * so the worker need not read back what the intake just wrote. The content is checked against its
 * fingerprint (the record's _id) before it is used; a job without it reads the record.
 */
export interface NoticeJobData {
  noticeId: string;
  kind?: NoticeKind;
  raw?: string;
}

/** `attempts`: the queue's default (8, backing off over about 4 minutes) unless given. */
export async function enqueueNotice(data: NoticeJobData, jobId: string, attempts?: number): Promise<void> {
  await getQueue(CHARGEBACK_NOTICE_QUEUE).add('apply', data, attempts === undefined ? { jobId } : { jobId, attempts });
}

/**
 * Safety net for the scheduler: every notice stored but still unapplied after `graceMs` is queued
 * again under a new job id, whatever became of its old job (completed, failed, removed, or never
 * added); only a job that will still run by itself (waiting, delayed, active) is left to run.
 * Applying is idempotent, so a second job for one notice costs work, never a wrong state. A notice
 * waiting for the acquirer to confirm it gets one attempt per sweep (it had its backed-off ones).
 */
export async function requeueUnappliedNotices(now = new Date(), graceMs = 5 * 60_000, batch = 500): Promise<number> {
  // By the indexed equality `applied: false` (FerretDB cannot index null): only unapplied notices are read.
  const stale = await ChargebackNoticeModel.find(
    { applied: false, receivedAt: trusted({ $lt: new Date(now.getTime() - graceMs) }) },
    { _id: 1, jobId: 1, kind: 1, raw: 1, unconfirmedAt: 1 },
  )
    .sort({ receivedAt: 1 })
    .limit(batch)
    .lean();
  const queue = getQueue(CHARGEBACK_NOTICE_QUEUE);
  let queued = 0;
  for (const { _id, jobId, kind, raw, unconfirmedAt } of stale) {
    if (await jobWillRun(queue, jobId)) continue;
    const next = newNoticeJobId(_id);
    // Recorded first: if the add then fails, the next sweep finds no job under it and adds again.
    await ChargebackNoticeModel.updateOne({ _id, appliedAt: null }, { $set: { jobId: next } });
    await enqueueNotice({ noticeId: _id, kind, raw }, next, unconfirmedAt ? 1 : undefined);
    queued++;
  }
  return queued;
}

/** For /metrics: notices stored but unapplied for over 15 minutes (three sweeps missed them). */
export async function chargebackNoticesNeedingAttention(now = new Date()): Promise<Record<string, number>> {
  const unapplied = await ChargebackNoticeModel.countDocuments({
    applied: false,
    receivedAt: trusted({ $lt: new Date(now.getTime() - 15 * 60_000) }),
  });
  return { chargeback_notice_unapplied_over_15m: unapplied };
}

/** The scheduler task form (a SchedulerTask of workers/scheduler.ts). */
export async function requeueStaleChargebackNotices(now: Date): Promise<void> {
  await requeueUnappliedNotices(now);
}

function dateOf(text: string): Date {
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text);
  return Number.isNaN(date.getTime()) ? new Date(0) : date;
}

export type ApplyResult = 'applied' | 'unknown' | 'unconfirmed';

/**
 * How long a lifecycle notice waits for the acquirer's lifecycle to show its step: its API may lag
 * its notifications, and a real outcome must not be dropped for that. Past this, it is settled as
 * unconfirmed (not applied).
 */
export const NOTICE_CONFIRMATION_WINDOW_MS = 2 * 24 * 3600_000;

/**
 * Applies a stored notice: records its facts (each once) and recomputes the chargebacks they touch.
 * Idempotent. A notice is only as trustworthy as the static secret header it came with, so a
 * lifecycle step (it moves a chargeback towards its outcome) is applied only once the acquirer's
 * own lifecycle of the case shows it, for the notice's establishment: one acquirer call here, in
 * the worker, never on the intake request. Not shown yet: 'unconfirmed'. On a job's last attempt
 * the notice is marked (unconfirmedAt) and stays unapplied, so the sweep asks again every few
 * minutes; once NOTICE_CONFIRMATION_WINDOW_MS has passed since it was received, it is settled as
 * unconfirmed and left alone. An acquirer that cannot answer throws: the job retries, and the
 * notice stays unapplied.
 */
export async function applyNotice(
  noticeId: string,
  options: { lastAttempt?: boolean; carried?: Omit<NoticeJobData, 'noticeId'>; now?: Date } = {},
): Promise<ApplyResult> {
  const notice =
    contentOf(noticeId, options.carried) ??
    (await ChargebackNoticeModel.findById(noticeId, { kind: 1, raw: 1 }).lean());
  if (!notice) return 'unknown';
  const payload = JSON.parse(notice.raw) as Record<string, unknown>;
  const establishmentNumber = String(payload.establishmentNumber);
  if (notice.kind === 'new') {
    const idChargeback = String(payload.idChargeback);
    const details = (payload.chargebackDetails ?? {}) as Record<string, unknown>;
    await insertEvent({
      _id: `received:${establishmentNumber}:${idChargeback}`,
      kind: 'received',
      establishmentNumber,
      idChargeback,
      idCase: String(payload.idCase),
      at: dateOf(String(details.receptionDate ?? '')),
      data: notice.raw,
    });
    await projectReceived(establishmentNumber, idChargeback, String(payload.idCase));
  } else {
    const idCase = String(payload.caseId);
    const message = String(payload.message).trim();
    const date = String(payload.ActionCicleDate);
    if (!(await acquirerShowsStep(establishmentNumber, idCase, message, date))) {
      if (!options.lastAttempt) return 'unconfirmed';
      const now = options.now ?? new Date();
      const receivedAt = (await ChargebackNoticeModel.findById(noticeId, { receivedAt: 1 }).lean())?.receivedAt ?? now;
      if (now.getTime() - receivedAt.getTime() < NOTICE_CONFIRMATION_WINDOW_MS) {
        logger.warn(
          { noticeId, establishmentNumber, idCase },
          'chargeback lifecycle notice not confirmed by the acquirer yet: asked again by the sweep',
        );
        await ChargebackNoticeModel.updateOne({ _id: noticeId, appliedAt: null }, { $set: { unconfirmedAt: now } });
        return 'unconfirmed';
      }
      logger.warn(
        { noticeId, establishmentNumber, idCase },
        'chargeback lifecycle notice never confirmed by the acquirer: not applied',
      );
      await ChargebackNoticeModel.updateOne(
        { _id: noticeId, appliedAt: null },
        { $set: { appliedAt: now, applied: true, result: 'unconfirmed' } },
      );
      return 'unconfirmed';
    }
    await insertEvent({
      _id: lifecycleEventId(establishmentNumber, idCase, date, message),
      kind: 'lifecycle',
      establishmentNumber,
      idChargeback: null,
      idCase,
      at: dateOf(date),
      data: JSON.stringify({ message, executionDate: payload.executionDate ?? null, ActionCicleDate: date }),
    });
    // The case's events name its chargebacks, and are the first read of each one's refresh.
    const caseEvents = await eventsOfCase(establishmentNumber, idCase);
    const chargebacks = new Set(caseEvents.map((e) => e.idChargeback).filter((c): c is string => c !== null));
    for (const idChargeback of chargebacks)
      await refreshChargeback(establishmentNumber, idChargeback, idCase, caseEvents);
  }
  await ChargebackNoticeModel.updateOne(
    { _id: noticeId, appliedAt: null },
    { $set: { appliedAt: new Date(), applied: true, result: 'applied' } },
  );
  return 'applied';
}

/** The content a job carried, when it is the content of this notice (its fingerprint is the notice's _id). */
function contentOf(
  noticeId: string,
  carried: Omit<NoticeJobData, 'noticeId'> | undefined,
): { kind: NoticeKind; raw: string } | null {
  if (!carried?.raw || !carried.kind) return null;
  const payload = parseJson(carried.raw);
  if (payload === undefined || noticeFingerprint(payload) !== noticeId || noticeKindOf(payload) !== carried.kind)
    return null;
  return { kind: carried.kind, raw: carried.raw };
}

/**
 * Whether the acquirer's lifecycle of the case has this step (same text once normalised, same day)
 * for this establishment; a notice's date may carry a time, the day is what is compared. Steps that name no
 * establishment are taken as the case's (the call is by
 * case). Throws when the acquirer does not answer 2xx: that is no answer, not a denial.
 */
async function acquirerShowsStep(
  establishmentNumber: string,
  idCase: string,
  message: string,
  date: string,
): Promise<boolean> {
  const answer = await buffered(await callChargebackApi({ method: 'GET', path: `/lifecycle/${segment(idCase)}` }));
  if (answer.status < 200 || answer.status >= 300)
    throw new Error(`the acquirer answered ${answer.status} to the lifecycle of case ${idCase}`);
  const steps = parseJson(answer.text);
  const wanted = normalise(message);
  return (Array.isArray(steps) ? steps : []).some(
    (step) =>
      step &&
      normalise(String(step.message ?? step.action ?? '')) === wanted &&
      String(step.ActionCicleDate ?? step.actionDate ?? '').slice(0, 10) === date.slice(0, 10) &&
      (step.establishmentNumber === undefined ||
        step.establishmentNumber === null ||
        String(step.establishmentNumber) === establishmentNumber),
  );
}

// ---------------------------------------------------------------------------------------------
// Views

function scopeFilter(scope: EstablishmentScope): Record<string, unknown> {
  return scope === null ? {} : { establishmentNumber: trusted({ $in: scope }) };
}

export function pendingItem(chargeback: Chargeback): Record<string, unknown> {
  const item = parseJson(chargeback.item) ?? {};
  return {
    ...item,
    idCase: chargeback.idCase,
    idChargeback: chargeback.idChargeback,
    establishmentNumber: item.establishmentNumber ?? chargeback.establishmentNumber,
    status: 'PENDING',
  };
}

/** Pending chargebacks, nearest treatment deadline first. */
export async function pendingChargebacks(scope: EstablishmentScope): Promise<Record<string, unknown>[]> {
  const rows = await ChargebackModel.find({ status: 'PENDING', ...scopeFilter(scope) })
    .sort({ treatmentDeadline: 1, _id: 1 })
    .lean();
  return rows.map(pendingItem);
}

export async function pendingCount(scope: EstablishmentScope): Promise<number> {
  return ChargebackModel.countDocuments({ status: 'PENDING', ...scopeFilter(scope) });
}

const OUTCOME: Partial<Record<ChargebackStatus, string>> = { ACCEPTED: 'ACCEPTED', WON: 'WIN', LOST: 'LOSS' };

export function historyItem(chargeback: Chargeback): Record<string, unknown> {
  const item = parseJson(chargeback.item) ?? {};
  const lifecycle = parseJson(chargeback.lifecycle) ?? [];
  return {
    ...item,
    idCase: chargeback.idCase,
    idChargeback: chargeback.idChargeback,
    establishmentNumber: item.establishmentNumber ?? chargeback.establishmentNumber,
    // How the merchant answered through this service; null when it was answered elsewhere (acquirer portal, deadline).
    handling: chargeback.acceptedAt ? 'ACCEPTED' : chargeback.refusedAt ? 'REFUSED' : null,
    outcome: OUTCOME[chargeback.status] ?? null,
    outcomeDate: chargeback.outcomeAt?.toISOString() ?? null,
    acceptedAt: chargeback.acceptedAt?.toISOString() ?? null,
    refusedAt: chargeback.refusedAt?.toISOString() ?? null,
    lifecycle,
  };
}

const HISTORY_STATUSES: ChargebackStatus[] = ['ACCEPTED', 'WON', 'LOST'];

/**
 * Accepted chargebacks and refused ones with a final outcome, most recent outcome first. Each
 * query matches by equality on an indexed field (one per establishment of the merchant, or one per
 * status for the whole platform): `$in` is no index read on FerretDB. Each returns its first
 * offset + limit rows, so the merged page is the same as one query's.
 */
export async function chargebackHistory(
  scope: EstablishmentScope,
  limit: number,
  offset: number,
): Promise<Record<string, unknown>[]> {
  if (limit > HISTORY_MAX_LIMIT || limit < 1 || offset < 0)
    throw new ApiError(400, { limit: [`Must be between 1 and ${HISTORY_MAX_LIMIT}.`] });
  const filters =
    scope === null
      ? HISTORY_STATUSES.map((status) => ({ status }))
      : [...new Set(scope)].map((establishmentNumber) => ({
          establishmentNumber,
          status: trusted({ $in: HISTORY_STATUSES }),
        }));
  const parts = await Promise.all(
    filters.map((filter) =>
      ChargebackModel.find(filter)
        .sort({ outcomeAt: -1, _id: 1 })
        .limit(offset + limit)
        .lean(),
    ),
  );
  const byOutcome = (a: Chargeback, b: Chargeback) =>
    (b.outcomeAt?.getTime() ?? 0) - (a.outcomeAt?.getTime() ?? 0) || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0);
  return parts
    .flat()
    .sort(byOutcome)
    .slice(offset, offset + limit)
    .map(historyItem);
}
