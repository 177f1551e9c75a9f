/**
 * Saving a customer's card: the card (encrypted as a sale's) is decrypted in memory, checked with Zero Auth, then
 * tokenised at the acquirer; we keep the token (sealed: src/cards/sealed-tokens.ts), the brand, the last four digits,
 * the expiry, the holder, our fingerprint and the Zero Auth's IssuerTransactionId. The number and the CVV go to the
 * acquirer and nowhere else: not to the database, not to a log, not to an error.
 *
 * One card per customer and card: the card document's `_id` is the customer's id and the card's fingerprint (number
 * and expiry), and its insert is a claim (src/db/claims.ts). The request that inserts it checks and tokenises; a twin
 * request (the same card saved twice at once) finds the claim and waits for its outcome: the saved card (200, the same
 * card), or the claim gone (Zero Auth refused it: it tries itself). A claim whose holder died is taken over once its
 * lease, the time two acquirer calls may take, is over.
 *
 * Answers: 201 with a new card; 200 with the card saved before (nothing sent to the acquirer); 422 when Zero Auth
 * refuses it (in words, with the issuer's code); 400 for a card that cannot be read or breaks a rule; 404 for a
 * customer that is not the merchant's (or is deleted meanwhile); 502 when the acquirer cannot be reached (nothing
 * is kept: saving again is safe); 409 when a twin request is still checking the same card after that long.
 */
import crypto from 'node:crypto';
import { getConfig } from '../../config';
import { checkCardWithZeroAuth, tokenizeCard } from '../acquirer/client';
import { CardError, cardBrand, decryptCard, type ClearCard } from '../cards';
import { savedCardFingerprints } from '../cards/fingerprint';
import { sealCardToken } from '../cards/sealed-tokens';
import { Claims, type HeldClaim } from '../db/claims';
import { checkBody } from '../http/schema';
import { ApiError, badRequest, notFound } from '../platform/errors';
import { cardRefusalInWords } from './card-refusals';
import { presentCard } from './cards';
import { customerExists, findCustomer, NO_SUCH_CUSTOMER } from './customers';
import { CustomerCardModel, type CardCheck, type Customer, type CustomerCard } from './model';
import { cardSave, type CardAnswer, type CardRefusedAnswer } from './schemas';

export interface SavedCardOutcome {
  card: CardAnswer;
  /** false: the card was saved before, and nothing was sent to the acquirer now. */
  created: boolean;
}

/** How long two acquirer calls (Zero Auth, then the token) may take, with room to write the outcome. */
const checkLeaseMs = () => 2 * getConfig().acquirer.timeoutMs + 10_000;
/** How long a twin request waits for the holder's outcome before answering 409. */
const twinWaitMs = () => 2 * getConfig().acquirer.timeoutMs + 2_000;
const TWIN_POLL_MS = 150;

const cardClaims = new Claims<CustomerCard>(CustomerCardModel, {
  startField: 'claimedAt',
  // A saved card is never taken over; a check whose holder died is, once it cannot be running any more.
  leaseMs: (card) => (card.state === 'saved' ? null : checkLeaseMs()),
});

/** The body's card, decrypted and checked, or a 400 naming every bad field (as a pre-capture's card). */
function readCardBody(body: unknown): ClearCard {
  const { value, fields } = checkBody(cardSave, body);
  let card: ClearCard | undefined;
  if (typeof value.encrypted_card === 'string') {
    try {
      card = decryptCard(value.encrypted_card);
      if (cardBrand(card.number) === 'Unknown') fields.number = ['This card brand is not accepted.'];
    } catch (error) {
      if (!(error instanceof CardError)) throw error;
      fields[error.field] = [error.message];
    }
  }
  if (Object.keys(fields).length || !card) throw badRequest(fields);
  return card;
}

/** The 409 of a card another request is still checking. */
const savingElsewhere = () =>
  new ApiError(
    409,
    { detail: 'Another request is saving this card for this customer: try again in a few seconds.' },
    { 'Retry-After': '5' },
  );

const cardDocumentId = (customer: Customer, fingerprint: string) => `${customer._id}:${fingerprint}`;

