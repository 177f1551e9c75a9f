/**
 * Issue 15: each attack of the adversarial review on chargebacks, reproduced, and shown to fail now.
 */
import '../helpers/env';
import test from 'ava';
import { bearer, newMerchant } from '../helpers/identity';
import { eventually } from '../helpers/processes';
import {
  announceChargeback,
  decideStep,
  sandboxNotify as notifyFromSandbox,
  startChargebackStack,
  type ChargebackStack,
} from './stack';
import {
  lifecycleNotice,
  newChargebackNotice as fullNotice,
  newEstablishment,
  newNoticeIds,
  postChargebackNotice,
} from '../helpers/chargeback-notices';
import {
  applyNotice,
  NOTICE_CONFIRMATION_WINDOW_MS,
  consultChargebacks,
  refuseChargeback,
  noticeFingerprint,
  receiveNotice,
  requeueUnappliedNotices,
} from '../../src/chargebacks';
import { CHARGEBACK_NOTICE_QUEUE } from '../../jobs/chargeback-notice';
import { getQueue } from '../../src/queue/queues';
import { runMigrations } from '../../src/db/migrations/runner';
import { ChargebackEventModel, ChargebackModel, ChargebackNoticeModel } from '../../src/chargebacks/model';
import { refusalWithPdf } from './files';
import { call, callJson } from '../helpers/http';

const CB = '/api/v1/acquirer/chargeback';
/** The sandbox's establishment whose accept and refuse always succeed, whatever case they name. */
const ALWAYS_SUCCEEDS = '2222222222';
let stack: ChargebackStack;

test.before(async () => {
  stack = await startChargebackStack({ noticeWorker: true });
});
test.after.always(() => stack?.close());

/** A notice the sandbox sends to our intake (its own case, so the acquirer knows it), once applied. */
const sandboxNotify = (body: Record<string, unknown>) => notifyFromSandbox(stack, body);

// --- item 1: another merchant's lifecycle through a refusal naming its case -----------------------------

test("a merchant cannot read another merchant's lifecycle by refusing with the other's IdCase", async (t) => {
  const ecA = newEstablishment();
  const victim = await newMerchant({ establishmentNumbers: [ecA] });
  const attacker = await newMerchant({ establishmentNumbers: [ALWAYS_SUCCEEDS] });
  const notice = await sandboxNotify({ kind: 'new', establishmentNumber: ecA });
  await sandboxNotify({
    kind: 'lifecycle',
    establishmentNumber: ecA,
    caseId: notice.idCase,
    message: 'Em análise com o Emissor',
    date: '2030-06-01',
  });
  t.is(
    (await call(stack, 'GET', `${CB}/lifecycle/${notice.idCase}/`, bearer(victim.accessToken))).status,
    200,
    'the owner reads its case',
  );
  t.is((await call(stack, 'GET', `${CB}/lifecycle/${notice.idCase}/`, bearer(attacker.accessToken))).status, 403);

  const refusal = refusalWithPdf(ALWAYS_SUCCEEDS, { idChargeback: 12345, idCase: notice.idCase });
  const refused = await callJson(stack, 'PUT', `${CB}/refuse/`, bearer(attacker.accessToken), refusal);
  t.is(refused.status, 200, 'the acquirer accepts the refusal of its own chargeback');
  refused.body;

  const after = await callJson(stack, 'GET', `${CB}/lifecycle/${notice.idCase}/`, bearer(attacker.accessToken));
  t.is(after.status, 403, "the case named by the caller did not become the caller's");
  t.deepEqual(after.body, { detail: `Case ${notice.idCase} is not a chargeback of this merchant.` });
  t.is(
    await ChargebackEventModel.countDocuments({ establishmentNumber: ALWAYS_SUCCEEDS, idCase: String(notice.idCase) }),
    0,
  );
  t.is(
    await ChargebackModel.countDocuments({ establishmentNumber: ALWAYS_SUCCEEDS, idCase: String(notice.idCase) }),
    0,
  );
  t.is(
    (await ChargebackModel.findById(`${ALWAYS_SUCCEEDS}:12345`).lean())?.status,
    'REFUSED',
    'the refusal itself is recorded, without a case',
  );
});

test("a merchant's own refusal of a notified chargeback records the case of the stored record", async (t) => {
  const ec = newEstablishment();
  const owner = await newMerchant({ establishmentNumbers: [ec] });
  const notice = await sandboxNotify({ kind: 'new', establishmentNumber: ec });
  const res = await call(stack, 'PUT', `${CB}/refuse/`, bearer(owner.accessToken), refusalWithPdf(ec, notice));
  t.is(res.status, 200);
  t.is(
    (await ChargebackEventModel.findById(`refused:${ec}:${notice.idChargeback}`).lean())?.idCase,
    String(notice.idCase),
  );
  const lifecycle = await callJson(stack, 'GET', `${CB}/lifecycle/${notice.idCase}/`, bearer(owner.accessToken));
  t.is(lifecycle.status, 200);
  t.is(lifecycle.body[0].establishmentNumber, Number(ec));
});

