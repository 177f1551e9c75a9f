import '../helpers/env';
import test from 'ava';
import { getConfig } from '../../config';
import { startProcess, stopAll, type RunningProcess } from '../helpers/processes';
import { withAcquirerRefusing } from '../helpers/acquirer';
import { AcquirerUnavailableError } from '../../src/acquirer/errors';
import {
  AcquirerRejectedError,
  acquirerEvents,
  captureSale,
  closeAcquirerClient,
  createCardSale,
  createPixCharge,
  getSale,
  getSaleByOrderId,
  isSoftDecline,
  requestIdFor,
  tokenizeCard,
  voidSale,
  type AcquirerCallEvent,
  type CardSaleRequest,
} from '../../src/acquirer/client';
import { send } from '../helpers/http';

let sandbox: RunningProcess;

test.before(async () => {
  sandbox = await startProcess('sandbox', { SANDBOX_PORT: '0' });
  process.env.ACQUIRER_BASE_URL = sandbox.url;
  process.env.ACQUIRER_QUERY_URL = sandbox.url;
  process.env.ACQUIRER_TIMEOUT_MS = '5000'; // generous: the machine is shared; hang tests wait this long
  if (getConfig().acquirer.baseUrl !== sandbox.url)
    throw new Error('config was loaded before the test set the acquirer url');
});
test.after.always(async () => {
  await closeAcquirerClient();
  await stopAll();
});

let seq = 0;
function sale(overrides: Partial<CardSaleRequest> & { number?: string } = {}): CardSaleRequest {
  const tag = `${Date.now().toString(36)}${(seq++).toString(36)}`;
  const { number = '4000000000000001', ...rest } = overrides;
  return {
    idempotencyKey: `key-${tag}`,
    merchantOrderId: `order${tag}`,
    amountCents: 1500,
    installments: 1,
    capture: false,
    customer: { name: 'Maria Silva', identity: '52998224725', identityType: 'CPF' },
    card: { number, holder: 'MARIA SILVA', expMonth: 12, expYear: 2031, cvv: '123', brand: 'Visa' },
    ...rest,
  };
}

async function fault(body: Record<string, unknown>) {
  const res = await send(sandbox, 'POST', '/sandbox/faults', { 'content-type': 'application/json' }, body);
  if (res.status !== 201) throw new Error(`fault not set: ${res.status}`);
}

