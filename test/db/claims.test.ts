/**
 * The claim primitive's races, against the real store: every guard of the project relies on them.
 */
import '../helpers/env';
import test from 'ava';
import mongoose, { Schema } from 'mongoose';
import { connectDatabase, disconnectDatabase } from '../../src/db/connection';
import { Claims, createOnce, insertOnce, insertOrRead, type ClaimDocument } from '../../src/db/claims';

interface Job extends ClaimDocument {
  _id: string;
  startedAt: Date;
  /** What a taker must keep (an acquirer key). */
  key: string;
  state: 'working' | 'done';
}

const jobSchema = new Schema<Job>(
  { _id: String, holder: String, startedAt: Date, key: String, state: String },
  { versionKey: false, collection: 'test_claims' },
);
const JobModel = mongoose.model<Job>('TestClaim', jobSchema);

const LEASE_MS = 60_000;
/** A done job is never taken over; a working one after a minute. */
const jobs = new Claims<Job>(JobModel, {
  startField: 'startedAt',
  leaseMs: (job) => (job.state === 'done' ? null : LEASE_MS),
});
const later = (ms: number) => new Date(Date.now() + ms);
const fresh = (key: string) => (takenOver: Job | null) => ({ key: takenOver?.key ?? key, state: 'working' as const });

test.before(() => connectDatabase(process.env.MONGODB_URI!));
test.after.always(() => disconnectDatabase());

test('two holders at once: exactly one claims, the other reads its claim', async (t) => {
  const outcomes = await Promise.all(Array.from({ length: 8 }, (_, i) => jobs.claim('race', fresh(`k${i}`))));
  const winners = outcomes.filter((o) => o.claimed);
  t.is(winners.length, 1);
  const winner = winners[0].claimed ? winners[0].claim.document : null;
  for (const lost of outcomes.filter((o) => !o.claimed))
    t.is(lost.claimed ? null : lost.held?.holder, winner?.holder, 'the loser sees the holder it lost to');
  t.is(await JobModel.countDocuments({ _id: 'race' }), 1);
});

test('a holder that dies: its claim is taken over after its lease, keeping what the taker asks for', async (t) => {
  const first = await jobs.claim('dies', fresh('acquirer-key'));
  if (!first.claimed) return t.fail('the first caller claims');
  const during = await jobs.claim('dies', fresh('other-key'), later(LEASE_MS - 1000));
  t.false(during.claimed, 'not while the lease runs');
  const after = await jobs.claim('dies', fresh('other-key'), later(LEASE_MS + 1000));
  if (!after.claimed) return t.fail('taken over once the lease is over');
  t.is(after.claim.takenOver?.holder, first.claim.document.holder);
  t.is(after.claim.document.key, 'acquirer-key', "the taker kept the dead holder's key");
  t.not(after.claim.document.holder, first.claim.document.holder, 'a new token');
});

test("a slow holder after a takeover can neither release, extend nor write the taker's claim", async (t) => {
  const slow = await jobs.claim('slow', fresh('k'));
  if (!slow.claimed) return t.fail();
  const taker = await jobs.claim('slow', fresh('k'), later(LEASE_MS + 1000));
  if (!taker.claimed) return t.fail();
  t.false(await slow.claim.release());
  t.false(await slow.claim.extend());
  t.false(await slow.claim.update({ $set: { state: 'done' } }));
  const stored = (await JobModel.findById('slow').lean())!;
  t.is(stored.holder, taker.claim.document.holder);
  t.is(stored.state, 'working');
  t.true(await taker.claim.update({ $set: { state: 'done' } }));
  t.true(await taker.claim.release(), 'the taker still releases its own claim');
  t.is(await JobModel.countDocuments({ _id: 'slow' }), 0);
});

test('concurrent takers of a dead claim: exactly one takes it over', async (t) => {
  const dead = await jobs.claim('takers', fresh('k'));
  t.true(dead.claimed);
  const outcomes = await Promise.all(
    Array.from({ length: 6 }, () => jobs.claim('takers', fresh('k'), later(LEASE_MS + 1000))),
  );
  t.is(outcomes.filter((o) => o.claimed).length, 1);
  t.is(await JobModel.countDocuments({ _id: 'takers' }), 1);
});

test('extend restarts the lease; a claim without a lease is never taken over', async (t) => {
  const held = await jobs.claim('extend', fresh('k'));
  if (!held.claimed) return t.fail();
  t.true(await held.claim.extend(later(LEASE_MS)));
  t.false((await jobs.claim('extend', fresh('k'), later(LEASE_MS + 1000))).claimed, 'the extended lease still runs');
  t.true((await jobs.claim('extend', fresh('k'), later(2 * LEASE_MS + 1000))).claimed);

  const done = await jobs.claim('done', fresh('k'));
  if (!done.claimed) return t.fail();
  t.true(await done.claim.update({ $set: { state: 'done' } }));
  const never = await jobs.claim('done', fresh('k'), later(1000 * LEASE_MS));
  t.false(never.claimed);
  t.is(never.claimed ? null : never.held?.state, 'done');
});