// --- item 5: a notice lost to a job id ---------------------------------------------------------------

/** A new chargeback the acquirer shows (its consult has it), and the notice of it. */
async function newChargebackNotice(ec: string) {
  const notice = fullNotice(ec, newNoticeIds());
  await announceChargeback(stack, notice);
  return notice;
}
const post = (body: unknown) => postChargebackNotice(stack.url, body);

/** A notice stored an hour ago and not applied yet, whose job was queued under `jobId`. */
const storeUnappliedNotice = (notice: object, jobId: string) =>
  ChargebackNoticeModel.create({
    _id: noticeFingerprint(notice),
    kind: 'new',
    raw: JSON.stringify(notice),
    receivedAt: new Date(Date.now() - 3_600_000),
    appliedAt: null,
    jobId,
  });

/** A job that completes without applying anything (it names no stored notice), under the given id. */
async function completedJobUnder(jobId: string): Promise<void> {
  const queue = getQueue(CHARGEBACK_NOTICE_QUEUE);
  await queue.add('apply', { noticeId: `nothing-${jobId}` }, { jobId });
  await eventually(async () => (await (await queue.getJob(jobId))?.getState()) === 'completed');
}

test.serial('a completed job left in Redis under the content-derived id does not swallow a new notice', async (t) => {
  const ec = newEstablishment();
  const notice = await newChargebackNotice(ec);
  // What another run (or an earlier record of the same content) left behind under the old id scheme.
  await completedJobUnder(`cbn-${noticeFingerprint(notice)}`);
  const res = await post(notice);
  t.is(res.status, 202);
  t.truthy(
    await eventually(async () => (await ChargebackNoticeModel.findById(noticeFingerprint(notice)).lean())?.appliedAt),
  );
  t.is(await ChargebackModel.countDocuments({ establishmentNumber: ec, status: 'PENDING' }), 1);
});

test.serial(
  'the sweep queues again a stored unapplied notice whose job completed, and leaves a live job alone',
  async (t) => {
    const ec = newEstablishment();
    const notice = await newChargebackNotice(ec);
    const oldJobId = `cbn-${noticeFingerprint(notice)}-old`;
    await completedJobUnder(oldJobId);
    await storeUnappliedNotice(notice, oldJobId);
    t.is(await requeueUnappliedNotices(new Date(), 60_000), 1);
    t.truthy(
      await eventually(async () => (await ChargebackNoticeModel.findById(noticeFingerprint(notice)).lean())?.appliedAt),
    );
    t.not((await ChargebackNoticeModel.findById(noticeFingerprint(notice)).lean())?.jobId, oldJobId);

    // A notice whose job is still waiting (delayed here) is not queued twice.
    const waiting = await newChargebackNotice(ec);
    const waitingJobId = `cbn-${noticeFingerprint(waiting)}-waiting`;
    await getQueue(CHARGEBACK_NOTICE_QUEUE).add(
      'apply',
      { noticeId: noticeFingerprint(waiting) },
      { jobId: waitingJobId, delay: 60_000 },
    );
    await storeUnappliedNotice(waiting, waitingJobId);
    t.is(await requeueUnappliedNotices(new Date(), 60_000), 0);
    await (await getQueue(CHARGEBACK_NOTICE_QUEUE).getJob(waitingJobId))?.remove();
    t.is(await requeueUnappliedNotices(new Date(), 60_000), 1, 'once that job is gone, the record is queued again');
    t.truthy(
      await eventually(
        async () => (await ChargebackNoticeModel.findById(noticeFingerprint(waiting)).lean())?.appliedAt,
      ),
    );
  },
);

// --- item 4: an outcome on the word of the static header alone --------------------------------------

