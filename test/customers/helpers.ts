/** Shared setup of the customers tests: the acquirer sandbox as a real process, the app in-process, test cards. */
import test from 'ava';
import { getConfig } from '../../config';
import { closeAcquirerClient } from '../../src/acquirer/client';
import { startTestApp, type TestApp } from '../helpers/app';
import { encryptedTestCard } from '../helpers/cards';
import { callJson, type CallResult } from '../helpers/http';
import { bearer, newMerchant, type TestMerchant } from '../helpers/identity';
import { startProcess, stopAll, type RunningProcess } from '../helpers/processes';

export const CUSTOMERS = '/api/v1/customers/';
export const customerPath = (id: string) => `${CUSTOMERS}${id}/`;
export const cardsPath = (customerId: string) => `${customerPath(customerId)}cards/`;
export const cardPath = (customerId: string, cardId: string) => `${cardsPath(customerId)}${cardId}/`;

/** Sandbox test cards for Zero Auth (docs/sandbox.md): the outcome is the last digit, as for sales. */
export const ZERO_AUTH_CARDS = {
  visaValid: '4000000000000010',
  masterValid: '5555555555554444',
  eloValid: '6363680000000080',
  /** 05 Not Authorized. */
  refused05: '4000000000000002',
  /** 51 Insufficient Funds. */
  refused51: '4000000000000069',
  /** Amex: the acquirer runs no Zero Auth for it (its CVV has 4 digits). */
  amexUnchecked: '371449635398431',
} as const;

export interface CustomersEnv {
  sandbox: RunningProcess;
  app: TestApp;
  merchant: TestMerchant;
}

/** A file's environment: the sandbox, then the app pointed at it (before anything loads the config), and a merchant. */
export function useCustomersEnv(): CustomersEnv {
  const running = {} as CustomersEnv;
  test.serial.before(async () => {
    running.sandbox = await startProcess('sandbox', { SANDBOX_PORT: '0' });
    process.env.ACQUIRER_BASE_URL = running.sandbox.url;
    process.env.ACQUIRER_QUERY_URL = running.sandbox.url;
    if (getConfig().acquirer.baseUrl !== running.sandbox.url)
      throw new Error('the config was loaded before the test pointed it at the sandbox');
    running.app = await startTestApp();
    running.merchant = await newMerchant();
  });
  test.after.always(async () => {
    await closeAcquirerClient();
    await running.app?.close();
    await stopAll();
  });
  return running;
}

export const asMerchant = (merchant: TestMerchant) => bearer(merchant.merchantToken);

/** Creates a customer of `merchant` (201 expected) and gives its answer. */
export async function newCustomer(
  target: { url: string },
  merchant: TestMerchant,
  body: Record<string, unknown> = {},
): Promise<Record<string, any>> {
  const res = await callJson(target, 'POST', CUSTOMERS, asMerchant(merchant), { name: 'Maria Silva', ...body });
  if (res.status !== 201) throw new Error(`create customer answered ${res.status}: ${res.text}`);
  return res.body;
}

/** POSTs a card (`number`, the rest of the helper's test card) to the customer's cards. */
export function saveCard(
  target: { url: string },
  merchant: TestMerchant,
  customerId: string,
  number: string,
  overrides: Record<string, unknown> = {},
): Promise<CallResult> {
  const cvv = number.startsWith('37') ? '1234' : '123';
  return callJson(target, 'POST', cardsPath(customerId), asMerchant(merchant), {
    encrypted_card: encryptedTestCard({ number, cvv, ...overrides }),
  });
}
