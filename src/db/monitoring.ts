/**
 * Database commands counted and timed, from the driver's command monitoring: round trips are what
 * a hot path costs on the store, so /metrics shows them by collection and command, and the bench
 * divides them by the operations it ran.
 *
 * Every command is also published on COMMAND_STARTED_CHANNEL, synchronously in the stack of the code
 * that sent it: npm test records each filter's shape from there (test/instrumentation/query-shapes.ts)
 * to check it against the declared indexes. Without a subscriber nothing is published.
 */
import diagnosticsChannel from 'node:diagnostics_channel';
import type { CommandFailedEvent, CommandStartedEvent, CommandSucceededEvent, MongoClient } from 'mongodb';
import { dbCommandDuration, dbCommands } from '../platform/metrics-registry';

/** The name of the channel a command is published on, as `{ event, collection }`. */
export const COMMAND_STARTED_CHANNEL = 'payments:db:command-started';
const commandStarted = diagnosticsChannel.channel(COMMAND_STARTED_CHANNEL);

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
  client.on('commandStarted', (event: CommandStartedEvent) => {
    const collection = collectionOf(event);
    pending.set(event.requestId, { collection, command: event.commandName });
    if (commandStarted.hasSubscribers) commandStarted.publish({ event, collection });
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
