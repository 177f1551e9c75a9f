/** Shared setup of the online-sales tests: a real sandbox process, the app in-process, real workers. */
import { getConfig } from '../../config';
import { startTestApp, json, type TestApp } from '../helpers/app';
import { startProcess, type RunningProcess } from '../helpers/processes';
import { bearer } from '../helpers/identity';
import { encryptCard } from '../../src/cards';
import { startWorker } from '../../src/queue';
import { PAYMENT_NOTIFICATION_PATH } from '../../src/acquirer/client';
import { closeAcquirerClient } from '../../src/acquirer/client';
import { NOTICE_QUEUE, RECONCILE_QUEUE } from '../../src/sales/service';
import processReconcileSale from '../../jobs/reconcile-sale';
import processPaymentNotice from '../../jobs/apply-payment-notice';

export interface SalesEnv {
  sandbox: RunningProcess;
  app: TestApp;
  close(): Promise<void>;
}

/**
 * Starts the sandbox, points the acquirer config at it (before anything loads the config), then the app and the sales
 * workers.
 */
export async function startSalesEnv(options: { workers?: boolean } = {}): Promise<SalesEnv> {
  const sandbox = await startProcess('sandbox', { SANDBOX_PORT: '0' });
  process.env.ACQUIRER_BASE_URL = sandbox.url;
  process.env.ACQUIRER_QUERY_URL = sandbox.url;
  process.env.ACQUIRER_TIMEOUT_MS = '5000'; // generous: the machine is shared; hang tests wait this long
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
    },
  };
}

/** Luhn-valid sandbox test cards: the outcome is the last digit (README, Acquirer sandbox). */
export const CARDS = {
  approved: '4000000000000010',
  denied05: '4000000000000002',
  denied57: '4000000000000093',
  luhnApproved: '4111111111111111',
} as const;

export function encrypted(
  number: string = CARDS.approved,
  overrides: Partial<{ holder: string; expMonth: number; expYear: number; cvv: string }> = {},
): string {
  return encryptCard({
    number,
    holder: 'MARIA SILVA',
    expMonth: 12,
    expYear: new Date().getUTCFullYear() + 3,
    cvv: '123',
    ...overrides,
  });
}

export function cardSale(
  overrides: Record<string, unknown> = {},
  number: string = CARDS.approved,
): Record<string, unknown> {
  return {
    payment_method: 'card',
    value: 15990,
    installments: 3,
    encrypted_card: encrypted(number),
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

export async function call(
  env: SalesEnv,
  method: string,
  path: string,
  token: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${env.app.url}${path}`, {
    method,
    headers: bearer(token, headers),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: await json(res) };
}

export async function sandboxPost(env: SalesEnv, path: string, body: unknown = {}) {
  const res = await fetch(`${env.sandbox.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await json(res) };
}

/** The sandbox's PIX "payer pays" control, notifying our app. */
export function payPix(env: SalesEnv, paymentId: string) {
  return sandboxPost(env, `/sandbox/pix/${paymentId}/pay`, { notifyUrl: `${env.app.url}${PAYMENT_NOTIFICATION_PATH}` });
}