test('a claim stored before holder tokens is matched by its lease start', async (t) => {
  const startedAt = new Date(Date.now() - 2 * LEASE_MS);
  await JobModel.collection.insertOne({ _id: 'legacy' as never, startedAt, key: 'old', state: 'working' });
  const legacy = (await JobModel.findById('legacy').lean())!;
  const taker = await jobs.claim('legacy', fresh('new'));
  if (!taker.claimed) return t.fail('a dead legacy claim is taken over');
  t.is(taker.claim.document.key, 'old');
  t.false(await jobs.asRead(legacy).release(), "the legacy holder cannot release the taker's claim");
  t.is(await JobModel.countDocuments({ _id: 'legacy' }), 1);
});

test('createOnce and insertOnce insert a unique key once', async (t) => {
  t.truthy(await createOnce(JobModel, { _id: 'once', key: 'a', state: 'working', startedAt: new Date() }));
  t.is(await createOnce(JobModel, { _id: 'once', key: 'b', state: 'working', startedAt: new Date() }), null);
  t.is(await insertOnce(JobModel, { _id: 'once', key: 'c', state: 'working', startedAt: new Date() }), 'exists');
  t.is((await JobModel.findById('once').lean())!.key, 'a');
});

/** A stored job with this holder token, as another caller left it. */
const storeJob = (id: string, holder: string) =>
  JobModel.collection.insertOne({ _id: id as never, holder, startedAt: new Date(), key: holder, state: 'working' });
const byHolder = (job: Job) => ({ _id: job._id, holder: job.holder });

test('insertOrRead replaces a record whose time is over, handing it to the next insert', async (t) => {
  await storeJob('replace', 'old');
  const tries: [string | null, number][] = [];
  const outcome = await insertOrRead<Job, Job>(JobModel, 'replace', {
    document: (replaced, attempt) => {
      tries.push([replaced?.holder ?? null, attempt]);
      return { holder: 'new', startedAt: new Date(), key: replaced?.key ?? 'none', state: 'working' };
    },
    judge: (stored) => (stored.holder === 'old' ? 'replace' : stored),
    identity: byHolder,
  });
  if (!('inserted' in outcome)) return t.fail('the expired record is replaced');
  t.is(outcome.replaced?.holder, 'old');
  t.is(outcome.inserted.key, 'old', 'the insert kept what it took from the replaced record');
  t.deepEqual(tries, [
    [null, 0],
    ['old', 1],
  ]);
});

test('insertOrRead removes exactly the record it judged: a newer one another replacer put there stays', async (t) => {
  await storeJob('exact', 'expired');
  const outcome = await insertOrRead<Job, Job>(JobModel, 'exact', {
    document: () => ({ holder: 'mine', startedAt: new Date(), key: 'mine', state: 'working' }),
    judge: async (stored) => {
      if (stored.holder !== 'expired') return stored;
      // Another replacer removes the expired record and inserts its own between our read and our delete.
      await JobModel.deleteOne({ _id: 'exact' });
      await storeJob('exact', 'theirs');
      return 'replace';
    },
    identity: byHolder,
  });
  t.is('found' in outcome ? outcome.found.holder : null, 'theirs', 'we read the winner, not replace it');
  t.is((await JobModel.findById('exact').lean())!.holder, 'theirs');
});

test('insertOrRead: an answer known before the read saves it; three failed replacements give up', async (t) => {
  await storeJob('known', 'held');
  let judged = 0;
  const known = await insertOrRead<Job, { answer: string }>(JobModel, 'known', {
    document: () => ({ holder: 'mine', startedAt: new Date(), key: 'mine', state: 'working' }),
    beforeRead: async () => ({ answer: 'kept' }),
    judge: () => {
      judged++;
      return 'replace';
    },
    identity: byHolder,
  });
  t.deepEqual(known, { found: { answer: 'kept' } });
  t.is(judged, 0, 'the stored record was never read');

  // A record its identity never matches cannot be removed: after three tries, the last read.
  let tries = 0;
  const stuck = await insertOrRead<Job, Job>(JobModel, 'known', {
    document: () => {
      tries++;
      return { holder: 'mine', startedAt: new Date(), key: 'mine', state: 'working' };
    },
    judge: () => 'replace',
    identity: (job) => ({ _id: job._id, holder: 'someone else' }),
  });
  t.is(tries, 3);
  t.is('gaveUp' in stuck ? stuck.lastRead?.holder : null, 'held');
  t.is((await JobModel.findById('known').lean())!.holder, 'held');
});
