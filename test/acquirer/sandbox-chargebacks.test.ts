/**
 * What each test establishment of the chargeback sandbox does, per operation, as docs/sandbox.md
 * (Chargebacks) states it: the sandbox process called directly, as our client calls the acquirer.
 */
import '../helpers/env';
import test from 'ava';
import { getConfig } from '../../config';
import { startProcess, stopAll, type RunningProcess } from '../helpers/processes';
import { call } from '../helpers/http';

const ALWAYS_FAILS = 1111111111;
const ALWAYS_SUCCEEDS = 2222222222;
const GENERATED = 3200000001;
const GENERATED_OTHER = 3200000002;
const PDF = Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64');

let sandbox: RunningProcess;
let token: string;
test.before(async () => {
  sandbox = await startProcess('sandbox', { SANDBOX_PORT: '0' });
  const { clientId, clientSecret } = getConfig().acquirer.chargeback;
  const res = await fetch(`${sandbox.url}/oauth/v2/sandbox/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
  });
  token = ((await res.json()) as { access_token: string }).access_token;
});
test.after.always(() => stopAll());

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await call(
    sandbox,
    method,
    `/sandbox-cb/chargeback/v1${path}`,
    { authorization: `Bearer ${token}` },
    body,
  );
  if (!res.headers.get('content-type')?.includes('json')) return { status: res.status, body: res.bytes };
  return { status: res.status, body: res.text ? JSON.parse(res.text) : null };
}

const consult = (status: 'PENDING' | 'DONE', filter: Record<string, unknown>) => api('POST', `/${status}`, filter);
const accept = (...items: { establishmentNumber: number; idChargeback: number }[]) =>
  api('PUT', '/accept', { updateChargeback: items, userName: 'ops@example.com' });
const refuse = (establishmentNumber: number, idChargeback: number, extra: Record<string, unknown> = {}) =>
  api('PUT', '/refuse', {
    establishmentNumber,
    idChargeback,
    reasonToRefuse: 'Entregue ao portador',
    file: PDF,
    fileName: 'defesa.pdf',
    ...extra,
  });
const failed = { code: '901', message: 'Erro ao processar a solicitação, tente novamente mais tarde' };
const period = () => ({
  startNotificationPeriod: new Date(Date.now() - 90 * 86_400_000).toISOString().slice(0, 10),
  endNotificationPeriod: new Date().toISOString().slice(0, 10),
});

test('1111111111 answers 901 (HTTP 500) to every operation that names it', async (t) => {
  t.deepEqual(await consult('PENDING', { establishmentNumber: [ALWAYS_FAILS] }), { status: 500, body: failed });
  t.deepEqual(
    await consult('PENDING', { establishmentNumber: [GENERATED, ALWAYS_FAILS] }),
    { status: 500, body: failed },
    'even beside another establishment',
  );
  t.deepEqual(await accept({ establishmentNumber: ALWAYS_FAILS, idChargeback: 1 }), { status: 500, body: failed });
  t.deepEqual(
    await accept(
      { establishmentNumber: GENERATED_OTHER, idChargeback: 77_000_001 },
      { establishmentNumber: ALWAYS_FAILS, idChargeback: 1 },
    ),
    { status: 500, body: failed },
    'the whole batch',
  );
  t.deepEqual(await refuse(ALWAYS_FAILS, 1), { status: 500, body: failed });
  t.deepEqual(await api('GET', `/ListIssuerDocuments/${ALWAYS_FAILS}/1`), { status: 500, body: failed });
  t.deepEqual(await api('GET', `/DocumentIssuer/${ALWAYS_FAILS}/1`), { status: 500, body: failed });
  t.deepEqual(await api('GET', `/supportDocument/${ALWAYS_FAILS}/1`), { status: 500, body: failed });
  // Field rules come first: a malformed request is still a 400.
  t.is((await refuse(ALWAYS_FAILS, 1, { reasonToRefuse: '' })).body.code, '930');
  // The batch's other item was not applied (an unknown id would have been created and accepted).
  const handled = await consult('DONE', { establishmentNumber: [GENERATED_OTHER], ...period() });
  t.is(handled.status, 200);
  t.false(handled.body.content.some((c: any) => c.idChargeback === 77_000_001));
});

test('2222222222 lists generated cases, and accept and refuse always succeed without changing anything', async (t) => {
  const listed = await consult('PENDING', { establishmentNumber: [ALWAYS_SUCCEEDS] });
  t.is(listed.status, 200);
  t.is(listed.body.content.length, 4);
  t.is((await consult('DONE', { establishmentNumber: [ALWAYS_SUCCEEDS], ...period() })).body.content.length, 3);
  t.deepEqual(
    (await consult('PENDING', { establishmentNumber: [ALWAYS_SUCCEEDS], idCase: '4000000' })).body.content,
    [],
    'case 4000000 finds nothing',
  );

  const pending = listed.body.content[0];
  for (let i = 0; i < 2; i++) {
    t.deepEqual(
      await accept({ establishmentNumber: ALWAYS_SUCCEEDS, idChargeback: pending.idChargeback }),
      {
        status: 200,
        body: [
          {
            establishmentNumber: ALWAYS_SUCCEEDS,
            idChargeback: pending.idChargeback,
            code: '101',
            message: 'Chargeback aceito com sucesso',
          },
        ],
      },
      `accept ${i + 1}: never 931`,
    );
    t.deepEqual(
      await refuse(ALWAYS_SUCCEEDS, pending.idChargeback),
      { status: 200, body: { code: '102', message: 'Chargeback recusado com sucesso' } },
      `refuse ${i + 1}`,
    );
  }
  t.is(
    (await accept({ establishmentNumber: ALWAYS_SUCCEEDS, idChargeback: 123 })).status,
    200,
    'any chargeback id, known or not',
  );
  t.is(
    (await refuse(ALWAYS_SUCCEEDS, 123, { IdCase: 999, fileName: '999.pdf' })).status,
    200,
    'no case or IdCase check',
  );
  const after = await consult('PENDING', { establishmentNumber: [ALWAYS_SUCCEEDS] });
  t.true(
    after.body.content.some((c: any) => c.idChargeback === pending.idChargeback),
    'still pending: nothing was recorded',
  );

  // Documents: its generated cases have issuer documents; support documents exist only for 20000.
  const issuer = await api('GET', `/ListIssuerDocuments/${ALWAYS_SUCCEEDS}/${pending.idChargeback}`);
  t.is(issuer.status, 200);
  t.true(issuer.body.length >= 1);
  const download = await api('GET', `/DocumentIssuer/${ALWAYS_SUCCEEDS}/${issuer.body[0].idDocumento}`);
  t.is(download.status, 200);
  t.true(Buffer.isBuffer(download.body) && download.body.length > 1000);
  const sample = await api('GET', `/supportDocument/${ALWAYS_SUCCEEDS}/20000`);
  t.is(sample.status, 200);
  t.like(sample.body[0], { nameFile: '20000.pdf', codigo: 104 });
  t.like(
    await api('GET', `/supportDocument/${ALWAYS_SUCCEEDS}/${pending.idChargeback}`),
    { status: 400, body: { code: '927' } },
    'refusals recorded no document',
  );
});

test('any other establishment: generated cases and the acquirer rules (902, 931, 941, 938, 927)', async (t) => {
  const listed = await consult('PENDING', { establishmentNumber: [GENERATED] });
  t.is(listed.body.content.length, 4);
  t.is((await consult('DONE', { establishmentNumber: [GENERATED], ...period() })).body.content.length, 3);
  const [first, second] = listed.body.content;

  t.like(await accept({ establishmentNumber: GENERATED, idChargeback: first.idChargeback }), {
    status: 200,
    body: [{ code: '101' }],
  });
  t.deepEqual(
    await accept({ establishmentNumber: GENERATED, idChargeback: first.idChargeback }),
    { status: 412, body: { code: '931', message: 'Chargeback já tratado' } },
    'a second accept',
  );
  t.like(
    await refuse(GENERATED, first.idChargeback),
    { status: 412, body: { code: '931' } },
    'refusing an accepted one',
  );
  t.like(
    await accept({ establishmentNumber: GENERATED_OTHER, idChargeback: second.idChargeback }),
    { status: 403, body: { code: '902' } },
    "another establishment's chargeback",
  );
  t.like(
    await refuse(GENERATED, second.idChargeback, { IdCase: second.idCase + 1, fileName: `${second.idCase + 1}.pdf` }),
    { status: 403, body: { code: '941' } },
    'IdCase of another case',
  );

  t.like(await refuse(GENERATED, second.idChargeback, { IdCase: second.idCase, fileName: `${second.idCase}.pdf` }), {
    status: 200,
    body: { code: '102' },
  });
  t.like(await refuse(GENERATED, second.idChargeback), { status: 412, body: { code: '931' } }, 'a second refuse');
  const support = await api('GET', `/supportDocument/${GENERATED}/${second.idChargeback}`);
  t.like(support.body[0], { nameFile: `${second.idCase}.pdf`, file: PDF, codigo: 104 });

  const handled = await consult('DONE', { establishmentNumber: [GENERATED], ...period() });
  t.deepEqual(
    handled.body.content
      .filter((c: any) => [first.idChargeback, second.idChargeback].includes(c.idChargeback))
      .map((c: any) => c.actionTakenCode)
      .sort(),
    ['ACEITO', 'RECUSADO'],
  );
  const lifecycle = await api('GET', `/lifecycle/${second.idCase}`);
  t.like(lifecycle.body.at(-1), { action: 'Em análise com o Emissor', caseId: second.idCase });

  // A chargeback id the establishment never had: created on the spot, then accepted.
  t.like(await accept({ establishmentNumber: GENERATED, idChargeback: 88_000_001 }), {
    status: 200,
    body: [{ code: '101' }],
  });
  t.like(await api('GET', `/ListIssuerDocuments/${GENERATED}/99000001`), { status: 400, body: { code: '938' } });
  t.like(await api('GET', `/ListIssuerDocuments/${GENERATED_OTHER}/${first.idChargeback}`), {
    status: 403,
    body: { code: '902' },
  });
  t.like(await api('GET', `/supportDocument/${GENERATED}/${listed.body.content[2].idChargeback}`), {
    status: 400,
    body: { code: '927' },
  });
});

test('lifecycle: case 30000 answers 901, an unknown case an empty list', async (t) => {
  t.deepEqual(await api('GET', '/lifecycle/30000'), { status: 500, body: failed });
  t.deepEqual(await api('GET', '/lifecycle/123456789'), { status: 200, body: [] });
});
