import '../helpers/env';
import test from 'ava';
import { bearer, newMerchant, systemToken, type TestMerchant } from '../helpers/identity';
import { json } from '../helpers/app';
import { startChargebackStack, type ChargebackStack } from './stack';
import { b64, jpeg, pdfWithPages, tiffWithPages } from './files';

const CB = '/api/v1/acquirer/chargeback';
let stack: ChargebackStack;
let merchant: TestMerchant; // owns EC_A and the sandbox's special establishments
let other: TestMerchant; // owns EC_B
let plain: TestMerchant; // owns EC_PLAIN only
const EC_PLAIN = '3100000006';
const EC_A = '3100000001';
const EC_A2 = '3100000003';
const EC_B = '3100000002';
const EC_HANG = '3100000009';
const EC_RESET = '3100000008';

test.before(async () => {
  stack = await startChargebackStack();
  merchant = await newMerchant({ establishmentNumbers: [EC_A, EC_A2, '1111111111', '2222222222', EC_HANG, EC_RESET] });
  other = await newMerchant({ establishmentNumbers: [EC_B] });
  plain = await newMerchant({ establishmentNumbers: [EC_PLAIN] });
});
test.after.always(() => stack?.close());

const call = (method: string, path: string, token: string, body?: unknown) =>
  fetch(`${stack.url}${CB}${path}`, {
    method,
    headers: bearer(token),
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });

async function apiCalls(): Promise<number> {
  return (await stack.control('/stats')).apiCalls;
}

async function casesOf(ec: string): Promise<any[]> {
  return stack.control(`/cases/${ec}`);
}

// --- consult ---------------------------------------------------------------------------------------

test('consult returns the acquirer envelope with items in content', async (t) => {
  const res = await call(
    'POST',
    '/consult/?status=PENDING&pageSize=2&orderBy=treatmentDeadline&Order=desc',
    merchant.accessToken,
    { establishmentNumber: [Number(EC_A)] },
  );
  t.is(res.status, 200);
  const body = await json(res);
  t.is(body.content.length, 2);
  t.is(body.totalElements, 4);
  t.is(body.totalPages, 2);
  t.is(body.size, 2);
  t.true(body.first);
  t.true(body.content[0].treatmentDeadline >= body.content[1].treatmentDeadline);
  t.is(body.content[0].establishmentNumber, Number(EC_A));
  t.truthy(body.content[0].chargebackDetails.issuerDocument.length);
});

test('consult defaults page 0 and page size 200 and pins the merchant establishments', async (t) => {
  const res = await call('POST', '/consult/?status=PENDING', plain.merchantToken, {});
  t.is(res.status, 200);
  const body = await json(res);
  t.is(body.number, 0);
  t.is(body.size, 200);
  t.is(body.totalElements, 4);
  t.deepEqual([...new Set(body.content.map((item: any) => String(item.establishmentNumber)))], [EC_PLAIN]);
});

test.serial('consult query rules are 400 naming each field, before any acquirer call', async (t) => {
  const before = await apiCalls();
  const missing = await call('POST', '/consult/', merchant.accessToken, {});
  t.is(missing.status, 400);
  t.deepEqual(await json(missing), { status: ['This field is required.'] });
  const bad = await call(
    'POST',
    '/consult/?status=OPEN&page=-1&pageSize=201&orderBy=amount&Order=up',
    merchant.accessToken,
    {},
  );
  t.is(bad.status, 400);
  t.deepEqual(await json(bad), {
    status: ['Must be PENDING or DONE.'],
    page: ['Must be 0 or more; 0 is the first page.'],
    pageSize: ['Must be between 1 and 200.'],
    orderBy: ['Must be receptionDate or treatmentDeadline.'],
    Order: ['Must be asc or desc.'],
  });
  const notInteger = await call('POST', '/consult/?status=DONE&page=x&pageSize=0', merchant.accessToken, {});
  t.deepEqual(await json(notInteger), {
    page: ['A valid integer is required.'],
    pageSize: ['Must be between 1 and 200.'],
  });
  const malformed = await call('POST', '/consult/?status=PENDING', merchant.accessToken, '{"establishmentNumber": [');
  t.is(malformed.status, 400);
  t.deepEqual(await json(malformed), { detail: 'Malformed JSON in request body.' });
  const notObject = await call('POST', '/consult/?status=PENDING', merchant.accessToken, '[1]');
  t.is(notObject.status, 400);
  t.is(await apiCalls(), before);
});

