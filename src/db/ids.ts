/**
 * Integer id sequences that stay unique under concurrency on FerretDB, across processes.
 *
 * FerretDB as released applies `$inc` as an unlocked read-modify-write (docs/store.md), so a counter
 * document can hand the same number to two callers. Inserts into a unique index are atomic, so a process claims a
 * block of ids by inserting `{_id: "<sequence>:<block>"}`; a process that loses the race gets a
 * duplicate-key error and tries the next block. Ids inside a claimed block are handed out in
 * memory, synchronously, so callers in one process never collide. Ids are unique and increasing
 * per process; a restart leaves the rest of its block unused (gaps, never duplicates).
 * Also correct on MongoDB.
 */
import mongoose, { Schema } from 'mongoose';
import { getConfig } from '../../config';
import { insertOnce } from './claims';

interface SequenceBlock {
  _id: string;
  sequence: string;
  block: number;
  claimedAt: Date;
}

const blockSchema = new Schema<SequenceBlock>(
  {
    _id: { type: String },
    sequence: { type: String, required: true },
    block: { type: Number, required: true },
    claimedAt: Date,
  },
  { versionKey: false, collection: 'id_sequences' },
);
blockSchema.index({ sequence: 1, block: -1 });

export const SequenceBlockModel = mongoose.model<SequenceBlock>('SequenceBlock', blockSchema);

const MAX_ATTEMPTS = 100;

/** The last block this process claimed per sequence: the next claim tries the block after it first. */
const lastClaimed = new Map<string, number>();

/** Claims the next free block of a sequence for this process; unique across processes. */
export async function claimBlock(sequence: string): Promise<number> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    // Usually nobody else claimed since our last block: try the next one without reading (the
    // sorted read is a scan of the whole collection on FerretDB); after a lost race, read.
    const mine = attempt === 0 ? lastClaimed.get(sequence) : undefined;
    const block =
      mine !== undefined
        ? mine + 1
        : ((await SequenceBlockModel.findOne({ sequence }).sort({ block: -1 }).lean())?.block ?? -1) + 1;
    const doc = { _id: `${sequence}:${block}`, sequence, block, claimedAt: new Date() };
    if ((await insertOnce(SequenceBlockModel, doc)) === 'inserted') {
      lastClaimed.set(sequence, block);
      return block;
    }
    // Lost the race: spread the retries.
    if (mine === undefined) await new Promise((r) => setTimeout(r, Math.random() * 20));
  }
  throw new Error(`could not claim an id block in sequence ${sequence} after ${MAX_ATTEMPTS} attempts`);
}

interface LocalBlock {
  next: number;
  end: number;
}

const localBlocks = new Map<string, LocalBlock>();
const pendingClaims = new Map<string, Promise<void>>();

export async function nextId(sequence: string): Promise<number> {
  for (;;) {
    const local = localBlocks.get(sequence);
    if (local && local.next < local.end) return local.next++;
    let claim = pendingClaims.get(sequence);
    if (!claim) {
      claim = claimBlock(sequence)
        .then((block) => {
          const size = getConfig().idBlockSize;
          localBlocks.set(sequence, { next: block * size + 1, end: (block + 1) * size + 1 });
        })
        .finally(() => pendingClaims.delete(sequence));
      pendingClaims.set(sequence, claim);
    }
    await claim;
  }
}

/** Forget this process's blocks (tests use it to act like a fresh process). */
export function forgetLocalBlocks(): void {
  localBlocks.clear();
  lastClaimed.clear();
}
