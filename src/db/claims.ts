/**
 * The one way this project guards a one-time effect: an insert under a unique index.
 *
 * FerretDB as released (1.24) applies an update as an unlocked read-modify-write, so two conditional
 * updates of one document can both "win"; two inserts of one `_id` cannot: the second gets a
 * duplicate-key error. Our local build is patched (docs/store.md) and MongoDB updates atomically,
 * but every guard stays an insert, which holds on all three, and this module is where that error is
 * read (the "On FerretDB" of other comments means the released one):
 *
 * - `createOnce` / `insertOnce`: a record that must exist once (an outcome, a notice, a user...);
 *   `createEachOnce` for several at once, in one command;
 * - `insertOrRead`: a record that exists once at a time, replaced once its time is over (the loop
 *   under `Claims` and the Idempotency-Key records, src/payments/idempotency.ts);
 * - `Claims`: a claim on some work with a holder and a lease, like BullMQ's LockManager: one object
 *   owns the claim's token and its lease; only that holder releases, extends or writes it; another
 *   caller takes it over only once the lease is over (its holder is taken for dead), and a slow
 *   holder whose claim was taken over can no longer release, extend or write the taker's claim.
 *
 * A claim document carries a `holder` token (a random UUID per claim or takeover) and a lease start
 * field named by its rules (`createdAt`, `startedAt`): the lease ends `leaseMs` after it. A claim
 * stored before the token existed is matched by its lease start instead. Also correct on MongoDB.
 */
import crypto from 'node:crypto';
import type { Model, UpdateQuery } from 'mongoose';
import { checkedAfterLookup } from './filters';
import { insertDocument, insertDocuments } from './inserts';

/** Duplicate key on insert. FerretDB gives code 11000 without keyValue, so only the code is checked. */
export function isDuplicateKey(error: unknown): boolean {
  const e = error as { code?: number; writeErrors?: { code?: number }[] };
  return e?.code === 11000 || Boolean(e?.writeErrors?.some((w) => w.code === 11000));
}

/** Inserts `doc` unless a document with its unique key exists: the stored document (defaults applied), or null. */
export async function createOnce<T>(model: Model<T>, doc: Partial<T> | Record<string, unknown>): Promise<T | null> {
  try {
    return await insertDocument(model, doc);
  } catch (error) {
    if (isDuplicateKey(error)) return null;
    throw error;
  }
}

/** createOnce for several documents in one command: each stored document, or null where a unique key refused it. */
export function createEachOnce<T>(
  model: Model<T>,
  docs: (Partial<T> | Record<string, unknown>)[],
): Promise<(T | null)[]> {
  return insertDocuments(model, docs, isDuplicateKey);
}

export type InsertOutcome = 'inserted' | 'exists';

/** createOnce when only whether this call inserted matters. */
export async function insertOnce<T>(
  model: Model<T>,
  doc: Partial<T> | Record<string, unknown>,
): Promise<InsertOutcome> {
  return (await createOnce(model, doc)) ? 'inserted' : 'exists';
}

/**
 * Runs a write that can fail with a duplicate key only because a concurrent twin of it inserted
 * the same `_id` first (two upserts that both found nothing): by then the document exists, so the
 * same write again updates it.
 */
export async function retryOnDuplicateKey<T>(write: () => Promise<T>, attempts: number): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (!isDuplicateKey(error) || attempt >= attempts) throw error;
    }
  }
}

/** How a caller of `insertOrRead` makes its record and reads the one it finds. */
export interface InsertOrReadSteps<T, V extends object> {
  /** The record to insert (`_id` aside) on try `attempt` (from 0), given the one this call last replaced. */
  document: (replaced: T | null, attempt: number) => Record<string, unknown>;
  /** An answer known without reading the stored record (it saves that read); null: read it. */
  beforeRead?: () => Promise<V | null>;
  /** What the stored record means: an answer, or 'replace' (its time is over, or it is free again). */
  judge: (stored: T) => Promise<V | 'replace'> | V | 'replace';
  /** The filter of exactly that record: a newer one under the same `_id` (another replacer's) is never removed. */
  identity: (stored: T) => Record<string, unknown>;
}

export type InsertOrReadOutcome<T, V> =
  /** This call inserted the record; `replaced` is the one it removed first (null: none). */
  | { inserted: T; replaced: T | null }
  /** The stored record's answer. */
  | { found: V }
  /** Three tries and neither (the record kept vanishing or being replaced): the last read, null if gone. */
  | { gaveUp: true; lastRead: T | null };

/**
 * Inserts the record `_id` or reads the one stored, replacing a stored record whose time is over:
 * exactly that record is removed (`identity`), then ours inserted, and the insert decides between
 * concurrent replacers (the losers read the winner's). A record that vanished meanwhile (released
 * or freed) is inserted afresh. At most three tries.
 */
export async function insertOrRead<T extends { _id: unknown }, V extends object>(
  model: Model<T>,
  id: T['_id'],
  steps: InsertOrReadSteps<T, V>,
): Promise<InsertOrReadOutcome<T, V>> {
  let lastRead: T | null = null;
  let replaced: T | null = null;
  for (let attempt = 0; attempt < 3; attempt++) {
    const stored = await createOnce(model, { ...steps.document(replaced, attempt), _id: id });
    if (stored) return { inserted: stored, replaced };
    const known = await steps.beforeRead?.();
    if (known) return { found: known };
    lastRead = await model.findById(id).lean<T>();
    if (!lastRead) continue; // removed meanwhile: insert afresh
    const judged = await steps.judge(lastRead);
    if (judged !== 'replace') return { found: judged };
    await model.deleteOne(steps.identity(lastRead));
    replaced = lastRead;
  }
  return { gaveUp: true, lastRead };
}

