/**
 * Chargeback notices from the acquirer: stored once (their fingerprint is their _id) before the
 * 202, queued, and applied by a worker (their facts recorded once, their chargebacks recomputed);
 * a sweep queues again what was stored and never applied.
 */
import { Joi } from 'celebrate';
import { insertOnce } from '../db/claims';
import { badRequest } from '../platform/errors';
import { logger } from '../platform/logger';
import { jobWillRun } from '../queue/kept-jobs';
import {
  chargebackNoticeJobId,
  chargebackNoticeQueue,
  enqueueChargebackNotice,
  type ChargebackNoticeResult,
} from '../../jobs/chargeback-notice';
import { fetchCaseItems, fetchLifecycle, parseJson, trusted } from './common';
import { establishmentNumberOf } from '../merchants/establishments';
import { ChargebackNoticeModel, type NoticeKind } from './model';
import { lifecycleNotice, noticeId } from './schemas';
import { fieldErrorsOf } from '../http/schema';
import {
  eventsOfCase,
  insertEvent,
  lifecycleEventId,
  normalise,
  projectReceived,
  refreshChargeback,
} from './projection';
import { requestHash } from '../payments/idempotency';

/**
 * The same notice gives the same fingerprint however it was serialised: the project's one
 * canonical hash (sorted keys at every level), as the Idempotency-Key compares bodies.
 */
export function noticeFingerprint(payload: unknown): string {
  return requestHash(payload);
}

/** Only what this service reads of a new chargeback is checked: the rest is the acquirer's to describe. */
const newChargebackNoticeSchema = Joi.object({
  establishmentNumber: noticeId().required(),
  idCase: noticeId().required(),
  idChargeback: noticeId().required(),
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
  const { error } = (kind === 'lifecycle' ? lifecycleNotice : newChargebackNoticeSchema).validate(payload, {
    abortEarly: false,
  });
  if (error) throw badRequest(fieldErrorsOf(error));
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
  let jobId = chargebackNoticeJobId(noticeId);
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
    await enqueueChargebackNotice({ noticeId }, jobId);
    return { noticeId, duplicate: true };
  }
  await enqueueChargebackNotice({ noticeId }, jobId);
  return { noticeId, duplicate: false };
}

/**
 * Safety net for the scheduler: every notice stored but still unapplied after `graceMs` is queued
 * again under a new job id, whatever became of its old job (completed, failed, removed, or never
 * added); only a job that will still run by itself (waiting, delayed, active) is left to run.
 * Applying is idempotent, so a second job for one notice costs work, never a wrong state. A notice
 * waiting for the acquirer to confirm it gets one attempt per sweep (it had its backed-off ones).
 *
 * Fair to every notice, however many the acquirer never confirms (a source may post any number
 * with the static secret): notices no job gave up on come first, then those waiting for
 * confirmation, least recently asked first (each attempt moves its unconfirmedAt to the back), so
 * a batch full of unconfirmable ones never holds back a newer notice; and one establishment (the
 * source a notice names) gets at most `perSource` jobs a sweep, so its flood cannot fill the queue.
 */