test('a win the acquirer never decided, posted with the secret, changes no outcome', async (t) => {
  const ec = newEstablishment();
  const owner = await newMerchant({ establishmentNumbers: [ec] });
  const notice = await sandboxNotify({ kind: 'new', establishmentNumber: ec });
  const forged = lifecycleNotice(ec, notice.idCase, 'A favor do Estabelecimento', '2030-08-01');
  t.is((await post(forged)).status, 202, 'stored: a notice is a hint');
  const noticeId = noticeFingerprint(forged);
  // The worker asks the acquirer, which does not show the step: the job waits to retry, nothing is applied.
  await eventually(async () => {
    const jobId = (await ChargebackNoticeModel.findById(noticeId).lean())?.jobId;
    return jobId && (await (await getQueue(CHARGEBACK_NOTICE_QUEUE).getJob(jobId))?.getState()) === 'delayed';
  });
  t.is((await ChargebackModel.findById(`${ec}:${notice.idChargeback}`).lean())?.status, 'PENDING');
  t.is(await applyNotice(noticeId), 'unconfirmed');
  // A job's last attempt leaves it unapplied for the sweep to ask again (the acquirer's API may lag its notices)...
  t.is(await applyNotice(noticeId, { lastAttempt: true }), 'unconfirmed');
  const waiting = await ChargebackNoticeModel.findById(noticeId).lean();
  t.is(waiting?.appliedAt, null);
  t.truthy(waiting?.unconfirmedAt);
  // ...until the confirmation window has passed: then it is settled as unconfirmed, and no sweep queues it again.
  const later = new Date(Date.now() + NOTICE_CONFIRMATION_WINDOW_MS + 60_000);
  t.is(await applyNotice(noticeId, { lastAttempt: true, now: later }), 'unconfirmed');
  const settled = await ChargebackNoticeModel.findById(noticeId).lean();
  t.truthy(settled?.appliedAt);
  t.is(settled?.result, 'unconfirmed');
  t.is((await ChargebackModel.findById(`${ec}:${notice.idChargeback}`).lean())?.status, 'PENDING');
  const history = await callJson(stack, 'GET', `${CB}/contested/history/`, bearer(owner.accessToken));
  t.deepEqual(history.body, { results: [] });
  t.is(await ChargebackEventModel.countDocuments({ establishmentNumber: ec, kind: 'lifecycle' }), 0);
});

test('a step the acquirer shows for another establishment is not applied to this one', async (t) => {
  const ecVictim = newEstablishment();
  const ecOther = newEstablishment();
  const notice = await sandboxNotify({ kind: 'new', establishmentNumber: ecVictim });
  await decideStep(stack, ecVictim, notice.idCase, 'A favor do Emissor', '2030-08-02');
  const elsewhere = lifecycleNotice(ecOther, notice.idCase, 'A favor do Emissor', '2030-08-02');
  const { noticeId } = await receiveNotice(elsewhere);
  t.is(await applyNotice(noticeId), 'unconfirmed');
  t.is(await ChargebackEventModel.countDocuments({ establishmentNumber: ecOther }), 0);
});

test('an outcome the acquirer shows is applied by the worker', async (t) => {
  const ec = newEstablishment();
  const owner = await newMerchant({ establishmentNumbers: [ec] });
  const notice = await sandboxNotify({ kind: 'new', establishmentNumber: ec });
  await sandboxNotify({ kind: 'win', establishmentNumber: ec, caseId: notice.idCase, date: '2030-08-03' });
  const [item] = (await callJson(stack, 'GET', `${CB}/contested/history/`, bearer(owner.accessToken))).body.results;
  t.like(item, { idCase: notice.idCase, outcome: 'WIN' });
  t.is(
    (
      await ChargebackNoticeModel.findOne({
        _id: noticeFingerprint(lifecycleNotice(ec, notice.idCase, 'A favor do Estabelecimento', '2030-08-03')),
      }).lean()
    )?.result,
    'applied',
  );
});

// --- items 9 and 10: what reaches the acquirer, and whose failure a body we cannot send is ------------

const apiCalls = async (): Promise<number> => (await stack.control('/stats')).apiCalls;

test.serial(
  'keys the acquirer does not document are refused before any acquirer call, and never forwarded',
  async (t) => {
    const ec = newEstablishment();
    const owner = await newMerchant({ establishmentNumbers: [ec] });
    const notice = await sandboxNotify({ kind: 'new', establishmentNumber: ec });
    const before = await apiCalls();
    const accept = await callJson(stack, 'PUT', `${CB}/accept/`, bearer(owner.accessToken), {
      updateChargeback: [
        { establishmentNumber: Number(ec), idChargeback: notice.idChargeback, EstablishmentNumber: 2222222222 },
      ],
      EstablishmentNumber: 1,
    });
    t.is(accept.status, 400);
    t.deepEqual(Object.keys(accept.body).sort(), ['EstablishmentNumber', 'updateChargeback.0.EstablishmentNumber']);
    const refusal = refusalWithPdf(ec, notice);
    const refuse = await callJson(stack, 'PUT', `${CB}/refuse/`, bearer(owner.accessToken), {
      ...refusal,
      EstablishmentNumber: 2222222222,
    });
    t.is(refuse.status, 400);
    t.deepEqual(refuse.body, {
      EstablishmentNumber: ['Not a field the acquirer accepts; only its documented fields are forwarded.'],
    });
    const consult = await call(stack, 'POST', `${CB}/consult/?status=PENDING`, bearer(owner.accessToken), {
      mainCustomer: 1,
    });
    t.is(consult.status, 400);
    t.is(await apiCalls(), before, 'the acquirer was not called');
    // The service forwards only documented fields whoever calls it.
    await refuseChargeback([ec], { ...refusal, EstablishmentNumber: 2222222222, internalNote: 'ours' });
    t.deepEqual(Object.keys((await stack.control('/stats')).lastRefuse).sort(), [
      'IdCase',
      'establishmentNumber',
      'file',
      'fileName',
      'idChargeback',
      'reasonToRefuse',
    ]);
  },
);

