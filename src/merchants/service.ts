/** Merchant administration: its record, its settings and the establishments it owns. */
import { badRequest, notFound, type FieldErrors } from '../platform/errors';
import { claimEstablishments, establishmentNumberOf, releaseEstablishments } from './establishments';
import { MerchantModel, type Merchant, type MerchantProfile } from './model';

const ESTABLISHMENT_NUMBER = /^\d{1,20}$/;

export function checkEstablishmentNumbers(numbers: string[] | undefined): FieldErrors {
  const bad = (numbers ?? []).filter((n) => !ESTABLISHMENT_NUMBER.test(n));
  return bad.length ? { establishment_numbers: [`Establishment numbers are 1 to 20 digits: ${bad.join(', ')}.`] } : {};
}

/** Checked establishment numbers in their one form (see establishmentNumberOf), each once. */
export function normalisedEstablishments(numbers: string[] | undefined): string[] {
  return [...new Set((numbers ?? []).map(establishmentNumberOf))];
}

export /** What a merchant user carries of its merchant (see User.merchantProfile). */
function profileOf(merchant: Pick<Merchant, 'companyName' | 'settings' | 'establishmentNumbers'>): MerchantProfile {
  return {
    companyName: merchant.companyName,
    allowVoidOnConfirmed: merchant.settings.allowVoidOnConfirmed,
    establishmentNumbers: merchant.establishmentNumbers,
  };
}

export async function getMerchant(merchantId: number): Promise<Merchant | null> {
  return MerchantModel.findById(merchantId).lean();
}

export interface MerchantChanges {
  companyName?: string;
  allowVoidOnConfirmed?: boolean;
  addEstablishmentNumbers?: string[];
  removeEstablishmentNumbers?: string[];
}

/** Changes a merchant's record and the establishments it owns (its users' copies are auth's: updateMerchant). */
export async function changeMerchant(merchantId: number, changes: MerchantChanges): Promise<Merchant> {
  const problems = {
    ...checkEstablishmentNumbers(changes.addEstablishmentNumbers),
    ...checkEstablishmentNumbers(changes.removeEstablishmentNumbers),
  };
  if (changes.companyName !== undefined && (!changes.companyName.trim() || changes.companyName.length > 200))
    problems.company_name = ['Enter the company name (at most 200 characters).'];
  if (Object.keys(problems).length) throw badRequest(problems);
  const merchant = await MerchantModel.findById(merchantId);
  if (!merchant) throw notFound(`No merchant ${merchantId}.`);
  if (changes.companyName !== undefined) merchant.companyName = changes.companyName.trim();
  if (changes.allowVoidOnConfirmed !== undefined) merchant.settings.allowVoidOnConfirmed = changes.allowVoidOnConfirmed;
  const remove = new Set(normalisedEstablishments(changes.removeEstablishmentNumbers));
  const before = [...merchant.establishmentNumbers];
  const after = [...new Set([...before, ...normalisedEstablishments(changes.addEstablishmentNumbers)])].filter(
    (n) => !remove.has(n),
  );
  const added = after.filter((n) => !before.includes(n));
  await claimEstablishments(merchantId, added);
  merchant.establishmentNumbers = after;
  try {
    await merchant.save();
  } catch (error) {
    await releaseEstablishments(merchantId, added).catch(() => undefined);
    throw error;
  }
  await releaseEstablishments(
    merchantId,
    before.filter((n) => !after.includes(n)),
  );
  return merchant.toObject();
}
