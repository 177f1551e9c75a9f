/**
 * Which recorded filters the declared indexes do not serve. A filter is served when it matches by
 * equality on `_id` or on the first field of one of its collection's declared indexes: then a real
 * MongoDB reads an index, and FerretDB on PostgreSQL reads that field's companion GIN index.
 * Filters sent from test code are not checked (they are not a code path of the service); a
 * deliberate scan of service code is on the allow-list beside this file, with its reason.
 */
import fs from 'node:fs';
import path from 'node:path';
import mongoose from 'mongoose';
import { WRITES_SUFFIX, type FilterShape, type RecordedWrite } from '../instrumentation/query-shapes';
import { ALLOWED_SCANS, type AllowedScan } from './allow-list';

export interface RecordedShape extends FilterShape {
  collection: string;
  from: string;
}

/** Collection -> the first field of each declared index, `_id` included. */
export function indexLeaders(): Map<string, Set<string>> {
  const leaders = new Map<string, Set<string>>();
  for (const name of mongoose.modelNames()) {
    const model = mongoose.model(name);
    const set = new Set(['_id']);
    for (const [keys] of model.schema.indexes()) set.add(Object.keys(keys)[0]);
    leaders.set(model.collection.collectionName, set);
  }
  return leaders;
}

/** Each distinct record of the files of `dir` that `pick` chooses. */
function readRecords<T>(dir: string, pick: (file: string) => boolean): T[] {
  if (!fs.existsSync(dir)) return [];
  const seen = new Map<string, T>();
  for (const file of fs.readdirSync(dir).filter(pick)) {
    for (const line of fs.readFileSync(path.join(dir, file), 'utf8').split('\n')) {
      if (line.trim()) seen.set(line, JSON.parse(line) as T);
    }
  }
  return [...seen.values()];
}

export const readShapes = (dir: string): RecordedShape[] =>
  readRecords(dir, (file) => file.endsWith('.jsonl') && !file.endsWith(WRITES_SUFFIX));

export const readWrites = (dir: string): RecordedWrite[] => readRecords(dir, (file) => file.endsWith(WRITES_SUFFIX));

function fileOf(from: string): string {
  return from.replace(/:\d+$/, '');
}

export function isAllowed(
  shape: RecordedShape,
  allowed: readonly AllowedScan[] = ALLOWED_SCANS,
): AllowedScan | undefined {
  return allowed.find(
    (a) =>
      a.collection === shape.collection &&
      a.from === fileOf(shape.from) &&
      JSON.stringify([...a.equality].sort()) === JSON.stringify(shape.equality) &&
      JSON.stringify([...a.other].sort()) === JSON.stringify(shape.other),
  );
}

export interface Verdict {
  checked: number;
  uncovered: RecordedShape[];
  allowedUsed: Set<AllowedScan>;
}

export function checkShapes(
  shapes: RecordedShape[],
  leaders = indexLeaders(),
  allowed: readonly AllowedScan[] = ALLOWED_SCANS,
): Verdict {
  const uncovered: RecordedShape[] = [];
  const allowedUsed = new Set<AllowedScan>();
  let checked = 0;
  for (const shape of shapes) {
    const indexed = leaders.get(shape.collection);
    // Test code, and collections that are no model of ours (the bench's, BullMQ keeps none here), are not service
    // paths.
    if (!indexed || shape.from.startsWith('test/')) continue;
    checked++;
    if (shape.equality.some((field) => indexed.has(field))) continue;
    const allowance = isAllowed(shape, allowed);
    if (allowance) allowedUsed.add(allowance);
    else uncovered.push(shape);
  }
  return { checked, uncovered, allowedUsed };
}

export function describe(shape: RecordedShape): string {
  const filter = [...shape.equality.map((f) => `${f}: =`), ...shape.other.map((f) => `${f}: ...`)].join(', ');
  return `${shape.collection} ${shape.command} {${filter}} from ${shape.from}`;
}
