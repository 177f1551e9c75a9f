/**
 * MongoDB (FerretDB locally) through mongoose's default connection. Commands are not buffered:
 * when the database is down a request fails fast and is answered 503 instead of hanging.
 */
import mongoose from 'mongoose';
import { getConfig } from '../../config';
import { logger } from '../platform/logger';
import { ensureCompanionIndexes, type IndexedFields } from './companion-indexes';
import { monitorCommands } from './monitoring';

mongoose.set('bufferCommands', false);
mongoose.set('strictQuery', true);
// No stack captured at every query (2-2.4% of the web process's CPU, profiled on GET /me); it only
// served the message of a query executed twice, a bug our tests would show anyway.
mongoose.set('skipOriginalStackTraces', true);
// Collections and indexes are created once connected (ensureIndexes), not when a model is compiled.
mongoose.set('autoCreate', false);
mongoose.set('autoIndex', false);
// Operator injection ({"$gt": ""}) never reaches a query: filters are cast to the schema types. (The
// driver-level reads of src/db/reads.ts refuse any non-scalar value instead.)
mongoose.set('sanitizeFilter', true);

export async function connectDatabase(uri: string): Promise<typeof mongoose> {
  // monitorCommands: every command is counted and timed by collection (src/db/monitoring.ts).
  await mongoose.connect(uri, {
    serverSelectionTimeoutMS: 3000,
    connectTimeoutMS: 3000,
    socketTimeoutMS: 30000,
    maxPoolSize: 20,
    monitorCommands: true,
  });
  monitorCommands(mongoose.connection.getClient());
  await ensureIndexes();
  return mongoose;
}

/**
 * Creates every registered model's collection and indexes (unique indexes are our concurrency
 * guards), then the store's companion indexes derived from them. DDL is slow on FerretDB (about
 * 100 ms a collection) and every process runs this at start, so what exists is read first, in
 * parallel, and only what is missing is created.
 */
export async function ensureIndexes(): Promise<void> {
  const models = mongoose.modelNames().map((name) => mongoose.model(name));
  const existing = await Promise.all(
    models.map((model) =>
      model.collection
        .listIndexes()
        .toArray()
        .then((indexes) => new Set(indexes.map((index) => JSON.stringify(index.key))))
        .catch((error: { code?: number }) => {
          if (error.code === 26) return null; // NamespaceNotFound: the collection does not exist yet
          throw error;
        }),
    ),
  );
  for (const [i, model] of models.entries()) {
    const present = existing[i];
    if (!present) {
      await model.createCollection().catch((error: { code?: number }) => {
        if (error.code !== 48) throw error; // NamespaceExists: another process created it first
      });
    }
    if (!present || model.schema.indexes().some(([keys]) => !present.has(JSON.stringify(keys))))
      await model.createIndexes();
  }
  await ensureStoreCompanionIndexes();
}

/**
 * The top-level fields of every declared index, per collection, `_id` included: the lookups the
 * store must answer from an index. Dotted paths are left out (FerretDB does not push them down).
 */
export function declaredIndexFields(): IndexedFields {
  const fields: IndexedFields = new Map();
  for (const name of mongoose.modelNames()) {
    const model = mongoose.model(name);
    const set = new Set(['_id']);
    for (const [keys] of model.schema.indexes())
      for (const key of Object.keys(keys)) if (!key.includes('.')) set.add(key);
    fields.set(model.collection.collectionName, [...set]);
  }
  return fields;
}

/** The companion indexes of src/db/companion-indexes.ts; a store they do not apply to is logged once per process. */
export async function ensureStoreCompanionIndexes(): Promise<void> {
  const db = mongoose.connection.db;
  if (!db) return;
  const outcome = await ensureCompanionIndexes(db, getConfig().ferretdb.postgresqlUrl, declaredIndexFields());
  if (outcome.status === 'not-this-postgresql' && !warnedAboutScans) {
    warnedAboutScans = true;
    logger.warn(
      { reason: outcome.reason },
      'FerretDB lookups scan whole collections: its companion indexes could not be made (FERRETDB_POSTGRESQL_URL)',
    );
  } else if (outcome.status === 'ensured' && outcome.created.length) {
    logger.info({ created: outcome.created.length }, 'companion indexes created in PostgreSQL');
  }
}
let warnedAboutScans = false;

export async function databaseAnswers(): Promise<boolean> {
  const db = mongoose.connection.db;
  if (!db || mongoose.connection.readyState !== 1) return false;
  try {
    await db.admin().command({ ping: 1 }, { timeoutMS: 1500 } as never);
    return true;
  } catch {
    return false;
  }
}

export async function disconnectDatabase(): Promise<void> {
  await mongoose.disconnect();
}
