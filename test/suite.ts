/**
 * `npm test`: the ava suite with every process recording the filters it sends, then the
 * query-shape check over all of them (test/query-shapes/check.ts). Arguments go to ava.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');
const dir = path.join(root, '.data', 'query-shapes');
fs.rmSync(dir, { recursive: true, force: true });
fs.mkdirSync(dir, { recursive: true });
const env = { ...process.env, DB_QUERY_SHAPES_DIR: dir };
const run = (command: string, args: string[]) => spawnSync(command, args, { cwd: root, env, stdio: 'inherit' }).status ?? 1;

const ava = run(path.join(root, 'node_modules', '.bin', 'ava'), process.argv.slice(2));
if (ava !== 0) process.exit(ava);
// The check reads every file the suite's processes wrote; a partial run (arguments given) checks what it ran.
process.exit(run(process.execPath, ['--import', 'tsx', path.join(__dirname, 'check.ts'), dir]));
