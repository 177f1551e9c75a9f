/** What the subscription tests share: a sandbox acquirer, test cards, and calls to our API. */
import test from 'ava';
import { getConfig } from '../../config';
import { closeAcquirerClient } from '../../src/acquirer/client';
import { luhnValid, type ClearCard } from '../../src/cards';
import { encryptedTestCard } from '../helpers/cards';
import { SubscriptionChargeModel, type SubscriptionCharge } from '../../src/subscriptions/model';
import { json, startTestApp, type TestApp } from '../helpers/app';
import { bearer, newMerchant, type TestMerchant } from '../helpers/identity';
import { eventually, startProcess, stopAll, type RunningProcess } from '../helpers/processes';
import { send } from '../helpers/http';

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
