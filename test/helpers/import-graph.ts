/**
 * The import graph of the service's own code, read from its sources (static and dynamic imports,
 * re-exports, require), for the layer test (test/foundation/layers.test.ts). Type-only imports
 * count: a circle of types is still a circle a reader must walk.
 */
import fs from 'node:fs';
import path from 'node:path';

export type Graph = Map<string, Set<string>>;

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)(['"])(\.{1,2}\/[^'"]*|\.{1,2})\1/gm;

export function sourcesUnder(root: string, dir: string): string[] {
  const full = path.join(root, dir);
  if (!fs.existsSync(full)) return [];
  return fs.readdirSync(full, { withFileTypes: true, recursive: true }).flatMap((entry) => {
    const file = path.join(entry.parentPath, entry.name);
    const relative = path.relative(root, file).split(path.sep).join('/');
    return entry.isFile() && /\.ts$/.test(entry.name) && !relative.includes('/node_modules/') ? [relative] : [];
  });
}

export function resolveImport(root: string, from: string, specifier: string): string | undefined {
  const base = path.join(path.dirname(path.join(root, from)), specifier);
  const found = [`${base}.ts`, path.join(base, 'index.ts'), base].find(
    (candidate) => fs.existsSync(candidate) && fs.statSync(candidate).isFile(),
  );
  return found && path.relative(root, found).split(path.sep).join('/');
}

/** file -> the files it imports, for every .ts file under `dirs` (relative imports only: packages are not ours). */
export function readImportGraph(root: string, dirs: string[]): Graph {
  const graph: Graph = new Map();
  for (const file of dirs.flatMap((dir) => sourcesUnder(root, dir))) {
    const targets = new Set<string>();
    for (const match of fs.readFileSync(path.join(root, file), 'utf8').matchAll(SPECIFIER)) {
      const target = resolveImport(root, file, match[2]);
      if (target && target !== file) targets.add(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The graph between folders: folder -> the other folders its files import. */
export function folderGraph(graph: Graph): Graph {
  const folders: Graph = new Map();
  for (const [file, targets] of graph) {
    const from = path.posix.dirname(file);
    const out = folders.get(from) ?? folders.set(from, new Set()).get(from)!;
    for (const target of targets) if (path.posix.dirname(target) !== from) out.add(path.posix.dirname(target));
  }
  return folders;
}

/** Every group of two or more nodes that reach each other (Tarjan's strongly connected components). */
export function circles(graph: Graph): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** A floor: the files whose path starts with one of `paths` (the longest matching prefix wins). */
export interface Floor {
  name: string;
  paths: string[];
}

/** The floor of a file, by the longest path prefix that names it; undefined when no floor does. */
export function floorOf(floors: Floor[], file: string): number | undefined {
  let best: { level: number; length: number } | undefined;
  floors.forEach((floor, level) => {
    for (const prefix of floor.paths) {
      if (
        (file === prefix || file.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`)) &&
        (!best || prefix.length > best.length)
      )
        best = { level, length: prefix.length };
    }
  });
  return best?.level;
}

/** Imports that point up a floor (floors listed from the ground up), and files no floor names. */
export function upwardImports(graph: Graph, floors: Floor[]): { upward: string[]; unplaced: string[] } {
  const upward: string[] = [];
  const unplaced: string[] = [];
  for (const [file, targets] of graph) {
    const from = floorOf(floors, file);
    if (from === undefined) {
      unplaced.push(file);
      continue;
    }
    for (const target of targets) {
      const to = floorOf(floors, target);
      if (to !== undefined && to > from)
        upward.push(`${file} (${floors[from].name}) -> ${target} (${floors[to].name})`);
    }
  }
  return { upward, unplaced };
}
