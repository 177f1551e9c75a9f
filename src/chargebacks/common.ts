/**
 * What the chargeback modules share: which establishments a caller may act for, and the
 * acquirer's answers read whole where we must look inside them.
 */
import mongoose from 'mongoose';
import { callChargebackApi, readChargebackText, type ChargebackResponse } from '../acquirer/chargebacks';
import { MerchantModel } from '../merchants/model';
import { establishmentNumberOf } from '../merchants/establishments';
import { forbidden } from '../platform/errors';

// Scope: which establishment numbers (EC) the caller may act for. null = any (the system token).

export type EstablishmentScope = string[] | null;

/** Our own operators in a filter (sanitizeFilter is on: anything else with a $ key is neutralised). */
export const trusted = <T>(operator: T): T => mongoose.trusted(operator) as T;

/**
 * A merchant's establishment numbers as scope. One still stored with leading zeros (until the
 * scheduler's backfill gives it its one form) is left out: it may be an alias of another merchant's.
 */
export async function establishmentsOfMerchant(merchantId: number): Promise<string[]> {
  const merchant = await MerchantModel.findById(merchantId, { establishmentNumbers: 1 }).lean();
  return (merchant?.establishmentNumbers ?? []).map(String).filter((ec) => ec === establishmentNumberOf(ec));
}

/**
 * An establishment number of a caller's path or body in its one form (no leading zeros, as the
 * acquirer reads it), keeping its type: a number is forwarded as a number, text as text.
 */
export function normalisedEstablishment<T>(value: T): T | string {
  return typeof value === 'number' ? value : establishmentNumberOf(value);
}

export function assertInScope(scope: EstablishmentScope, establishmentNumbers: string[]): void {
  if (scope === null) return;
  const foreign = establishmentNumbers.filter((ec) => !scope.includes(establishmentNumberOf(ec)));
  if (!establishmentNumbers.length) throw forbidden('No establishment number given.');
  if (foreign.length) throw forbidden(`Establishment number ${foreign[0]} does not belong to this merchant.`);
}

export const segment = (value: string) => encodeURIComponent(value);

/** The acquirer's answer as text with its status and content type, for answers we must read (accept, refuse). */
export interface BufferedAnswer {
  status: number;
  contentType: string | undefined;
  text: string;
}

export async function buffered(response: ChargebackResponse): Promise<BufferedAnswer> {
  const contentType = response.headers['content-type'];
  return {
    status: response.status,
    contentType: Array.isArray(contentType) ? contentType[0] : contentType,
    text: await readChargebackText(response),
  };
}

/** A case's lifecycle at the acquirer, read whole (the proxy route answers it; a notice checks its step). */
export async function fetchLifecycle(idCase: string): Promise<BufferedAnswer> {
  return buffered(await callChargebackApi({ method: 'GET', path: `/lifecycle/${segment(idCase)}` }));
}

/**
 * The acquirer's consult items of one case of one establishment (PENDING, or DONE in a notification period
 * `from`..`to`, yyyy-MM-dd, at most 180 days), read whole. Throws when the acquirer does not answer 2xx: that is no
 * answer, not a denial.
 */
export async function fetchCaseItems(
  establishmentNumber: string,
  idCase: string,
  status: 'PENDING' | 'DONE',
  period?: { from: string; to: string },
): Promise<Record<string, unknown>[]> {
  const filter = {
    establishmentNumber: [acquirerNumber(establishmentNumber)],
    idCase: acquirerNumber(idCase),
    ...(period ? { startNotificationPeriod: period.from, endNotificationPeriod: period.to } : {}),
  };
  const answer = await buffered(
    await callChargebackApi({
      method: 'POST',
      path: `/${status}`,
      query: { page: 0, pageSize: 50 },
      json: JSON.stringify(filter),
    }),
  );
  if (answer.status < 200 || answer.status >= 300)
    throw new Error(`the acquirer answered ${answer.status} to the ${status} consult of case ${idCase}`);
  const content = parseJson(answer.text)?.content;
  return Array.isArray(content) ? content.filter((item) => item && typeof item === 'object') : [];
}

/** An id as the acquirer reads it: a number when it is one exactly (its API is numeric), else as given. */
export const acquirerNumber = (id: string): number | string => (/^\d{1,15}$/.test(id) ? Number(id) : id);

/** The JSON in a text, or undefined when it is none. */
export function parseJson(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
