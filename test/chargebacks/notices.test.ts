import '../helpers/env';
import test from 'ava';
import { bearer, newMerchant, systemToken } from '../helpers/identity';
import { json } from '../helpers/app';
import { eventually } from '../helpers/processes';
import {
  announceChargeback,
  decideStep,
  sandboxNotify as notifyFromSandbox,
  startChargebackStack,
  type ChargebackStack,
} from './stack';
import {
  chargebackNoticeHeaders,
  lifecycleNotice,
  newChargebackNotice,
  newEstablishment,
  newNoticeIds,
  postChargebackNotice,
} from '../helpers/chargeback-notices';
import {
  acceptChargebacks,
  applyNotice,
  noticeFingerprint,
  receiveNotice,
  requeueUnappliedNotices,
} from '../../src/chargebacks';
import { ChargebackEventModel, ChargebackModel, ChargebackNoticeModel } from '../../src/chargebacks/model';
import { holdChargeback, insertEvent } from '../../src/chargebacks/projection';
import { refusalWithPdf } from './files';
import { send } from '../helpers/http';

const CB = '/api/v1/acquirer/chargeback';
let stack: ChargebackStack;

test.before(async () => {
  stack = await startChargebackStack({ noticeWorker: true });
});
test.after.always(() => stack?.close());

const newIds = newNoticeIds;

const post = (body: unknown, secret?: string) => postChargebackNotice(stack.url, body, secret);

const get = async (path: string, token: string, headers: Record<string, string> = {}) => {
  const res = await send(stack, 'GET', `${CB}${path}`, bearer(token, headers));
  return { status: res.status, body: await json(res) };
};

/**
 * The acquirer registers a new chargeback (its consult shows it) or decides a lifecycle step (its lifecycle of the case
 * shows it), as it does before notifying us.
 */
async function acquirerDecides(notice: any): Promise<void> {
  if (notice.caseId === undefined) await announceChargeback(stack, notice);
  else
    await decideStep(stack, String(notice.establishmentNumber), notice.caseId, notice.message, notice.ActionCicleDate);
}

/** Posts a new-chargeback notice to our intake as the acquirer does, once the acquirer shows the chargeback. */
const postAnnounced = async (notice: Record<string, unknown>) => {
  await announceChargeback(stack, notice);
  return post(notice);
};

/** Stores and applies notices through the service, in the given order (the worker path is tested separately). */
async function deliver(...notices: unknown[]): Promise<void> {
  for (const notice of notices) {
    await acquirerDecides(notice);
    const { noticeId } = await receiveNotice(notice);
    if ((await applyNotice(noticeId)) !== 'applied') throw new Error(`notice not applied: ${JSON.stringify(notice)}`);
  }
}

const statusOf = async (ec: string, idChargeback: number) =>
  (await ChargebackModel.findById(`${ec}:${idChargeback}`).lean())?.status;

// --- intake ----------------------------------------------------------------------------------------

test('a notice without the right secret is 401 and is not stored', async (t) => {
  const ec = newEstablishment();
  const notice = newChargebackNotice(ec, newIds());
  const wrong = await post(notice, 'not-the-secret-at-all-000000');
  t.is(wrong.status, 401);
  t.deepEqual(await json(wrong), { detail: 'Missing or wrong notification secret.' });
  const none = await send(stack, 'POST', `${CB}/notifications/`, { 'content-type': 'application/json' }, notice);
  t.is(none.status, 401);
  t.is(await ChargebackNoticeModel.countDocuments({ _id: noticeFingerprint(notice) }), 0);
});

