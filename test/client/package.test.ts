import '../helpers/env';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import test from 'ava';
import {
  GENERATED_FILES,
  currentDocument,
  generateClientSources,
  type GeneratedSources,
  type SwaggerDocument,
} from '../../clients/typescript/scripts/generate';
import { json } from '../helpers/app';
import { ROOT, runCommand, startProcess, type RunningProcess } from '../helpers/processes';
import { newMerchant, type TestMerchant } from '../helpers/identity';
import { useServices } from '../helpers/services';
import { send } from '../helpers/http';

// The client cannot drift from the document, and the package builds and packs as published.

const PACKAGE_DIR = path.join(ROOT, 'clients', 'typescript');

let web: RunningProcess;
let merchant: TestMerchant;
useServices({
  async ready() {
    const sandbox = await startProcess('sandbox', { SANDBOX_PORT: '0' });
    web = await startProcess('web', { ACQUIRER_BASE_URL: sandbox.url, ACQUIRER_QUERY_URL: sandbox.url });
    merchant = await newMerchant();
  },
});

/**
 * "same", or for each generated file that differs from the committed one, its first differing line (not
 * t.is on 100 KB of source).
 */
function differenceFromCommitted(sources: GeneratedSources): string {
  const differences = (Object.entries(GENERATED_FILES) as [keyof GeneratedSources, string][]).flatMap(
    ([part, file]) => {
      const committed = fs.readFileSync(file, 'utf8').split('\n');
      const fresh = sources[part].split('\n');
      const first = fresh.findIndex((line, i) => line !== committed[i]);
      if (first === -1 && fresh.length === committed.length) return [];
      const at = first === -1 ? fresh.length : first;
      const where = `${path.relative(ROOT, file)} line ${at + 1}`;
      return [`${where}: generated ${JSON.stringify(fresh[at])}, committed ${JSON.stringify(committed[at])}`];
    },
  );
  return differences.length === 0 ? 'same' : differences.join('\n');
}

const STALE = 'clients/typescript/src/generated-*.ts are stale: run npm run client:generate and commit it';

test('the committed client is what the current document generates', async (t) => {
  t.is(differenceFromCommitted(await generateClientSources(await currentDocument())), 'same', STALE);
});

test('the served document generates the same client', async (t) => {
  const served = (await json(await send(web, 'GET', '/api/docs/swagger.json'))) as SwaggerDocument;
  t.is(differenceFromCommitted(await generateClientSources(served)), 'same', STALE);
});

