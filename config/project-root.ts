/**
 * The repository's root folder (the one holding package.json), the same whether this code runs from its TypeScript
 * source (config/) or compiled (dist/config/): .data/ and the Procfile live there, never under dist/.
 */
import fs from 'node:fs';
import path from 'node:path';

function findProjectRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(__dirname, '..');
  }
}

export const PROJECT_ROOT = findProjectRoot(__dirname);