test('consult passes the acquirer 400 through as received', async (t) => {
  const res = await call('POST', '/consult/?status=DONE', merchant.accessToken, {
    establishmentNumber: [Number(EC_A)],
    startNotificationPeriod: '2025-01-01',
    endNotificationPeriod: '2025-12-31',
  });
  t.is(res.status, 400);
  t.deepEqual(await json(res), { code: '906', message: 'Período maior que 180 dias' });
  const noPeriod = await call('POST', '/consult/?status=DONE', merchant.accessToken, {
    establishmentNumber: [Number(EC_A)],
  });
  t.is(noPeriod.status, 400);
  t.is((await json(noPeriod)).code, '920');
});

test('consult of handled chargebacks in a period', async (t) => {
  const today = new Date();
  const start = new Date(today.getTime() - 90 * 86_400_000).toISOString().slice(0, 10);
  const res = await call('POST', '/consult/?status=DONE', merchant.accessToken, {
    establishmentNumber: [Number(EC_A)],
    startNotificationPeriod: start,
    endNotificationPeriod: today.toISOString().slice(0, 10),
  });
  t.is(res.status, 200);
  const body = await json(res);
  t.is(body.totalElements, 3);
  t.true(body.content.every((item: any) => ['ACEITO', 'RECUSADO'].includes(item.actionTakenCode)));
});

test('consult of the always-failing establishment passes the acquirer 500 through', async (t) => {
  const res = await call('POST', '/consult/?status=PENDING', merchant.accessToken, {
    establishmentNumber: [1111111111],
  });
  t.is(res.status, 500);
  t.deepEqual(await json(res), { code: '901', message: 'Erro ao processar a solicitação, tente novamente mais tarde' });
});

test('case 4000000 of the always-succeeding establishment finds nothing', async (t) => {
  const res = await call('POST', '/consult/?status=PENDING', merchant.accessToken, {
    establishmentNumber: [2222222222],
    idCase: '4000000',
  });
  t.is(res.status, 200);
  t.deepEqual((await json(res)).content, []);
});

// --- scoping ---------------------------------------------------------------------------------------

test.serial('a foreign establishment is 403 before any acquirer call', async (t) => {
  const before = await apiCalls();
  const consult = await call('POST', '/consult/?status=PENDING', merchant.accessToken, {
    establishmentNumber: [Number(EC_A), Number(EC_B)],
  });
  t.is(consult.status, 403);
  t.deepEqual(await json(consult), { detail: `Establishment number ${EC_B} does not belong to this merchant.` });
  const [theirs] = await casesOf(EC_B);
  t.is(
    (
      await call('PUT', '/accept/', merchant.accessToken, {
        updateChargeback: [{ establishmentNumber: Number(EC_B), idChargeback: theirs.idChargeback }],
        userName: 'a@b.c',
      })
    ).status,
    403,
  );
  t.is((await call('GET', `/list-issuer-documents/${EC_B}/${theirs.idChargeback}/`, merchant.accessToken)).status, 403);
  const idDocumento = theirs.chargebackDetails.issuerDocument[0].idDocumento;
  t.is((await call('GET', `/document-issuer/${EC_B}/${idDocumento}/`, merchant.accessToken)).status, 403);
  t.is((await call('GET', `/support-document/${EC_B}/${theirs.idChargeback}/`, merchant.accessToken)).status, 403);
  t.is((await call('GET', `/lifecycle/${theirs.idCase}/`, merchant.accessToken)).status, 403);
  const refuse = await call('PUT', '/refuse/', merchant.accessToken, {
    establishmentNumber: Number(EC_B),
    idChargeback: theirs.idChargeback,
    IdCase: String(theirs.idCase),
    reasonToRefuse: 'x',
    file: b64(jpeg()),
    fileName: `${theirs.idCase}.jpeg`,
  });
  t.is(refuse.status, 403);
  t.is(await apiCalls(), before);
});

