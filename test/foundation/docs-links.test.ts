import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

function markdownFiles(): string[] {
  const files = ['README.md'];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith('.md')) files.push(rel);
    }
  };
  walk('docs');
  return files;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to dashes. */
function anchorsOf(text: string): Set<string> {
  return new Set(
    [...text.matchAll(/^#+ (.+)$/gm)].map((m) =>
      m[1]
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-'),
    ),
  );
}

test('every relative link of the README and docs/ resolves in a clone, anchors included', (t) => {
  const broken: string[] = [];
  let links = 0;
  for (const file of markdownFiles()) {
    const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target)) continue; // http(s), mailto: not ours to check offline
      links++;
      const [where, anchor] = target.split('#');
      const resolved = where ? path.resolve(ROOT, path.dirname(file), where) : path.join(ROOT, file);
      if (!resolved.startsWith(ROOT + path.sep) || !fs.existsSync(resolved)) broken.push(`${file}: ${target}`);
      else if (anchor && resolved.endsWith('.md') && !anchorsOf(fs.readFileSync(resolved, 'utf8')).has(anchor))
        broken.push(`${file}: ${target} (no such heading)`);
    }
  }
  t.true(links > 10, `only ${links} links found`);
  t.deepEqual(broken, []);
});

test('nothing in the README or docs/ points at the folder beside the repository', (t) => {
  // docs/api-spec.md is the contract as we were given it, word for word.
  const outside = markdownFiles().filter(
    (file) =>
      file !== path.join('docs', 'api-spec.md') && fs.readFileSync(path.join(ROOT, file), 'utf8').includes('../shared'),
  );
  t.deepEqual(outside, []);
});

// A file named in the manual that moved away leaves the reader at a dead end (issue 23 found several).
test('every source file the README and docs/ name exists', (t) => {
  const missing: string[] = [];
  let named = 0;
  // A design (docs/design/) names the files it plans: they exist once its slice is built.
  for (const file of markdownFiles().filter((name) => !name.startsWith(`docs${path.sep}design${path.sep}`))) {
    const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
    for (const [, name] of text.matchAll(
      /`((?:src|jobs|workers|config|test|clients)\/[\w./-]+\.(?:ts|cjs|mjs|js))(?!\w)/g,
    )) {
      named++;
      if (!fs.existsSync(path.join(ROOT, name))) missing.push(`${file}: ${name}`);
    }
  }
  t.true(named > 10, `only ${named} files named`);
  t.deepEqual(missing, []);
});
