/**
 * Issue 27 (second review), the chargeback items: each attack reproduced, and shown to fail now.
 * Item 1: a notice job forged in the queue; item 3: new chargebacks confirmed, ownership, a fair
 * sweep; item 6: establishment numbers with leading zeros.
 */
import '../helpers/env';
import test from 'ava';
import mongoose from 'mongoose';
import { bearer, newMerchant } from '../helpers/identity';
import { eventually } from '../helpers/processes';
import { callJson } from '../helpers/http';
import {
  announceChargeback,
  decideStep,
  sandboxNotify as notifyFromSandbox,
  startChargebackStack,
  type ChargebackStack,
} from './stack';
import { lifecycleNotice, newChargebackNotice, newEstablishment, newNoticeIds } from '../helpers/chargeback-notices';
import { applyNotice, noticeFingerprint, receiveNotice, requeueUnappliedNotices } from '../../src/chargebacks';
import { CHARGEBACK_NOTICE_QUEUE } from '../../jobs/chargeback-notice';
import { getQueue } from '../../src/queue/queues';
import { ChargebackModel, ChargebackNoticeModel } from '../../src/chargebacks/model';

const CB = '/api/v1/acquirer/chargeback';
let stack: ChargebackStack;

test.before(async () => {
  stack = await startChargebackStack({ noticeWorker: true });
});
test.after.always(() => stack?.close());

const sandboxNotify = (body: Record<string, unknown>) => notifyFromSandbox(stack, body);

// --- item 1: a job is never content ------------------------------------------------------------------

test('a notice job added to the queue with made-up content (bull-board, Redis) applies nothing', async (t) => {
  const ec = newEstablishment();
  const forged = newChargebackNotice(ec, newNoticeIds());
  await announceChargeback(stack, forged); // even a chargeback the acquirer has: only a stored notice is applied
  const noticeId = noticeFingerprint(forged);
  const queue = getQueue(CHARGEBACK_NOTICE_QUEUE);
  // What `POST /admin/queues/api/queues/chargeback-notices/add` or a Redis write puts there: the
  // content carried under its own fingerprint, so it passed the old check; no stored notice.
  const job = await queue.add(
    'apply',
    { noticeId, kind: 'new', raw: JSON.stringify(forged) },
    { jobId: `forged-${noticeId}` },
  );
  const state = await eventually(async () => {
    const now = await (await queue.getJob(job.id!))?.getState();
    return now === 'completed' || now === 'failed' ? now : undefined;
  });
  t.is(state, 'completed');
  t.is((await queue.getJob(job.id!))?.returnvalue, 'unknown');
  t.is(await ChargebackModel.countDocuments({ establishmentNumber: ec }), 0);
});

// --- item 3: a new chargeback confirmed by the acquirer ------------------------------------------------

test('a new chargeback the acquirer does not show is not counted', async (t) => {
  const ec = newEstablishment();
  const owner = await newMerchant({ establishmentNumbers: [ec] });
  const { noticeId } = await receiveNotice(newChargebackNotice(ec, newNoticeIds()));
  t.is(await applyNotice(noticeId), 'unconfirmed');
  t.is(await ChargebackModel.countDocuments({ establishmentNumber: ec }), 0);
  t.deepEqual((await callJson(stack, 'GET', `${CB}/pending-count/`, bearer(owner.accessToken))).body, { count: 0 });
});

test('a forged notice of a real chargeback, applied first, does not make the real one a duplicate', async (t) => {
  const ec = newEstablishment();
  const owner = await newMerchant({ establishmentNumbers: [ec] });
  const real = newChargebackNotice(ec, newNoticeIds(), { treatmentDeadline: '2030-01-20' });
  await announceChargeback(stack, real);
  const forged = { ...real, treatmentDeadline: '2099-12-31', transactionAmount: 1 };
  for (const notice of [forged, real]) await applyNotice((await receiveNotice(notice)).noticeId);
  const [item] = (await callJson(stack, 'GET', `${CB}/contested/`, bearer(owner.accessToken))).body.results;
  t.like(item, { idChargeback: real.idChargeback, treatmentDeadline: '2030-01-20', transactionAmount: 150.9 });
});