test("a filter nested too deeply to serialize is our 400, not the acquirer's 502", async (t) => {
  const owner = await newMerchant({ establishmentNumbers: [newEstablishment()] });
  const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
  for (const body of [`{"reason": ${deep}}`, `{"other": ${deep}}`]) {
    const res = await call(stack, 'POST', `${CB}/consult/?status=PENDING`, bearer(owner.accessToken), body);
    // Over the route's body limit, or refused as unknown or malformed.
    t.true([400, 413].includes(res.status), `${res.status}`);
  }
  const nested: unknown[] = [];
  let inner = nested;
  for (let i = 0; i < 100_000; i++) inner.push((inner = []));
  const error = await t.throwsAsync(
    // A list of lists, which the route's validation refuses, given to the service itself.
    consultChargebacks(null, { status: 'PENDING', page: 0, pageSize: 10 }, { process: nested as unknown as string[] }),
  );
  t.is((error as { status?: number }).status, 400);
});

test.serial('an outcome the acquirer shows only after the job gave up is applied by the sweep', async (t) => {
  const ec = newEstablishment();
  const notice = await sandboxNotify({ kind: 'new', establishmentNumber: ec });
  const step = lifecycleNotice(ec, notice.idCase, 'A favor do Emissor', '2030-08-04');
  // Stored, and its job gone after every attempt (here: never queued, so no worker races this test).
  const noticeId = noticeFingerprint(step);
  await ChargebackNoticeModel.create({
    _id: noticeId,
    kind: 'lifecycle',
    raw: JSON.stringify(step),
    receivedAt: new Date(Date.now() - 3_600_000),
    appliedAt: null,
  });
  t.is(await applyNotice(noticeId, { lastAttempt: true }), 'unconfirmed', 'the acquirer does not show it yet');
  await decideStep(stack, ec, notice.idCase, step.message, step.ActionCicleDate);
  // The sweep queues it again, with one attempt, and the acquirer now confirms it.
  t.is(await requeueUnappliedNotices(new Date(), 60_000), 1);
  const job = await getQueue(CHARGEBACK_NOTICE_QUEUE).getJob(
    (await ChargebackNoticeModel.findById(noticeId).lean())!.jobId!,
  );
  t.is(job?.opts.attempts, 1);
  t.truthy(await eventually(async () => (await ChargebackNoticeModel.findById(noticeId).lean())?.appliedAt));
  t.is((await ChargebackNoticeModel.findById(noticeId).lean())?.result, 'applied');
  t.is((await ChargebackModel.findById(`${ec}:${notice.idChargeback}`).lean())?.status, 'LOST');
});

test.serial('a notice stored before the applied flag existed is marked by migration 0001, then swept', async (t) => {
  const notice = await newChargebackNotice(newEstablishment());
  const noticeId = noticeFingerprint(notice);
  // As an older version stored it: no `applied` field, no job id.
  await ChargebackNoticeModel.collection.insertOne({
    _id: noticeId as never,
    kind: 'new',
    raw: JSON.stringify(notice),
    receivedAt: new Date(Date.now() - 3_600_000),
    appliedAt: null,
  });
  t.is(await requeueUnappliedNotices(new Date(), 60_000), 0, 'the sweep reads by the flag only');
  t.deepEqual((await runMigrations({ leaseMs: 60_000 })).ran, ['0001-sweep-flags']);
  t.is((await ChargebackNoticeModel.findById(noticeId).lean())?.applied, false);
  t.is(await requeueUnappliedNotices(new Date(), 60_000), 1);
  t.truthy(await eventually(async () => (await ChargebackNoticeModel.findById(noticeId).lean())?.applied));
});

test('a notice whose date carries a time is confirmed by the step of that day', async (t) => {
  const ec = newEstablishment();
  await newMerchant({ establishmentNumbers: [ec] });
  const notice = await sandboxNotify({ kind: 'new', establishmentNumber: ec });
  await decideStep(stack, ec, notice.idCase, 'A favor do Emissor', '2030-08-04');
  const { noticeId } = await receiveNotice(
    lifecycleNotice(ec, notice.idCase, 'A favor do Emissor', '2030-08-04T13:45:00-03:00'),
  );
  t.is(await applyNotice(noticeId), 'applied');
});