test(
  'a notice keeps the exact bytes received as evidence, is applied from its JSON, and the same content ' +
    'reformatted is a duplicate',
  async (t) => {
    const ec = newEstablishment();
    const owner = await newMerchant({ establishmentNumbers: [ec] });
    const notice = newChargebackNotice(ec, newIds());
    await announceChargeback(stack, notice);
    const asSent = `\uFEFF{\n  ${Object.entries(notice)
      .reverse()
      .map(([key, value]) => `"${key}" : ${JSON.stringify(value)}`)
      .join(',\n  ')}\n}`;
    const postNotice = (body: string) =>
      send(
        stack,
        'POST',
        `${CB}/notifications/`,
        { ...chargebackNoticeHeaders(), 'content-type': 'application/json; charset=utf-8' },
        body,
      );
    t.deepEqual(await json(await postNotice(asSent)), { received: true, duplicate: false });
    const stored = (await ChargebackNoticeModel.findById(noticeFingerprint(notice)).lean())!;
    t.is(
      Buffer.from(stored.receivedBody!, 'base64').toString('utf8'),
      asSent,
      'byte for byte, the byte order mark included',
    );
    t.is(stored.receivedContentType, 'application/json; charset=utf-8');
    t.deepEqual(JSON.parse(stored.raw), notice);
    await eventually(async () => (await ChargebackNoticeModel.findById(stored._id).lean())?.appliedAt);
    t.is((await get('/contested/', owner.accessToken)).body.results.length, 1);
    t.deepEqual(await json(await postNotice(JSON.stringify(notice))), { received: true, duplicate: true });
    t.is(
      (await ChargebackNoticeModel.findById(stored._id).lean())!.receivedBody,
      stored.receivedBody,
      'the first bytes are kept',
    );
  },
);

test('a notice is stored, answered 202, and applied by the worker', async (t) => {
  const ec = newEstablishment();
  const owner = await newMerchant({ establishmentNumbers: [ec] });
  const ids = newIds();
  const res = await postAnnounced(newChargebackNotice(ec, ids));
  t.is(res.status, 202);
  t.deepEqual(await json(res), { received: true, duplicate: false });
  const stored = await ChargebackNoticeModel.findById(noticeFingerprint(newChargebackNotice(ec, ids))).lean();
  t.is(stored?.kind, 'new');
  t.deepEqual(JSON.parse(stored!.raw), newChargebackNotice(ec, ids));
  await eventually(async () => (await ChargebackNoticeModel.findById(stored!._id).lean())?.appliedAt);
  const pending = await get('/contested/', owner.accessToken);
  t.is(pending.status, 200);
  t.is(pending.body.results.length, 1);
  t.like(pending.body.results[0], {
    idCase: ids.idCase,
    idChargeback: ids.idChargeback,
    establishmentNumber: Number(ec),
    transactionAmount: 150.9,
    status: 'PENDING',
  });
  t.deepEqual((await get('/pending-count/', owner.merchantToken)).body, { count: 1 });
});

test('the same notice twice, in any key order, is stored once and counted once', async (t) => {
  const ec = newEstablishment();
  const owner = await newMerchant({ establishmentNumbers: [ec] });
  const notice = newChargebackNotice(ec, newIds());
  const reordered = Object.fromEntries(Object.entries(notice).reverse());
  await announceChargeback(stack, notice);
  const [first, second] = await Promise.all([post(notice), post(reordered)]);
  t.deepEqual([first.status, second.status], [202, 202]);
  const third = await post(notice);
  t.is((await json(third)).duplicate, true);
  t.is(await ChargebackNoticeModel.countDocuments({ _id: noticeFingerprint(notice) }), 1);
  await eventually(async () => (await ChargebackNoticeModel.findById(noticeFingerprint(notice)).lean())?.appliedAt);
  await applyNotice(noticeFingerprint(notice)); // a redelivered job changes nothing
  t.deepEqual((await get('/pending-count/', owner.accessToken)).body, { count: 1 });
  t.is((await get('/contested/', owner.accessToken)).body.results.length, 1);
});

test('a notice of neither kind is 400 and not stored', async (t) => {
  const res = await post({ establishmentNumber: 1, hello: 'world' });
  t.is(res.status, 400);
  t.deepEqual(Object.keys(await json(res)).sort(), ['idCase', 'idChargeback']);
  const badDate = await post(lifecycleNotice(newEstablishment(), 1, 'Em análise com o Emissor', '05/01/2030'));
  t.is(badDate.status, 400);
  t.deepEqual(await json(badDate), {
    executionDate: ['Must be a date yyyy-MM-dd.'],
    ActionCicleDate: ['Must be a date yyyy-MM-dd.'],
  });
  t.is((await post([1, 2])).status, 400);
});