test('the system token may act for any merchant', async (t) => {
  const res = await call('POST', '/consult/?status=PENDING', systemToken(), { establishmentNumber: [Number(EC_B)] });
  t.is(res.status, 200);
  t.is((await json(res)).content[0].establishmentNumber, Number(EC_B));
  const [theirs] = await casesOf(EC_B);
  const lifecycle = await call('GET', `/lifecycle/${theirs.idCase}/`, systemToken());
  t.is(lifecycle.status, 200);
});

test('no or bad credential is 401', async (t) => {
  t.is((await fetch(`${stack.url}${CB}/consult/?status=PENDING`, { method: 'POST' })).status, 401);
  t.is((await call('POST', '/consult/?status=PENDING', 'nope', {})).status, 401);
  t.is((await call('GET', '/pending-count/', 'mt_nope')).status, 401);
});

// --- accept ----------------------------------------------------------------------------------------

test('accept passes 200, then 412 for an already handled chargeback, then 403 for a mismatch', async (t) => {
  const cases = await casesOf(EC_A2);
  const pending = cases.filter((c) => !c.handled);
  const first = await call('PUT', '/accept/', merchant.accessToken, {
    updateChargeback: [{ establishmentNumber: Number(EC_A2), idChargeback: pending[0].idChargeback }],
    userName: 'ops@loja.com.br',
  });
  t.is(first.status, 200);
  t.deepEqual(await json(first), [
    {
      establishmentNumber: Number(EC_A2),
      idChargeback: pending[0].idChargeback,
      code: '101',
      message: 'Chargeback aceito com sucesso',
    },
  ]);
  const again = await call('PUT', '/accept/', merchant.accessToken, {
    updateChargeback: [{ establishmentNumber: Number(EC_A2), idChargeback: pending[0].idChargeback }],
    userName: 'ops@loja.com.br',
  });
  t.is(again.status, 412);
  t.deepEqual(await json(again), { code: '931', message: 'Chargeback já tratado' });
  // A chargeback of EC_A named under EC_A2: both the merchant's, so it reaches the acquirer, which refuses the
  // mismatch.
  const [ofA] = (await casesOf(EC_A)).filter((c) => !c.handled);
  const mismatch = await call('PUT', '/accept/', merchant.accessToken, {
    updateChargeback: [{ establishmentNumber: Number(EC_A2), idChargeback: ofA.idChargeback }],
    userName: 'ops@loja.com.br',
  });
  t.is(mismatch.status, 403);
  t.is((await json(mismatch)).code, '902');
});

test.serial('accept validates its body before any acquirer call', async (t) => {
  const before = await apiCalls();
  const empty = await call('PUT', '/accept/', merchant.accessToken, { updateChargeback: [] });
  t.is(empty.status, 400);
  t.deepEqual(await json(empty), { updateChargeback: ['List at least one chargeback.'] });
  const bad = await call('PUT', '/accept/', merchant.accessToken, {
    updateChargeback: [{ establishmentNumber: 'abc' }],
  });
  t.deepEqual(await json(bad), {
    'updateChargeback.0.establishmentNumber': ['Must be an establishment number: 1 to 20 digits.'],
    'updateChargeback.0.idChargeback': ['This field is required.'],
  });
  t.is((await call('PUT', '/accept/', merchant.accessToken)).status, 400);
  t.is(await apiCalls(), before);
});

