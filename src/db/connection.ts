/**
 * MongoDB (FerretDB locally) through mongoose's default connection. Commands are not buffered:
 * when the database is down a request fails fast and is answered 503 instead of hanging.
 */
import mongoose from 'mongoose';

mongoose.set('bufferCommands', false);
mongoose.set('strictQuery', true);
// Collections and indexes are created once connected (ensureIndexes), not when a model is compiled.
mongoose.set('autoCreate', false);
mongoose.set('autoIndex', false);
// Operator injection ({"$gt": ""}) never reaches a query: filters are cast to the schema types.
mongoose.set('sanitizeFilter', true);

export async function connectDatabase(uri: string): Promise<typeof mongoose> {
  await mongoose.connect(uri, { serverSelectionTimeoutMS: 3000, connectTimeoutMS: 3000, socketTimeoutMS: 30000, maxPoolSize: 20 });
  await ensureIndexes();
  return mongoose;
}

/** Creates every registered model's indexes; unique indexes are our concurrency guards. */
export async function ensureIndexes(): Promise<void> {
  for (const name of mongoose.modelNames()) await mongoose.model(name).createIndexes();
}

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

/** Duplicate key on insert. FerretDB gives code 11000 without keyValue, so only the code is checked. */
export function isDuplicateKey(error: unknown): boolean {
  const e = error as { code?: number; writeErrors?: { code?: number }[] };
  return e?.code === 11000 || Boolean(e?.writeErrors?.some((w) => w.code === 11000));
}