// --- ordering ----------------------------------------------------------------------------------------

test('lifecycle steps never roll state back, whatever the arrival order', async (t) => {
  const ec = newEstablishment();
  const ids = newIds();
  await deliver(
    newChargebackNotice(ec, ids),
    lifecycleNotice(ec, ids.idCase, 'Em análise com o Emissor', '2030-01-10'),
  );
  t.is(await statusOf(ec, ids.idChargeback), 'REFUSED');
  // An older step arriving late changes nothing.
  await deliver(lifecycleNotice(ec, ids.idCase, 'Em análise com o Cliente', '2030-01-06'));
  t.is(await statusOf(ec, ids.idChargeback), 'REFUSED');
  await deliver(lifecycleNotice(ec, ids.idCase, 'A favor do Estabelecimento', '2030-01-30'));
  t.is(await statusOf(ec, ids.idChargeback), 'WON');
  await deliver(lifecycleNotice(ec, ids.idCase, 'Em análise com a Adquirente', '2030-01-20'));
  t.is(await statusOf(ec, ids.idChargeback), 'WON');
  const chargeback = await ChargebackModel.findById(`${ec}:${ids.idChargeback}`).lean();
  t.deepEqual(
    JSON.parse(chargeback!.lifecycle).map((s: any) => s.actionDate),
    ['2030-01-06', '2030-01-10', '2030-01-20', '2030-01-30'],
  );
  t.is(chargeback!.outcomeAt?.toISOString(), '2030-01-30T00:00:00.000Z');
});

test('an outcome that arrives before its chargeback still completes its history', async (t) => {
  const ec = newEstablishment();
  const owner = await newMerchant({ establishmentNumbers: [ec] });
  const ids = newIds();
  await deliver(lifecycleNotice(ec, ids.idCase, 'A favor do Emissor', '2030-02-01'));
  t.is(await ChargebackModel.countDocuments({ establishmentNumber: ec }), 0);
  await deliver(newChargebackNotice(ec, ids));
  t.is(await statusOf(ec, ids.idChargeback), 'LOST');
  t.deepEqual((await get('/pending-count/', owner.accessToken)).body, { count: 0 });
  const history = (await get('/contested/history/', owner.accessToken)).body.results;
  t.is(history.length, 1);
  t.like(history[0], {
    idCase: ids.idCase,
    outcome: 'LOSS',
    outcomeDate: '2030-02-01T00:00:00.000Z',
    handling: null,
  });
});

test('concurrent deliveries of one chargeback end in the state of all its notices', async (t) => {
  const ec = newEstablishment();
  const owner = await newMerchant({ establishmentNumbers: [ec] });
  const ids = newIds();
  const notices = [
    newChargebackNotice(ec, ids),
    lifecycleNotice(ec, ids.idCase, 'Em análise com o Cliente', '2030-03-01'),
    lifecycleNotice(ec, ids.idCase, 'Em análise com o Emissor', '2030-03-05'),
    lifecycleNotice(ec, ids.idCase, 'Em análise com a Adquirente', '2030-03-09'),
    lifecycleNotice(ec, ids.idCase, 'A favor do Estabelecimento', '2030-03-20'),
  ];
  for (const notice of notices) await acquirerDecides(notice);
  const stored = await Promise.all([...notices, ...notices].map((n) => receiveNotice(n)));
  await Promise.all(stored.map(({ noticeId }) => applyNotice(noticeId)));
  t.is(await statusOf(ec, ids.idChargeback), 'WON');
  t.is(await ChargebackEventModel.countDocuments({ establishmentNumber: ec }), 5);
  t.is(await ChargebackModel.countDocuments({ establishmentNumber: ec }), 1);
  const history = (await get('/contested/history/', owner.accessToken)).body.results;
  t.is(history.length, 1);
  t.is(history[0].lifecycle.length, 4);
});