test('accept on the always-failing establishment passes 500 through, the always-succeeding one 101', async (t) => {
  const failing = await call('PUT', '/accept/', merchant.accessToken, {
    updateChargeback: [{ establishmentNumber: 1111111111, idChargeback: 40000 }],
    userName: 'a@b.c',
  });
  t.is(failing.status, 500);
  t.is((await json(failing)).code, '901');
  const ok = await call('PUT', '/accept/', merchant.accessToken, {
    updateChargeback: [{ establishmentNumber: 2222222222, idChargeback: 40000 }],
    userName: 'a@b.c',
  });
  t.is(ok.status, 200);
  t.is((await json(ok))[0].code, '101');
});

// --- refuse ----------------------------------------------------------------------------------------

async function pendingCaseOf(ec: string, index: number) {
  return (await casesOf(ec)).filter((c) => !c.handled)[index];
}

function refusal(c: any, file: Buffer, extension: string, extra: Record<string, unknown> = {}) {
  return {
    establishmentNumber: Number(c.establishmentNumber),
    idChargeback: c.idChargeback,
    IdCase: String(c.idCase),
    reasonToRefuse: 'Produto entregue, comprovante anexo',
    file: b64(file),
    fileName: `${c.idCase}.${extension}`,
    userName: 'ops@loja.com.br',
    ...extra,
  };
}

test('a refusal with a file of each allowed type reaches the acquirer and is answered 102', async (t) => {
  const files: [Buffer, string][] = [
    [pdfWithPages(2), 'pdf'],
    [tiffWithPages(3, 'MM'), 'tiff'],
    [jpeg(), 'jpeg'],
    [tiffWithPages(1), 'TIF'],
  ];
  const ec = '3100000005';
  const owner = await newMerchant({ establishmentNumbers: [ec] });
  for (const [index, [file, extension]] of files.entries()) {
    const c = (await casesOf(ec))[index];
    const res = await call('PUT', '/refuse/', owner.accessToken, refusal(c, file, extension));
    t.is(res.status, 200, extension);
    t.deepEqual(await json(res), { code: '102', message: 'Chargeback recusado com sucesso' });
  }
  const support = await call(
    'GET',
    `/support-document/${ec}/${(await casesOf(ec))[2].idChargeback}/`,
    owner.accessToken,
  );
  t.is(support.status, 200);
  const [document] = await json(support);
  t.is(document.codigo, 104);
  t.is(Buffer.from(document.file, 'base64').compare(jpeg()), 0);
});

test.serial('each refusal file violation is a 400 naming the rule, before any acquirer call', async (t) => {
  const c = await pendingCaseOf(EC_A, 1);
  const before = await apiCalls();
  const cases: [Record<string, unknown>, string, RegExp][] = [
    [
      refusal(c, Buffer.from('GIF89a....'), 'pdf'),
      'file',
      /Document type rule: the content is not a TIFF, PDF or JPEG/,
    ],
    [refusal(c, jpeg(), 'pdf'), 'fileName', /extension \.pdf does not match the content, which is JPEG/],
    [refusal(c, jpeg(), 'png'), 'fileName', /must end in \.tif, \.tiff, \.pdf, \.jpeg/],
    [refusal(c, Buffer.concat([jpeg(), Buffer.alloc(8 * 1024 * 1024)]), 'jpeg'), 'file', /Size rule/],
    [refusal(c, pdfWithPages(11), 'pdf'), 'file', /Page rule: the document has 11 pages/],
    [refusal(c, tiffWithPages(12), 'tif'), 'file', /Page rule: the document has more than 10 pages/],
    [
      refusal(c, pdfWithPages(1), 'pdf', { fileName: 'defesa.pdf' }),
      'fileName',
      /Document name rule: the name without its extension must equal IdCase/,
    ],
    [refusal(c, pdfWithPages(1), 'pdf', { file: '***' }), 'file', /Encoding rule/],
  ];
  for (const [body, field, message] of cases) {
    const res = await call('PUT', '/refuse/', merchant.accessToken, body);
    t.is(res.status, 400);
    const errors = await json(res);
    t.regex(errors[field]?.[0] ?? JSON.stringify(errors), message);
  }
  const missing = await call('PUT', '/refuse/', merchant.accessToken, { establishmentNumber: Number(EC_A) });
  t.deepEqual(Object.keys(await json(missing)).sort(), ['IdCase', 'file', 'fileName', 'idChargeback']);
  t.is(await apiCalls(), before);
});

