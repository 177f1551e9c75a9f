/**
 * Database round trips of the chargeback notice intake (issue 12 item 4) and of the worker's apply,
 * counted from the driver's command counters (the same /metrics serves). No worker runs in this
 * file: each job is taken from the queue and run here, so its commands are counted apart from the
 * intake's.
 *
 * Before -> after (issue 12): intake 1 insert + 1 queue add -> the same (nothing redundant: the
 * unique _id is the duplicate guard); apply of a new chargeback 8 -> 7 (the job carries the notice,
 * checked against its fingerprint, instead of reading it back) -> 4 (the case's events in one read,
 * and the first projection of a chargeback inserted with no re-read: see projectReceived); apply of
 * a lifecycle step 9 -> 8 -> 7, plus one acquirer call (issue 15 item 4: the step is confirmed
 * before it is applied): the case's read names its chargebacks and is the first read of their
 * refresh. The notice's applied mark stays a write of its own, after the chargeback's: another
 * collection, and a mark written before the projection would hide a crash between them from the sweep.
 */
import '../helpers/env';
import test from 'ava';
import type { Job } from 'bullmq';
import { countDbCommands } from '../helpers/db-commands';
import { announceChargeback, decideStep, startChargebackStack, type ChargebackStack } from './stack';
import {
  newChargebackNotice,
  newEstablishment,
  newNoticeIds,
  postChargebackNotice,
  lifecycleNotice,
} from '../helpers/chargeback-notices';
import { noticeFingerprint } from '../../src/chargebacks';
import { CHARGEBACK_NOTICE_QUEUE, type NoticeJobData } from '../../jobs/chargeback-notice';
import { ChargebackModel, ChargebackNoticeModel } from '../../src/chargebacks/model';
import { getQueue } from '../../src/queue/queues';
import processChargebackNotice from '../../jobs/processors/chargeback-notice';

/**
 * The account events a chargeback's projection owes (src/chargebacks/projection.ts): its establishment's owner, read
 * beside its events (no wait of its own); this establishment has no owner, so no event is owed or recorded.
 */
const EVENTS_OWED = { 'establishment_owners find': 1 };

let stack: ChargebackStack;

test.before(async () => {
  stack = await startChargebackStack();
});
test.after.always(() => stack?.close());

/** A new chargeback the acquirer shows (its consult has it), and the notice of it. */
async function newNotice(ec: string) {
  const notice = newChargebackNotice(ec, newNoticeIds());
  await announceChargeback(stack, notice);
  return notice;
}
const post = (body: unknown) => postChargebackNotice(stack.url, body);

async function jobOf(noticeId: string): Promise<Job<NoticeJobData>> {
  const jobId = (await ChargebackNoticeModel.findById(noticeId).lean())!.jobId!;
  return (await getQueue<NoticeJobData>(CHARGEBACK_NOTICE_QUEUE).getJob(jobId))!;
}

test.serial('the intake of a notice is one insert (and one queue add); a duplicate adds one read', async (t) => {
  const notice = await newNotice(newEstablishment());
  const { result: status, commands } = await countDbCommands(async () => (await post(notice)).status);
  t.is(status, 202);
  t.deepEqual(commands.by, { 'chargeback_notices insert': 1 });
  const job = await jobOf(noticeFingerprint(notice));
  t.is(job.data.noticeId, noticeFingerprint(notice), 'queued once stored');

  const again = await countDbCommands(async () => (await post(notice)).status);
  t.is(again.result, 202);
  t.deepEqual(again.commands.by, { 'chargeback_notices insert': 1, 'chargeback_notices find': 1 });
});

test.serial(
  'applying a new chargeback takes 7 commands and one acquirer call; a lifecycle step 10 and one',
  async (t) => {
    const ec = newEstablishment();
    const notice = await newNotice(ec);
    t.is((await post(notice)).status, 202);
    const newJob = await jobOf(noticeFingerprint(notice));
    const apiCallsBeforeNew = (await stack.control('/stats')).apiCalls;
    const applyNew = await countDbCommands(async () => processChargebackNotice(newJob));
    t.is(applyNew.result, 'applied');
    t.is((await stack.control('/stats')).apiCalls - apiCallsBeforeNew, 1, "one consult of the acquirer's pending");
    // the stored notice; event insert; the events of its case; the chargeback's first projection inserted; notice
    // marked applied
    t.deepEqual(applyNew.commands.by, {
      'chargeback_notices find': 1,
      'chargeback_events insert': 1,
      'chargeback_events find': 1,
      'chargebacks insert': 1,
      ...EVENTS_OWED,
      'chargeback_notices update': 1,
    });
    t.is((await ChargebackModel.findById(`${ec}:${notice.idChargeback}`).lean())?.status, 'PENDING');

    // Applied again (a retried job): the inserts find their records, and the full refresh runs on the
    // document already there; nothing changes.
    const again = await countDbCommands(async () => processChargebackNotice(newJob));
    t.is(again.result, 'applied');
    t.deepEqual(again.commands.by, {
      'chargeback_notices find': 1,
      'chargeback_events insert': 1,
      'chargeback_events find': 4,
      'chargebacks insert': 1,
      'chargebacks update': 1,
      ...EVENTS_OWED,
      'chargeback_notices update': 1,
    });
    t.like(await ChargebackModel.findById(`${ec}:${notice.idChargeback}`).lean(), { status: 'PENDING', eventCount: 1 });

    const step = lifecycleNotice(ec, notice.idCase, 'A favor do Emissor', '2030-02-01');
    await decideStep(stack, ec, notice.idCase, step.message, step.ActionCicleDate);
    t.is((await post(step)).status, 202);
    const apiCallsBefore = (await stack.control('/stats')).apiCalls;
    const stepJob = await jobOf(noticeFingerprint(step));
    const applyStep = await countDbCommands(async () => processChargebackNotice(stepJob));
    t.is(applyStep.result, 'applied');
    t.is((await stack.control('/stats')).apiCalls - apiCallsBefore, 1, 'one lifecycle call to the acquirer');
    // the stored notice; event insert; the case's events (naming its chargeback), that chargeback's own; write; both
    // again; notice mark
    t.deepEqual(applyStep.commands.by, {
      'chargeback_notices find': 1,
      'chargeback_events insert': 1,
      'chargeback_events find': 4,
      'chargebacks update': 1,
      ...EVENTS_OWED,
      'chargeback_notices update': 1,
    });
    t.is((await ChargebackModel.findById(`${ec}:${notice.idChargeback}`).lean())?.status, 'LOST');
  },
);
