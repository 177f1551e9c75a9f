/**
 * The recorders hook in from outside the service (test/instrumentation/preload.cjs subscribes them to what
 * src/db/monitoring.ts and src/web/app.ts publish): a filter this file sends is recorded with the line that sent it.
 */
import '../helpers/env';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import mongoose from 'mongoose';
import { connectDatabase, disconnectDatabase } from '../../src/db/connection';
import { COMMAND_STARTED_CHANNEL } from '../../src/db/monitoring';
import { ROUTE_REQUEST_CHANNEL } from '../../src/web/app';
import { readShapes } from './coverage';
// Outside npm test no process preloads the recorders: this file loads them itself.
import '../instrumentation/preload.cjs';

// This file's filters go to its own directory, read below; under npm test the suite's would not show them here.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'query-shapes-'));
process.env.DB_QUERY_SHAPES_DIR = dir;

test.before(() => connectDatabase(process.env.MONGODB_URI!));
test.after.always(async () => {
  await disconnectDatabase();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('a filter sent through the monitored client is recorded with its shape and the line that sent it', async (t) => {
  const line = new Error().stack!.split('\n')[1].match(/:(\d+):\d+\)?$/)![1];
  await mongoose.connection.collection('recording_probe').findOne({ probeId: 7, at: { $gt: 1 } });
  const from = `test${path.sep}query-shapes${path.sep}recording.test.ts:${Number(line) + 1}`;
  t.deepEqual(
    readShapes(dir).filter((shape) => shape.collection === 'recording_probe'),
    [{ collection: 'recording_probe', command: 'find', equality: ['probeId'], other: ['at'], from }],
  );
});

test('the preload subscribes to the channels the service publishes on', (t) => {
  const preload = fs.readFileSync(path.join(__dirname, '..', 'instrumentation', 'preload.cjs'), 'utf8');
  t.true(preload.includes(`'${COMMAND_STARTED_CHANNEL}'`));
  t.true(preload.includes(`'${ROUTE_REQUEST_CHANNEL}'`));
});
