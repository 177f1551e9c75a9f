/**
 * readOne (src/db/reads.ts), the hot paths' one-document read, against the real store: one command,
 * the document as stored, the projection applied, and no way to pass an operator.
 */
import '../helpers/env';
import test from 'ava';
import mongoose, { Schema } from 'mongoose';
import { connectDatabase, disconnectDatabase } from '../../src/db/connection';
import { readOne } from '../../src/db/reads';
import { countDbCommands } from '../helpers/db-commands';

interface Card {
  _id: number;
  guid: string;
  holder: string;
  secret: string;
  active: boolean;
  issuedAt: Date;
}

const CardModel = mongoose.model<Card>(
  'TestReadCard',
  new Schema<Card>(
    { _id: Number, guid: String, holder: String, secret: String, active: Boolean, issuedAt: Date },
    { versionKey: false, collection: 'test_reads' },
  ),
);
const issuedAt = new Date('2026-01-02T03:04:05.678Z');

test.before(async () => {
  await connectDatabase(process.env.MONGODB_URI!);
  await CardModel.deleteMany({});
  await CardModel.create([
    { _id: 1, guid: 'g-one', holder: 'Ana', secret: 's1', active: true, issuedAt },
    { _id: 2, guid: 'g-two', holder: 'Bia', secret: 's2', active: false, issuedAt },
  ]);
});
test.after.always(() => disconnectDatabase());

test.serial('reads one document by _id in one command, as stored', async (t) => {
  const { result, commands } = await countDbCommands(() => readOne<Card>(CardModel, { _id: 2 }));
  t.deepEqual(result, { _id: 2, guid: 'g-two', holder: 'Bia', secret: 's2', active: false, issuedAt });
  t.true(result?.issuedAt instanceof Date);
  t.deepEqual(commands.by, { 'test_reads find': 1 });
});

test.serial('reads by a secondary field and applies an exclusion or an inclusion projection', async (t) => {
  t.deepEqual(await readOne(CardModel, { guid: 'g-one' }, { secret: 0 }), {
    _id: 1,
    guid: 'g-one',
    holder: 'Ana',
    active: true,
    issuedAt,
  });
  t.deepEqual(await readOne(CardModel, { guid: 'g-one', active: true }, { holder: 1, _id: 0 }), { holder: 'Ana' });
});

test.serial('no match is null; the value is compared as given, not cast', async (t) => {
  t.is(await readOne(CardModel, { guid: 'g-three' }), null);
  // mongoose would cast '1' to the schema's Number; the driver compares the string: no match.
  t.is(await readOne(CardModel, { _id: '1' }), null);
});

test.serial('an operator, null or undefined as a value is refused before any command is sent', async (t) => {
  for (const value of [{ $gt: 0 }, { $ne: 'x' }, null, undefined, ['g-one']]) {
    const { commands } = await countDbCommands(async () => {
      const error = await t.throwsAsync(readOne(CardModel, { guid: value as never }), { instanceOf: TypeError });
      t.regex(error!.message, /guid must be a scalar value/);
    });
    t.is(commands.total, 0, JSON.stringify(value));
  }
});
