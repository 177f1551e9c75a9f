/** Shared by the payment-link tests: create a link over HTTP, pay it with test cards. */
import { encryptCard } from '../../src/cards';
import { bearer, type TestMerchant } from '../helpers/identity';
import { json } from '../helpers/app';

/** Sandbox test cards (outcome = last digit): Luhn-valid Visa numbers. */
export const APPROVED_CARD = '4000000000000010';
export const DENIED_CARD = '4000000000000002';
/** Valid check digits: a CPF, a numeric CNPJ and an alphanumeric CNPJ (Receita Federal's own example). */
export const VALID_CPF = '529.982.247-25';
export const VALID_CNPJ = '11.222.333/0001-81';
export const VALID_ALPHANUMERIC_CNPJ = '12.ABC.345/01DE-35';

export function nextYear(): number {
  return new Date().getUTCFullYear() + 1;
}

export function encryptedCard(number: string, overrides: Record<string, unknown> = {}): string {
  return encryptCard({ number, holder: 'MARIA SILVA', expMonth: 12, expYear: nextYear(), cvv: '123', ...overrides });
}

export async function createLink(
  baseUrl: string,
  merchant: TestMerchant,
  body: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${baseUrl}/api/v1/payment-links/`, {
    method: 'POST',
    headers: bearer(merchant.merchantToken, headers),
    body: JSON.stringify({ value: 1500, ...body }),
  });
  return { status: res.status, body: await json(res), headers: res.headers };
}

export async function call(baseUrl: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: await json(res) };
}

/** A pending link with the payer step done, ready to pay. */
export async function readyLink(baseUrl: string, merchant: TestMerchant, body: Record<string, unknown> = {}) {
  const created = await createLink(baseUrl, merchant, { payer_name: 'Maria Silva', ...body });
  if (created.status !== 201) throw new Error(`create failed: ${JSON.stringify(created.body)}`);
  const guid = created.body.payment_link_guid as string;
  const payer = await call(baseUrl, 'PATCH', `/api/v1/checkout-links/${guid}/payer`, {
    payer_name: 'Maria Silva',
    document: VALID_CPF,
  });
  if (payer.status !== 200) throw new Error(`payer step failed: ${JSON.stringify(payer.body)}`);
  return { id: created.body.id as number, guid, link: created.body };
}
