import '../helpers/env';
import test from 'ava';
import { bearer, newMerchant, systemToken, type TestMerchant } from '../helpers/identity';
import { startChargebackStack, type ChargebackStack } from './stack';
import { b64, jpeg, pdfWithPages, tiffWithPages } from './files';
import { call, callJson, send } from '../helpers/http';

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

async function apiCalls(): Promise<number> {
  return (await stack.control('/stats')).apiCalls;
}

async function casesOf(ec: string): Promise<any[]> {
  return stack.control(`/cases/${ec}`);
}

// --- consult ---------------------------------------------------------------------------------------

test('consult returns the acquirer envelope with items in content', async (t) => {
  const res = await callJson(
    stack,
    'POST',
    `${CB}/consult/?status=PENDING&pageSize=2&orderBy=treatmentDeadline&Order=desc`,
    bearer(merchant.accessToken),
    { establishmentNumber: [Number(EC_A)] },
  );
  t.is(res.status, 200);
  const body = res.body;
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
  const res = await callJson(stack, 'POST', `${CB}/consult/?status=PENDING`, bearer(plain.merchantToken), {});
  t.is(res.status, 200);
  const body = res.body;
  t.is(body.number, 0);
  t.is(body.size, 200);
  t.is(body.totalElements, 4);
  t.deepEqual([...new Set(body.content.map((item: any) => String(item.establishmentNumber)))], [EC_PLAIN]);
});

test.serial('consult query rules are 400 naming each field, before any acquirer call', async (t) => {
  const before = await apiCalls();
  const missing = await callJson(stack, 'POST', `${CB}/consult/`, bearer(merchant.accessToken), {});
  t.is(missing.status, 400);
  t.deepEqual(missing.body, { status: ['This field is required.'] });
  const bad = await callJson(
    stack,
    'POST',
    `${CB}/consult/?status=OPEN&page=-1&pageSize=201&orderBy=amount&Order=up`,
    bearer(merchant.accessToken),
    {},
  );
  t.is(bad.status, 400);
  t.deepEqual(bad.body, {
    status: ['Must be PENDING or DONE.'],
    page: ['Must be 0 or more; 0 is the first page.'],
    pageSize: ['Must be between 1 and 200.'],
    orderBy: ['Must be receptionDate or treatmentDeadline.'],
    Order: ['Must be asc or desc.'],
  });
  const notInteger = await callJson(
    stack,
    'POST',
    `${CB}/consult/?status=DONE&page=x&pageSize=0`,
    bearer(merchant.accessToken),
    {},
  );
  t.deepEqual(notInteger.body, {
    page: ['A valid integer is required.'],
    pageSize: ['Must be between 1 and 200.'],
  });
  const malformed = await callJson(
    stack,
    'POST',
    `${CB}/consult/?status=PENDING`,
    bearer(merchant.accessToken),
    '{"establishmentNumber": [',
  );
  t.is(malformed.status, 400);
  t.deepEqual(malformed.body, { detail: 'Malformed JSON in request body.' });
  const notObject = await call(stack, 'POST', `${CB}/consult/?status=PENDING`, bearer(merchant.accessToken), '[1]');
  t.is(notObject.status, 400);
  t.is(await apiCalls(), before);
});

test('consult passes the acquirer 400 through as received', async (t) => {
  const res = await callJson(stack, 'POST', `${CB}/consult/?status=DONE`, bearer(merchant.accessToken), {
    establishmentNumber: [Number(EC_A)],
    startNotificationPeriod: '2025-01-01',
    endNotificationPeriod: '2025-12-31',
  });
  t.is(res.status, 400);
  t.deepEqual(res.body, { code: '906', message: 'Período maior que 180 dias' });
  const noPeriod = await callJson(stack, 'POST', `${CB}/consult/?status=DONE`, bearer(merchant.accessToken), {
    establishmentNumber: [Number(EC_A)],
  });
  t.is(noPeriod.status, 400);
  t.is(noPeriod.body.code, '920');
});

test('consult of handled chargebacks in a period', async (t) => {
  const today = new Date();
  const start = new Date(today.getTime() - 90 * 86_400_000).toISOString().slice(0, 10);
  const res = await callJson(stack, 'POST', `${CB}/consult/?status=DONE`, bearer(merchant.accessToken), {
    establishmentNumber: [Number(EC_A)],
    startNotificationPeriod: start,
    endNotificationPeriod: today.toISOString().slice(0, 10),
  });
  t.is(res.status, 200);
  const body = res.body;
  t.is(body.totalElements, 3);
  t.true(body.content.every((item: any) => ['ACEITO', 'RECUSADO'].includes(item.actionTakenCode)));
});

