/**
 * After the suite: every filter our service code sent (recorded by test/instrumentation/query-shapes.ts in
 * DB_QUERY_SHAPES_DIR) must be served by a declared index or be an allowed scan.
 *   node --import tsx test/query-shapes/check.ts <dir> [full]
 * With `full` (the whole suite ran), recording nothing at all is a failure too.
 * Every write of a payment's collections must come from src/payments or a file test/payments/writers.ts lists.
 * Exit 1, naming each uncovered filter shape and the code that sent it, and each write by code that may not write.
 */
import '../../src/web/app'; // registers every model, so every declared index is known
import { ALLOWED_SCANS } from './allow-list';
import { checkShapes, describe, readShapes, readWrites } from './coverage';
import { unattributedWrites, unlawfulWrites } from '../payments/writers';

const dir = process.argv[2] || process.env.DB_QUERY_SHAPES_DIR;
if (!dir) throw new Error('usage: check.ts <dir of recorded filter shapes>');
const shapes = readShapes(dir);
const verdict = checkShapes(shapes);
const unused = ALLOWED_SCANS.filter((a) => !verdict.allowedUsed.has(a));
process.stdout.write(
  `query shapes: ${verdict.checked} filter shapes of service code checked, ${verdict.allowedUsed.size} allowed ` +
    `scans seen\n`,
);
for (const a of unused)
  process.stdout.write(`  note: allowed scan not seen in this run: ${a.collection} from ${a.from}\n`);
const writes = readWrites(dir);
const unlawful = unlawfulWrites(writes);
process.stdout.write(
  `payment writers: ${writes.length} writers of collections recorded, ` +
    `${unattributedWrites(writes).length} writes of a payment's collections not told to a file\n`,
);
if (unlawful.length) {
  process.stdout.write(
    `payment writers: ${unlawful.length} writes of a payment's collections from outside src/payments:\n`,
  );
  for (const write of unlawful) process.stdout.write(`  ${write.collection} ${write.command} from ${write.writer}\n`);
}
if (verdict.uncovered.length) {
  process.stdout.write(`query shapes: ${verdict.uncovered.length} filters no declared index serves:\n`);
  for (const shape of verdict.uncovered) process.stdout.write(`  ${describe(shape)}\n`);
  process.exit(1);
}
if (unlawful.length) process.exit(1);
if (verdict.checked === 0 && process.argv[3] === 'full') {
  process.stdout.write('query shapes: nothing was recorded (was DB_QUERY_SHAPES_DIR set for the suite?)\n');
  process.exit(1);
}
process.exit(0);
