/**
 * Card tokens a sale saved (`save_card`): the acquirer's token is shown to the merchant once and kept here only as
 * its hash, with the card's brand, BIN and last four; a later sale by `card_token` finds it by that hash.
 */
import { sha256Hex } from '../platform/digests';
import { insertDocument } from '../db/inserts';
import { SavedCardModel, type SavedCard } from './model';

/** The merchant's card saved under `token`, or null (a token another merchant saved is unknown here). */
export async function savedCardOf(merchantId: number, token: string): Promise<SavedCard | null> {
  // By `_id` alone (see checkedAfterLookup in src/db/filters.ts), the merchant checked after.
  const found = await SavedCardModel.findById(sha256Hex(token)).lean();
  return found?.merchantId === merchantId ? found : null;
}

/** Keeps a token the acquirer issued for the merchant's card (its hash, never the token). */
export async function keepSavedCard(
  merchantId: number,
  token: string,
  card: Pick<SavedCard, 'brand' | 'bin' | 'last4'>,
): Promise<void> {
  await insertDocument(SavedCardModel, { _id: sha256Hex(token), merchantId, ...card });
}