/** The fields every claim document has; `T[startField]` is its lease start (a Date). */
export interface ClaimDocument {
  _id: unknown;
  /** The holder's token; absent on claims stored before it existed. */
  holder?: string | null;
}

export interface ClaimRules<T> {
  /** The Date field the lease runs from: set to now when claimed, taken over or extended. */
  startField: keyof T & string;
  /** How long the holder keeps this claim before it may be taken over; null: never taken over here. */
  leaseMs: (claim: T) => number | null;
}

export type ClaimOutcome<T extends ClaimDocument> =
  { claimed: true; claim: HeldClaim<T> } | { claimed: false; held: T | null };

/** The fields a claim document is made of, given the claim it takes over (null for a fresh claim). */
export type ClaimFields<T> = (takenOver: T | null) => Omit<Partial<T>, '_id' | 'holder'>;

export class Claims<T extends ClaimDocument> {
  constructor(
    readonly model: Model<T>,
    readonly rules: ClaimRules<T>,
  ) {}

  /** When the lease of a claim as read ends; null: it never ends here. */
  leaseEnd(claim: T): Date | null {
    const ms = this.rules.leaseMs(claim);
    const start = claim[this.rules.startField] as unknown as Date | null | undefined;
    if (ms === null || !start) return null;
    return new Date(new Date(start).getTime() + ms);
  }

  /**
   * Claims `_id` for this caller. Not claimed while another holder's lease runs: `held` is that
   * claim as read (null if it vanished twice in a row). A claim whose lease is over is taken
   * over: exactly that claim is removed (matched on its holder), then ours inserted; the insert
   * decides between concurrent takers. `fields` gets the claim taken over, so a taker can keep
   * what must survive it (an acquirer key, so the acquirer replays instead of charging twice).
   */
  async claim(id: T['_id'], fields: ClaimFields<T>, now = new Date()): Promise<ClaimOutcome<T>> {
    const outcome = await insertOrRead<T, T>(this.model, id, {
      document: (takenOver) => ({ ...fields(takenOver), holder: crypto.randomUUID(), [this.rules.startField]: now }),
      judge: (held) => {
        const end = this.leaseEnd(held);
        return !end || now.getTime() < end.getTime() ? held : 'replace';
      },
      identity: (held) => this.identity(held),
    });
    if ('inserted' in outcome) return { claimed: true, claim: new HeldClaim(this, outcome.inserted, outcome.replaced) };
    return { claimed: false, held: 'found' in outcome ? outcome.found : outcome.lastRead };
  }

  /** Reads the claim on `_id`, as anyone may (to tell "in progress" from "done", or for a sweep). */
  read(id: T['_id']): Promise<T | null> {
    return this.model.findById(id).lean<T>();
  }

  /**
   * The filter of exactly this claim (not a later takeover of the same `_id`): its holder token,
   * or for a claim stored before tokens existed, its lease start.
   */
  identity(claim: T): Record<string, unknown> {
    if (claim.holder) return { _id: claim._id, holder: checkedAfterLookup(claim.holder) };
    const start = claim[this.rules.startField] as unknown as Date;
    return { _id: claim._id, [this.rules.startField]: checkedAfterLookup(start) };
  }

  /**
   * Acts as the holder of a claim as read: a sweep that settles a dead holder's work from what
   * the acquirer says releases or writes exactly that claim, never a takeover of it.
   */
  asRead(claim: T): HeldClaim<T> {
    return new HeldClaim(this, claim, null);
  }
}

/** A claim this caller holds: only through this object is it released, extended or written. */
export class HeldClaim<T extends ClaimDocument> {
  constructor(
    private readonly claims: Claims<T>,
    private current: T,
    /** The dead holder's claim this one took over, if it did. */
    readonly takenOver: T | null,
  ) {}

  /** This claim and nothing else: its identity, and the fields that must still hold (checked after the lookup). */
  private filter(still: Record<string, unknown>): Record<string, unknown> {
    const filter = this.claims.identity(this.current);
    for (const [field, value] of Object.entries(still)) filter[field] = checkedAfterLookup(value);
    return filter;
  }

  get document(): T {
    return this.current;
  }

  /**
   * Releases the claim if this caller still holds it (and `still` holds: fields that must not have
   * changed, e.g. a state); false when it was taken over, released or changed meanwhile.
   */
  async release(still: Partial<Record<keyof T & string, unknown>> = {}): Promise<boolean> {
    return (await this.claims.model.deleteOne(this.filter(still))).deletedCount === 1;
  }

  /** Restarts the lease from now, if this caller still holds the claim. */
  async extend(now = new Date()): Promise<boolean> {
    return this.update({ $set: { [this.claims.rules.startField]: now } } as UpdateQuery<T>);
  }

  /** Writes the claim (its state, what it recorded) if this caller still holds it: one update, no read back. */
  async update(update: UpdateQuery<T>, still: Partial<Record<keyof T & string, unknown>> = {}): Promise<boolean> {
    if ((await this.claims.model.updateOne(this.filter(still), update)).matchedCount !== 1) return false;
    const set = (update as { $set?: Record<string, unknown> }).$set;
    const start = this.claims.rules.startField;
    if (set && start in set) this.current = { ...this.current, [start]: set[start] };
    return true;
  }
}
