import '../helpers/env';
import test from 'ava';
import { getConfig } from '../../config';
import { startProcess, stopAll, type RunningProcess } from '../helpers/processes';
import { call, type CallResult } from '../helpers/http';
import {
  AcquirerRejectedError,
  authenticatedPaymentFields,
  closeAcquirerClient,
  createThreeDSecureToken,
  liabilityShifted,
  threeDSecureScriptUrl,
  validateAuthenticationResult,
} from '../../src/acquirer/client';
import { CHALLENGE_CODE, THREE_D_SECURE_CARDS } from '../helpers/three-d-secure-cards';

let sandbox: RunningProcess;

test.before(async () => {
  sandbox = await startProcess('sandbox', { SANDBOX_PORT: '0' });
  process.env.ACQUIRER_BASE_URL = sandbox.url;
  process.env.ACQUIRER_QUERY_URL = sandbox.url;
  process.env.ACQUIRER_3DS_URL = `${sandbox.url}/mpi`;
  if (getConfig().acquirer.threeDSecure.url !== `${sandbox.url}/mpi`)
    throw new Error('config was loaded before the test set the authentication service url');
});
test.after.always(async () => {
  await closeAcquirerClient();
  await stopAll();
});

const MERCHANT = { establishmentCode: '1234567890', merchantName: 'Floricultura Ipê', mcc: '5992' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const CAVV = /^[A-Za-z0-9+/]{27}=$/;

const newToken = async () => (await createThreeDSecureToken(MERCHANT)).accessToken;

/** What the script posts for the page's bpmpi_* fields (authentication-pages.ts). */
function order(cardNumber: string, overrides: Record<string, string> = {}) {
  return {
    OrderNumber: 'PL42',
    Currency: 'BRL',
    TotalAmount: '15990',
    Installments: '1',
    PaymentMethod: 'credit',
    CardNumber: cardNumber,
    CardExpirationMonth: '12',
    CardExpirationYear: '2031',
    ...overrides,
  };
}

const script = (method: string, path: string, token: string | undefined, body?: unknown): Promise<CallResult> =>
  call(sandbox, method, `/mpi/v2/3ds${path}`, token ? { authorization: `Bearer ${token}` } : {}, body);

async function authenticated(card: string, overrides: Record<string, string> = {}): Promise<CallResult> {
  return script('POST', '/authenticate', await newToken(), order(card, overrides));
}

test('the token route serves our client only, and the client reads its answer', async (t) => {
  const before = Date.now();
  const token = await createThreeDSecureToken(MERCHANT);
  t.regex(token.accessToken, /^[A-Za-z0-9_-]{40,}$/);
  const minutes = (token.expiresAt.getTime() - before) / 60_000;
  t.true(minutes > 19 && minutes <= 20.1, String(minutes));
  t.is(threeDSecureScriptUrl(), `${sandbox.url}/mpi/Scripts/BP.Mpi.3ds20.min.js`);

  const body = { EstablishmentCode: '1234567890', MerchantName: 'Loja', MCC: '5992' };
  const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
  const { clientId, clientSecret } = getConfig().acquirer.threeDSecure;
  for (const authorization of [undefined, basic(clientId, 'wrong'), basic('other', clientSecret), `Bearer x`]) {
    const res = await call(sandbox, 'POST', '/mpi/v2/auth/token', { authorization }, body);
    t.is(res.status, 401, String(authorization));
    t.false('access_token' in (res.body as object));
  }
  const answered = await call(
    sandbox,
    'POST',
    '/mpi/v2/auth/token',
    { authorization: basic(clientId, clientSecret) },
    body,
  );
  t.is(answered.status, 200);
  t.deepEqual(Object.keys(answered.body).sort(), ['access_token', 'expires_in', 'token_type']);
  t.is(answered.body.token_type, 'bearer');
  t.is(answered.body.expires_in, 20);

  const refused = await t.throwsAsync(createThreeDSecureToken({ ...MERCHANT, establishmentCode: '12345', mcc: 'x' }), {
    instanceOf: AcquirerRejectedError,
  });
  t.is(refused!.httpStatus, 400);
  t.deepEqual(
    refused!.errors.map((e) => e.Message),
    ['EstablishmentCode must be 10 digits', 'MCC must be 4 digits'],
  );
});

test('a token authenticates one card once; a reused, expired or unknown token is refused', async (t) => {
  const token = await newToken();
  t.deepEqual((await script('POST', '/check', token, {})).body, { Status: 'ready' });
  t.deepEqual((await script('POST', '/check', token, {})).body, { Status: 'ready' }, 'checking does not spend it');
  // An order the service cannot read is refused without spending the token, naming the page's field.
  const unreadable = await script('POST', '/authenticate', token, order('4000000000000051', { TotalAmount: '0' }));
  t.is(unreadable.status, 400);
  t.like(unreadable.body, { Status: 'error', ReturnCode: 'MPI422' });
  t.regex(unreadable.body.ReturnMessage, /bpmpi_totalamount/);
  const first = await script('POST', '/authenticate', token, order('4000000000000051'));
  t.is(first.body.Status, 'success');
  for (const path of ['/authenticate', '/check']) {
    const again = await script('POST', path, token, order('4000000000000051'));
    t.is(again.status, 401, path);
    t.deepEqual(again.body, { Status: 'error', ReturnCode: 'MPI401', ReturnMessage: 'Access token already used' });
  }

  const expiring = await newToken();
  const expired = await call(sandbox, 'POST', '/mpi/sandbox/tokens/expire', {}, { access_token: expiring });
  t.is(expired.status, 200);
  for (const path of ['/check', '/authenticate']) {
    const late = await script('POST', path, expiring, order('4000000000000051'));
    t.is(late.status, 401, path);
    t.is(late.body.ReturnMessage, 'Access token expired');
  }
  for (const token of [undefined, 'made-up', `${await newToken()}x`]) {
    const unknown = await script('POST', '/authenticate', token, order('4000000000000051'));
    t.is(unknown.status, 401);
    t.is(unknown.body.ReturnMessage, 'Access token unknown');
  }
});

test('each test card answers its outcome and brand ECI, in a result our validation accepts', async (t) => {
  for (const card of THREE_D_SECURE_CARDS) {
    const { body } = await authenticated(card.number);
    const label = `${card.brand} ${card.scenario} ${card.number}`;
    t.is(body.Status, card.status, label);
    if (card.status === 'unsupportedBrand') {
      t.deepEqual(body, {
        Status: 'unsupportedBrand',
        ReturnCode: 'MPI600',
        ReturnMessage: 'Brand not supported for authentication',
      });
      continue;
    }
    if (card.status === 'challenge') {
      t.regex(body.TransactionId, UUID, label);
      t.deepEqual(Object.keys(body).sort(), ['Status', 'TransactionId'], label);
      continue;
    }
    t.regex(body.ReferenceId, UUID, label);
    if (card.status === 'error') {
      t.like(body, { ReturnCode: '231', Eci: null, Xid: null }, label);
      continue;
    }
    t.is(body.Eci, card.eci, label);
    t.is(body.Version, card.brand === 'Visa' || card.brand === 'Master' ? '2.2.0' : '2.1.0', label);
    t.is(body.Xid === null, card.brand === 'Master', `${label}: Mastercard's 3DS 2 has no Xid`);
    if (card.status === 'success') t.regex(body.Cavv, CAVV, label);
    else t.false('Cavv' in body, label);
    const result = {
      eci: body.Eci,
      cavv: body.Cavv,
      xid: body.Xid,
      version: body.Version,
      reference_id: body.ReferenceId,
    };
    const checked = validateAuthenticationResult(result, card.brand);
    t.true(checked.ok, `${label}: ${JSON.stringify(checked)}`);
    t.is(liabilityShifted(card.brand, body.Eci), card.status === 'success', label);
  }
});

/** A challenge opened for `card`; the payer then answers on the challenge page as its form posts. */
async function challenge(card = '4000000000000101') {
  const { body } = await authenticated(card);
  const id = body.TransactionId as string;
  const answer = (form: Record<string, string | undefined>) =>
    call(
      sandbox,
      'POST',
      `/mpi/challenge/${id}`,
      { 'content-type': 'application/x-www-form-urlencoded' },
      new URLSearchParams(form as Record<string, string>).toString(),
    );
  const result = async () => (await script('GET', `/transactions/${id}`, undefined)).body;
  return { id, answer, result };
}

test('a challenge passes with the code and fails with a wrong code or a cancel; the first answer stands', async (t) => {
  const passed = await challenge();
  const pageOf = await call(sandbox, 'GET', `/mpi/challenge/${passed.id}`);
  t.is(pageOf.status, 200);
  t.regex(pageOf.text, /Código de verificação/);
  t.regex(pageOf.text, /R\$\s159,90/);
  t.regex(pageOf.text, /final\s*<strong>0101<\/strong>/);
  t.like(await passed.result(), { Status: 'challenge' }, 'open until the payer answers');
  const finished = await passed.answer({ code: CHALLENGE_CODE, action: 'confirm' });
  t.is(finished.status, 200);
  t.regex(finished.text, /postMessage\(\{"type":"bpmpi:challenge-finished","transactionId":"[0-9a-f-]{36}"\}, '\*'\)/);
  const success = await passed.result();
  t.like(success, { Status: 'success', Eci: '05', Version: '2.2.0' });
  t.regex(success.Cavv, CAVV);
  await passed.answer({ code: '0000', action: 'confirm' });
  t.deepEqual(await passed.result(), success, 'a second answer changes nothing');

  for (const form of [{ code: '4321', action: 'confirm' }, { code: '1234', action: 'cancel' }, { code: ' 1234' }]) {
    const failed = await challenge('5100000000000131');
    await failed.answer(form);
    const result = await failed.result();
    t.like(result, { Status: 'failure', Eci: '00', Xid: null }, JSON.stringify(form));
    t.false('Cavv' in result);
  }
  t.is((await call(sandbox, 'GET', '/mpi/challenge/00000000-0000-4000-8000-000000000000')).status, 404);
  t.is((await script('GET', '/transactions/nope', undefined)).status, 404);
});

/** POST /1/sales/ as the acquirer takes it, with our MerchantId/MerchantKey. */
function sale(cardNumber: string, amount: number, payment: object = {}) {
  const { merchantId, merchantKey } = getConfig().acquirer;
  return call(
    sandbox,
    'POST',
    '/1/sales/',
    { MerchantId: merchantId, MerchantKey: merchantKey },
    {
      MerchantOrderId: `PL42${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`,
      Customer: { Name: 'Carla Souza' },
      Payment: {
        Type: 'CreditCard',
        Amount: amount,
        Installments: 1,
        Capture: false,
        CreditCard: {
          CardNumber: cardNumber,
          Holder: 'CARLA SOUZA',
          ExpirationDate: '12/2031',
          SecurityCode: '123',
          Brand: 'Visa',
        },
        ...payment,
      },
    },
  );
}

async function authenticationOf(card: string, amount: number) {
  const { body } = await authenticated(card, { TotalAmount: String(amount) });
  const checked = validateAuthenticationResult(
    { eci: body.Eci, cavv: body.Cavv, xid: body.Xid, version: body.Version, reference_id: body.ReferenceId },
    'Visa',
  );
  if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
  return authenticatedPaymentFields(checked.value);
}

test('a sale carries the authentication of its own order only', async (t) => {
  const card = '4000000000000051';
  const fields = await authenticationOf(card, 15990);
  const approved = await sale(card, 15990, fields);
  t.is(approved.status, 201, JSON.stringify(approved.body));
  t.is(approved.body.Payment.Status, 1);

  const refusal = (res: CallResult) => [res.status, res.body[0]?.Code];
  t.deepEqual(refusal(await sale(card, 15991, fields)), [400, 325], 'another amount');
  t.deepEqual(refusal(await sale('4111111111111111', 15990, fields)), [400, 325], 'another card');
  const debit = await authenticated(card, { PaymentMethod: 'debit' });
  const asDebit = {
    Cavv: debit.body.Cavv,
    Xid: debit.body.Xid,
    Eci: '05',
    Version: '2.2.0',
    ReferenceId: debit.body.ReferenceId,
  };
  t.deepEqual(refusal(await sale(card, 15990, { ExternalAuthentication: asDebit })), [400, 325], 'debit on credit');
  const { ExternalAuthentication: given } = fields;
  const other = { ...given, Cavv: Buffer.alloc(20, 7).toString('base64') };
  t.deepEqual(refusal(await sale(card, 15990, { ExternalAuthentication: other })), [400, 324], 'another Cavv');
  t.deepEqual(refusal(await sale(card, 15990, { ExternalAuthentication: { ...given, Eci: '06' } })), [400, 324]);
  t.deepEqual(refusal(await sale(card, 15990, { ExternalAuthentication: { ...given, Xid: undefined } })), [400, 324]);
  t.deepEqual(refusal(await sale(card, 15990, { ExternalAuthentication: { ...given, Cavv: undefined } })), [400, 322]);
  t.deepEqual(refusal(await sale(card, 15990, { ExternalAuthentication: { ...given, Eci: undefined } })), [400, 321]);
  const unknownReference = { ...given, ReferenceId: '9f3b1c1e-8a6f-4c1d-9f0e-2b7d4e5a6c7b' };
  t.deepEqual(refusal(await sale(card, 15990, { ExternalAuthentication: unknownReference })), [400, 323]);
  t.deepEqual(refusal(await sale(card, 15990, { Authenticate: true })), [400, 320]);
  t.deepEqual(refusal(await sale(card, 15990, { ExternalAuthentication: 'yes' })), [400, 320]);

  // A failed authentication may still back a sale (the merchant keeps the liability); one without is untouched.
  const failed = await authenticationOf('4000000000000291', 15990);
  t.is((await sale('4000000000000291', 15990, failed)).status, 201);
  t.is((await sale(card, 15990)).status, 201);
  const stored = await call(sandbox, 'GET', `/mpi/sandbox/authentications/${given.ReferenceId}`);
  t.like(stored.body, { amountCents: 15990, card: '400000…0051', outcome: 'success', eci: '05' });
});

test('the script is served to any page, and its calls answer any origin without cookies', async (t) => {
  const served = await call(sandbox, 'GET', '/mpi/Scripts/BP.Mpi.3ds20.min.js');
  t.is(served.status, 200);
  t.regex(served.headers.get('content-type')!, /^text\/javascript/);
  t.regex(served.text, /window\.bpmpi_authenticate = authenticate/);
  const preflight = await call(sandbox, 'OPTIONS', '/mpi/v2/3ds/authenticate', {
    origin: 'https://loja.example',
    'access-control-request-method': 'POST',
    'access-control-request-headers': 'authorization,content-type',
  });
  t.is(preflight.status, 204);
  t.is(preflight.headers.get('access-control-allow-origin'), '*');
  t.is(preflight.headers.get('access-control-allow-credentials'), null);
  t.regex(preflight.headers.get('access-control-allow-headers')!, /Authorization/);
  // The token route is for our server only: a browser may not call it.
  const tokenPreflight = await call(sandbox, 'OPTIONS', '/mpi/v2/auth/token', { origin: 'https://loja.example' });
  t.is(tokenPreflight.headers.get('access-control-allow-origin'), null);
});