test('refuse passes the acquirer 400, 403 and 412 through', async (t) => {
  const c = await pendingCaseOf(EC_A, 2);
  const long = await call(
    'PUT',
    '/refuse/',
    merchant.accessToken,
    refusal(c, pdfWithPages(1), 'pdf', { reasonToRefuse: 'x'.repeat(101) }),
  );
  t.is(long.status, 400);
  t.deepEqual(await json(long), { code: '905', message: 'Motivo da recusa maior que 100 caracteres' });
  const wrongCase = await call(
    'PUT',
    '/refuse/',
    merchant.accessToken,
    refusal({ ...c, idCase: '42' }, pdfWithPages(1), 'pdf'),
  );
  t.is(wrongCase.status, 403);
  t.is((await json(wrongCase)).code, '941');
  t.is((await call('PUT', '/refuse/', merchant.accessToken, refusal(c, pdfWithPages(1), 'pdf'))).status, 200);
  const again = await call('PUT', '/refuse/', merchant.accessToken, refusal(c, pdfWithPages(1), 'pdf'));
  t.is(again.status, 412);
  t.is((await json(again)).code, '931');
});

// --- lifecycle, documents --------------------------------------------------------------------------

test('lifecycle: idCase over 20 characters or with other characters is 400', async (t) => {
  const long = await call('GET', `/lifecycle/${'1'.repeat(21)}/`, merchant.accessToken);
  t.is(long.status, 400);
  t.deepEqual(await json(long), { idCase: ['Ensure this field has no more than 20 characters.'] });
  t.is((await call('GET', '/lifecycle/12%2E%2E/', merchant.accessToken)).status, 400);
});

test('lifecycle passes the acquirer answer through, 500 for case 30000', async (t) => {
  const failing = await call('GET', '/lifecycle/30000/', systemToken());
  t.is(failing.status, 500);
  t.is((await json(failing)).code, '901');
  const done = (await casesOf(EC_A)).find((c) => c.handled);
  const res = await call('GET', `/lifecycle/${done.idCase}/`, systemToken());
  t.is(res.status, 200);
  const [step] = await json(res);
  t.truthy(step.ActionCicleDate);
  t.is(step.caseId, done.idCase);
});

test('document flow: list, then download byte-exact with the acquirer headers', async (t) => {
  const c = (await casesOf(EC_A))[0];
  const list = await call('GET', `/list-issuer-documents/${EC_A}/${c.idChargeback}/`, merchant.accessToken);
  t.is(list.status, 200);
  const documents = await json(list);
  t.true(documents.length >= 1);
  for (const { idDocumento, nameFile } of documents) {
    const expected = await stack.control(`/documents/${idDocumento}`);
    const res = await call('GET', `/document-issuer/${EC_A}/${idDocumento}/`, merchant.accessToken);
    t.is(res.status, 200);
    t.is(res.headers.get('content-type'), expected.contentType);
    t.is(res.headers.get('content-disposition'), `attachment; filename="${nameFile}"`);
    const bytes = Buffer.from(await res.arrayBuffer());
    t.is(bytes.compare(Buffer.from(expected.base64, 'base64')), 0);
  }
});

