/** Shared setup of the online-sales tests: a real sandbox process, the app in-process, real workers. */
import { getConfig } from '../../config';
import { startTestApp, type TestApp } from '../helpers/app';
import { eventually, startProcess, stopAll, type RunningProcess } from '../helpers/processes';
import test from 'ava';
import { bearer, newMerchant, type TestMerchant } from '../helpers/identity';
import { APPROVED_CARD_NUMBER, encryptedTestCard } from '../helpers/cards';
import { startWorker } from '../../src/queue/queues';
import { PAYMENT_NOTIFICATION_PATH } from '../../src/acquirer/client';
import { closeAcquirerClient } from '../../src/acquirer/client';
import { NOTICE_QUEUE } from '../../jobs/apply-payment-notice';
import { RECONCILE_QUEUE } from '../../jobs/reconcile-sale';
import processReconcileSale from '../../jobs/processors/reconcile-sale';
import processPaymentNotice from '../../jobs/processors/apply-payment-notice';
import { callJson } from '../helpers/http';

export interface SalesEnv {
  sandbox: RunningProcess;
  app: TestApp;
  /** Stops the app, the acquirer client and every process the test started. */
  close(): Promise<void>;
}

export const PRE_CAPTURE = '/api/v1/online/sales/pre-capture/';

/** A test file's sales environment and a merchant on it, started before its tests and closed after them. */
export function useSalesEnv(options: SalesEnvOptions = {}): SalesEnv & { merchant: TestMerchant } {
  const running = {} as SalesEnv & { merchant: TestMerchant };
  // Serial: a file's own serial before hooks then run after it, on a started environment.
  test.serial.before(async () => {
    Object.assign(running, await startSalesEnv(options));
    running.merchant = await newMerchant();
  });
  test.after.always(() => running.close?.());
  return running;
}

export interface SalesEnvOptions {
  /** false: no reconcile or notice worker in the test process. */
  workers?: boolean;
  /** The acquirer client's timeout (5 s): a file whose tests hang no call may give a loaded sandbox longer. */
  acquirerTimeoutMs?: number;
}

/**
 * Starts the sandbox, points the acquirer config at it (before anything loads the config), then the app and the sales
 * workers.
 */
export async function startSalesEnv(options: SalesEnvOptions = {}): Promise<SalesEnv> {
  const sandbox = await startProcess('sandbox', { SANDBOX_PORT: '0' });
  process.env.ACQUIRER_BASE_URL = sandbox.url;
  process.env.ACQUIRER_QUERY_URL = sandbox.url;
  // Generous: the machine is shared; hang tests wait this long. A file with no hang takes longer still.
  process.env.ACQUIRER_TIMEOUT_MS = String(options.acquirerTimeoutMs ?? 5000);
  if (getConfig().acquirer.baseUrl !== sandbox.url)
    throw new Error('the config was loaded before the test pointed it at the sandbox');
  const app = await startTestApp();
  if (options.workers !== false) {
    startWorker(RECONCILE_QUEUE, processReconcileSale);
    startWorker(NOTICE_QUEUE, processPaymentNotice);
  }
  return {
    sandbox,
    app,
    async close() {
      await closeAcquirerClient();
      await app.close();
      await stopAll();
    },
  };
}

/** Luhn-valid sandbox test cards: the outcome is the last digit (README, Acquirer sandbox). */
export const CARDS = {
  approved: APPROVED_CARD_NUMBER,
  denied05: '4000000000000002',
  denied57: '4000000000000093',
  luhnApproved: '4111111111111111',
} as const;

export function cardSale(
  overrides: Record<string, unknown> = {},
  number: string = CARDS.approved,
): Record<string, unknown> {
  return {
    payment_method: 'card',
    value: 15990,
    installments: 3,
    encrypted_card: encryptedTestCard({ number }),
    payer: { name: 'Maria Silva', document: '529.982.247-25' },
    order_reference: 'pedido-123',
    ...overrides,
  };
}

export function pixSale(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    payment_method: 'pix',
    value: 4990,
    payer: { name: 'Joao Souza', document: '52998224725' },
    pix_expires_in: 1800,
    ...overrides,
  };
}

export function sandboxPost(env: SalesEnv, path: string, body: unknown = {}) {
  return callJson(env.sandbox, 'POST', path, {}, body);
}

/**
 * Waits until the sandbox has taken the fault set (POST /sandbox/faults) for this payment: the call it
 * concerns has arrived there (and, for a latency fault, is held there now).
 */
export async function untilFaultTaken(env: SalesEnv, paymentId: string): Promise<void> {
  await eventually(async () => {
    const { body } = await callJson(env.sandbox, 'GET', '/sandbox/faults');
    return !(body.faults as { paymentId?: string }[]).some((fault) => fault.paymentId === paymentId);
  });
}

/** The sandbox's PIX "payer pays" control, notifying our app. */
export function payPix(env: SalesEnv, paymentId: string) {
  return sandboxPost(env, `/sandbox/pix/${paymentId}/pay`, { notifyUrl: `${env.app.url}${PAYMENT_NOTIFICATION_PATH}` });
}