/** The sandbox's establishment whose accept always succeeds, whatever chargeback it names. */
const ALWAYS_SUCCEEDS = '2222222222';

test('an acceptance recorded before its notice (its case unknown then) counts, in any order and at once', async (t) => {
  const ec = ALWAYS_SUCCEEDS;
  const accept = async (idChargeback: number) =>
    t.is(
      (await acceptChargebacks(null, { updateChargeback: [{ establishmentNumber: ec, idChargeback }] })).status,
      200,
    );
  const expectAccepted = async (ids: { idCase: number; idChargeback: number }) => {
    const chargeback = await ChargebackModel.findById(`${ec}:${ids.idChargeback}`).lean();
    t.like(chargeback, { status: 'ACCEPTED', idCase: String(ids.idCase), eventCount: 3 });
    t.is(JSON.parse(chargeback!.item).idCase, ids.idCase, 'the notice is in it');
    t.is(JSON.parse(chargeback!.lifecycle).length, 1, 'the step is in it');
  };
  const step = (ids: { idCase: number }) => lifecycleNotice(ec, ids.idCase, 'Em análise com o Emissor', '2030-03-05');

  // One after the other: the acceptance first, recorded with no case (no notice yet), then the step and the notice.
  const first = newIds();
  await accept(first.idChargeback);
  t.is((await ChargebackEventModel.findById(`accepted:${ec}:${first.idChargeback}`).lean())?.idCase, null);
  await deliver(step(first), newChargebackNotice(ec, first));
  await expectAccepted(first);

  // At once, for several chargebacks: whichever write lands last, each ends in the state of its three facts.
  const all = Array.from({ length: 6 }, newIds);
  for (const ids of all) await acquirerDecides(step(ids));
  await Promise.all(
    all.flatMap((ids) => [accept(ids.idChargeback), deliver(newChargebackNotice(ec, ids)), deliver(step(ids))]),
  );
  for (const ids of all) await expectAccepted(ids);
});

test('a step decided before the acquirer showed its chargeback is still shown after: its notice applies', async (t) => {
  const ec = newEstablishment();
  const ids = newIds();
  const step = lifecycleNotice(ec, ids.idCase, 'Em análise com o Emissor', '2030-03-05');
  await acquirerDecides(step);
  await acquirerDecides(newChargebackNotice(ec, ids));
  const { noticeId } = await receiveNotice(step);
  t.is(await applyNotice(noticeId), 'applied');
});

test('an acceptance whose process died before its refresh still counts once the notice comes', async (t) => {
  const ec = newEstablishment();
  const ids = newIds();
  // What recordOwnAction leaves when it dies right after recording the fact: the held document and the
  // fact with no case (the notice had not come), no projection of it.
  await holdChargeback(ec, String(ids.idChargeback));
  await insertEvent({
    _id: `accepted:${ec}:${ids.idChargeback}`,
    kind: 'accepted',
    establishmentNumber: ec,
    idChargeback: String(ids.idChargeback),
    idCase: null,
    at: new Date(),
    data: '{}',
  });
  t.is(await statusOf(ec, ids.idChargeback), 'UNRECEIVED');
  await deliver(newChargebackNotice(ec, ids));
  t.like(await ChargebackModel.findById(`${ec}:${ids.idChargeback}`).lean(), {
    status: 'ACCEPTED',
    idCase: String(ids.idCase),
    eventCount: 2,
  });
});

// --- views -----------------------------------------------------------------------------------------

