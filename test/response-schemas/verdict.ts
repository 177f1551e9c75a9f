/**
 * Reads the answers recorded under RESPONSE_SCHEMAS_DIR (test/instrumentation/answers.ts) and judges the
 * run: every answer must match the document, and a whole run must have answered every operation
 * with a 2xx at least once, apart from the allow-listed ones.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AnswerRecord } from '../instrumentation/answers';

export interface Unreached {
  operationId: string;
  why: string;
}

export interface Finding {
  operationId: string;
  method: string;
  path: string;
  status: number;
  contentType: string;
  error: string;
}

export interface RunVerdict {
  answers: number;
  findings: Finding[];
  /** Operations of the document never answered with a 2xx, allowed ones excluded. */
  unanswered: string[];
  /** Allowed as unreachable, yet answered with a 2xx: the entry can go. */
  allowedButAnswered: string[];
}

export function readRecords(dir: string): AnswerRecord[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .flatMap((name) =>
      fs
        .readFileSync(path.join(dir, name), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as AnswerRecord),
    );
}

export function judge(
  records: AnswerRecord[],
  operationIds: string[],
  unreachable: Unreached[],
  full: boolean,
): RunVerdict {
  const findings = new Map<string, Finding>();
  const answered2xx = new Set<string>();
  for (const record of records) {
    if (record.status >= 200 && record.status < 300) answered2xx.add(record.operationId);
    if (record.verdict === 'valid') continue;
    for (const error of record.verdict) {
      const text = `${error.path || '(body)'}: ${error.message}`;
      const finding = { ...record, error: text };
      delete (finding as Partial<AnswerRecord>).verdict;
      findings.set(`${record.operationId} ${record.status} ${record.contentType} ${text}`, finding);
    }
  }
  const allowed = new Set(unreachable.map((u) => u.operationId));
  return {
    answers: records.length,
    findings: [...findings.values()].sort((a, b) => a.operationId.localeCompare(b.operationId) || a.status - b.status),
    unanswered: full ? operationIds.filter((id) => !answered2xx.has(id) && !allowed.has(id)).sort() : [],
    allowedButAnswered: [...allowed].filter((id) => answered2xx.has(id)).sort(),
  };
}

export function describeFinding(f: Finding): string {
  return `${f.operationId} (${f.method.toUpperCase()} ${f.path}) answered ${f.status} ${f.contentType}: ${f.error}`;
}
