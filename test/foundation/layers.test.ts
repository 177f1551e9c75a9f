/**
 * One direction through the house (docs/architecture.md): config, then the platform floor, then
 * stores and the route kit, then job definitions, then the areas, then the job processors, then
 * the web and the other entry points. An import may point down or across its floor, never up, and
 * no two files or folders may import each other, even through others.
 */
import test from 'ava';
import { circles, folderGraph, readImportGraph, upwardImports, type Floor, type Graph } from '../helpers/import-graph';
import { ROOT } from '../helpers/processes';

/** From the ground up. */
const FLOORS: Floor[] = [
  { name: 'config', paths: ['config'] },
  { name: 'platform', paths: ['src/platform'] },
  { name: 'stores and route kit', paths: ['src/db', 'src/queue', 'src/acquirer', 'src/http'] },
  { name: 'job definitions', paths: ['jobs'] },
  {
    name: 'areas',
    paths: [
      'src/merchants',
      'src/auth',
      'src/cards',
      'src/payments',
      'src/contacts',
      'src/customers',
      'src/webhooks',
      'src/events',
      'src/payment-links',
      'src/checkout',
      'src/sales',
      'src/refunds',
      'src/subscriptions',
      'src/chargebacks',
      'src/health',
      'src/metrics',
    ],
  },
  { name: 'job processors', paths: ['jobs/processors'] },
  { name: 'entry points', paths: ['src/web', 'src/acquirer/sandbox', 'src/devstack'] },
  { name: 'processes', paths: ['workers'] },
];

const service = readImportGraph(ROOT, ['src', 'jobs', 'workers', 'config']);
const client = readImportGraph(ROOT, ['clients/typescript/src', 'clients/typescript/scripts']);

test('the graph is read: every floor has files, and imports between them are seen', (t) => {
  t.true(service.size > 100);
  t.true(service.get('src/web/app.ts')!.size > 5);
  t.true([...service.get('jobs/processors/heartbeat.ts')!].includes('jobs/heartbeat.ts'));
});

test('no two files import each other, even through others', (t) => {
  t.deepEqual(circles(service), []);
  t.deepEqual(circles(client), []);
});

test('no two folders import each other, even through others', (t) => {
  t.deepEqual(circles(folderGraph(service)), []);
  t.deepEqual(circles(folderGraph(client)), []);
});

test('every import points down or across its floor, and every file has a floor', (t) => {
  const { upward, unplaced } = upwardImports(service, FLOORS);
  t.deepEqual(upward, []);
  t.deepEqual(unplaced, []);
});

const graphOf = (edges: Record<string, string[]>): Graph =>
  new Map(Object.entries(edges).map(([file, targets]) => [file, new Set(targets)]));

test('the checks find a circle, a folder circle and an upward import when there is one', (t) => {
  t.deepEqual(circles(graphOf({ a: ['b'], b: ['c'], c: ['a'], d: ['a'] })), [['a', 'b', 'c']]);
  const folders = graphOf({ 'src/x/a.ts': ['src/y/b.ts'], 'src/y/b.ts': ['src/y/c.ts'], 'src/y/c.ts': ['src/x/d.ts'] });
  t.deepEqual(circles(folderGraph(folders)), [['src/x', 'src/y']]);
  const upward = upwardImports(graphOf({ 'src/platform/logger.ts': ['src/web/app.ts'], 'lost.ts': [] }), FLOORS);
  t.deepEqual(upward.upward, ['src/platform/logger.ts (platform) -> src/web/app.ts (entry points)']);
  t.deepEqual(upward.unplaced, ['lost.ts']);
});