test('consult of the always-failing establishment passes the acquirer 500 through', async (t) => {
  const res = await callJson(stack, 'POST', `${CB}/consult/?status=PENDING`, bearer(merchant.accessToken), {
    establishmentNumber: [1111111111],
  });
  t.is(res.status, 500);
  t.deepEqual(res.body, { code: '901', message: 'Erro ao processar a solicitação, tente novamente mais tarde' });
});

test('case 4000000 of the always-succeeding establishment finds nothing', async (t) => {
  const res = await callJson(stack, 'POST', `${CB}/consult/?status=PENDING`, bearer(merchant.accessToken), {
    establishmentNumber: [2222222222],
    idCase: '4000000',
  });
  t.is(res.status, 200);
  t.deepEqual(res.body.content, []);
});

// --- scoping ---------------------------------------------------------------------------------------

test.serial('a foreign establishment is 403 before any acquirer call', async (t) => {
  const before = await apiCalls();
  const consult = await callJson(stack, 'POST', `${CB}/consult/?status=PENDING`, bearer(merchant.accessToken), {
    establishmentNumber: [Number(EC_A), Number(EC_B)],
  });
  t.is(consult.status, 403);
  t.deepEqual(consult.body, { detail: `Establishment number ${EC_B} does not belong to this merchant.` });
  const [theirs] = await casesOf(EC_B);
  t.is(
    (
      await call(stack, 'PUT', `${CB}/accept/`, bearer(merchant.accessToken), {
        updateChargeback: [{ establishmentNumber: Number(EC_B), idChargeback: theirs.idChargeback }],
        userName: 'a@b.c',
      })
    ).status,
    403,
  );
  t.is(
    (
      await call(
        stack,
        'GET',
        `${CB}/list-issuer-documents/${EC_B}/${theirs.idChargeback}/`,
        bearer(merchant.accessToken),
      )
    ).status,
    403,
  );
  const idDocumento = theirs.chargebackDetails.issuerDocument[0].idDocumento;
  t.is(
    (await call(stack, 'GET', `${CB}/document-issuer/${EC_B}/${idDocumento}/`, bearer(merchant.accessToken))).status,
    403,
  );
  t.is(
    (await call(stack, 'GET', `${CB}/support-document/${EC_B}/${theirs.idChargeback}/`, bearer(merchant.accessToken)))
      .status,
    403,
  );
  t.is((await call(stack, 'GET', `${CB}/lifecycle/${theirs.idCase}/`, bearer(merchant.accessToken))).status, 403);
  const refuse = await call(stack, 'PUT', `${CB}/refuse/`, bearer(merchant.accessToken), {
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
  const res = await callJson(stack, 'POST', `${CB}/consult/?status=PENDING`, bearer(systemToken()), {
    establishmentNumber: [Number(EC_B)],
  });
  t.is(res.status, 200);
  t.is(res.body.content[0].establishmentNumber, Number(EC_B));
  const [theirs] = await casesOf(EC_B);
  const lifecycle = await call(stack, 'GET', `${CB}/lifecycle/${theirs.idCase}/`, bearer(systemToken()));
  t.is(lifecycle.status, 200);
});

test('no or bad credential is 401', async (t) => {
  t.is((await call(stack, 'POST', `${CB}/consult/?status=PENDING`)).status, 401);
  t.is((await call(stack, 'POST', `${CB}/consult/?status=PENDING`, bearer('nope'), {})).status, 401);
  t.is((await call(stack, 'GET', `${CB}/pending-count/`, bearer('mt_nope'))).status, 401);
});

// --- accept ----------------------------------------------------------------------------------------

test('accept passes 200, then 412 for an already handled chargeback, then 403 for a mismatch', async (t) => {
  const cases = await casesOf(EC_A2);
  const pending = cases.filter((c) => !c.handled);
  const first = await callJson(stack, 'PUT', `${CB}/accept/`, bearer(merchant.accessToken), {
    updateChargeback: [{ establishmentNumber: Number(EC_A2), idChargeback: pending[0].idChargeback }],
    userName: 'ops@loja.com.br',
  });
  t.is(first.status, 200);
  t.deepEqual(first.body, [
    {
      establishmentNumber: Number(EC_A2),
      idChargeback: pending[0].idChargeback,
      code: '101',
      message: 'Chargeback aceito com sucesso',
    },
  ]);
  const again = await callJson(stack, 'PUT', `${CB}/accept/`, bearer(merchant.accessToken), {
    updateChargeback: [{ establishmentNumber: Number(EC_A2), idChargeback: pending[0].idChargeback }],
    userName: 'ops@loja.com.br',
  });
  t.is(again.status, 412);
  t.deepEqual(again.body, { code: '931', message: 'Chargeback já tratado' });
  // A chargeback of EC_A named under EC_A2: both the merchant's, so it reaches the acquirer, which refuses the
  // mismatch.
  const [ofA] = (await casesOf(EC_A)).filter((c) => !c.handled);
  const mismatch = await callJson(stack, 'PUT', `${CB}/accept/`, bearer(merchant.accessToken), {
    updateChargeback: [{ establishmentNumber: Number(EC_A2), idChargeback: ofA.idChargeback }],
    userName: 'ops@loja.com.br',
  });
  t.is(mismatch.status, 403);
  t.is(mismatch.body.code, '902');
});

test.serial('accept validates its body before any acquirer call', async (t) => {
  const before = await apiCalls();
  const empty = await callJson(stack, 'PUT', `${CB}/accept/`, bearer(merchant.accessToken), { updateChargeback: [] });
  t.is(empty.status, 400);
  t.deepEqual(empty.body, { updateChargeback: ['List at least one chargeback.'] });
  const bad = await callJson(stack, 'PUT', `${CB}/accept/`, bearer(merchant.accessToken), {
    updateChargeback: [{ establishmentNumber: 'abc' }],
  });
  t.deepEqual(bad.body, {
    'updateChargeback.0.establishmentNumber': ['Must be an establishment number: 1 to 20 digits.'],
    'updateChargeback.0.idChargeback': ['This field is required.'],
  });
  t.is((await call(stack, 'PUT', `${CB}/accept/`, bearer(merchant.accessToken))).status, 400);
  t.is(await apiCalls(), before);
});

test.serial('a wrong accept body is told the key and shape expected', async (t) => {
  const before = await apiCalls();
  const accept = (body: unknown) => callJson(stack, 'PUT', `${CB}/accept/`, bearer(merchant.accessToken), body);
  const items = 'a list of {"establishmentNumber", "idChargeback"}';
  t.deepEqual((await accept({})).body, { updateChargeback: [`This field is required: ${items}.`] });
  t.deepEqual((await accept({ items: [] })).body, {
    updateChargeback: [`This field is required: ${items}.`],
    items: ['Not a field the acquirer accepts; only its documented fields are forwarded.'],
  });
  t.deepEqual((await accept({ updateChargeback: { establishmentNumber: EC_A, idChargeback: 1 } })).body, {
    updateChargeback: [`Must be ${items}.`],
  });
  // The list of chargebacks sent bare, without its key.
  const bare = await accept([{ establishmentNumber: EC_A, idChargeback: 1 }]);
  t.is(bare.status, 400);
  t.deepEqual(bare.body, {
    non_field_errors: [
      'The body must be a JSON object: {"updateChargeback": [{"establishmentNumber", "idChargeback"}, ...], ' +
        '"userName"?}.',
    ],
  });
  t.is(await apiCalls(), before);
});

test('accept on the always-failing establishment passes 500 through, the always-succeeding one 101', async (t) => {
  const failing = await callJson(stack, 'PUT', `${CB}/accept/`, bearer(merchant.accessToken), {
    updateChargeback: [{ establishmentNumber: 1111111111, idChargeback: 40000 }],
    userName: 'a@b.c',
  });
  t.is(failing.status, 500);
  t.is(failing.body.code, '901');
  const ok = await callJson(stack, 'PUT', `${CB}/accept/`, bearer(merchant.accessToken), {
    updateChargeback: [{ establishmentNumber: 2222222222, idChargeback: 40000 }],
    userName: 'a@b.c',
  });
  t.is(ok.status, 200);
  t.is(ok.body[0].code, '101');
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
    const res = await callJson(stack, 'PUT', `${CB}/refuse/`, bearer(owner.accessToken), refusal(c, file, extension));
    t.is(res.status, 200, extension);
    t.deepEqual(res.body, { code: '102', message: 'Chargeback recusado com sucesso' });
  }
  const support = await callJson(
    stack,
    'GET',
    `${CB}/support-document/${ec}/${(await casesOf(ec))[2].idChargeback}/`,
    bearer(owner.accessToken),
  );
  t.is(support.status, 200);
  const [document] = support.body;
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
    const res = await callJson(stack, 'PUT', `${CB}/refuse/`, bearer(merchant.accessToken), body);
    t.is(res.status, 400);
    const errors = res.body;
    t.regex(errors[field]?.[0] ?? JSON.stringify(errors), message);
  }
  const missing = await callJson(stack, 'PUT', `${CB}/refuse/`, bearer(merchant.accessToken), {
    establishmentNumber: Number(EC_A),
  });
  t.deepEqual(Object.keys(missing.body).sort(), ['IdCase', 'file', 'fileName', 'idChargeback']);
  t.is(await apiCalls(), before);
});

