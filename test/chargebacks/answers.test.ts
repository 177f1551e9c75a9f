/**
 * Every chargeback route's answers match the Swagger document we serve (issue 14 item 10), read
 * here as the client gets them: the suite-wide check sees only bodies sent whole, and most of these
 * are the acquirer's answers streamed through. The acquirer's case and chargeback ids are numbers
 * (its notices send caseId as one and it refuses a non-numeric id), so the consult's items, the
 * accept reply and our own views give them as numbers, as the document says.
 */
import '../helpers/env';
import crypto from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { features } from '../../src/web/areas';
import { buildSwagger } from '../../src/web/swagger';
import { checkAnswer } from '../instrumentation/answers';
import { swaggerPath } from '../../src/http/routes';
import { CHARGEBACK_NOTICE_PATH } from '../../src/acquirer/chargebacks';
import { chargebackNoticeHeaders, newChargebackNotice } from '../helpers/chargeback-notices';
import { ChargebackNoticeModel } from '../../src/chargebacks/model';
import { acceptChargebacks, noticeFingerprint } from '../../src/chargebacks';
import { bearer, newMerchant, type TestMerchant } from '../helpers/identity';
import { eventually } from '../helpers/processes';
import { call } from '../helpers/http';
import { announceChargeback, startChargebackStack, type ChargebackStack } from './stack';
import { b64, pdfWithPages } from './files';

const CB = '/api/v1/acquirer/chargeback';
/** The sandbox's establishment whose accept and refuse always succeed. */
const ALWAYS_SUCCEEDS = '2222222222';
type Document = Parameters<typeof checkAnswer>[0];
let stack: ChargebackStack;
let merchant: TestMerchant;
let document: Document;
const ec = `5${crypto.randomInt(100_000_000, 999_999_999)}`;

test.before(async () => {
  stack = await startChargebackStack({ noticeWorker: true });
  merchant = await newMerchant({ establishmentNumbers: [ec, ALWAYS_SUCCEEDS] });
  document = buildSwagger(features, 'http://localhost') as unknown as Document;
});
test.after.always(() => stack?.close());

interface Answered {
  status: number;
  body: any;
}

/**
 * Calls one of our routes and checks its answer against the document's operation for that route
 * and status: the status documented, the content type produced, a JSON body of its schema.
 */
