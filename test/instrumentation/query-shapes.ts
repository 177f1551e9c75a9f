/**
 * The shape of a filter: which top-level fields it matches by equality (what FerretDB pushes down
 * to an index, and what a MongoDB index prefix serves) and which it filters otherwise (ranges,
 * $in, $ne, null, nested paths: filtered after reading).
 *
 * With DB_QUERY_SHAPES_DIR set (the test suite sets it) and this recorder subscribed
 * (test/instrumentation/preload.cjs), every filter the process sends is recorded there, once per
 * shape, with the code that sent it: test/query-shapes/check.ts checks them all against the declared
 * indexes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { SourceMap } from 'node:module';
import type { CommandStartedEvent, Document } from 'mongodb';

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

/** Frames of the recording itself, skipped when naming the code that sent a command. */
const RECORDING_FILES = [path.join('src', 'db', 'monitoring'), path.join('test', 'instrumentation')];

/**
 * npm test's build (TEST_BUILD_DIR): a process compiled there names its code by the compiled file and line;
 * the source map beside it gives the TypeScript file and line, which the allow-list and a reader know.
 */
const BUILD_DIR = process.env.TEST_BUILD_DIR;
const PROJECT_ROOT =
  BUILD_DIR && __dirname.startsWith(BUILD_DIR + path.sep)
    ? path.resolve(BUILD_DIR, '..', '..')
    : path.resolve(__dirname, '..', '..');
const sourceMaps = new Map<string, SourceMap | null>();

/** `src/x.ts:line` of a compiled frame of the build (`.js`, 1-based line and column), by its source map. */
function sourceLine(compiled: string, line: number, column: number): string {
  let map = sourceMaps.get(compiled);
  if (map === undefined) {
    try {
      map = new SourceMap(JSON.parse(fs.readFileSync(`${compiled}.map`, 'utf8')));
    } catch {
      map = null;
    }
    sourceMaps.set(compiled, map);
  }
  const file = path.relative(BUILD_DIR!, compiled).replace(/\.js$/, '.ts');
  const entry = map?.findEntry(line - 1, column - 1) as { originalLine?: number } | undefined;
  return `${file}:${entry?.originalLine !== undefined ? entry.originalLine + 1 : line}`;
}

/** The frames of our own code in the stack of the call that sent the command, innermost first, as `file:line`. */
function ourFrames(): string[] {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 60;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  const root = PROJECT_ROOT + path.sep;
  const frames: string[] = [];
  for (const line of stack.split('\n').slice(1)) {
    const match = /\(?((?:\/|[A-Za-z]:\\)[^():]+):(\d+):(\d+)\)?$/.exec(line.trim());
    if (!match || !match[1].startsWith(root)) continue;
    const compiled = BUILD_DIR && match[1].startsWith(BUILD_DIR + path.sep);
    const file = compiled ? path.relative(BUILD_DIR, match[1]) : match[1].slice(root.length);
    if (file.startsWith('node_modules') || RECORDING_FILES.some((recording) => file.startsWith(recording))) continue;
    frames.push(compiled ? sourceLine(match[1], Number(match[2]), Number(match[3])) : `${file}:${match[2]}`);
  }
  return frames;
}

/** The first frame of our own code in the stack of the call that sent the command. */
const codePath = (frames = ourFrames()): string => frames[0] ?? 'unknown';

/** Commands that write documents: their writer is recorded, for the rule on who writes a payment's collections. */
const WRITE_COMMANDS = new Set(['insert', 'update', 'delete', 'findAndModify']);

/** The store's generic write helpers: they write for the code that called them. */
const GENERIC_WRITE_HELPERS = ['src/db/claims.ts', 'src/db/inserts.ts'].map((file) => file.split('/').join(path.sep));

/** The file that wrote: the innermost frame of our code but the generic write helpers. */
export function writerOf(frames: string[]): string {
  const files = frames.map((frame) => frame.replace(/:\d+$/, ''));
  return files.find((file) => !GENERIC_WRITE_HELPERS.includes(file)) ?? files[0] ?? 'unknown';
}

export interface RecordedWrite {
  collection: string;
  command: string;
  writer: string;
}

/** What a process records of its writes, beside its filter shapes, in DB_QUERY_SHAPES_DIR. */
export const WRITES_SUFFIX = '.writes.jsonl';

/** Per directory, the shapes this process recorded there, each with the code that sent it. */
const seen = new Map<string, Set<string>>();

/** Records the filter shapes of one command (published by src/db/monitoring.ts) it has not recorded before. */
export function recordShape({ event, collection }: { event: CommandStartedEvent; collection: string }): void {
  const dir = process.env.DB_QUERY_SHAPES_DIR;
  if (!dir) return;
  const recorded = seen.get(dir) ?? new Set<string>();
  seen.set(dir, recorded);
  const shapes = filterShapesOf(event.commandName, event.command);
  const writes = WRITE_COMMANDS.has(event.commandName);
  if (!shapes.length && !writes) return;
  const frames = ourFrames();
  if (writes) {
    const write: RecordedWrite = { collection, command: event.commandName, writer: writerOf(frames) };
    const key = `write|${write.collection}|${write.command}|${write.writer}`;
    if (!recorded.has(key)) {
      recorded.add(key);
      fs.mkdirSync(dir, { recursive: true });
      fs.appendFileSync(path.join(dir, `${process.pid}${WRITES_SUFFIX}`), `${JSON.stringify(write)}\n`);
    }
  }
  for (const shape of shapes) {
    const from = codePath(frames);
    const key = `${collection}|${shape.command}|${shape.equality.join(',')}|${shape.other.join(',')}|${from}`;
    if (recorded.has(key)) continue;
    recorded.add(key);
    const record: FilterShape & { collection: string; from: string } = { collection, ...shape, from };
    fs.mkdirSync(dir, { recursive: true });
    fs.appendFileSync(path.join(dir, `${process.pid}.jsonl`), `${JSON.stringify(record)}\n`);
  }
}
