/**
 * Pre-capture's Idempotency-Key rules: the records and their settling are src/payments/sale-keys.ts', with the answer
 * the sales API keeps for a replay (the card token left out); the request a key compares is said here.
 */
import type { ClearCard } from '../cards';
import { cardFingerprints } from '../cards/fingerprint';
import { requestHash } from '../payments/idempotency';
import type { Payment } from '../payments/model';
import { saleKeys as paymentKeys, settleIdempotencyKeyAfterFailure as settleKey } from '../payments/sale-keys';
import type { PreCaptureInput } from './schemas';
import { keptAnswerOf, storableAnswer } from './presentation';

const answerOf = (sale: Payment) => storableAnswer(keptAnswerOf(sale));

/** Pre-capture's key records for `recordId` (the merchant and its key). */
export const saleKeys = (recordId: string, merchantId: number) => paymentKeys(recordId, merchantId, answerOf);

/** After a failed pre-capture: the key freed only when nothing can have been charged (sale-keys.ts). */
export const settleIdempotencyKeyAfterFailure = (recordId: string, keyCreatedAt: Date, error: unknown) =>
  settleKey(recordId, keyCreatedAt, error, answerOf);

/**
 * The request a key compares: an encrypted card by its fingerprint (it encrypts differently every
 * time), one hash per fingerprint key in use, the current key's first (useIdempotencyKey).
 */
export function hashedRequest(input: PreCaptureInput, card: ClearCard | null): string[] {
  if (!card) return [requestHash(input)];
  return cardFingerprints(card).map((fingerprint) =>
    requestHash({ ...input, encrypted_card: undefined, card_fingerprint: fingerprint }),
  );
}
