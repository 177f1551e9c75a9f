import '../helpers/env';
import crypto from 'node:crypto';
import test from 'ava';
import {
  ApiError,
  PaymentsClient,
  encryptCardWithKey,
  isApiError,
  jwtExpiry,
  type Card,
} from '../../clients/typescript/src';
import { eventually, startProcess, type RunningProcess } from '../helpers/processes';
import { newMerchant, newStaff, type TestMerchant } from '../helpers/identity';
import { useServices } from '../helpers/services';
import { send } from '../helpers/http';

// The partner journey of docs/client.md, through the generated client only, against the real web,
// worker and scheduler processes and the acquirer sandbox. The client talks HTTP to them exactly as a
// partner's integration would; the only other calls are the sandbox's own test controls (a PIX payer).

/** Access tokens live 33 s: the client renews 30 s before expiry, so renewal happens during the journey. */
const ACCESS_TTL_SECONDS = 33;

let sandbox: RunningProcess;
let web: RunningProcess;
let merchant: TestMerchant;
let client: PaymentsClient;
/** Every request the merchant's client sent, "METHOD path", in order, and the bearer credentials it used. */
const sent: string[] = [];
const bearers = new Set<string>();

const card = (number: string): Card => ({
  number,
  holder: 'MARIA SILVA',
  expMonth: 12,
  expYear: new Date().getUTCFullYear() + 3,
  cvv: '123',
});
const APPROVED = '4000000000000010';
const DENIED_05 = '4000000000000002';
const PAYER = { name: 'Maria Silva', document: '529.982.247-25' };

useServices({
  async ready() {
    sandbox = await startProcess('sandbox', { SANDBOX_PORT: '0' });
    const env = {
      ACQUIRER_BASE_URL: sandbox.url,
      ACQUIRER_QUERY_URL: sandbox.url,
      JWT_ACCESS_TTL_SECONDS: String(ACCESS_TTL_SECONDS),
    };
    // The worker charges subscriptions; it is stopped with every other process after the tests.
    [web] = await Promise.all([startProcess('web', env), startProcess('worker', env)]);
    merchant = await newMerchant();
    client = new PaymentsClient({
      baseUrl: web.url,
      username: merchant.email,
      password: merchant.password,
      // An observer, not a stand-in: every request goes to the real web process through Node's fetch.
      fetch: (input, init) => {
        const url = new URL(input instanceof Request ? input.url : String(input));
        sent.push(`${init?.method ?? 'GET'} ${url.pathname}`);
        const authorization = new Headers(init?.headers).get('authorization');
        if (authorization) bearers.add(authorization);
        return fetch(input, init);
      },
    });
  },
});

test('a token, /me, and a card sale pre-captured, captured, read and cancelled', async (t) => {
  const me = await client.auth.getMe();
  t.is(me.id, merchant.merchantId);
  t.is(me.email, merchant.email);
  t.is(me.role, 'merchant');
  t.is(me.credential, 'jwt');

  const encryptedCard = await client.cards.encryptCard(card(APPROVED));
  const key = await client.cards.getCardPublicKey();
  t.is(key.algorithm, 'RSAES-PKCS1-v1_5');
  t.is((await client.cards.encryptCardWithKeyId(card(APPROVED))).kid, key.kid);

  const idempotencyKey = crypto.randomUUID();
  const request = {
    payment_method: 'card' as const,
    value: 15990,
    installments: 3,
    encrypted_card: encryptedCard,
    payer: PAYER,
    order_reference: 'pedido-client-1',
  };
  const preCaptured = await client.sales.preCaptureSale(request, { idempotencyKey });
  t.is(preCaptured.status, 'success');
  t.true(preCaptured.data.approved);
  t.is(preCaptured.data.sale_status, 'PRE_CAPTURED');
  t.is(preCaptured.data.value, 15990);
  t.is(preCaptured.data.installments, 3);
  t.is(preCaptured.data.card?.last4, '0010');
  t.is(preCaptured.data.order_reference, 'pedido-client-1');

  // The same Idempotency-Key and body: the first answer again, not a second authorization.
  const replayHeaders: (string | null)[] = [];
  const replayed = await client.sales.preCaptureSale(request, {
    idempotencyKey,
    onResponse: (_status, headers) => replayHeaders.push(headers.get('idempotent-replayed')),
  });
  t.deepEqual(replayHeaders, ['true']);
  t.is(replayed.data.id, preCaptured.data.id);
  t.is(replayed.data.acquirer?.payment_id, preCaptured.data.acquirer?.payment_id);

  const captured = await client.sales.captureSale(preCaptured.data.id);
  t.is(captured.data.sale_status, 'CONFIRMED');
  t.truthy(captured.data.captured_at);
  const read = await client.sales.getSale(preCaptured.data.id);
  t.is(read.data.sale_status, 'CONFIRMED');
  t.is(read.data.value, 15990);

  // A second sale, pre-captured then voided.
  const second = await client.sales.preCaptureSale({
    payment_method: 'card',
    value: 2990,
    encrypted_card: await client.cards.encryptCard(card(APPROVED)),
    payer: PAYER,
  });
  t.is(second.data.sale_status, 'PRE_CAPTURED');
  const cancelled = await client.sales.cancelSale(second.data.id);
  t.is(cancelled.data.sale_status, 'CANCELLED');
  t.is((await client.sales.getSale(second.data.id)).data.sale_status, 'CANCELLED');
});

