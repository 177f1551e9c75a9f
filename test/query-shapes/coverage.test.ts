import test from 'ava';
import { filterShapesOf, shapeOfFilter } from '../instrumentation/query-shapes';
import { checkShapes, type RecordedShape } from './coverage';

const leaders = new Map([['online_sales', new Set(['_id', 'merchantId', 'status'])]]);
const shape = (equality: string[], other: string[] = [], from = 'src/sales/service.ts:10'): RecordedShape => ({
  collection: 'online_sales',
  command: 'find',
  equality,
  other,
  from,
});

test('equality fields are told from ranges, $in, null and dotted paths', (t) => {
  t.deepEqual(
    shapeOfFilter({
      _id: 7,
      status: { $eq: 'PAID' },
      createdAt: { $lt: new Date() },
      kind: { $in: ['a'] },
      appliedAt: null,
      'pix.id': 'x',
    }),
    {
      equality: ['_id', 'status'],
      other: ['appliedAt', 'createdAt', 'kind', 'pix.id'],
    },
  );
  t.deepEqual(shapeOfFilter({ $and: [{ merchantId: 1 }, { $or: [{ a: 1 }] }] }), {
    equality: ['merchantId'],
    other: ['$or'],
  });
});

test('every filter of a command is shaped: updates and deletes may carry several', (t) => {
  t.deepEqual(
    filterShapesOf('update', { update: 'online_sales', updates: [{ q: { _id: 1 } }, { q: { note: 'x' } }] }).map(
      (s) => s.equality,
    ),
    [['_id'], ['note']],
  );
  t.deepEqual(filterShapesOf('insert', { insert: 'online_sales', documents: [] }), []);
  t.deepEqual(
    filterShapesOf('findAndModify', { findAndModify: 'online_sales', query: { merchantId: 3 } })[0].equality,
    ['merchantId'],
  );
});

test('a filter with an equality on an index leader passes; one without fails, naming it', (t) => {
  const verdict = checkShapes([shape(['merchantId', 'note']), shape(['note'], ['createdAt'])], leaders, []);
  t.is(verdict.checked, 2);
  t.deepEqual(verdict.uncovered, [shape(['note'], ['createdAt'])]);
});

test('test code and collections that are no model are not checked; an allowed scan passes', (t) => {
  const allowed = [
    { collection: 'online_sales', from: 'src/sales/service.ts', equality: [], other: ['createdAt'], why: 'sweep' },
  ];
  const verdict = checkShapes(
    [
      shape([], ['createdAt']),
      shape(['note'], [], 'test/sales/card.test.ts:3'),
      { ...shape(['x']), collection: 'bench_things' },
    ],
    leaders,
    allowed,
  );
  t.is(verdict.checked, 1);
  t.deepEqual(verdict.uncovered, []);
  t.is(verdict.allowedUsed.size, 1);
});
