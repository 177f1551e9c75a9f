/**
 * The shape of a filter: which top-level fields it matches by equality (what FerretDB pushes down
 * to an index, and what a MongoDB index prefix serves) and which it filters otherwise (ranges,
 * $in, $ne, null, nested paths: filtered after reading).
 */
import type { Document } from 'mongodb';

export interface FilterShape {
  command: string;
  equality: string[];
  other: string[];
}

function isScalar(value: unknown): boolean {
  if (value === null || value === undefined) return false; // null also matches a missing field: not pushed down
  if (typeof value !== 'object') return true;
  if (value instanceof Date) return true;
  const bsonType = (value as { _bsontype?: string })._bsontype;
  return bsonType !== undefined && bsonType !== 'Binary';
}

/** Splits one filter document into equality and other fields, following $and. */
export function shapeOfFilter(filter: Document | undefined): { equality: string[]; other: string[] } {
  const equality = new Set<string>();
  const other = new Set<string>();
  const visit = (doc: Document) => {
    for (const [key, value] of Object.entries(doc)) {
      if (key === '$and' && Array.isArray(value)) {
        for (const part of value) visit(part as Document);
      } else if (key.startsWith('$')) {
        other.add(key);
      } else if (key.includes('.')) {
        other.add(key);
      } else if (isScalar(value)) {
        equality.add(key);
      } else if (
        value &&
        typeof value === 'object' &&
        !Array.isArray(value) &&
        Object.keys(value).length === 1 &&
        isScalar((value as Document).$eq)
      ) {
        equality.add(key);
      } else {
        other.add(key);
      }
    }
  };
  if (filter) visit(filter);
  return { equality: [...equality].sort(), other: [...other].sort() };
}

/** The filters a command carries (an update or delete may carry several); none for inserts and the like. */
export function filterShapesOf(commandName: string, command: Document): FilterShape[] {
  const one = (filter: Document | undefined, name = commandName) => ({ command: name, ...shapeOfFilter(filter) });
  switch (commandName) {
    case 'find':
      return [one(command.filter)];
    case 'count':
    case 'distinct':
    case 'findAndModify':
      return [one(command.query)];
    case 'update':
      return ((command.updates ?? []) as Document[]).map((u) => one(u.q));
    case 'delete':
      return ((command.deletes ?? []) as Document[]).map((d) => one(d.q));
    case 'aggregate': {
      const first = (command.pipeline as Document[] | undefined)?.[0];
      return [one(first?.$match)];
    }
    default:
      return [];
  }
}
