/**
 * The one way this project inserts a new document: `insertDocument(model, fields)` stores what
 * `model.create(fields)` would (cast, defaults, timestamps, validated, the same error when invalid),
 * with one driver call.
 *
 * Why not `create`: it runs the document through `save()`, whose middleware chain, change tracking
 * and reset cost about 0.25 ms of CPU per insert (measured 2026-11-26 on the chargeback notice
 * intake: 1.24 ms of web CPU per notice with `create`, 0.99 ms with this, the same document
 * stored). On two shared cores that CPU is throughput.
 *
 * What `save()` would do that this does not: run middleware. Mongoose gives every schema save
 * middleware of its own (MONGOOSE_OWN_HOOKS, known by name: done here, or nothing to do for a new
 * document outside a session). A model this would store differently from `create` is refused on
 * its first insert: save or validate middleware of its own, a custom validator (validateSync skips
 * async ones), discriminators, or the schema options validateBeforeSave and writeConcern; a test
 * runs the check over every model in src/. The check reads mongoose's hook lists, which its typings
 * do not show (mongoose 8).
 */
import type { HydratedDocument, Model, Schema } from 'mongoose';

/** Middleware mongoose adds to every schema (all of it save middleware), and what becomes of it here. */
const MONGOOSE_OWN_HOOKS = new Set([
  'validateBeforeSave', // validateSync below
  'timestampsPreSave', // stampNew below (a subdocument's timestamps are refused)
  'saveSubdocsPreSave', // runs subdocuments' own save middleware: the check below refuses any
  'saveSubdocsPostSave',
  'saveSubdocsPostDeleteOne',
  'shardingPluginPreSave', // remembers an existing document's shard key: a new one has none
  'shardingPluginPostSave',
  'trackTransactionPreSave', // sessions: this path takes none
]);

/** Kareem's hook lists (mongoose's own middleware engine); not in mongoose's typings. */
interface HookLists {
  _pres: Map<string, Array<{ fn: (...args: unknown[]) => unknown }>>;
  _posts: Map<string, Array<{ fn: (...args: unknown[]) => unknown }>>;
}

/** Why `save()` would do more for this schema than insertDocument does, or nothing. */
function schemaRefusals(schema: Schema, where: string, nested = false): string[] {
  const hooks = (schema as unknown as { s: { hooks: HookLists } }).s.hooks;
  const problems: string[] = [];
  for (const kind of ['save', 'validate']) {
    for (const hook of [...(hooks._pres.get(kind) ?? []), ...(hooks._posts.get(kind) ?? [])])
      if (!MONGOOSE_OWN_HOOKS.has(hook.fn.name))
        problems.push(`${where} has ${kind} middleware ${hook.fn.name || '(anonymous)'}`);
  }
  // save() would skip validation, or write with another write concern.
  if (schema.get('validateBeforeSave') === false) problems.push(`${where} sets the schema option validateBeforeSave`);
  if (schema.get('writeConcern') !== undefined) problems.push(`${where} sets the schema option writeConcern`);
  if (nested && schema.get('timestamps')) problems.push(`${where} has timestamps of its own`);
  schema.eachPath((path, type) => {
    if (type.validators.some((validator: { type?: string }) => validator.type === 'user defined'))
      problems.push(`${where}.${path} has a custom validator`);
  });
  for (const child of schema.childSchemas)
    problems.push(...schemaRefusals(child.schema, `${where}.${child.model.path}`, true));
  return problems;
}

/** Any model: only its schema is read. */
type AnyModel = Model<any>;

const insertable = new WeakSet<AnyModel>();

/** Why insertDocument would refuse this model (it would store less than `create` does), or nothing. */
export function insertRefusals(model: AnyModel): string[] {
  const problems = schemaRefusals(model.schema, model.modelName);
  if (model.discriminators) problems.push(`${model.modelName} has discriminators`);
  return problems;
}

function assertInsertable(model: AnyModel): void {
  if (insertable.has(model)) return;
  const problems = insertRefusals(model);
  if (problems.length)
    throw new Error(`insertDocument cannot stand for create on ${model.modelName}: ${problems.join('; ')}`);
  insertable.add(model);
}

/**
 * Timestamps as save() sets them on a new document (mongoose's setDocumentTimestamps): createdAt
 * kept if given, else now; updatedAt equal to createdAt (given or not); either alone, now if missing.
 */
function stampNew(
  model: AnyModel,
  document: { get(path: string): unknown; set(path: string, value: unknown): unknown },
): void {
  const paths = (model.schema as unknown as { $timestamps?: { createdAt?: string | null; updatedAt?: string | null } })
    .$timestamps;
  if (!paths) return;
  const now = new Date();
  if (paths.createdAt && !document.get(paths.createdAt)) document.set(paths.createdAt, now);
  if (paths.updatedAt) document.set(paths.updatedAt, paths.createdAt ? document.get(paths.createdAt) : now);
}

/**
 * Inserts a new document built from `fields` as `model.create(fields)` would, and returns it as
 * stored (what `create(...).toObject()` gives). Throws mongoose's ValidationError when invalid,
 * with no command sent, and the driver's error when the insert fails (a duplicate key among them).
 */
export async function insertDocument<T>(model: Model<T>, fields: Partial<T> | Record<string, unknown>): Promise<T> {
  const stored = storedForm(model, fields);
  await model.collection.insertOne(stored as never);
  return stored as T;
}

/** The document `create(fields)` would store: cast, defaulted, validated (throws when invalid), stamped. */
function storedForm<T>(model: Model<T>, fields: Partial<T> | Record<string, unknown>): Record<string, unknown> {
  assertInsertable(model);
  const document = new model(fields) as HydratedDocument<T>;
  const invalid = document.validateSync();
  if (invalid) throw invalid;
  stampNew(model, document);
  const stored = document.toBSON() as Record<string, unknown>;
  // As save() refuses it; the driver would otherwise store an ObjectId the schema never declared.
  if (stored._id === undefined) throw new Error(`insertDocument: a ${model.modelName} without an _id`);
  const versionKey = model.schema.get('versionKey');
  if (typeof versionKey === 'string') stored[versionKey] = 0;
  return stored;
}

/**
 * Several new documents in one command, unordered (each stands or falls alone), each stored as
 * insertDocument stores one: the stored documents, null for each one whose write error `refusable`
 * accepts (claims.ts createEachOnce: a duplicate key). Any other write error throws (the others may
 * be stored).
 */
export async function insertDocuments<T>(
  model: Model<T>,
  fieldsList: (Partial<T> | Record<string, unknown>)[],
  refusable: (writeError: unknown) => boolean,
): Promise<(T | null)[]> {
  const documents: (T | null)[] = fieldsList.map((fields) => storedForm(model, fields) as T);
  if (!documents.length) return documents;
  try {
    await model.collection.insertMany(documents as never[], { ordered: false });
  } catch (error) {
    const failed = (error as { writeErrors?: unknown }).writeErrors;
    const writeErrors = (Array.isArray(failed) ? failed : failed ? [failed] : []) as { index: number }[];
    if (!writeErrors.length || !writeErrors.every(refusable)) throw error;
    for (const writeError of writeErrors) documents[writeError.index] = null;
  }
  return documents;
}
