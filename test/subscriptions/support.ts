/**
 * What the subscription tests share: a sandbox acquirer, test cards, and calls to our API; for the Pix Automático
 * tests, their processes (sandbox, web, worker) and the subscription they create.
 */
import test from 'ava';
import { getConfig } from '../../config';
import { closeAcquirerClient } from '../../src/acquirer/client';
import { luhnValid, type ClearCard } from '../../src/cards';
import { connectDatabase, disconnectDatabase } from '../../src/db/connection';
import { addMonths, dayOf } from '../../src/subscriptions/clock';
import { encryptedTestCard } from '../helpers/cards';
import { SubscriptionChargeModel, type SubscriptionCharge } from '../../src/subscriptions/model';
import { json, startTestApp, type TestApp } from '../helpers/app';
import { bearer, newMerchant, type TestMerchant } from '../helpers/identity';
import { eventually, freePort, startProcess, stopAll, type RunningProcess } from '../helpers/processes';
import { callJson, send } from '../helpers/http';

export interface SubscriptionStack {
  sandbox: RunningProcess;
  app: TestApp;
  merchant: TestMerchant;
}

/**
 * Registers the hooks every subscription test file needs: before its tests the sandbox, the app in
 * this process and a merchant (then `ready`, for what the file adds: a worker, another merchant);
 * after them, everything stopped. Returns the stack, whose fields are set once those hooks ran.
 */
export function useSubscriptionStack(ready?: (stack: SubscriptionStack) => void | Promise<void>): SubscriptionStack {
  const stack = {} as SubscriptionStack;
  test.before(async () => {
    stack.sandbox = await startSandbox();
    stack.app = await startTestApp();
    stack.merchant = await newMerchant();
    await ready?.(stack);
  });
  test.after.always(async () => {
    await stack.app?.close();
    await closeAcquirerClient();
    await stopAll();
  });
  return stack;
}

/** Starts the acquirer sandbox and points this process (and the processes it starts) at it. */
export async function startSandbox(): Promise<RunningProcess> {
  const sandbox = await startProcess('sandbox', { SANDBOX_PORT: '0' });
  process.env.ACQUIRER_BASE_URL = sandbox.url;
  process.env.ACQUIRER_QUERY_URL = sandbox.url;
  process.env.ACQUIRER_TIMEOUT_MS = '3000';
  if (getConfig().acquirer.baseUrl !== sandbox.url)
    throw new Error('config was loaded before the test set the acquirer url');
  return sandbox;
}

/**
 * A Luhn-valid Visa number ending in `lastDigit`; the sandbox decides by the last digit:
 * 0/1/4 approved, 2 05, 3 57 (hard), 5 78 (hard), 6 99, 7 77, 8 70, 9 51.
 */
export function testCardNumber(lastDigit: number): string {
  for (let middle = 0; middle < 100; middle++) {
    const number = `4000${String(middle).padStart(2, '0')}000000000${lastDigit}`;
    if (luhnValid(number)) return number;
  }
  throw new Error('no luhn-valid number found');
}

/** The card of `testCardNumber(lastDigit)`, for encryptedTestCard. */
export function subscriptionCard(lastDigit: number): Partial<ClearCard> {
  return { number: testCardNumber(lastDigit), expYear: 2035 };
}

export async function setFault(sandbox: RunningProcess, body: Record<string, unknown>): Promise<void> {
  const res = await send(sandbox, 'POST', '/sandbox/faults', { 'content-type': 'application/json' }, body);
  if (res.status !== 201) throw new Error(`fault not set: ${res.status}`);
}

export async function clearFaults(sandbox: RunningProcess): Promise<void> {
  await send(sandbox, 'DELETE', '/sandbox/faults');
}

/** Sales the sandbox holds for one merchant order id (0 when none). */
export async function salesForOrder(sandbox: RunningProcess, merchantOrderId: string): Promise<string[]> {
  const { merchantId, merchantKey } = getConfig().acquirer;
  const res = await send(sandbox, 'GET', `/1/sales?merchantOrderId=${merchantOrderId}`, {
    MerchantId: merchantId,
    MerchantKey: merchantKey,
  });
  if (res.status === 404) return [];
  const body = await json(res);
  return (body.Payments as { PaymentId: string }[]).map((p) => p.PaymentId);
}

export async function createSubscription(
  url: string,
  merchant: TestMerchant,
  body: Record<string, unknown> & { cardLastDigit?: number },
): Promise<{ status: number; body: any }> {
  const { cardLastDigit = 1, ...rest } = body;
  const res = await send({ url }, 'POST', '/api/v1/subscriptions/', bearer(merchant.merchantToken), {
    value: 4990,
    billingCycle: 'monthly',
    firstDueDate: '2030-01-10',
    encryptedCard: encryptedTestCard(subscriptionCard(cardLastDigit)),
    ...rest,
  });
  return { status: res.status, body: await json(res) };
}

