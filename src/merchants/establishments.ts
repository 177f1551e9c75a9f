/**
 * Which merchant an establishment number (EC) at the acquirer belongs to. Chargeback scope rests on
 * a merchant's ECs, so an EC on two merchants let the second read the first's chargebacks (issue 15
 * item 6). One record per EC, its _id the EC: the unique _id keeps one merchant per establishment
 * even when two writes race (FerretDB has no transactions; a unique insert is the guard that holds).
 * The merchant document keeps its list (what scope reads); these records only guard it.
 */
import mongoose, { Schema } from 'mongoose';
import { MerchantModel } from '../merchants/model';
import { insertOnce } from '../db/claims';
import { ApiError } from '../platform/errors';
import { logger } from '../platform/logger';

export interface EstablishmentOwner {
  /** The establishment number. */
  _id: string;
  merchantId: number;
  claimedAt: Date;
}

const ownerSchema = new Schema<EstablishmentOwner>(
  { _id: { type: String }, merchantId: { type: Number, required: true }, claimedAt: { type: Date, required: true } },
  { versionKey: false, collection: 'establishment_owners' },
);

/**
 * An establishment number in its one form: its digits without leading zeros. The acquirer reads
 * establishment numbers as numbers, so `0123` is establishment 123 there, and every comparison of
 * ours (ownership, scope, a notice's establishment) must see them as one. Anything that is not
 * digits is returned as given (the checks that refuse it are the callers').
 */
export function establishmentNumberOf(value: unknown): string {
  const text = String(value);
  return /^\d+$/.test(text) ? text.replace(/^0+(?=\d)/, '') : text;
}

export const EstablishmentOwnerModel = mongoose.model<EstablishmentOwner>('EstablishmentOwner', ownerSchema);

function alreadyOwned(establishmentNumber: string, owner: number | undefined): ApiError {
  const message =
    `Establishment number ${establishmentNumber} already belongs to merchant ${owner ?? 'another merchant'}; an ` +
    `establishment belongs to one merchant.`;
  return new ApiError(400, { detail: message, establishment_numbers: [message] });
}

/**
 * Records these ECs as the merchant's, or throws 400 naming the first that belongs to another
 * merchant (then none of this call's records is kept). Claiming an EC the merchant already has is
 * a no-op. An EC given to a merchant before these records existed has none, so a fresh claim also
 * looks for a merchant that lists it (rare operator work: merchant creation and changes).
 */
export async function claimEstablishments(merchantId: number, establishmentNumbers: string[]): Promise<void> {
  const claimed: string[] = [];
  try {
    for (const establishmentNumber of new Set(establishmentNumbers)) {
      const record = { _id: establishmentNumber, merchantId, claimedAt: new Date() };
      if ((await insertOnce(EstablishmentOwnerModel, record)) === 'exists') {
        const owner = await EstablishmentOwnerModel.findById(establishmentNumber).lean();
        if (owner?.merchantId !== merchantId) throw alreadyOwned(establishmentNumber, owner?.merchantId);
        continue;
      }
      claimed.push(establishmentNumber);
      const listedElsewhere = await MerchantModel.findOne(
        { establishmentNumbers: establishmentNumber, _id: mongoose.trusted({ $ne: merchantId }) },
        { _id: 1 },
      ).lean();
      if (listedElsewhere) throw alreadyOwned(establishmentNumber, listedElsewhere._id);
    }
  } catch (error) {
    await releaseEstablishments(merchantId, claimed).catch(() => undefined);
    throw error;
  }
}

/** Frees ECs the merchant no longer has (only its own records). */
export async function releaseEstablishments(merchantId: number, establishmentNumbers: string[]): Promise<void> {
  for (const establishmentNumber of new Set(establishmentNumbers))
    await EstablishmentOwnerModel.deleteOne({ _id: establishmentNumber, merchantId });
}

/**
 * Establishment numbers stored with leading zeros (before numbers were normalised) take their one
 * form: each merchant's list, and the owner records. An alias of a number another merchant owns
 * (how `0123` read establishment 123's chargebacks) is dropped from the merchant that named it,
 * and logged. Run once per scheduler start with the other backfills; it reads the merchants whose
 * list has such a number (a scan, as every backfill), and a second run finds none. Returns the
 * merchants whose list changed (their users' copies follow: auth's normaliseEstablishmentNumbers).
 */
export async function normaliseStoredEstablishments(): Promise<number[]> {
  const withLeadingZero = /^0\d/;
  const merchants = await MerchantModel.find(
    { establishmentNumbers: withLeadingZero },
    { establishmentNumbers: 1 },
  ).lean();
  for (const merchant of merchants) {
    const kept = new Set<string>();
    for (const written of merchant.establishmentNumbers) {
      const establishmentNumber = establishmentNumberOf(written);
      if (establishmentNumber !== written) {
        try {
          await claimEstablishments(merchant._id, [establishmentNumber]);
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          logger.warn(
            { merchantId: merchant._id, written, establishmentNumber },
            'establishment number with leading zeros names one another merchant owns: dropped from this merchant',
          );
          continue;
        }
      }
      kept.add(establishmentNumber);
    }
    await MerchantModel.updateOne({ _id: merchant._id }, { $set: { establishmentNumbers: [...kept] } });
  }
  await EstablishmentOwnerModel.deleteMany({ _id: withLeadingZero });
  return merchants.map((merchant) => merchant._id);
}
