/**
 * A customer's saved cards as the API shows them, and their deletion, which forgets the acquirer's token with the
 * card (the acquirer has no call to delete a token: ours is the only copy we keep, and it goes). Saving one is
 * card-saving.ts.
 */
import { notFound } from '../platform/errors';
import { cardInUse, findSavedCard, NO_SUCH_CARD, UNUSED } from './card-uses';
import { findCustomer } from './customers';
import { CustomerCardModel, type Customer, type CustomerCard } from './model';
import type { CardAnswer } from './schemas';

export function presentCard(card: CustomerCard): CardAnswer {
  const check = card.check!;
  return {
    id: card.publicId,
    customer_id: card.customerId,
    brand: card.brand,
    last4: card.last4,
    exp_month: card.expMonth,
    exp_year: card.expYear,
    holder: card.cardHolder,
    check: { status: check.status, reason: check.reason ?? null, checked_at: new Date(check.checkedAt).toISOString() },
    created_at: new Date(card.createdAt).toISOString(),
  };
}

/** The customer's saved cards, newest first (a card still being checked is not one yet). */
export async function listCards(merchantId: number, customerId: string): Promise<CardAnswer[]> {
  const customer = await findCustomer(merchantId, customerId);
  const cards = await CustomerCardModel.find({ customerId: customer._id }).lean<CustomerCard[]>();
  return cards
    .filter((card) => card.state === 'saved')
    .sort((a, b) => new Date(b.createdAt).getTime() - new Date(a.createdAt).getTime() || (a._id < b._id ? 1 : -1))
    .map(presentCard);
}

/** The customer's saved card, or a 404 (its customer first: another merchant's customer is not found either). */
export async function readCard(merchantId: number, customerId: string, cardId: string): Promise<CustomerCard> {
  const customer = await findCustomer(merchantId, customerId);
  const card = await findSavedCard(merchantId, cardId);
  if (!card || card.customerId !== customer._id) throw notFound(NO_SUCH_CARD);
  return card;
}

/** Deletes a saved card and its token; 409 while something charges it on its own (card-uses.ts). */
export async function deleteCard(merchantId: number, customerId: string, cardId: string): Promise<void> {
  const card = await readCard(merchantId, customerId, cardId);
  if (card.usedBy?.length) throw cardInUse(card);
  const { deletedCount } = await CustomerCardModel.deleteOne({ _id: card._id, ...UNUSED });
  if (deletedCount === 1) return;
  // A use was recorded since the read, or another request deleted it first.
  const now = await CustomerCardModel.findById(card._id).lean<CustomerCard>();
  if (now?.usedBy?.length) throw cardInUse(now);
  throw notFound(NO_SUCH_CARD);
}

/**
 * Forgets every card of a customer being deleted, then runs `removeCustomer`; 409 (and the customer kept) when one
 * of its cards is in use. The cards go first, each only if unused, so a use recorded meanwhile keeps its card, which
 * is then found here; a card saved meanwhile sees its customer gone and removes itself (card-saving.ts).
 */
export async function forgetCardsOfCustomer(customer: Customer, removeCustomer: () => Promise<void>): Promise<void> {
  const inUse = (await CustomerCardModel.find({ customerId: customer._id }).lean<CustomerCard[]>()).find(
    (card) => card.usedBy?.length,
  );
  if (inUse) throw cardInUse(inUse);
  await CustomerCardModel.deleteMany({ customerId: customer._id, ...UNUSED });
  const kept = await CustomerCardModel.findOne({ customerId: customer._id }).lean<CustomerCard>();
  if (kept?.usedBy?.length) throw cardInUse(kept);
  await removeCustomer();
}