export async function requeueUnappliedNotices(
  now = new Date(),
  graceMs = 5 * 60_000,
  batch = 500,
  perSource = 50,
): Promise<number> {
  // By the indexed equality `applied: false` (FerretDB cannot index null): only unapplied notices are read.
  const stale = await ChargebackNoticeModel.find(
    { applied: false, receivedAt: trusted({ $lt: new Date(now.getTime() - graceMs) }) },
    { _id: 1, jobId: 1, raw: 1, unconfirmedAt: 1 },
  )
    .sort({ unconfirmedAt: 1, receivedAt: 1 })
    .limit(batch)
    .lean();
  const queue = chargebackNoticeQueue();
  const queuedBySource = new Map<string, number>();
  let queued = 0;
  for (const { _id, jobId, raw, unconfirmedAt } of stale) {
    const source = establishmentNumberOf(parseJson(raw)?.establishmentNumber);
    const ofSource = queuedBySource.get(source) ?? 0;
    if (ofSource >= perSource || (await jobWillRun(queue, jobId))) continue;
    const next = chargebackNoticeJobId(_id);
    // Recorded first: if the add then fails, the next sweep finds no job under it and adds again.
    await ChargebackNoticeModel.updateOne({ _id, appliedAt: null }, { $set: { jobId: next } });
    await enqueueChargebackNotice({ noticeId: _id }, next, unconfirmedAt ? 1 : undefined);
    queuedBySource.set(source, ofSource + 1);
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

export type ApplyResult = ChargebackNoticeResult;

/**
 * How long a notice waits for the acquirer to show what it says: its API may lag its
 * notifications, and a real chargeback or outcome must not be dropped for that. Past this, it is
 * settled as unconfirmed (not applied).
 */
export const NOTICE_CONFIRMATION_WINDOW_MS = 2 * 24 * 3600_000;

/**
 * Applies a stored notice: records its facts (each once) and recomputes the chargebacks they touch.
 * Idempotent. Its content is the stored record's, read here: a job only names it, since anyone who
 * can add a job (the dashboard, Redis) could make one up. A notice is only as trustworthy as the
 * static secret header it came with, so it is a hint the acquirer must confirm, one acquirer call
 * here in the worker (never on the intake request): a new chargeback counts once the acquirer's
 * consult shows it for the notice's establishment, and what is recorded is the acquirer's item,
 * not the notice's (so a forged notice of a real chargeback, first to arrive, records the
 * acquirer's deadline); a lifecycle step once the acquirer's lifecycle of the case shows it, for
 * the notice's establishment. Not shown yet: 'unconfirmed'. On a job's last attempt the notice is
 * marked (unconfirmedAt) and stays unapplied, so the sweep asks again every few minutes; once
 * NOTICE_CONFIRMATION_WINDOW_MS has passed since it was received, it is settled as unconfirmed and
 * left alone. An acquirer that cannot answer throws: the job retries, and the notice stays unapplied.
 */
export async function applyNotice(
  noticeId: string,
  options: { lastAttempt?: boolean; now?: Date } = {},
): Promise<ApplyResult> {
  const notice = await ChargebackNoticeModel.findById(noticeId, { kind: 1, raw: 1, receivedAt: 1 }).lean();
  if (!notice) return 'unknown';
  const payload = JSON.parse(notice.raw) as Record<string, unknown>;
  const establishmentNumber = establishmentNumberOf(payload.establishmentNumber);
  if (notice.kind === 'new') {
    const idChargeback = String(payload.idChargeback);
    const item = await acquirerItemOf(establishmentNumber, String(payload.idCase), idChargeback, payload);
    if (!item) return settleUnconfirmed(noticeId, notice.receivedAt, establishmentNumber, options);
    const idCase = String(item.idCase);
    const details = (item.chargebackDetails ?? {}) as Record<string, unknown>;
    await insertEvent({
      _id: `received:${establishmentNumber}:${idChargeback}`,
      kind: 'received',
      establishmentNumber,
      idChargeback,
      idCase,
      at: dateOf(String(details.receptionDate ?? '')),
      data: JSON.stringify(item),
    });
    // Its account events are owed and recorded by the projection's write (src/chargebacks/projection.ts).
    await projectReceived(establishmentNumber, idChargeback, idCase);
  } else {
    const idCase = String(payload.caseId);
    const message = String(payload.message).trim();
    const date = String(payload.ActionCicleDate);
    if (!(await acquirerShowsStep(establishmentNumber, idCase, message, date)))
      return settleUnconfirmed(noticeId, notice.receivedAt, establishmentNumber, options);
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

/** A notice the acquirer does not show (yet): see applyNotice. */
async function settleUnconfirmed(
  noticeId: string,
  receivedAt: Date,
  establishmentNumber: string,
  options: { lastAttempt?: boolean; now?: Date },
): Promise<ApplyResult> {
  if (!options.lastAttempt) return 'unconfirmed';
  const now = options.now ?? new Date();
  if (now.getTime() - receivedAt.getTime() < NOTICE_CONFIRMATION_WINDOW_MS) {
    logger.warn(
      { noticeId, establishmentNumber },
      'chargeback notice not confirmed by the acquirer yet: asked again by the sweep',
    );
    await ChargebackNoticeModel.updateOne({ _id: noticeId, appliedAt: null }, { $set: { unconfirmedAt: now } });
    return 'unconfirmed';
  }
  logger.warn({ noticeId, establishmentNumber }, 'chargeback notice never confirmed by the acquirer: not applied');
  await ChargebackNoticeModel.updateOne(
    { _id: noticeId, appliedAt: null },
    { $set: { appliedAt: now, applied: true, result: 'unconfirmed' } },
  );
  return 'unconfirmed';
}

/** How far around a notice's reception date a handled chargeback is looked for (the acquirer allows 180 days). */
const DONE_PERIOD_DAYS = 90;

/**
 * The acquirer's consult item of this chargeback of this establishment and case, or null when its
 * consult does not show it: pending first, then handled (accepted or refused before its notice was
 * applied) in the period around the notice's reception date. The item must name the establishment.
 */
async function acquirerItemOf(
  establishmentNumber: string,
  idCase: string,
  idChargeback: string,
  notice: Record<string, unknown>,
): Promise<Record<string, unknown> | null> {
  const isThis = (item: Record<string, unknown>) =>
    String(item.idChargeback) === idChargeback &&
    String(item.idCase) === idCase &&
    item.establishmentNumber !== undefined &&
    item.establishmentNumber !== null &&
    establishmentNumberOf(item.establishmentNumber) === establishmentNumber;
  const pending = (await fetchCaseItems(establishmentNumber, idCase, 'PENDING')).find(isThis);
  if (pending) return pending;
  const reception = dateOf(String((notice.chargebackDetails as Record<string, unknown>)?.receptionDate ?? ''));
  const around = reception.getTime() ? reception : new Date();
  const day = (offset: number) => new Date(around.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
  const period = { from: day(-DONE_PERIOD_DAYS), to: day(DONE_PERIOD_DAYS) };
  return (await fetchCaseItems(establishmentNumber, idCase, 'DONE', period)).find(isThis) ?? null;
}

/**
 * Whether the acquirer's lifecycle of the case has this step (same text once normalised, same day)
 * for this establishment; a notice's date may carry a time, the day is what is compared. A step
 * that names no establishment confirms nothing: the call is by case, so only the step's own
 * establishment ties it to the notice's. Throws when the acquirer does not answer 2xx: that is no
 * answer, not a denial.
 */
async function acquirerShowsStep(
  establishmentNumber: string,
  idCase: string,
  message: string,
  date: string,
): Promise<boolean> {
  const answer = await fetchLifecycle(idCase);
  if (answer.status < 200 || answer.status >= 300)
    throw new Error(`the acquirer answered ${answer.status} to the lifecycle of case ${idCase}`);
  const steps = parseJson(answer.text);
  const wanted = normalise(message);
  return (Array.isArray(steps) ? steps : []).some(
    (step) =>
      step &&
      normalise(String(step.message ?? step.action ?? '')) === wanted &&
      String(step.ActionCicleDate ?? step.actionDate ?? '').slice(0, 10) === date.slice(0, 10) &&
      step.establishmentNumber !== undefined &&
      step.establishmentNumber !== null &&
      establishmentNumberOf(step.establishmentNumber) === establishmentNumber,
  );
}