test('a changed document changes the client (the drift check can fail)', async (t) => {
  const document = structuredClone(await currentDocument());
  const operation = document.paths['/api/v1/online/sales/pre-capture/'].post;
  operation.operationId = 'startSale';
  const sources = await generateClientSources(document);
  t.regex(sources.operations, /\bstartSale\(/);
  t.notRegex(sources.operations, /\bpreCaptureSale\(/);
  t.regex(sources.types, /\bStartSaleOptions\b/);
  t.not(differenceFromCommitted(sources), 'same');
  // Two operations with one id would give one method: refused.
  const duplicated = structuredClone(await currentDocument());
  duplicated.paths['/api/v1/online/sales/{id}/'].get.operationId = 'captureSale';
  await t.throwsAsync(generateClientSources(duplicated), { message: /captureSale is used twice/ });
});

/** The docs/client.md example, as written. */
function docsExample(): string {
  const page = fs.readFileSync(path.join(ROOT, 'docs', 'client.md'), 'utf8');
  const match = /<!-- example: client -->\n```ts\n([\s\S]*?)\n```\n/.exec(page);
  if (!match) throw new Error('docs/client.md has no client example');
  return match[1];
}

interface BuiltPackage {
  /** The copy of clients/typescript, built. */
  dir: string;
  /** npm pack --dry-run --json of it. */
  packed: { name: string; files: { path: string }[] };
  /** The tarball npm pack wrote. */
  tarball: string;
}

let built: Promise<BuiltPackage> | undefined;
const temporaryDirs: string[] = [];
test.after.always(() => temporaryDirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));
/**
 * Builds a copy of the package under .data (ignored by git), so the build leaves nothing in the package
 * folder; tsc and @types/node resolve from the repository's node_modules as they would from its own.
 */
function buildPackage(): Promise<BuiltPackage> {
  return (built ??= (async () => {
    fs.mkdirSync(path.join(ROOT, '.data'), { recursive: true });
    const dir = fs.mkdtempSync(path.join(ROOT, '.data', 'client-package-'));
    temporaryDirs.push(dir);
    for (const entry of ['package.json', 'tsconfig.json', 'README.md', 'src'])
      fs.cpSync(path.join(PACKAGE_DIR, entry), path.join(dir, 'package', entry), { recursive: true });
    const packageDir = path.join(dir, 'package');
    const tsc = await runCommand(process.execPath, [TSC, '-p', packageDir]);
    if (tsc.code !== 0) throw new Error(`tsc failed:\n${tsc.stdout}${tsc.stderr}`);
    const dryRun = await runCommand('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: packageDir });
    if (dryRun.code !== 0) throw new Error(`npm pack --dry-run failed: ${dryRun.stderr}`);
    const pack = await runCommand('npm', ['pack', '--ignore-scripts', '--pack-destination', dir], { cwd: packageDir });
    if (pack.code !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
    return {
      dir: packageDir,
      packed: (JSON.parse(dryRun.stdout) as BuiltPackage['packed'][])[0],
      tarball: path.join(dir, pack.stdout.trim().split('\n').pop()!),
    };
  })());
}

const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

test('the package builds with tsc and packs its dist, README and package.json only', async (t) => {
  const manifest = JSON.parse(fs.readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8'));
  t.deepEqual(manifest.dependencies ?? {}, {}, 'no runtime dependency');
  t.truthy(manifest.name && manifest.version && manifest.types && manifest.scripts.build);

  const { dir, packed } = await buildPackage();
  const emitted = [
    'index.js',
    'index.d.ts',
    'generated-types.d.ts',
    'generated-operations.js',
    'cards.js',
    'client.js',
  ];
  for (const file of emitted) t.true(fs.existsSync(path.join(dir, 'dist', file)), `dist/${file}`);
  t.is(packed.name, manifest.name);
  const files = packed.files.map((file) => file.path).sort();
  t.true(files.includes('dist/index.js') && files.includes('dist/index.d.ts'), files.join(', '));
  t.true(files.includes('README.md') && files.includes('package.json'));
  t.deepEqual(
    files.filter((file) => !file.startsWith('dist/') && !['README.md', 'package.json'].includes(file)),
    [],
  );

  // What a partner gets: requiring the package, or importing it from ESM, gives the client.
  const required = require(path.join(dir, 'dist', 'index.js'));
  const client = new required.PaymentsClient({ baseUrl: 'http://127.0.0.1:1', token: 'mt_x' });
  t.is(typeof client.sales.preCaptureSale, 'function');
  t.is(typeof client.cards.encryptCard, 'function');
  const imported = await import(pathToFileURL(path.join(dir, 'dist', 'index.js')).href);
  t.is(typeof (imported.PaymentsClient ?? imported.default?.PaymentsClient), 'function');
});

test('the docs/client.md example type-checks and runs against the service, from the packed tarball', async (t) => {
  const { tarball } = await buildPackage();
  // A partner's project: the tarball installed in its node_modules, the example in an ES module.
  const project = fs.mkdtempSync(path.join(ROOT, '.data', 'client-partner-'));
  t.teardown(() => fs.rmSync(project, { recursive: true, force: true }));
  const installed = path.join(project, 'node_modules', '@payments-platform', 'client');
  fs.mkdirSync(installed, { recursive: true });
  const untar = await runCommand('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1']);
  t.is(untar.code, 0, untar.stderr);
  const example = path.join(project, 'example.mts');
  fs.writeFileSync(example, docsExample());

  const types = path.join(ROOT, 'node_modules', '@types');
  const check = await runCommand(process.execPath, [
    TSC,
    ...['--noEmit', '--strict', '--skipLibCheck', '--target', 'es2022', '--module', 'nodenext'],
    ...['--moduleResolution', 'nodenext', '--types', 'node', '--typeRoots', types, example],
  ]);
  t.is(check.code, 0, check.stdout + check.stderr);

  const run = await runCommand(process.execPath, ['--import', 'tsx', example], {
    env: {
      ...process.env,
      BASE_URL: web.url,
      PAYMENTS_USERNAME: merchant.email,
      PAYMENTS_PASSWORD: merchant.password,
    },
  });
  t.is(run.code, 0, run.stderr);
  const printed = JSON.parse(run.stdout);
  t.is(printed.merchant, merchant.merchantId);
  t.is(printed.sale, 'CONFIRMED');
  t.regex(printed.link, /\/checkout\/[0-9a-f-]{36}/);
  t.true(Array.isArray(printed.refusal.value), JSON.stringify(printed.refusal));
});
