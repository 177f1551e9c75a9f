/**
 * One format (issue 13): every file prettier formats is formatted as .prettierrc.json says, and no
 * line of code is wider than its 120 columns. Prettier leaves some lines wide (a long string, a
 * test title, a comment, a regex literal): those are for the author to split, and this test names
 * each as file:line. The files are git's: tracked ones and new ones not ignored, so a file is
 * checked before its first commit; .prettierignore (vendored, generated) is respected by both
 * checks.
 */
import test from 'ava';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as prettier from 'prettier';
import { ROOT } from '../helpers/processes';

const MAX_COLUMNS = 120;
/** Code a reader reads; data files (JSON, lock files) and prose (Markdown) are not held to the width. */
const CODE_FILE = /\.(ts|tsx|js|mjs|cjs|css|html)$/;
const IGNORE_FILES = ['.gitignore', '.prettierignore'].map((name) => path.join(ROOT, name));

function repositoryFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const files = [...new Set(listed.split('\0').filter(Boolean))];
  // A tracked file deleted in the working tree is still listed by --cached.
  return files.filter((file) => fs.existsSync(path.join(ROOT, file))).sort();
}

/** The files prettier would check in `prettier --check .`, with their parser. */
async function formattedFiles(): Promise<string[]> {
  const files: string[] = [];
  for (const file of repositoryFiles()) {
    const info = await prettier.getFileInfo(path.join(ROOT, file), { ignorePath: IGNORE_FILES });
    if (!info.ignored && info.inferredParser) files.push(file);
  }
  return files;
}

const files = formattedFiles();

test('every file prettier formats is formatted (npx prettier --write <file> fixes one named here)', async (t) => {
  const checked = await files;
  t.true(checked.length > 100, `only ${checked.length} files found: is this a git checkout?`);
  const unformatted: string[] = [];
  for (const file of checked) {
    const absolute = path.join(ROOT, file);
    const options = await prettier.resolveConfig(absolute);
    const source = fs.readFileSync(absolute, 'utf8');
    if (!(await prettier.check(source, { ...options, filepath: absolute }))) unformatted.push(file);
  }
  t.deepEqual(unformatted, []);
});

test(`no line of code is over ${MAX_COLUMNS} columns`, async (t) => {
  const code = (await files).filter((file) => CODE_FILE.test(file));
  t.true(
    code.some((file) => file.startsWith('src/')),
    'the source files are among those checked',
  );
  const wide: string[] = [];
  for (const file of code) {
    const lines = fs.readFileSync(path.join(ROOT, file), 'utf8').split(/\r?\n/);
    lines.forEach((line, index) => {
      // Columns are characters (code points), as an editor counts them, not UTF-16 units or bytes.
      const columns = [...line].length;
      if (columns > MAX_COLUMNS) wide.push(`${file}:${index + 1} (${columns} columns)`);
    });
  }
  t.deepEqual(wide, []);
});
