/**
 * insertDocument (src/db/inserts.ts), the one insert of a new document, against the real store: it
 * stores what Model.create stores, in one command, refuses invalid documents before any command,
 * and refuses a model whose save middleware it would skip.
 */
import '../helpers/env';
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import mongoose, { Schema } from 'mongoose';
import { connectDatabase, disconnectDatabase } from '../../src/db/connection';
import { isDuplicateKey } from '../../src/db/claims';
import { insertDocument, insertRefusals } from '../../src/db/inserts';
import { countDbCommands } from '../helpers/db-commands';

interface Parcel {
  _id: number;
  kind: 'box' | 'letter';
  weightGrams: number;
  label: string | null;
  tags: string[];
  address: { street: string; city: string };
  createdAt?: Date;
  updatedAt?: Date;
}

const parcelSchema = new Schema<Parcel>(
  {
    _id: Number,
    kind: { type: String, enum: ['box', 'letter'], required: true },
    weightGrams: { type: Number, required: true },
    label: { type: String, default: null, maxlength: 20 },
    tags: { type: [String], default: undefined },
    address: new Schema({ street: String, city: { type: String, default: 'São Paulo' } }, { _id: false }),
  },
  { timestamps: true, collection: 'test_inserts' },
);
const ParcelModel = mongoose.model<Parcel>('TestInsertParcel', parcelSchema);

const fields = (id: number) => ({ _id: id, kind: 'box', weightGrams: '1200', address: { street: 'Rua A' } });

test.before(async () => {
  await connectDatabase(process.env.MONGODB_URI!);
  await ParcelModel.deleteMany({});
});
test.after.always(() => disconnectDatabase());

test.serial('stores what create stores (cast, defaults, timestamps, version key), in one command', async (t) => {
  const { result: inserted, commands } = await countDbCommands(() => insertDocument(ParcelModel, fields(1)));
  t.deepEqual(commands.by, { 'test_inserts insert': 1 });
  const created = (await ParcelModel.create(fields(2))).toObject();
  const stored = await ParcelModel.findById(1).lean();
  t.deepEqual(stored, inserted, 'what it returns is what is stored');
  t.is(stored!.weightGrams, 1200, 'cast to a number');
  t.true(stored!.createdAt instanceof Date && stored!.updatedAt instanceof Date);
  t.deepEqual(stored!.createdAt, stored!.updatedAt);
  const apart = ({ _id, createdAt, updatedAt, ...rest }: Parcel & { __v?: number }) => rest;
  t.deepEqual(apart(stored!), apart((await ParcelModel.findById(2).lean())!), 'the same document as create');
  t.deepEqual(apart(inserted), apart(created));
  t.is((stored as { __v?: number }).__v, 0);
  t.is(stored!.address.city, 'São Paulo', "a subdocument's default");
});

test.serial('timestamps as create sets them: a given createdAt is kept and updatedAt follows it', async (t) => {
  const createdAt = new Date('2026-01-02T03:04:05.000Z');
  const updatedAt = new Date('2026-05-06T07:08:09.000Z');
  for (const given of [{ createdAt }, { createdAt, updatedAt }, { updatedAt }]) {
    const ours = await insertDocument(ParcelModel, { ...fields(10), ...given });
    const theirs = (await ParcelModel.create({ ...fields(11), ...given })).toObject();
    const keys = Object.keys(given).join(' and ');
    if (given.createdAt) t.deepEqual(ours.createdAt, createdAt, keys);
    t.deepEqual(ours.updatedAt, ours.createdAt, keys);
    t.deepEqual(theirs.updatedAt, theirs.createdAt, `create does the same with ${keys}`);
    await ParcelModel.deleteMany({ _id: mongoose.trusted({ $in: [10, 11] }) });
  }
});

test.serial('a document without an _id is refused, as save refuses it, before any command', async (t) => {
  const { commands } = await countDbCommands(() =>
    t.throwsAsync(insertDocument(ParcelModel, { kind: 'box', weightGrams: 1 }), { message: /without an _id/ }),
  );
  t.is(commands.total, 0);
});

test.serial('an invalid document is refused with mongoose ValidationError and no command sent', async (t) => {
  const { result: error, commands } = await countDbCommands(() =>
    insertDocument(ParcelModel, { _id: 3, kind: 'crate', weightGrams: 'heavy', label: 'x'.repeat(21) }).then(
      () => null,
      (e: unknown) => e,
    ),
  );
  t.true(error instanceof mongoose.Error.ValidationError);
  t.deepEqual(Object.keys((error as mongoose.Error.ValidationError).errors).sort(), ['kind', 'label', 'weightGrams']);
  t.is(commands.total, 0);
  t.is(await ParcelModel.countDocuments({ _id: 3 }), 0);
});

