/**
 * A page whose blocks a test runs as written (docs/quickstart.md). Every fenced block follows a marker
 * comment, `<!-- quickstart: <role> -->`, saying what the block is and what the test does with it:
 *
 * - `stack` (sh): runs it with bash in a terminal of its own, in the background, as `npm start` is run.
 * - `variables` (sh): only `export NAME=value ...` lines, what the reader sets by hand; the test checks
 *   them and sets its own values (its ports) instead of running the block.
 * - `run` (sh): runs it in the reader's terminal, one bash session, so variables and jobs carry over.
 * - `file <name>` (js): saves it under that name in the checkout, where the page's commands run it with node.
 * - `output` (text): waits until each line shows in the output of the terminal of the block before it;
 *   `...` in a line stands for any text, a line of `...` alone for other lines.
 * - `not run: <reason>` (sh): does not run it, for the reason given.
 */

type Role =
  | { role: 'stack' | 'variables' | 'run' | 'output' }
  | { role: 'file'; name: string }
  | { role: 'not run'; reason: string };

export type Block = { line: number; language: string; text: string } & Role;

const LANGUAGE = { stack: 'sh', variables: 'sh', run: 'sh', 'not run': 'sh', file: 'js', output: 'text' } as const;

const FENCE = /^```(\S*)\n([\s\S]*?)^```$/gm;
const MARKER = /^<!-- quickstart: (.+?) -->$/;

function roleOf(marker: string): Role | undefined {
  if (marker === 'stack' || marker === 'variables' || marker === 'run' || marker === 'output') return { role: marker };
  const file = /^file ([\w.-]+\.m?js)$/.exec(marker);
  if (file) return { role: 'file', name: file[1] };
  const skipped = /^not run: (.{10,})$/.exec(marker);
  if (skipped) return { role: 'not run', reason: skipped[1] };
  return undefined;
}

/** The page's blocks in order, and what is wrong with its markers (a block without one, an unknown one, a language). */
export function parsePage(page: string): { blocks: Block[]; problems: string[] } {
  const blocks: Block[] = [];
  const problems: string[] = [];
  let marked = 0;
  for (const match of page.matchAll(FENCE)) {
    const line = page.slice(0, match.index).split('\n').length;
    const before = page.slice(0, match.index).trimEnd().split('\n').pop() ?? '';
    const marker = MARKER.exec(before.trim())?.[1];
    if (marker !== undefined) marked++;
    const role = marker === undefined ? undefined : roleOf(marker);
    if (!role) {
      problems.push(`line ${line}: ${marker === undefined ? 'no marker' : `unknown marker "${marker}"`}`);
      continue;
    }
    const [language, text] = [match[1], match[2].replace(/\n$/, '')];
    if (language !== LANGUAGE[role.role])
      problems.push(`line ${line}: a ${role.role} block is \`\`\`${LANGUAGE[role.role]}, not \`\`\`${language}`);
    blocks.push({ ...role, line, language, text } as Block);
  }
  const orphans = [...page.matchAll(/^<!-- quickstart: .*? -->$/gm)].length - marked;
  if (orphans > 0) problems.push(`${orphans} marker(s) not followed by a block`);
  return { blocks, problems };
}

/** The names and values a variables block sets; throws when a line is anything but `export NAME=value ...`. */
export function variablesOf(block: Block): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of block.text.split('\n')) {
    if (!/^export( [A-Z][A-Z0-9_]*=[\w:/.@-]+)+$/.test(line))
      throw new Error(`line ${block.line}: a variables block holds only \`export NAME=value ...\` lines, not: ${line}`);
    for (const [name, value] of line
      .slice('export '.length)
      .split(' ')
      .map((pair) => pair.split('=')))
      values[name] = value;
  }
  return values;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The lines of an output block that no line of `output` matches (`...` is any text). */
export function missingLines(expected: string, output: string): string[] {
  const lines = output.split('\n').map((line) => line.replace(/\r$/, ''));
  return expected
    .split('\n')
    .filter((line) => line.trim() !== '...')
    .filter((line) => {
      const pattern = new RegExp(`^${line.split('...').map(escape).join('.*')}$`);
      return !lines.some((printed) => pattern.test(printed));
    });
}
