/**
 * docs/configuration.md's table of variables, generated from the declarations so it cannot drift from them:
 * test/foundation/config.test.ts fails when the file differs, and `node --import tsx config/docs.ts` rewrites it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { type Variable, variablesOf } from './declare';
import { CONFIG_VARIABLES } from './variables';

export const CONFIGURATION_DOC = path.resolve(__dirname, '..', 'docs', 'configuration.md');

const HEADER = ['| variable | default | meaning |', '|---|---|---|'];

function describeDefault({ default: fallback, secret, generatedLocally }: Variable): string {
  const outsideLocalRuns = fallback === undefined ? 'required' : fallback === '' ? '(empty)' : `\`${fallback}\``;
  if (!secret) return outsideLocalRuns;
  return generatedLocally ? `generated locally; ${outsideLocalRuns} in production` : `${outsideLocalRuns}; secret`;
}

function row(variable: Variable): string {
  const meaning = variable.see ? `${variable.doc}; see ${variable.see}` : variable.doc;
  const cells = [`\`${variable.env}\``, describeDefault(variable), meaning].map((cell) => cell.replace(/\|/g, '\\|'));
  return `| ${cells.join(' | ')} |`;
}

/** The markdown with its table of variables (the header row and every row after it) replaced by today's. */
export function withConfigurationTable(markdown: string): string {
  const lines = markdown.split('\n');
  const start = lines.indexOf(HEADER[0]);
  if (start < 0) throw new Error(`no table headed "${HEADER[0]}" in the configuration doc`);
  let end = start;
  while (end < lines.length && lines[end].startsWith('|')) end += 1;
  const table = [...HEADER, ...variablesOf(CONFIG_VARIABLES).map(row)];
  return [...lines.slice(0, start), ...table, ...lines.slice(end)].join('\n');
}

if (require.main === module) {
  fs.writeFileSync(CONFIGURATION_DOC, withConfigurationTable(fs.readFileSync(CONFIGURATION_DOC, 'utf8')));
}