test('pending view: shape, nearest deadline first, scoped to the merchant', async (t) => {
  const ec = newEstablishment();
  const ec2 = newEstablishment();
  const owner = await newMerchant({ establishmentNumbers: [ec, ec2] });
  const stranger = await newMerchant({ establishmentNumbers: [newEstablishment()] });
  const [a, b, c] = [newIds(), newIds(), newIds()];
  await deliver(
    newChargebackNotice(ec, a, { treatmentDeadline: '2030-05-20' }),
    newChargebackNotice(ec2, b, { treatmentDeadline: '2030-05-02' }),
    newChargebackNotice(ec, c, { treatmentDeadline: '2030-05-10' }),
  );
  const pending = await get('/contested/', owner.accessToken);
  t.deepEqual(Object.keys(pending.body), ['results']);
  t.deepEqual(
    pending.body.results.map((r: any) => r.idCase),
    [b, c, a].map((x) => x.idCase),
  );
  t.deepEqual((await get('/pending-count/', owner.accessToken)).body, { count: 3 });
  t.deepEqual((await get('/contested/', stranger.accessToken)).body, { results: [] });
  t.deepEqual((await get('/pending-count/', stranger.accessToken)).body, { count: 0 });
  const asSystemForOwner = await get('/pending-count/', systemToken(), { 'x-merchant-id': String(owner.merchantId) });
  t.deepEqual(asSystemForOwner.body, { count: 3 });
  const all = await get('/contested/', systemToken());
  t.true(all.body.results.length >= 3);
});

test('history: most recent outcome first, one item per chargeback, limit and offset', async (t) => {
  const ec = newEstablishment();
  const owner = await newMerchant({ establishmentNumbers: [ec] });
  const cases = [newIds(), newIds(), newIds(), newIds()];
  const outcomes: [string, string][] = [
    ['A favor do Emissor', '2030-04-03'],
    ['A favor do Estabelecimento', '2030-04-09'],
    ['A favor do Emissor', '2030-04-01'],
    ['Em análise com o Emissor', '2030-04-10'],
  ];
  for (const [i, ids] of cases.entries()) {
    await deliver(
      newChargebackNotice(ec, ids),
      lifecycleNotice(ec, ids.idCase, 'Em análise com o Emissor', '2030-03-28'),
      lifecycleNotice(ec, ids.idCase, ...outcomes[i]),
    );
  }
  const all = await get('/contested/history/', owner.accessToken);
  t.is(all.status, 200);
  t.deepEqual(Object.keys(all.body), ['results']);
  // the fourth is refused without an outcome yet: not in history, not pending
  t.deepEqual(
    all.body.results.map((r: any) => [r.idCase, r.outcome]),
    [
      [cases[1].idCase, 'WIN'],
      [cases[0].idCase, 'LOSS'],
      [cases[2].idCase, 'LOSS'],
    ],
  );
  t.deepEqual((await get('/pending-count/', owner.accessToken)).body, { count: 0 });
  const page = await get('/contested/history/?limit=1&offset=1', owner.accessToken);
  t.deepEqual(
    page.body.results.map((r: any) => r.idCase),
    [cases[0].idCase],
  );
  t.deepEqual((await get('/contested/history/?offset=3', owner.accessToken)).body, { results: [] });
  const tooMany = await get('/contested/history/?limit=201&offset=-1', owner.accessToken);
  t.is(tooMany.status, 400);
  t.deepEqual(tooMany.body, { limit: ['Must be between 1 and 200.'], offset: ['Must be 0 or more.'] });
  t.is((await get('/contested/history/?limit=abc', owner.accessToken)).status, 400);
});

test('views need a credential', async (t) => {
  for (const path of ['/contested/', '/contested/history/', '/pending-count/']) {
    t.is((await send(stack, 'GET', `${CB}${path}`)).status, 401);
  }
});

// --- accept and refuse through our API, notices from the sandbox --------------------------------------

const sandboxNotify = (body: Record<string, unknown>) => notifyFromSandbox(stack, body);

test('accepting through our api takes the chargeback out of pending at once and into history', async (t) => {
  const ec = newEstablishment();
  const owner = await newMerchant({ establishmentNumbers: [ec] });
  const notice = await sandboxNotify({ kind: 'new', establishmentNumber: ec });
  await sandboxNotify({ kind: 'new', establishmentNumber: ec });
  t.deepEqual((await get('/pending-count/', owner.accessToken)).body, { count: 2 });
  const res = await send(stack, 'PUT', `${CB}/accept/`, bearer(owner.accessToken), {
    updateChargeback: [{ establishmentNumber: Number(ec), idChargeback: notice.idChargeback }],
    userName: 'ops@loja.com.br',
  });
  t.is(res.status, 200);
  t.deepEqual((await get('/pending-count/', owner.accessToken)).body, { count: 1 });
  const [item] = (await get('/contested/history/', owner.accessToken)).body.results;
  t.like(item, { idChargeback: notice.idChargeback, outcome: 'ACCEPTED', handling: 'ACCEPTED' });
  // a refused accept (412) changes nothing more
  const again = await send(stack, 'PUT', `${CB}/accept/`, bearer(owner.accessToken), {
    updateChargeback: [{ establishmentNumber: Number(ec), idChargeback: notice.idChargeback }],
  });
  t.is(again.status, 412);
  t.is((await get('/contested/history/', owner.accessToken)).body.results.length, 1);
});