export async function newSubscriptionId(
  url: string,
  merchant: TestMerchant,
  body: Record<string, unknown> & { cardLastDigit?: number } = {},
): Promise<number> {
  const created = await createSubscription(url, merchant, body);
  if (created.status !== 201)
    throw new Error(`subscription not created: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.data.id;
}

/** A subscription of the stack's merchant on an approved card (ending in 1), first due on `firstDueDate`. */
export function approvedSubscriptionId(stack: SubscriptionStack, firstDueDate: string): Promise<number> {
  return newSubscriptionId(stack.app.url, stack.merchant, { firstDueDate, cardLastDigit: 1 });
}

export async function listCharges(
  url: string,
  merchant: TestMerchant,
  subscriptionId: number | string,
): Promise<{ status: number; body: any }> {
  const res = await send(
    { url: url },
    'GET',
    `/api/v1/subscriptions/${subscriptionId}/charges/`,
    bearer(merchant.merchantToken),
  );
  return { status: res.status, body: await json(res) };
}

/** Waits until the charge of that cycle has recorded `attempts` sends (status no longer PENDING). */
export async function chargeAfterAttempt(
  subscriptionId: number,
  dueDate: string,
  attempts: number,
  timeoutMs = 45_000,
): Promise<SubscriptionCharge> {
  const found = await eventually(async () => {
    const charge = await SubscriptionChargeModel.findOne({ subscriptionId, dueDate }).lean<SubscriptionCharge>();
    return charge && charge.status !== 0 && charge.attempts >= attempts ? charge : undefined;
  }, timeoutMs);
  return found!;
}

export interface PixStack {
  sandbox: RunningProcess;
  web: RunningProcess;
  worker: RunningProcess;
}

/**
 * The processes of a Pix Automático test, this process connected to its database: the sandbox (the payer's bank),
 * which notifies the web process (our API and the notice intake), and a worker on `worker`'s queues (the notices
 * by default). `acquirerTimeoutMs` is given to every process started after it; unset, the default stays.
 */
export async function startPixStack(
  options: { worker?: Record<string, string>; acquirerTimeoutMs?: number } = {},
): Promise<PixStack> {
  // The web's port is chosen first: the sandbox needs it to notify, the web needs the sandbox's URL.
  const port = await freePort();
  const sandbox = await startProcess('sandbox', { SANDBOX_PORT: '0', SANDBOX_NOTIFY_URL: `http://127.0.0.1:${port}` });
  process.env.ACQUIRER_BASE_URL = sandbox.url;
  process.env.ACQUIRER_QUERY_URL = sandbox.url;
  if (options.acquirerTimeoutMs) process.env.ACQUIRER_TIMEOUT_MS = String(options.acquirerTimeoutMs);
  await connectDatabase(process.env.MONGODB_URI!);
  const [web, worker] = await Promise.all([
    startProcess('web', { PORT: String(port) }),
    startProcess('worker', options.worker ?? { WORKER_QUEUES: 'sales-notices' }),
  ]);
  return { sandbox, web, worker };
}

/** Stops what startPixStack started, and every other process the test started. */
export async function stopPixStack(): Promise<void> {
  await stopAll();
  await disconnectDatabase();
}

/** pixBody's first due date: a month from the day the test file was loaded (its tests compare dates with it). */
export const PIX_FIRST_DUE_DATE = addMonths(dayOf(new Date()), 1);

/** pixBody's payer (a valid CPF). */
export const PIX_PAYER = { name: 'Joana Pagadora', identity: '52998224725' };

/** A Pix Automático subscription's creation body: journey 2 unless `pix` says, first due on PIX_FIRST_DUE_DATE. */
export function pixBody(overrides: Record<string, unknown> = {}, pix: Record<string, unknown> = {}) {
  return {
    paymentMethod: 'pix_automatico',
    value: 4990,
    billingCycle: 'monthly',
    firstDueDate: PIX_FIRST_DUE_DATE,
    customer: PIX_PAYER,
    description: 'Plano mensal',
    pixAutomatico: { journey: 2, ...pix },
    ...overrides,
  };
}

/** Creates the merchant's Pix Automático subscription of pixBody(overrides, pix) through the API: its `data`. */
export async function createPixSubscription(
  web: RunningProcess,
  merchant: TestMerchant,
  overrides: Record<string, unknown> = {},
  pix: Record<string, unknown> = {},
) {
  const created = await callJson(
    web,
    'POST',
    '/api/v1/subscriptions/',
    bearer(merchant.merchantToken),
    pixBody(overrides, pix),
  );
  if (created.status !== 201) throw new Error(`not created: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.data;
}