test('a declined card is an answer, and errors are ApiErrors with the status and the JSON body', async (t) => {
  const denied = await client.sales.preCaptureSale({
    payment_method: 'card',
    value: 1000,
    encrypted_card: await client.cards.encryptCard(card(DENIED_05)),
    payer: PAYER,
  });
  t.false(denied.data.approved);
  t.is(denied.data.sale_status, 'DENIED');
  t.is(denied.data.denial_code, '05');

  // Capturing a denied sale: 400 with the reason.
  const notCapturable = await t.throwsAsync(client.sales.captureSale(denied.data.id), { instanceOf: ApiError });
  t.is(notCapturable.status, 400);
  t.is(notCapturable.operationId, 'captureSale');
  t.deepEqual((await client.sales.getSale(denied.data.id)).data.sale_status, 'DENIED');

  // A field map: several fields at once, each with its messages.
  const invalid = await client.sales
    .preCaptureSale({
      payment_method: 'card',
      value: 0,
      installments: 13,
      encrypted_card: await client.cards.encryptCard(card(APPROVED)),
      payer: PAYER,
    })
    .catch((error: unknown) => error);
  t.true(isApiError(invalid, 'preCaptureSale', 400));
  if (!isApiError(invalid, 'preCaptureSale', 400)) return;
  t.true(Array.isArray(invalid.body.value) && invalid.body.value.length > 0, JSON.stringify(invalid.body));
  t.true(Array.isArray(invalid.body.installments), JSON.stringify(invalid.body));
  t.deepEqual(invalid.fieldErrors, invalid.body);
  t.regex(invalid.message, /preCaptureSale answered HTTP 400/);

  // A card encrypted with a key that is not the service's: the one undecryptable-card answer.
  const { publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const foreign = await t.throwsAsync(
    client.sales.preCaptureSale({
      payment_method: 'card',
      value: 1000,
      encrypted_card: encryptCardWithKey(card(APPROVED), publicKey.export({ type: 'spki', format: 'pem' }) as string),
      payer: PAYER,
    }),
    { instanceOf: ApiError },
  );
  t.is(foreign.status, 400);
  t.deepEqual(Object.keys(foreign.fieldErrors ?? {}), ['encrypted_card']);

  // Another merchant's view: an unknown sale is 404 with a detail.
  const missing = await t.throwsAsync(client.sales.getSale(2_000_000_000), { instanceOf: ApiError });
  t.is(missing.status, 404);
  t.is(typeof missing.detail, 'string');

  // Wrong credentials: the token request's 401 reaches the caller.
  const stranger = new PaymentsClient({ baseUrl: web.url, username: merchant.email, password: 'not-the-password' });
  const refused = await t.throwsAsync(stranger.auth.getMe(), { instanceOf: ApiError });
  t.is(refused.status, 401);
  t.is(refused.operationId, 'createToken');
});

test('a PIX sale: pending with its code, then confirmed once the payer pays', async (t) => {
  const pix = await client.sales.preCaptureSale({ payment_method: 'pix', value: 4590, payer: PAYER });
  t.true(pix.data.approved);
  t.is(pix.data.sale_status, 'PENDING');
  t.regex(pix.data.pix?.qr_code ?? '', /^000201/);
  // The PIX status takes a merchant token (mt_...) or the system token, not a user's JWT (its description).
  const integration = new PaymentsClient({ baseUrl: web.url, token: merchant.merchantToken });
  const waiting = await integration.sales.getPixStatus(pix.data.id);
  t.is(waiting.data.sale_status, 'PENDING');
  t.false(waiting.data.paid);
  t.is(waiting.data.value, 4590);

  // The payer pays (a sandbox control); the acquirer's notice reaches the web process, a worker applies it.
  const paid = await send(
    sandbox,
    'POST',
    `/sandbox/pix/${pix.data.acquirer?.payment_id}/pay`,
    { 'content-type': 'application/json' },
    { notifyUrl: `${web.url}/api/v1/online/sales/notifications/` },
  );
  t.is(paid.status, 200);
  const confirmed = await eventually(async () => {
    const status = await integration.sales.getPixStatus(pix.data.id);
    return status.data.sale_status === 'CONFIRMED' ? status : undefined;
  }, 30_000);
  t.true(confirmed!.data.paid);
  t.truthy(confirmed!.data.paid_at);
  // A JWT is another kind of credential for this operation: 403.
  const forbidden = await t.throwsAsync(client.sales.getPixStatus(pix.data.id), { instanceOf: ApiError });
  t.is(forbidden.status, 403);
});

test('a payment link: created, read, paid at its checkout, read as paid', async (t) => {
  const link = await client.paymentLinks.createPaymentLink(
    { value: 2590, description: 'Pedido 77', number_of_installments: 2, mobile: '(11) 98765-4321' },
    { idempotencyKey: crypto.randomUUID() },
  );
  t.is(link.value, 2590);
  t.is(link.status, 1);
  t.is(link.status_label, 'Pendente');
  t.is(link.merchant_id, merchant.merchantId);
  t.is(link.mobile, '+5511987654321');
  const read = await client.paymentLinks.getPaymentLink(link.id);
  t.is(read.payment_link_guid, link.payment_link_guid);
  t.is(read.number_of_installments, 2);

  // The payer's side, through the same client (public operations, no credential).
  const checkout = await client.checkout.loadCheckout(link.payment_link_guid);
  t.is(checkout.amount, 2590);
  await client.checkout.setCheckoutPayer(link.payment_link_guid, {
    payer_name: 'Maria Silva',
    document: PAYER.document,
  });
  const paid = await client.checkout.payCheckout(link.payment_link_guid, {
    encrypted_card: encryptCardWithKey(card(APPROVED), checkout.publicKey),
  });
  t.true(paid.approved);
  t.is(paid.checkout.status, 2);
  const after = await client.paymentLinks.getPaymentLink(link.id);
  t.is(after.status, 2);
  t.truthy(after.payment_date);
});

test('a subscription due today: created, and its first charge confirmed', async (t) => {
  const today = new Date().toISOString().slice(0, 10);
  const created = await client.subscriptions.createSubscription({
    value: 4990,
    billingCycle: 'monthly',
    firstDueDate: today,
    encryptedCard: await client.cards.encryptCard(card(APPROVED)),
    description: 'Plano mensal',
  });
  t.is(created.data.status, 'active');
  t.is(created.data.value, 4990);
  t.is(created.data.firstDueDate, today);
  // The scheduler's first tick runs as it starts: it finds the due subscription and the worker charges it.
  const scheduler = await startProcess('scheduler', {
    ACQUIRER_BASE_URL: sandbox.url,
    ACQUIRER_QUERY_URL: sandbox.url,
  });
  t.teardown(() => scheduler.stop());
  const charges = await eventually(async () => {
    const list = await client.subscriptions.listSubscriptionCharges(created.data.id);
    return list.data.length > 0 && list.data[0].status === 1 ? list : undefined;
  }, 60_000);
  const [charge, ...others] = charges!.data;
  t.is(others.length, 0);
  t.is(charge.value, 4990);
  t.is(charge.dueDate, today);
  t.is(charge.subscriptionId, created.data.id);
});

test('a commercial contact, created by staff and listed for its merchant', async (t) => {
  const staff = await newStaff();
  const staffClient = new PaymentsClient({ baseUrl: web.url, username: staff.email, password: staff.password });
  const contact = await staffClient.commercialContacts.createCommercialContact({
    name: 'Álvaro Souza',
    email: 'Alvaro.Souza@Example.com',
    phone: '(11) 98765-4321',
    title: 'Gerente comercial',
    merchant_ids: [merchant.merchantId],
  });
  t.is(contact.email, 'alvaro.souza@example.com');
  t.is(contact.phone, '+5511987654321');
  t.deepEqual(contact.merchant_ids, [merchant.merchantId]);
  const listed = await staffClient.commercialContacts.listMerchantCommercialContacts(merchant.merchantId);
  t.deepEqual(
    listed.map((c) => c.id),
    [contact.id],
  );
  // A merchant credential may not: 403 as a typed error.
  const forbidden = await t.throwsAsync(client.commercialContacts.listCommercialContacts(), { instanceOf: ApiError });
  t.is(forbidden.status, 403);
});

test.after('the merchant client logged in once and renewed its short-lived access token', async (t) => {
  const [first] = [...bearers];
  const expiry = jwtExpiry(first.replace('Bearer ', ''));
  t.truthy(expiry);
  t.true(expiry! - Date.now() < ACCESS_TTL_SECONDS * 1000);
  // However fast the journey ran, one more call once the first token is inside its renewal window: the
  // client (in this process) reads its clock moved there, the service keeps the real one.
  const realNow = Date.now;
  const ahead = Math.max(0, expiry! - 30_000 - realNow.call(Date) + 200);
  Date.now = () => realNow.call(Date) + ahead;
  try {
    t.is((await client.auth.getMe()).id, merchant.merchantId);
  } finally {
    Date.now = realNow;
  }
  t.is(sent.filter((line) => line === 'POST /api/token/').length, 1, sent.join('\n'));
  t.true(sent.includes('POST /api/token/refresh/'), sent.join('\n'));
  t.true(bearers.size >= 2, 'more than one access token was used');
});