test('a lifecycle step that names no establishment proves no ownership', async (t) => {
  const ecVictim = newEstablishment();
  const ecAttacker = newEstablishment();
  const attacker = await newMerchant({ establishmentNumbers: [ecAttacker] });
  const victimCase = await sandboxNotify({ kind: 'new', establishmentNumber: ecVictim });
  // The acquirer lists the victim's step without its establishment.
  await stack.control('/lifecycle-step', {
    establishmentNumber: ecVictim,
    caseId: victimCase.idCase,
    message: 'A favor do Emissor',
    date: '2030-09-01',
    anonymous: true,
  });
  // A step notice naming the attacker's establishment is not confirmed by a step naming none.
  const { noticeId } = await receiveNotice(
    lifecycleNotice(ecAttacker, victimCase.idCase, 'A favor do Emissor', '2030-09-01'),
  );
  t.is(await applyNotice(noticeId), 'unconfirmed');
  // A record of the case under the attacker's establishment (as an unconfirmed notice left before) opens no read.
  await ChargebackModel.create({
    _id: `${ecAttacker}:1`,
    establishmentNumber: ecAttacker,
    idChargeback: '1',
    idCase: String(victimCase.idCase),
    status: 'PENDING',
    eventCount: 1,
    updatedAt: new Date(),
  });
  const read = await callJson(stack, 'GET', `${CB}/lifecycle/${victimCase.idCase}/`, bearer(attacker.accessToken));
  t.is(read.status, 403);
});

test.serial('more than 500 never-confirmable lifecycle notices of one source do not starve a newer one', async (t) => {
  const flooder = newEstablishment();
  const now = Date.now();
  // Stored a day ago, each already given up on by its job (the sweep has been asking for them since).
  const unconfirmable = Array.from({ length: 520 }, (_, i) => {
    const step = lifecycleNotice(flooder, 900_000_000 + i, 'A favor do Estabelecimento', '2030-10-01');
    return {
      _id: noticeFingerprint(step),
      kind: 'lifecycle',
      raw: JSON.stringify(step),
      receivedAt: new Date(now - 86_400_000 + i),
      appliedAt: null,
      applied: false,
      unconfirmedAt: new Date(now - 600_000 + i),
    };
  });
  await ChargebackNoticeModel.insertMany(unconfirmable);
  // One the acquirer confirms, stored ten minutes ago, whose job was lost.
  const ec = newEstablishment();
  const chargeback = await sandboxNotify({ kind: 'new', establishmentNumber: ec });
  await decideStep(stack, ec, chargeback.idCase, 'A favor do Emissor', '2030-10-02');
  const fresh = lifecycleNotice(ec, chargeback.idCase, 'A favor do Emissor', '2030-10-02');
  await ChargebackNoticeModel.create({
    _id: noticeFingerprint(fresh),
    kind: 'lifecycle',
    raw: JSON.stringify(fresh),
    receivedAt: new Date(now - 600_000),
    appliedAt: null,
    applied: false,
  });
  try {
    const queued = await requeueUnappliedNotices(new Date(now), 60_000);
    t.truthy(
      await eventually(async () => (await ChargebackNoticeModel.findById(noticeFingerprint(fresh)).lean())?.appliedAt),
    );
    t.is((await ChargebackModel.findById(`${ec}:${chargeback.idChargeback}`).lean())?.status, 'LOST');
    t.true(queued <= 51, `one source queued at most its share: ${queued}`);
  } finally {
    await ChargebackNoticeModel.deleteMany({ _id: mongoose.trusted({ $in: unconfirmable.map((n) => n._id) }) });
  }
});
