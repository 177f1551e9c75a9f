/**
 * Issue 15: each attack of the adversarial review on chargebacks, reproduced, and shown to fail now.
 */
import '../helpers/env';
import crypto from 'node:crypto';
import test from 'ava';
import { bearer, newMerchant } from '../helpers/identity';
import { json } from '../helpers/app';
import { eventually } from '../helpers/processes';
import { startChargebackStack, type ChargebackStack } from './stack';
import { noticeFingerprint } from '../../src/chargebacks/service';
import { ChargebackEventModel, ChargebackModel, ChargebackNoticeModel } from '../../src/chargebacks/model';
import { b64, pdfWithPages } from './files';

const CB = '/api/v1/acquirer/chargeback';
/** The sandbox's establishment whose accept and refuse always succeed, whatever case they name. */
const ALWAYS_SUCCEEDS = '2222222222';
let stack: ChargebackStack;

test.before(async () => {
  stack = await startChargebackStack({ noticeWorker: true });
});
test.after.always(() => stack?.close());

const newEstablishment = () => `4${crypto.randomInt(100_000_000, 999_999_999)}`;

const call = (method: string, path: string, token: string, body?: unknown) =>
  fetch(`${stack.url}${CB}${path}`, { method, headers: bearer(token), body: body === undefined ? undefined : JSON.stringify(body) });

/** A notice the sandbox sends to our intake (its own case, so the acquirer knows it), once applied. */
async function sandboxNotify(body: Record<string, unknown>) {
  const answer = await stack.control('/notify', body);
  if (answer.delivered?.status !== 202) throw new Error(`notice not delivered: ${JSON.stringify(answer)}`);
  await eventually(async () => (await ChargebackNoticeModel.findById(noticeFingerprint(answer.notice)).lean())?.appliedAt);
  return answer.notice;
}

// --- item 1: another merchant's lifecycle through a refusal naming its case -----------------------------

test('a merchant cannot read another merchant\'s lifecycle by refusing with the other\'s IdCase', async (t) => {
  const ecA = newEstablishment();
  const victim = await newMerchant({ establishmentNumbers: [ecA] });
  const attacker = await newMerchant({ establishmentNumbers: [ALWAYS_SUCCEEDS] });
  const notice = await sandboxNotify({ kind: 'new', establishmentNumber: ecA });
  await sandboxNotify({ kind: 'lifecycle', establishmentNumber: ecA, caseId: notice.idCase, message: 'Em análise com o Emissor', date: '2030-06-01' });
  t.is((await call('GET', `/lifecycle/${notice.idCase}/`, victim.accessToken)).status, 200, 'the owner reads its case');
  t.is((await call('GET', `/lifecycle/${notice.idCase}/`, attacker.accessToken)).status, 403);

  const refusal = {
    establishmentNumber: Number(ALWAYS_SUCCEEDS),
    idChargeback: 12345,
    IdCase: String(notice.idCase),
    reasonToRefuse: 'Entregue',
    file: b64(pdfWithPages(1)),
    fileName: `${notice.idCase}.pdf`,
  };
  const refused = await call('PUT', '/refuse/', attacker.accessToken, refusal);
  t.is(refused.status, 200, 'the acquirer accepts the refusal of its own chargeback');
  await json(refused);

  const after = await call('GET', `/lifecycle/${notice.idCase}/`, attacker.accessToken);
  t.is(after.status, 403, 'the case named by the caller did not become the caller\'s');
  t.deepEqual(await json(after), { detail: `Case ${notice.idCase} is not a chargeback of this merchant.` });
  t.is(await ChargebackEventModel.countDocuments({ establishmentNumber: ALWAYS_SUCCEEDS, idCase: String(notice.idCase) }), 0);
  t.is(await ChargebackModel.countDocuments({ establishmentNumber: ALWAYS_SUCCEEDS, idCase: String(notice.idCase) }), 0);
  t.is((await ChargebackModel.findById(`${ALWAYS_SUCCEEDS}:12345`).lean())?.status, 'REFUSED', 'the refusal itself is recorded, without a case');
});

test('a merchant\'s own refusal of a notified chargeback records the case of the stored record', async (t) => {
  const ec = newEstablishment();
  const owner = await newMerchant({ establishmentNumbers: [ec] });
  const notice = await sandboxNotify({ kind: 'new', establishmentNumber: ec });
  const res = await call('PUT', '/refuse/', owner.accessToken, {
    establishmentNumber: Number(ec),
    idChargeback: notice.idChargeback,
    IdCase: String(notice.idCase),
    reasonToRefuse: 'Entregue',
    file: b64(pdfWithPages(1)),
    fileName: `${notice.idCase}.pdf`,
  });
  t.is(res.status, 200);
  t.is((await ChargebackEventModel.findById(`refused:${ec}:${notice.idChargeback}`).lean())?.idCase, String(notice.idCase));
  const lifecycle = await call('GET', `/lifecycle/${notice.idCase}/`, owner.accessToken);
  t.is(lifecycle.status, 200);
  t.is((await json(lifecycle))[0].establishmentNumber, Number(ec));
});