test("refusing through our api takes it out of pending; the sandbox's win notice completes its history", async (t) => {
  const ec = newEstablishment();
  const owner = await newMerchant({ establishmentNumbers: [ec] });
  const notice = await sandboxNotify({ kind: 'new', establishmentNumber: ec });
  const res = await send(stack, 'PUT', `${CB}/refuse/`, bearer(owner.accessToken), refusalWithPdf(ec, notice));
  t.is(res.status, 200);
  t.deepEqual((await get('/pending-count/', owner.accessToken)).body, { count: 0 });
  t.deepEqual((await get('/contested/history/', owner.accessToken)).body, { results: [] });
  // the merchant may now read the lifecycle of its own case
  const lifecycle = await get(`/lifecycle/${notice.idCase}/`, owner.accessToken);
  t.is(lifecycle.status, 200);
  t.is(lifecycle.body[0].action, 'Em análise com o Emissor');
  await sandboxNotify({
    kind: 'lifecycle',
    establishmentNumber: ec,
    caseId: notice.idCase,
    message: 'Em análise com o Emissor',
    date: '2030-06-01',
  });
  await sandboxNotify({ kind: 'win', establishmentNumber: ec, caseId: notice.idCase, date: '2030-06-10' });
  const [item] = (await get('/contested/history/', owner.accessToken)).body.results;
  t.like(item, {
    idCase: notice.idCase,
    outcome: 'WIN',
    handling: 'REFUSED',
    outcomeDate: '2030-06-10T00:00:00.000Z',
  });
  t.deepEqual(item.lifecycle.slice(-2), [
    { action: 'Em análise com o Emissor', actionDate: '2030-06-01' },
    { action: 'A favor do Estabelecimento', actionDate: '2030-06-10' },
  ]);
});

test('the sandbox sends a loss notice, and one with a wrong secret is refused', async (t) => {
  const ec = newEstablishment();
  const owner = await newMerchant({ establishmentNumbers: [ec] });
  const notice = await sandboxNotify({ kind: 'new', establishmentNumber: ec });
  await sandboxNotify({ kind: 'loss', establishmentNumber: ec, caseId: notice.idCase, date: '2030-07-01' });
  t.like((await get('/contested/history/', owner.accessToken)).body.results[0], { outcome: 'LOSS', handling: null });
  const refused = await stack.control('/notify', {
    kind: 'lifecycle',
    establishmentNumber: ec,
    caseId: notice.idCase,
    secret: 'wrong-secret-wrong-secret',
  });
  t.is(refused.delivered.status, 401);
});

test('a stored notice whose job was lost is queued again by the safety net', async (t) => {
  const ec = newEstablishment();
  const notice = newChargebackNotice(ec, newIds());
  await announceChargeback(stack, notice);
  const receivedAt = new Date(Date.now() - 3_600_000);
  await ChargebackNoticeModel.create({
    _id: noticeFingerprint(notice),
    kind: 'new',
    raw: JSON.stringify(notice),
    receivedAt,
    appliedAt: null,
  });
  t.true((await requeueUnappliedNotices(new Date(), 60_000)) >= 1);
  await eventually(async () => (await ChargebackNoticeModel.findById(noticeFingerprint(notice)).lean())?.appliedAt);
  t.is(await ChargebackModel.countDocuments({ establishmentNumber: ec, status: 'PENDING' }), 1);
});