test('refuse passes the acquirer 400, 403 and 412 through', async (t) => {
  const c = await pendingCaseOf(EC_A, 2);
  const long = await callJson(
    stack,
    'PUT',
    `${CB}/refuse/`,
    bearer(merchant.accessToken),
    refusal(c, pdfWithPages(1), 'pdf', { reasonToRefuse: 'x'.repeat(101) }),
  );
  t.is(long.status, 400);
  t.deepEqual(long.body, { code: '905', message: 'Motivo da recusa maior que 100 caracteres' });
  const wrongCase = await callJson(
    stack,
    'PUT',
    `${CB}/refuse/`,
    bearer(merchant.accessToken),
    refusal({ ...c, idCase: '42' }, pdfWithPages(1), 'pdf'),
  );
  t.is(wrongCase.status, 403);
  t.is(wrongCase.body.code, '941');
  t.is(
    (await call(stack, 'PUT', `${CB}/refuse/`, bearer(merchant.accessToken), refusal(c, pdfWithPages(1), 'pdf')))
      .status,
    200,
  );
  const again = await callJson(
    stack,
    'PUT',
    `${CB}/refuse/`,
    bearer(merchant.accessToken),
    refusal(c, pdfWithPages(1), 'pdf'),
  );
  t.is(again.status, 412);
  t.is(again.body.code, '931');
});

