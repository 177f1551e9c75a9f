/**
 * Every package production installs runs on the Node.js our package.json promises: a dependency whose
 * `engines.node` leaves out our oldest version is unsupported there, even if it seems to work (the
 * OpenTelemetry SDK's 3.x line, taken once, requires Node.js 22.15: its 2.x line is the one for Node.js 20).
 */
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import semver from 'semver';
import { PROJECT_ROOT } from '../../config';

const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, file), 'utf8'));

test('every production dependency accepts the oldest Node.js our engines field allows', (t) => {
  const oldest = semver.minVersion(readJson('package.json').engines.node)!.version;
  const lock = readJson('package-lock.json') as {
    packages: Record<string, { dev?: boolean; engines?: { node?: string } | string[] }>;
  };
  const refusing: string[] = [];
  let checked = 0;
  for (const [where, entry] of Object.entries(lock.packages)) {
    const range = !where || entry.dev || Array.isArray(entry.engines) ? undefined : entry.engines?.node;
    if (!range) continue;
    checked++;
    if (!semver.satisfies(oldest, range)) refusing.push(`${where.replace(/^.*node_modules\//, '')}: ${range}`);
  }
  t.true(checked > 50, `only ${checked} production packages declare engines: is the lock file read right?`);
  t.deepEqual(refusing, [], `production packages that refuse Node.js ${oldest}`);
});
