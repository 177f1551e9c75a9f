/**
 * The one Idempotency-Key module: every route that takes the header (sales pre-capture, payment
 * link create) uses it. One state model, one window, one request hash:
 *
 * - a key is per merchant, its record `_id` "<merchantId>:<key>", inserted under the unique `_id`
 *   before any work (two requests with one key cannot both do it);
 * - states: `in_progress` (the first request runs), `reconciling` (it timed out at the acquirer:
 *   its outcome is being confirmed), `done` (its answer is kept); `pending` is how link records
 *   stored before this module said `in_progress`;
 * - a record older than IDEMPOTENCY_WINDOW_MS is replaced by the next use of its key;
 * - the same key with another request is refused (422), with the same request while the first
 *   runs is 409, and once done the first answer is replayed;
 * - requests are compared by requestHash (canonical JSON, SHA-256). A card travels encrypted with
 *   PKCS#1 v1.5, whose padding is random: the same card never encrypts to the same text twice, so
 *   card bodies are hashed over the card's fingerprint (cardFingerprint), and a partner who
 *   encrypts the same card again for a retry gets the replay, not a 422. While that key is rotated
 *   a request has two hashes (one per key): it is the same request as a record with either.
 *
 * What the first request's work was, and what its answer is, stay with its area (a `KeyBook`).
 */
import crypto from 'node:crypto';
import type { Model } from 'mongoose';
import { insertOrRead } from '../db/claims';
import { checkedAfterLookup } from '../db/filters';

/** How long a key's first answer is kept and replayed. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;

/** JSON with sorted keys (undefined values left out): two bodies with the same content hash the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .sort()
      .filter((key) => record[key] !== undefined);
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** The hash two requests are compared by. */
export function requestHash(value: unknown): string {
  return crypto.createHash('sha256').update(canonicalJson(value)).digest('hex');
}

export type KeyState = 'in_progress' | 'reconciling' | 'done';

/** The fields every Idempotency-Key record has (its area adds what its work made). */
export interface KeyRecord {
  _id: string;
  state: KeyState | 'pending';
  createdAt: Date;
}

/** What a request with an Idempotency-Key does. */
export type KeyUse<A> =
  /** This request is the key's first: it does the work. `createdAt` names this use of the key. */
  | { use: 'first'; createdAt: Date }
  /** The first request's answer, to send again. */
  | { use: 'replay'; answer: A }
  /** The key was used with another request: 422. */
  | { use: 'other-request' }
  /** The first request is still running (or, `reconciling`, its outcome is being confirmed): 409. */
  | { use: 'busy'; reconciling: boolean };

/** What became of a first request whose record is not done yet. */
export type WorkState<A> = 'free' | 'running' | { answer: A };

/** An area's Idempotency-Key records and the rules only it knows. */
export interface KeyBook<R extends KeyRecord, A> {
  model: Model<R>;
  /** The record of a new use of the key, by the request with hash `requestHash`. */
  newRecord: (createdAt: Date, requestHash: string) => Partial<R>;
  hashOf: (record: R) => string;
  /** A done record's answer; null when it cannot be given yet. */
  answerOf: (record: R) => Promise<A | null> | A | null;
  /** An answer kept outside the record, looked for before the record is read (saves a read on a replay). */
  keptAnswer?: () => Promise<{ requestHash: string; answer: A } | null>;
  /**
   * A record not done: what became of its work. 'free': nothing was done and nothing can still be
   * (the key may be used again); an answer: the work is settled (the hook records it).
   */
  workOf?: (record: R, ageMs: number) => Promise<WorkState<A>>;
}

/** The filter of exactly one use of a key: a later use of the same key is another record. */
export function recordOfUse(recordId: string, createdAt: Date | null | undefined): Record<string, unknown> {
  return createdAt ? { _id: recordId, createdAt: checkedAfterLookup(createdAt) } : { _id: recordId };
}

/**
 * Claims the key for this request, or says what the key's first request left. `hash` is the
 * request's hash, or its hashes under each card fingerprint key in use (the current one first, the
 * one a new record keeps): a record with any of them was made by the same request. The
 * key's record is inserted or read by the claim primitive (insertOrRead): a record older than the
 * window, or whose work left nothing (`workOf` says 'free'), is replaced, exactly that use of the key.
 */
export async function useIdempotencyKey<R extends KeyRecord, A>(
  book: KeyBook<R, A>,
  recordId: string,
  hash: string | readonly string[],
  now = new Date(),
): Promise<KeyUse<A>> {
  const hashes = typeof hash === 'string' ? [hash] : hash;
  const keptAnswer = book.keptAnswer;
  const outcome = await insertOrRead<R, KeyUse<A>>(book.model, recordId, {
    document: (_replaced, attempt) => {
      // A use after a freed or replaced one is another use: its own createdAt (it names the use).
      const createdAt = attempt === 0 ? now : new Date(Math.max(Date.now(), now.getTime()));
      return { ...book.newRecord(createdAt, hashes[0]), createdAt };
    },
    beforeRead: keptAnswer
      ? async () => {
          const kept = await keptAnswer();
          if (!kept) return null;
          return hashes.includes(kept.requestHash) ? { use: 'replay', answer: kept.answer } : { use: 'other-request' };
        }
      : undefined,
    judge: async (existing) => {
      const age = now.getTime() - new Date(existing.createdAt).getTime();
      if (age > IDEMPOTENCY_WINDOW_MS) return 'replace'; // expired: the key is claimed afresh
      const sameRequest = hashes.includes(book.hashOf(existing));
      if (existing.state === 'done') {
        if (!sameRequest) return { use: 'other-request' };
        const answer = await book.answerOf(existing);
        if (answer) return { use: 'replay', answer };
        return { use: 'busy', reconciling: false };
      }
      const work = book.workOf ? await book.workOf(existing, age) : 'running';
      if (work === 'free') return 'replace';
      if (!sameRequest) return { use: 'other-request' };
      if (work !== 'running') return { use: 'replay', answer: work.answer };
      return { use: 'busy', reconciling: existing.state === 'reconciling' };
    },
    // Exactly the use read (freeKey's filter): never a newer use of the key.
    identity: (existing) => recordOfUse(recordId, existing.createdAt),
  });
  if ('inserted' in outcome) return { use: 'first', createdAt: outcome.inserted.createdAt };
  if ('found' in outcome) return outcome.found;
  return { use: 'busy', reconciling: false };
}

/** Frees one use of a key whose request did nothing: the corrected request may use it. */
export async function freeKey<R extends KeyRecord>(
  model: Model<R>,
  recordId: string,
  createdAt: Date | null | undefined,
): Promise<void> {
  await model.deleteOne(recordOfUse(recordId, createdAt));
}
