/**
 * Issue 27 (second review), the chargeback items: each attack reproduced, and shown to fail now.
 * Item 1: a notice job forged in the queue; item 3: new chargebacks confirmed, ownership, a fair
 * sweep; item 6: establishment numbers with leading zeros.
 */
import '../helpers/env';
import crypto from 'node:crypto';
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
import { createMerchant, normaliseEstablishmentNumbers, updateMerchant } from '../../src/auth/service';
import { UserModel } from '../../src/auth/model';
import { signToken } from '../../src/auth/tokens';
import { MerchantModel } from '../../src/merchants/model';
import { EstablishmentOwnerModel } from '../../src/merchants/establishments';

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

// --- item 6: establishment numbers with leading zeros -------------------------------------------------

const merchantInput = (establishmentNumbers: string[]) => {
  const id = crypto.randomBytes(4).toString('hex');
  const login = `z${id}`;
  return {
    companyName: `Loja ${id}`,
    email: `${login}@example.com`,
    login,
    password: `pw-${id}-Secret!`,
    establishmentNumbers,
  };
};

const pendingOf = async (token: string, establishmentNumber?: unknown[]) =>
  callJson(
    stack,
    'POST',
    `${CB}/consult/?status=PENDING`,
    bearer(token),
    establishmentNumber ? { establishmentNumber } : {},
  );

test("a merchant that names another's establishment with a leading zero never reads its chargebacks", async (t) => {
  const ecA = newEstablishment();
  await newMerchant({ establishmentNumbers: [ecA] });
  const alias = `0${ecA}`;
  // Given to a new merchant: refused, as the number itself would be.
  const created = await createMerchant(merchantInput([alias])).then(
    async ({ user }) => {
      // Were it given: the consult pinned to it would read the other merchant's chargebacks (0123 is 123 there).
      const read = await pendingOf(signToken('access', user));
      return { status: 201, read: read.status, items: read.body.content?.length };
    },
    (error: { status?: number }) => ({ status: error.status }),
  );
  t.deepEqual(created, { status: 400 });
  // Added to a merchant: refused.
  const other = await newMerchant({ establishmentNumbers: [newEstablishment()] });
  const added = await updateMerchant(other.merchantId, { addEstablishmentNumbers: [`00${ecA}`] }).then(
    () => 200,
    (error: { status?: number }) => error.status,
  );
  t.is(added, 400);
  t.false((await MerchantModel.findById(other.merchantId).lean())!.establishmentNumbers.some((ec) => ec.endsWith(ecA)));
  // Named in a consult: another merchant's establishment, 403.
  t.is((await pendingOf(other.accessToken, [alias])).status, 403);
});

test('establishment numbers are kept and compared without their leading zeros', async (t) => {
  const ec = newEstablishment();
  const { merchant, user } = await createMerchant(merchantInput([`0${ec}`]));
  t.deepEqual(merchant.establishmentNumbers, [ec]);
  t.deepEqual(await EstablishmentOwnerModel.countDocuments({ _id: ec, merchantId: merchant._id }), 1);
  const consult = await pendingOf(signToken('access', user), [`00${ec}`]);
  t.is(consult.status, 200, 'its own establishment, however written');
  t.true(
    consult.body.content.every((item: { establishmentNumber: number }) => String(item.establishmentNumber) === ec),
  );
  // A notice naming it with a zero is the same establishment's.
  const ids = newNoticeIds();
  await announceChargeback(stack, newChargebackNotice(ec, ids));
  const { noticeId } = await receiveNotice({ ...newChargebackNotice(ec, ids), establishmentNumber: `0${ec}` });
  t.is(await applyNotice(noticeId), 'applied');
  t.is((await ChargebackModel.findById(`${ec}:${ids.idChargeback}`).lean())?.establishmentNumber, ec);
});

test.serial(
  'establishment numbers stored with leading zeros are normalised once, an alias of an owned one dropped',
  async (t) => {
    const ecA = newEstablishment();
    const ecC = newEstablishment();
    const a = await newMerchant({ establishmentNumbers: [ecA] });
    const b = await newMerchant({ establishmentNumbers: [] });
    const c = await newMerchant({ establishmentNumbers: [] });
    // As an older version stored them: B took A's establishment with a zero, C its own with two.
    await MerchantModel.updateOne({ _id: b.merchantId }, { $set: { establishmentNumbers: [`0${ecA}`] } });
    await MerchantModel.updateOne({ _id: c.merchantId }, { $set: { establishmentNumbers: [`00${ecC}`] } });
    await EstablishmentOwnerModel.insertMany([
      { _id: `0${ecA}`, merchantId: b.merchantId, claimedAt: new Date() },
      { _id: `00${ecC}`, merchantId: c.merchantId, claimedAt: new Date() },
    ]);
    // Before the backfill runs, the alias already grants nothing.
    t.is((await pendingOf(b.accessToken)).status, 403);
    const changed = await normaliseEstablishmentNumbers();
    t.deepEqual([...changed].sort(), [b.merchantId, c.merchantId].sort());
    t.deepEqual((await MerchantModel.findById(a.merchantId).lean())!.establishmentNumbers, [ecA]);
    t.deepEqual((await MerchantModel.findById(b.merchantId).lean())!.establishmentNumbers, []);
    t.deepEqual((await MerchantModel.findById(c.merchantId).lean())!.establishmentNumbers, [ecC]);
    t.is((await EstablishmentOwnerModel.findById(ecA).lean())?.merchantId, a.merchantId);
    t.is((await EstablishmentOwnerModel.findById(ecC).lean())?.merchantId, c.merchantId);
    t.is(await EstablishmentOwnerModel.countDocuments({ _id: mongoose.trusted({ $in: [`0${ecA}`, `00${ecC}`] }) }), 0);
    t.deepEqual((await UserModel.findOne({ merchantId: c.merchantId }).lean())!.merchantProfile?.establishmentNumbers, [
      ecC,
    ]);
    t.is((await pendingOf(c.accessToken)).status, 200);
    t.deepEqual(await normaliseEstablishmentNumbers(), [], 'a second run changes nothing');
  },
);