// --- lifecycle, documents --------------------------------------------------------------------------

test('lifecycle: idCase over 20 characters or with other characters is 400', async (t) => {
  const long = await callJson(stack, 'GET', `${CB}/lifecycle/${'1'.repeat(21)}/`, bearer(merchant.accessToken));
  t.is(long.status, 400);
  t.deepEqual(long.body, { idCase: ['Ensure this field has no more than 20 characters.'] });
  t.is((await call(stack, 'GET', `${CB}/lifecycle/12%2E%2E/`, bearer(merchant.accessToken))).status, 400);
});

test('lifecycle passes the acquirer answer through, 500 for case 30000', async (t) => {
  const failing = await callJson(stack, 'GET', `${CB}/lifecycle/30000/`, bearer(systemToken()));
  t.is(failing.status, 500);
  t.is(failing.body.code, '901');
  const done = (await casesOf(EC_A)).find((c) => c.handled);
  const res = await callJson(stack, 'GET', `${CB}/lifecycle/${done.idCase}/`, bearer(systemToken()));
  t.is(res.status, 200);
  const [step] = res.body;
  t.truthy(step.ActionCicleDate);
  t.is(step.caseId, done.idCase);
});

test('document flow: list, then download byte-exact with the acquirer headers', async (t) => {
  const c = (await casesOf(EC_A))[0];
  const list = await callJson(
    stack,
    'GET',
    `${CB}/list-issuer-documents/${EC_A}/${c.idChargeback}/`,
    bearer(merchant.accessToken),
  );
  t.is(list.status, 200);
  const documents = list.body;
  t.true(documents.length >= 1);
  for (const { idDocumento, nameFile } of documents) {
    const expected = await stack.control(`/documents/${idDocumento}`);
    const res = await call(stack, 'GET', `${CB}/document-issuer/${EC_A}/${idDocumento}/`, bearer(merchant.accessToken));
    t.is(res.status, 200);
    t.is(res.headers.get('content-type'), expected.contentType);
    t.is(res.headers.get('content-disposition'), `attachment; filename="${nameFile}"`);
    t.is(res.bytes.compare(Buffer.from(expected.base64, 'base64')), 0);
  }
});