test.serial('a second document under the same _id fails with the duplicate-key error, the first kept', async (t) => {
  await insertDocument(ParcelModel, { ...fields(4), label: 'first' });
  const error = await t.throwsAsync(insertDocument(ParcelModel, { ...fields(4), label: 'second' }));
  t.true(isDuplicateKey(error));
  t.is((await ParcelModel.findById(4).lean())?.label, 'first');
});

test.serial(
  'a model with save middleware or a custom validator of its own is refused before any command',
  async (t) => {
    const hooked = new Schema({ _id: Number, name: String }, { collection: 'test_inserts_hooked' });
    hooked.pre('save', function stampName() {
      this.set('name', 'stamped');
    });
    const Hooked = mongoose.model('TestInsertHooked', hooked);
    const nested = new Schema(
      { _id: Number, inner: new Schema({ code: String }) },
      { collection: 'test_inserts_hooked' },
    );
    nested.path('inner').schema!.pre('save', function innerHook() {});
    const Nested = mongoose.model('TestInsertNested', nested);
    const checked = new Schema(
      { _id: Number, code: { type: String, validate: (v: string) => v.startsWith('A') } },
      { collection: 'test_inserts_hooked' },
    );
    const Checked = mongoose.model('TestInsertChecked', checked);
    const validating = new Schema({ _id: Number, name: String }, { collection: 'test_inserts_hooked' });
    validating.pre('validate', function deriveName() {
      this.set('name', 'derived');
    });
    const Validating = mongoose.model('TestInsertValidating', validating);
    const unvalidated = new Schema({ _id: Number }, { collection: 'test_inserts_hooked', validateBeforeSave: false });
    const Unvalidated = mongoose.model('TestInsertUnvalidated', unvalidated);
    const stamped = new Schema(
      { _id: Number, inner: new Schema({ code: String }, { timestamps: true }) },
      { collection: 'test_inserts_hooked' },
    );
    const Stamped = mongoose.model('TestInsertStamped', stamped);
    const Base = mongoose.model('TestInsertBase', new Schema({ _id: Number }, { collection: 'test_inserts_hooked' }));
    Base.discriminator('TestInsertDerived', new Schema({ extra: String }));
    const { commands } = await countDbCommands(async () => {
      const refused = (model: mongoose.Model<never>, doc: Record<string, unknown>, names: string) =>
        t.throwsAsync(insertDocument(model, doc), { message: new RegExp(names) });
      await refused(Hooked as never, { _id: 1, name: 'a' }, 'TestInsertHooked has save middleware stampName');
      await refused(
        Nested as never,
        { _id: 2, inner: { code: 'x' } },
        'TestInsertNested.inner has save middleware innerHook',
      );
      await refused(Checked as never, { _id: 3, code: 'B' }, 'TestInsertChecked.code has a custom validator');
      await refused(Validating as never, { _id: 4 }, 'TestInsertValidating has validate middleware deriveName');
      await refused(
        Unvalidated as never,
        { _id: 5 },
        'TestInsertUnvalidated sets the schema option validateBeforeSave',
      );
      await refused(Stamped as never, { _id: 6, inner: { code: 'x' } }, 'TestInsertStamped.inner has timestamps');
      await refused(Base as never, { _id: 7 }, 'TestInsertBase has discriminators');
    });
    t.is(commands.total, 0);
  },
);

/**
 * Every source file under src/ that defines a model, so a model added later is checked too. Not
 * `import '../../src/web/app'` (how test/query-shapes/check.ts registers models): the app does not
 * register every model (the scheduler's Heartbeat is not among them).
 */
function modelFiles(dir = path.join(__dirname, '../../src')): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return modelFiles(file);
    return entry.name.endsWith('.ts') && fs.readFileSync(file, 'utf8').includes('mongoose.model<') ? [file] : [];
  });
}

test('every model of the service can be inserted by it (no save middleware or validator of its own)', async (t) => {
  for (const file of modelFiles()) await import(file);
  const ours = mongoose.modelNames().filter((name) => !name.startsWith('Test'));
  t.true(ours.length >= 20, `the service's models are registered (${ours.length})`);
  for (const name of ours) t.deepEqual(insertRefusals(mongoose.model(name)), [], name);
});
