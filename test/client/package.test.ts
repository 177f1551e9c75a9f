import '../helpers/env';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import test from 'ava';
import {
  GENERATED_FILE,
  currentDocument,
  generateClientSource,
  type SwaggerDocument,
} from '../../clients/typescript/scripts/generate';
import { startTestApp, json } from '../helpers/app';
import { ROOT, runCommand } from '../helpers/processes';

// The client cannot drift from the document, and the package builds and packs as published.

const PACKAGE_DIR = path.join(ROOT, 'clients', 'typescript');

test('the committed client is what the current document generates', async (t) => {
  const generated = await generateClientSource(await currentDocument());
  // Not t.is on 100 KB of source: the first differing line says what to regenerate.
  const committed = fs.readFileSync(GENERATED_FILE, 'utf8').split('\n');
  const fresh = generated.split('\n');
  const first = fresh.findIndex((line, i) => line !== committed[i]);
  t.is(
    first === -1 && fresh.length === committed.length ? 'same' : `line ${first + 1}: ${fresh[first]}`,
    'same',
    'clients/typescript/src/generated.ts is stale: run npm run client:generate and commit it',
  );
});

test('the served document generates the same client', async (t) => {
  const app = await startTestApp();
  t.teardown(() => app.close());
  const served = (await json(await fetch(`${app.url}/api/docs/swagger.json`))) as SwaggerDocument;
  t.is(await generateClientSource(served), fs.readFileSync(GENERATED_FILE, 'utf8'));
});

test('a changed document changes the client (the drift check can fail)', async (t) => {
  const document = structuredClone(await currentDocument());
  const operation = document.paths['/api/v1/online/sales/pre-capture/'].post;
  operation.operationId = 'startSale';
  const source = await generateClientSource(document);
  t.regex(source, /\bstartSale\(/);
  t.notRegex(source, /\bpreCaptureSale\(/);
  t.not(source, fs.readFileSync(GENERATED_FILE, 'utf8'));
  // Two operations with one id would give one method: refused.
  const duplicated = structuredClone(await currentDocument());
  duplicated.paths['/api/v1/online/sales/{id}/'].get.operationId = 'captureSale';
  await t.throwsAsync(generateClientSource(duplicated), { message: /captureSale is used twice/ });
});

test('the package builds with tsc and packs its dist, README and package.json only', async (t) => {
  const manifest = JSON.parse(fs.readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8'));
  t.deepEqual(manifest.dependencies ?? {}, {}, 'no runtime dependency');
  t.truthy(manifest.name && manifest.version && manifest.types && manifest.scripts.build);

  // A copy under .data (ignored by git), so the build leaves nothing in the package folder; tsc and
  // @types/node resolve from the repository's node_modules as they would from the package's own.
  fs.mkdirSync(path.join(ROOT, '.data'), { recursive: true });
  const copy = fs.mkdtempSync(path.join(ROOT, '.data', 'client-package-'));
  t.teardown(() => fs.rmSync(copy, { recursive: true, force: true }));
  for (const entry of ['package.json', 'tsconfig.json', 'README.md', 'src'])
    fs.cpSync(path.join(PACKAGE_DIR, entry), path.join(copy, entry), { recursive: true });

  const tsc = await runCommand(process.execPath, [
    path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
    '-p',
    copy,
  ]);
  t.is(tsc.code, 0, tsc.stdout + tsc.stderr);
  for (const file of ['index.js', 'index.d.ts', 'generated.js', 'generated.d.ts', 'cards.js', 'client.js'])
    t.true(fs.existsSync(path.join(copy, 'dist', file)), `dist/${file}`);

  const pack = await runCommand('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: copy });
  t.is(pack.code, 0, pack.stderr);
  const [{ files, name }] = JSON.parse(pack.stdout) as [{ name: string; files: { path: string }[] }];
  t.is(name, manifest.name);
  const packed = files.map((file) => file.path).sort();
  t.true(packed.includes('dist/index.js') && packed.includes('dist/index.d.ts'), packed.join(', '));
  t.true(packed.includes('README.md') && packed.includes('package.json'));
  t.deepEqual(
    packed.filter((file) => !file.startsWith('dist/') && !['README.md', 'package.json'].includes(file)),
    [],
  );

  // What a partner gets: requiring the package, or importing it from ESM, gives the client.
  const required = require(path.join(copy, 'dist', 'index.js'));
  const client = new required.PaymentsClient({ baseUrl: 'http://127.0.0.1:1', token: 'mt_x' });
  t.is(typeof client.sales.preCaptureSale, 'function');
  t.is(typeof client.cards.encryptCard, 'function');
  const imported = await import(pathToFileURL(path.join(copy, 'dist', 'index.js')).href);
  t.is(typeof (imported.PaymentsClient ?? imported.default?.PaymentsClient), 'function');
});