test('the download streams: the first bytes arrive while the acquirer is still sending', async (t) => {
  const c = (await casesOf(EC_A))[1];
  const { idDocumento } = c.chargebackDetails.issuerDocument[0];
  await stack.control('/gate', { idDocumento });
  const res = await send(stack, 'GET', `${CB}/document-issuer/${EC_A}/${idDocumento}/`, bearer(merchant.accessToken));
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
  const bad = await callJson(stack, 'GET', `${CB}/list-issuer-documents/12ab/x-y/`, bearer(merchant.accessToken));
  t.is(bad.status, 400);
  t.deepEqual(Object.keys(bad.body).sort(), ['establishmentNumber', 'idChargeback']);
  t.is(
    (await call(stack, 'GET', `${CB}/document-issuer/${EC_A}/${'9'.repeat(21)}/`, bearer(merchant.accessToken))).status,
    400,
  );
  const unknown = await callJson(stack, 'GET', `${CB}/document-issuer/${EC_A}/1/`, bearer(merchant.accessToken));
  t.is(unknown.status, 400);
  t.is(unknown.body.code, '938');
  const noDefense = await callJson(
    stack,
    'GET',
    `${CB}/support-document/${EC_A}/${(await casesOf(EC_A))[0].idChargeback}/`,
    bearer(merchant.accessToken),
  );
  t.is(noDefense.status, 400);
  t.is(noDefense.body.code, '927');
  const failing = await call(stack, 'GET', `${CB}/support-document/1111111111/20000/`, bearer(merchant.accessToken));
  t.is(failing.status, 500);
  const sample = await callJson(stack, 'GET', `${CB}/support-document/2222222222/20000/`, bearer(merchant.accessToken));
  t.is(sample.status, 200);
  t.is(sample.body[0].codigo, 104);
});

// --- acquirer authentication and transport ---------------------------------------------------------

test.serial('the token is cached across calls and fetched again once after the acquirer refuses it', async (t) => {
  await call(stack, 'POST', `${CB}/consult/?status=PENDING`, bearer(plain.accessToken), {});
  const before = await stack.control('/stats');
  await call(stack, 'POST', `${CB}/consult/?status=PENDING`, bearer(plain.accessToken), {});
  await call(
    stack,
    'GET',
    `${CB}/list-issuer-documents/${EC_PLAIN}/${(await casesOf(EC_PLAIN))[0].idChargeback}/`,
    bearer(plain.accessToken),
  );
  t.is((await stack.control('/stats')).tokensIssued, before.tokensIssued);
  await stack.control('/revoke-tokens', {});
  const res = await call(stack, 'POST', `${CB}/consult/?status=PENDING`, bearer(plain.accessToken), {});
  t.is(res.status, 200);
  const after = await stack.control('/stats');
  t.is(after.tokensIssued, before.tokensIssued + 1);
});

test('an acquirer that does not answer in time is 502', async (t) => {
  await stack.control('/fault', { mode: 'hang', establishmentNumber: EC_HANG });
  const res = await callJson(stack, 'POST', `${CB}/consult/?status=PENDING`, bearer(merchant.accessToken), {
    establishmentNumber: [Number(EC_HANG)],
  });
  t.is(res.status, 502);
  t.deepEqual(res.body, {
    detail: 'Payment gateway error: the acquirer could not be reached or did not answer in time.',
  });
});

test('a connection the acquirer drops is 502', async (t) => {
  await stack.control('/fault', { mode: 'reset', establishmentNumber: EC_RESET });
  const res = await call(stack, 'GET', `${CB}/list-issuer-documents/${EC_RESET}/1/`, bearer(merchant.accessToken));
  t.is(res.status, 502);
});

test('the swagger document describes the chargeback routes', async (t) => {
  const doc = (await callJson(stack, 'GET', '/api/docs/swagger.json')).body;
  t.truthy(doc.paths[`${CB}/document-issuer/{establishmentNumber}/{idDocumento}/`].get);
  t.regex(doc.paths[`${CB}/refuse/`].put.description, /extension NOT being part of the name/);
  t.truthy(doc.paths[`${CB}/notifications/`].post);
});
