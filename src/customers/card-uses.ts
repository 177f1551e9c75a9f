/**
 * What keeps a saved card from being deleted: another area charging it on its own, such as a subscription. Nothing
 * uses a saved card yet (subscriptions still tokenise their own card: issue 41, item 4); this is the hook they will
 * call:
 *
 *   recordCardUse(merchantId, cardId, 'subscription 42')   when a subscription starts paying with the card
 *   releaseCardUse(merchantId, cardId, 'subscription 42')  when it moves to another card or ends
 *
 * From then on DELETE of the card, or of its customer, answers 409 naming each use ("This card pays subscription 42:
 * move it to another card first"), and deletes nothing. The uses are kept on the card document itself, so a use being
 * recorded and the card being deleted are two writes of one document: one of them comes first and the other fails
 * (the deletion with its 409, or the use with a 404), never both succeed with a subscription left on a forgotten card.
 */
import mongoose from 'mongoose';
import { conflict, notFound } from '../platform/errors';
import { CustomerCardModel, type CustomerCard } from './model';

const CARD_ID = /^card_[0-9a-f]{24}$/;
export const NO_SUCH_CARD = 'No saved card of this customer has this id.';

/** The filter of a card no use holds: what a deletion is conditioned on. */
export const UNUSED = { usedBy: mongoose.trusted({ $size: 0 }) as unknown as string[] };

/** The 409 of a card that something charges on its own. */
export function cardInUse(card: Pick<CustomerCard, 'usedBy' | 'publicId'>): Error {
  const uses = card.usedBy.join(', ');
  return conflict(
    `The card ${card.publicId} pays ${uses}: move ${card.usedBy.length > 1 ? 'them' : 'it'} to another card ` +
      'first, then delete it.',
  );
}

/** The merchant's saved card by its API id, or null (an id that cannot be one, another merchant's, still checking). */
export async function findSavedCard(merchantId: number, cardId: string): Promise<CustomerCard | null> {
  if (!CARD_ID.test(cardId)) return null;
  const card = await CustomerCardModel.findOne({ publicId: cardId }).lean<CustomerCard>();
  return card && card.merchantId === merchantId && card.state === 'saved' ? card : null;
}

/**
 * Marks the card as used by `use` (a short name a merchant understands: "subscription 42"); recording it twice is one
 * use. A card that is not the merchant's, or no longer saved (deleted meanwhile), is a 404.
 */
export async function recordCardUse(merchantId: number, cardId: string, use: string): Promise<CustomerCard> {
  const card = await findSavedCard(merchantId, cardId);
  if (!card) throw notFound(NO_SUCH_CARD);
  const result = await CustomerCardModel.updateOne({ _id: card._id, state: 'saved' }, { $addToSet: { usedBy: use } });
  if (result.matchedCount !== 1) throw notFound(NO_SUCH_CARD);
  return { ...card, usedBy: [...new Set([...card.usedBy, use])] };
}

/** Forgets one use of the card; a use not recorded, or a card gone, changes nothing. */
export async function releaseCardUse(merchantId: number, cardId: string, use: string): Promise<void> {
  const card = await findSavedCard(merchantId, cardId);
  if (card) await CustomerCardModel.updateOne({ _id: card._id }, { $pull: { usedBy: use } });
}