test('the download streams: the first bytes arrive while the acquirer is still sending', async (t) => {
  const c = (await casesOf(EC_A))[1];
  const { idDocumento } = c.chargebackDetails.issuerDocument[0];
  await stack.control('/gate', { idDocumento });
  const res = await call('GET', `/document-issuer/${EC_A}/${idDocumento}/`, merchant.accessToken);
  t.is(res.status, 200);
  const reader = res.body!.getReader();
  const first = await reader.read();
  t.true(first.value!.length > 0);
  await stack.control(`/gate/${idDocumento}/open`, {});
  const chunks = [Buffer.from(first.value!)];
  for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(Buffer.from(r.value));
  const expected = await stack.control(`/documents/${idDocumento}`);
  t.is(Buffer.concat(chunks).compare(Buffer.from(expected.base64, 'base64')), 0);
});

test('documents: bad path parameters are 400; acquirer 400 and 500 pass through', async (t) => {
  const bad = await call('GET', '/list-issuer-documents/12ab/x-y/', merchant.accessToken);
  t.is(bad.status, 400);
  t.deepEqual(Object.keys(await json(bad)).sort(), ['establishmentNumber', 'idChargeback']);
  t.is((await call('GET', `/document-issuer/${EC_A}/${'9'.repeat(21)}/`, merchant.accessToken)).status, 400);
  const unknown = await call('GET', `/document-issuer/${EC_A}/1/`, merchant.accessToken);
  t.is(unknown.status, 400);
  t.is((await json(unknown)).code, '938');
  const noDefense = await call(
    'GET',
    `/support-document/${EC_A}/${(await casesOf(EC_A))[0].idChargeback}/`,
    merchant.accessToken,
  );
  t.is(noDefense.status, 400);
  t.is((await json(noDefense)).code, '927');
  const failing = await call('GET', '/support-document/1111111111/20000/', merchant.accessToken);
  t.is(failing.status, 500);
  const sample = await call('GET', '/support-document/2222222222/20000/', merchant.accessToken);
  t.is(sample.status, 200);
  t.is((await json(sample))[0].codigo, 104);
});

// --- acquirer authentication and transport ---------------------------------------------------------

test.serial('the token is cached across calls and fetched again once after the acquirer refuses it', async (t) => {
  await call('POST', '/consult/?status=PENDING', plain.accessToken, {});
  const before = await stack.control('/stats');
  await call('POST', '/consult/?status=PENDING', plain.accessToken, {});
  await call(
    'GET',
    `/list-issuer-documents/${EC_PLAIN}/${(await casesOf(EC_PLAIN))[0].idChargeback}/`,
    plain.accessToken,
  );
  t.is((await stack.control('/stats')).tokensIssued, before.tokensIssued);
  await stack.control('/revoke-tokens', {});
  const res = await call('POST', '/consult/?status=PENDING', plain.accessToken, {});
  t.is(res.status, 200);
  const after = await stack.control('/stats');
  t.is(after.tokensIssued, before.tokensIssued + 1);
});

test('an acquirer that does not answer in time is 502', async (t) => {
  await stack.control('/fault', { mode: 'hang', establishmentNumber: EC_HANG });
  const res = await call('POST', '/consult/?status=PENDING', merchant.accessToken, {
    establishmentNumber: [Number(EC_HANG)],
  });
  t.is(res.status, 502);
  t.deepEqual(await json(res), {
    detail: 'Payment gateway error: the acquirer could not be reached or did not answer in time.',
  });
});

test('a connection the acquirer drops is 502', async (t) => {
  await stack.control('/fault', { mode: 'reset', establishmentNumber: EC_RESET });
  const res = await call('GET', `/list-issuer-documents/${EC_RESET}/1/`, merchant.accessToken);
  t.is(res.status, 502);
});

test('the swagger document describes the chargeback routes', async (t) => {
  const doc = await json(await fetch(`${stack.url}/api/docs/swagger.json`));
  t.truthy(doc.paths[`${CB}/document-issuer/{establishmentNumber}/{idDocumento}/`].get);
  t.regex(doc.paths[`${CB}/refuse/`].put.description, /extension NOT being part of the name/);
  t.truthy(doc.paths[`${CB}/notifications/`].post);
});
