/**
 * Database commands counted and timed, from the driver's command monitoring: round trips are what
 * a hot path costs on the store, so /metrics shows them by collection and command, and the bench
 * divides them by the operations it ran.
 *
 * With DB_QUERY_SHAPES_DIR set (the test suite sets it), every filter this process sends is also
 * recorded there, once per shape, with the code that sent it: test/query-shapes checks them all
 * against the declared indexes.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CommandFailedEvent, CommandStartedEvent, CommandSucceededEvent, MongoClient } from 'mongodb';
import { dbCommandDuration, dbCommands } from '../platform/metrics-registry';
import { filterShapesOf, type FilterShape } from './query-shapes';

interface Pending {
  collection: string;
  command: string;
}

const monitored = new WeakSet<MongoClient>();

/** The collection a command addresses: the value of its first key, or a getMore's `collection`. */
function collectionOf(event: CommandStartedEvent): string {
  const command = event.command as Record<string, unknown>;
  const target = event.commandName === 'getMore' ? command.collection : command[event.commandName];
  return typeof target === 'string' ? target : '-';
}

export function monitorCommands(client: MongoClient): void {
  if (monitored.has(client)) return;
  monitored.add(client);
  const pending = new Map<number, Pending>();
  const shapes = process.env.DB_QUERY_SHAPES_DIR ? shapeRecorder(process.env.DB_QUERY_SHAPES_DIR) : undefined;
  client.on('commandStarted', (event: CommandStartedEvent) => {
    const collection = collectionOf(event);
    pending.set(event.requestId, { collection, command: event.commandName });
    shapes?.(event, collection);
  });
  const finish = (event: CommandSucceededEvent | CommandFailedEvent, outcome: 'ok' | 'error') => {
    const started = pending.get(event.requestId);
    pending.delete(event.requestId);
    const labels = { collection: started?.collection ?? '-', command: event.commandName };
    dbCommands.inc({ ...labels, outcome });
    dbCommandDuration.observe(labels, event.duration / 1000);
  };
  client.on('commandSucceeded', (event) => finish(event, 'ok'));
  client.on('commandFailed', (event) => finish(event, 'error'));
}

/** The first frame of our own code in the stack of the call that sent the command. */
function codePath(): string {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 60;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  const root = path.resolve(__dirname, '..', '..') + path.sep;
  for (const line of stack.split('\n').slice(1)) {
    const match = /\(?((?:\/|[A-Za-z]:\\)[^():]+):(\d+):\d+\)?$/.exec(line.trim());
    if (!match || !match[1].startsWith(root)) continue;
    const file = match[1].slice(root.length);
    if (file.startsWith('node_modules') || file.startsWith(`src${path.sep}db${path.sep}monitoring`)) continue;
    return `${file}:${match[2]}`;
  }
  return 'unknown';
}

function shapeRecorder(dir: string): (event: CommandStartedEvent, collection: string) => void {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${process.pid}.jsonl`);
  const seen = new Set<string>();
  return (event, collection) => {
    for (const shape of filterShapesOf(event.commandName, event.command)) {
      const from = codePath();
      const key = `${collection}|${shape.command}|${shape.equality.join(',')}|${shape.other.join(',')}|${from}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const record: FilterShape & { collection: string; from: string } = { collection, ...shape, from };
      fs.appendFileSync(file, `${JSON.stringify(record)}\n`);
    }
  };
}