test('request ids are deterministic uuids', (t) => {
  t.is(requestIdFor('abc'), requestIdFor('abc'));
  t.not(requestIdFor('abc'), requestIdFor('abd'));
  t.regex(requestIdFor('abc'), /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
});

test('an approved card authorizes, captures and is voided on the capture day', async (t) => {
  const result = await createCardSale(sale());
  t.true(result.approved);
  t.is(result.status, 1);
  t.truthy(result.authorizationCode);
  const captured = await captureSale(result.paymentId);
  t.is(captured.status, 2);
  // A whole void on the capture day is a cancellation (10); from the next day on, a refund (11): the
  // sandbox's windows (docs/sandbox.md, test/refunds/windows.test.ts).
  const refunded = await voidSale(result.paymentId);
  t.is(refunded.status, 10);
  const found = await getSale(result.paymentId);
  t.is(found?.status, 10);
  t.is(found?.capturedAmountCents, 1500);
});

test('a denied card is a result with its code, not an error', async (t) => {
  const cases: [string, string][] = [
    ['2', '05'],
    ['3', '57'],
    ['5', '78'],
    ['6', '99'],
    ['7', '77'],
    ['8', '70'],
    ['9', '51'],
  ];
  for (const [digit, code] of cases) {
    const result = await createCardSale(sale({ number: `400000000000000${digit}` }));
    t.false(result.approved, digit);
    t.is(result.status, 3);
    t.is(result.returnCode, code);
  }
  t.true(isSoftDecline('05'));
  t.true(isSoftDecline('51'));
  t.false(isSoftDecline('57'));
  t.false(isSoftDecline('78'));
});

test('a recovering amount soft-declines a card NN times, then gives the card its own answer', async (t) => {
  const request = sale({ amountCents: 990702 });
  const first = await createCardSale(request);
  t.false(first.approved);
  t.is(first.returnCode, '05');
  // A replayed request is the same sale: it does not use up a decline.
  t.is((await createCardSale(request)).paymentId, first.paymentId);
  t.is((await createCardSale(sale({ amountCents: 990702 }))).returnCode, '05');
  t.true((await createCardSale(sale({ amountCents: 990702 }))).approved);
  // Another card has its own count; a declining card stays declined with its own code afterwards.
  t.is((await createCardSale(sale({ amountCents: 990701, number: '4000000000000069' }))).returnCode, '05');
  t.is((await createCardSale(sale({ amountCents: 990701, number: '4000000000000069' }))).returnCode, '51');
});

test('a repeated request id answers the same sale', async (t) => {
  const request = sale();
  const first = await createCardSale(request);
  const second = await createCardSale(request);
  t.is(second.paymentId, first.paymentId);
  const other = await createCardSale({ ...request, idempotencyKey: `${request.idempotencyKey}-other` });
  t.not(other.paymentId, first.paymentId);
});

test('authorize and capture at once', async (t) => {
  const result = await createCardSale(sale({ capture: true }));
  t.is(result.status, 2);
  t.is(result.capturedAmountCents, 1500);
});

test('a saved card token charges again', async (t) => {
  const { cardToken } = await tokenizeCard({
    number: '4111111111111111',
    holder: 'MARIA SILVA',
    expMonth: 1,
    expYear: 2030,
    brand: 'Visa',
  });
  t.truthy(cardToken);
  const result = await createCardSale(sale({ card: { cardToken, brand: 'Visa' }, recurrent: true, capture: true }));
  t.true(result.approved);
  const saved = await createCardSale(sale({ saveCard: true }));
  t.truthy(saved.cardToken);
  await t.throwsAsync(
    tokenizeCard({ number: '4111111111111112', holder: 'X', expMonth: 1, expYear: 2030, brand: 'Visa' }),
    { instanceOf: AcquirerRejectedError },
  );
});

test('pix charge is pending with a copy and paste code', async (t) => {
  const pix = await createPixCharge({
    idempotencyKey: `pix-${Date.now()}`,
    merchantOrderId: `pix${Date.now()}`,
    amountCents: 2590,
    customer: { name: 'Joao', identity: '52998224725' },
    expiresInSeconds: 600,
  });
  t.is(pix.status, 12);
  t.regex(pix.qrCodeString, /^000201.*5802BR.*6304[0-9A-F]{4}$/);
  t.truthy(pix.expiresAt);
  const expires = Date.parse(pix.expiresAt!);
  t.true(expires > Date.now() + 500_000 && expires <= Date.now() + 600_000);
});

test('lookup by order id finds the newest sale, or null', async (t) => {
  const request = sale();
  const made = await createCardSale(request);
  const found = await getSaleByOrderId(request.merchantOrderId);
  t.is(found?.paymentId, made.paymentId);
  t.is(found?.status, 1);
  t.is(await getSaleByOrderId('neverseen1'), null);
  t.is(await getSale('00000000-0000-0000-0000-000000000000'), null);
});

test('an acquirer 500 is unavailable with unknown outcome', async (t) => {
  const error = await t.throwsAsync(createCardSale(sale({ amountCents: 990500 })), {
    instanceOf: AcquirerUnavailableError,
  });
  t.true(error!.outcomeUnknown);
});

test('a hang past the timeout is unavailable with unknown outcome, and the sale exists', async (t) => {
  const request = sale({ amountCents: 990408 });
  const started = Date.now();
  const error = await t.throwsAsync(createCardSale(request), { instanceOf: AcquirerUnavailableError });
  t.true(error!.outcomeUnknown);
  t.true(Date.now() - started < 60_000); // the sandbox would hold it for 120 s
  const truth = await getSaleByOrderId(request.merchantOrderId);
  t.is(truth?.status, 1);
});

test('a reset connection is unavailable with unknown outcome', async (t) => {
  const request = sale({ amountCents: 990104 });
  const error = await t.throwsAsync(createCardSale(request), { instanceOf: AcquirerUnavailableError });
  t.true(error!.outcomeUnknown);
  t.truthy(await getSaleByOrderId(request.merchantOrderId));
});

test.serial('injected faults: malformed answer, dropped connection, error on capture', async (t) => {
  await fault({ mode: 'malformed', operation: 'create' });
  const malformed = await t.throwsAsync(createCardSale(sale()), { instanceOf: AcquirerUnavailableError });
  t.true(malformed!.outcomeUnknown);
  await fault({ mode: 'drop', operation: 'create' });
  const dropped = await t.throwsAsync(createCardSale(sale()), { instanceOf: AcquirerUnavailableError });
  t.true(dropped!.outcomeUnknown);
  const made = await createCardSale(sale());
  await fault({ mode: 'error', operation: 'capture', paymentId: made.paymentId });
  await t.throwsAsync(captureSale(made.paymentId), { instanceOf: AcquirerUnavailableError });
  t.is((await captureSale(made.paymentId)).status, 2);
});

test.serial('a refused connection is unavailable and known not to have happened', async (t) => {
  const error = await withAcquirerRefusing(() =>
    t.throwsAsync(createCardSale(sale()), { instanceOf: AcquirerUnavailableError }),
  );
  t.false(error!.outcomeUnknown);
});

test.serial('a wrong merchant key is rejected, and calls are reported to listeners without secrets', async (t) => {
  const events: AcquirerCallEvent[] = [];
  const listener = (event: AcquirerCallEvent) => events.push(event);
  acquirerEvents.on('call', listener);
  const config = getConfig().acquirer;
  const original = config.merchantKey;
  config.merchantKey = 'x'.repeat(40);
  try {
    const error = await t.throwsAsync(getSale('00000000-0000-0000-0000-000000000000'), {
      instanceOf: AcquirerRejectedError,
    });
    t.is((error as AcquirerRejectedError).httpStatus, 401);
  } finally {
    config.merchantKey = original;
    acquirerEvents.off('call', listener);
  }
  const event = events.find((e) => e.operation === 'getSale');
  t.is(event?.outcome, 'rejected');
  t.is(event?.httpStatus, 401);
  t.false(JSON.stringify(events).includes('x'.repeat(40)));
});