export async function saveCard(merchantId: number, customerId: string, body: unknown): Promise<SavedCardOutcome> {
  const card = readCardBody(body);
  const customer = await findCustomer(merchantId, customerId);
  const [fingerprint, ...previous] = savedCardFingerprints(card);
  // During a rotation of CARD_FINGERPRINT_KEY a card saved before it is found under the previous key.
  for (const older of previous) {
    const saved = await CustomerCardModel.findById(cardDocumentId(customer, older)).lean<CustomerCard>();
    if (saved?.state === 'saved') return { card: presentCard(saved), created: false };
  }
  const id = cardDocumentId(customer, fingerprint);
  const waitEnds = Date.now() + twinWaitMs();
  for (;;) {
    const outcome = await cardClaims.claim(id, () => newCardFields(customer, card, fingerprint));
    if (outcome.claimed) return checkAndKeep(outcome.claim, card, customer);
    // A twin holds it: wait for its outcome by reading only (a claim is an insert and a read).
    let held = outcome.held;
    while (held?.state === 'checking' && Date.now() < Math.min(waitEnds, cardClaims.leaseEnd(held)!.getTime())) {
      await new Promise((resolve) => setTimeout(resolve, TWIN_POLL_MS));
      held = await cardClaims.read(id);
    }
    if (held?.state === 'saved') return { card: presentCard(held), created: false };
    if (held && Date.now() >= waitEnds) throw savingElsewhere();
    // Gone (refused, or the acquirer failed: this request tries itself) or its holder died: claim it again.
  }
}

/** The card document while it is being checked: what we keep of the card, no token yet. */
function newCardFields(customer: Customer, card: ClearCard, fingerprint: string): Partial<CustomerCard> {
  return {
    publicId: `card_${crypto.randomBytes(12).toString('hex')}`,
    merchantId: customer.merchantId,
    customerId: customer._id,
    state: 'checking',
    fingerprint,
    brand: cardBrand(card.number),
    last4: card.number.slice(-4),
    expMonth: card.expMonth,
    expYear: card.expYear,
    cardHolder: card.holder,
    sealedToken: null,
    check: null,
    usedBy: [],
  };
}

/**
 * Zero Auth's verdict on the card: passed or skipped (a brand the acquirer does not check), or a 422 naming the
 * issuer's refusal.
 */
async function checkWithIssuer(card: ClearCard): Promise<CardCheck> {
  const brand = cardBrand(card.number);
  const result = await checkCardWithZeroAuth({ ...card, brand });
  const checkedAt = new Date();
  if (!result.checked)
    return {
      status: 'skipped',
      reason: `The acquirer does not run Zero Auth for ${brand} cards: the card was saved without being checked.`,
      issuerTransactionId: null,
      checkedAt,
    };
  if (!result.valid) {
    const refused: CardRefusedAnswer = {
      detail: cardRefusalInWords(result.returnCode, result.returnMessage),
      return_code: result.returnCode,
      return_message: result.returnMessage,
    };
    throw new ApiError(422, refused);
  }
  return { status: 'passed', reason: null, issuerTransactionId: result.issuerTransactionId ?? null, checkedAt };
}

/** The claim holder's work: check, tokenise, keep; the claim is released on any failure, so saving again is clean. */
async function checkAndKeep(
  claim: HeldClaim<CustomerCard>,
  card: ClearCard,
  customer: Customer,
): Promise<SavedCardOutcome> {
  let kept = false;
  try {
    const check = await checkWithIssuer(card);
    const { cardToken } = await tokenizeCard({
      number: card.number,
      holder: card.holder,
      expMonth: card.expMonth,
      expYear: card.expYear,
      brand: cardBrand(card.number),
      customerName: customer.name,
    });
    const saved = {
      state: 'saved' as const,
      holder: null,
      sealedToken: sealCardToken(cardToken, claim.document._id),
      check,
      updatedAt: new Date(),
    };
    if (!(await claim.update({ $set: saved }))) return outcomeOfLostClaim(claim.document._id, customer);
    kept = true;
    // Deleted while we checked: its deletion could not see this card; it goes now, with its token.
    if (!(await customerExists(customer._id))) {
      await CustomerCardModel.deleteOne({ _id: claim.document._id });
      throw notFound(NO_SUCH_CUSTOMER);
    }
    return { card: presentCard({ ...claim.document, ...saved }), created: true };
  } finally {
    if (!kept) await claim.release().catch(() => false);
  }
}

/**
 * Our claim was removed while we checked: the customer was deleted (with its cards), or our holder was taken for dead
 * and another request took the card over (then its outcome is the answer).
 */
async function outcomeOfLostClaim(id: string, customer: Customer): Promise<SavedCardOutcome> {
  if (!(await customerExists(customer._id))) throw notFound(NO_SUCH_CUSTOMER);
  const now = await cardClaims.read(id);
  if (now?.state === 'saved') return { card: presentCard(now), created: false };
  throw savingElsewhere();
}