async function callChecked(
  t: ExecutionContext,
  method: string,
  route: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answered> {
  const res = await call(
    stack,
    method.toUpperCase(),
    path,
    options.headers ?? bearer(merchant.accessToken),
    options.body,
  );
  const { bytes } = res;
  const contentType = (res.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  const operation = document.paths[swaggerPath(route)]?.[method];
  t.truthy(operation, `${method} ${route} is documented`);
  const errors = checkAnswer(document, operation, `${method} ${route}`, {
    status: res.status,
    contentType,
    body: bytes.length ? bytes.toString('utf8') : undefined,
  });
  t.deepEqual(errors, [], `${method} ${path} answered ${res.status}: ${JSON.stringify(errors)}`);
  return { status: res.status, body: contentType.includes('json') ? JSON.parse(bytes.toString('utf8')) : bytes };
}

const notice = (idCase: number) => newChargebackNotice(ec, { idCase, idChargeback: idCase + 10_000_000 });

test('the proxied operations answer as documented, ids as numbers', async (t) => {
  const consult = await callChecked(t, 'post', `${CB}/consult/`, `${CB}/consult/?status=PENDING`, {
    body: { establishmentNumber: [Number(ec)] },
  });
  t.is(consult.status, 200);
  const [item] = consult.body.content;
  t.is(typeof item.idCase, 'number');
  t.is(typeof item.idChargeback, 'number');

  const ourRefusal = await callChecked(t, 'post', `${CB}/consult/`, `${CB}/consult/?status=PENDING`, {
    body: { unknownField: 1 },
  });
  t.is(ourRefusal.status, 400);
  const acquirerRefusal = await callChecked(t, 'post', `${CB}/consult/`, `${CB}/consult/?status=DONE`, {
    body: { establishmentNumber: [Number(ec)] },
  });
  t.is(acquirerRefusal.status, 400, 'DONE needs a period at the acquirer');
  t.is(typeof acquirerRefusal.body.code, 'string');

  const accept = await callChecked(t, 'put', `${CB}/accept/`, `${CB}/accept/`, {
    body: { updateChargeback: [{ establishmentNumber: Number(ec), idChargeback: String(item.idChargeback) }] },
  });
  t.is(accept.status, 200);
  t.deepEqual(
    accept.body.map((r: any) => [r.idChargeback, r.code]),
    [[item.idChargeback, '101']],
    'the id as a number, even when sent as text',
  );
  const again = await callChecked(t, 'put', `${CB}/accept/`, `${CB}/accept/`, {
    body: { updateChargeback: [{ establishmentNumber: Number(ec), idChargeback: item.idChargeback }] },
  });
  t.is(again.status, 412);

  const [, second] = consult.body.content;
  const refuse = await callChecked(t, 'put', `${CB}/refuse/`, `${CB}/refuse/`, {
    body: {
      establishmentNumber: Number(ec),
      idChargeback: second.idChargeback,
      IdCase: second.idCase,
      reasonToRefuse: 'Entregue',
      file: b64(pdfWithPages(1)),
      fileName: `${second.idCase}.pdf`,
    },
  });
  t.is(refuse.status, 200);
  const support = `${CB}/support-document/:establishmentNumber/:idChargeback/`;
  t.is((await callChecked(t, 'get', support, `${CB}/support-document/${ec}/${second.idChargeback}/`)).status, 200);

  const list = `${CB}/list-issuer-documents/:establishmentNumber/:idChargeback/`;
  const documents = await callChecked(t, 'get', list, `${CB}/list-issuer-documents/${ec}/${item.idChargeback}/`);
  t.is(documents.status, 200);
  const download = `${CB}/document-issuer/:establishmentNumber/:idDocumento/`;
  const { idDocumento } = documents.body[0];
  t.is((await callChecked(t, 'get', download, `${CB}/document-issuer/${ec}/${idDocumento}/`)).status, 200);
  t.is((await callChecked(t, 'get', list, `${CB}/list-issuer-documents/${ec}/99999999999/`)).status, 400);
});

test('the notice intake and the views answer as documented, ids as numbers', async (t) => {
  const idCase = crypto.randomInt(6_000_000, 7_000_000);
  const intake = CHARGEBACK_NOTICE_PATH;
  await announceChargeback(stack, notice(idCase));
  const received = await callChecked(t, 'post', intake, intake, {
    body: notice(idCase),
    headers: chargebackNoticeHeaders(),
  });
  t.is(received.status, 202);
  await eventually(
    async () => (await ChargebackNoticeModel.findById(noticeFingerprint(notice(idCase))).lean())?.applied,
  );
  const invalid = await callChecked(t, 'post', intake, intake, {
    body: { ...notice(idCase), idCase: 'AB12' },
    headers: chargebackNoticeHeaders(),
  });
  t.is(invalid.status, 400, "letters are no id of the acquirer's");

  const pending = await callChecked(t, 'get', `${CB}/contested/`, `${CB}/contested/`);
  t.like(
    pending.body.results.find((r: any) => r.idCase === idCase),
    {
      idChargeback: idCase + 10_000_000,
      establishmentNumber: Number(ec),
    },
  );
  t.is((await callChecked(t, 'get', `${CB}/pending-count/`, `${CB}/pending-count/`)).status, 200);

  // Handled: one accepted after its notice, one accepted before any notice came (no case known: null).
  const neverNotified = crypto.randomInt(80_000_000, 90_000_000);
  for (const idChargeback of [idCase + 10_000_000, neverNotified])
    t.is(
      (await acceptChargebacks(null, { updateChargeback: [{ establishmentNumber: ec, idChargeback }] })).status,
      200,
    );
  const history = await callChecked(t, 'get', `${CB}/contested/history/`, `${CB}/contested/history/`);
  const byChargeback = new Map(history.body.results.map((r: any) => [r.idChargeback, r]));
  t.like(byChargeback.get(idCase + 10_000_000), { idCase, outcome: 'ACCEPTED' });
  t.like(byChargeback.get(neverNotified), { idCase: null, establishmentNumber: Number(ec), outcome: 'ACCEPTED' });
  t.is((await callChecked(t, 'get', `${CB}/contested/history/`, `${CB}/contested/history/?limit=0`)).status, 400);
});
