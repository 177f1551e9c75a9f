/**
 * After the suite: every answer recorded under RESPONSE_SCHEMAS_DIR must match the served document.
 *   node --import tsx test/response-schemas/check.ts <dir> [full]
 * With `full` (the whole suite ran), every operation must also have been answered with a 2xx at
 * least once, except those on the allow-list. Exit 1 naming each operation, status and error.
 */
import { features } from '../../src/web/areas';
import { buildSwagger } from '../../src/web/swagger';
import { UNREACHABLE } from './allow-list';
import { describeFinding, judge, readRecords } from './verdict';

const dir = process.argv[2] || process.env.RESPONSE_SCHEMAS_DIR;
if (!dir) throw new Error('usage: check.ts <dir of recorded answers>');
const full = process.argv[3] === 'full';
const document = buildSwagger(features, 'http://localhost') as {
  paths: Record<string, Record<string, { operationId: string }>>;
};
const operationIds = Object.values(document.paths).flatMap((operations) =>
  Object.values(operations).map((o) => o.operationId),
);
const verdict = judge(readRecords(dir), operationIds, UNREACHABLE, full);
const out = (line: string) => process.stdout.write(`${line}\n`);
out(`response schemas: ${verdict.answers} distinct answers checked against the document`);
for (const id of verdict.allowedButAnswered) out(`  note: ${id} is allowed as unreachable but was answered with a 2xx`);
let failed = false;
if (verdict.findings.length) {
  failed = true;
  out(`response schemas: ${verdict.findings.length} answers do not match the document:`);
  for (const finding of verdict.findings) out(`  ${describeFinding(finding)}`);
}
if (verdict.unanswered.length) {
  failed = true;
  out(`response schemas: ${verdict.unanswered.length} operations never answered with a 2xx:`);
  for (const id of verdict.unanswered) out(`  ${id}`);
}
if (full && verdict.answers === 0) {
  failed = true;
  out('response schemas: nothing was recorded (was RESPONSE_SCHEMAS_DIR set for the suite?)');
}
process.exit(failed ? 1 : 0);
