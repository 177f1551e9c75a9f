/**
 * The Go services we build once per machine from the Go module proxy, into ~/.cache/payments-platform/: our
 * patched FerretDB, and Jaeger for traces.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { commandLineOf } from './listeners';
import { cacheDirOf, say } from './service-kit';

export const FERRETDB_VERSION = 'v1.24.2';
/** The version of github.com/jaegertracing/jaeger the Go module proxy serves; ./cmd/jaeger is Jaeger v2 all-in-one. */
export const JAEGER_VERSION = 'v1.76.0';
/**
 * Our local FerretDB is v1.24.2 with one patch (ferretdb-atomic-updates.patch): FerretDB applies an update as a
 * read, then a write of the whole document, so two concurrent updates of one document could lose one of them
 * (measured here: 220 of 300 pairs of `$set` of different fields lost one; conditional updates both won 26 times
 * in 50). MongoDB, which production runs, applies each single-document update atomically; the patch serialises
 * updates in FerretDB the same way (docs/store.md). The cache folder names the patch's hash, so a machine that
 * built FerretDB without it builds it again.
 */
const FERRETDB_PATCH = path.join(__dirname, 'ferretdb-atomic-updates.patch');

function ferretBuildName(): string {
  const hash = crypto.createHash('sha256').update(fs.readFileSync(FERRETDB_PATCH)).digest('hex').slice(0, 10);
  return `ferretdb-${FERRETDB_VERSION}-${hash}`;
}

interface GoBuild {
  module: string;
  version: string;
  /** The package to build, in the module (./cmd/...). */
  pkg: string;
  binary: string;
  /** Before the build, in the writable copy of the module. */
  prepare?: (source: string) => void;
}

/**
 * Downloads a Go module through the module proxy and builds one of its commands into `binary`. The module
 * cache is read-only and the builds write beside the sources, so the build runs in a writable copy.
 */
function buildGoModule({ module, version, pkg, binary, prepare }: GoBuild): void {
  const info = JSON.parse(
    execFileSync('go', ['mod', 'download', '-json', `${module}@${version}`], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  ) as { Dir?: string; Error?: string };
  if (!info.Dir) throw new Error(`go mod download ${module}@${version} failed: ${info.Error ?? 'no Dir'}`);
  const source = fs.mkdtempSync(path.join(path.dirname(binary), 'src-'));
  try {
    fs.cpSync(info.Dir, source, { recursive: true });
    execFileSync('chmod', ['-R', 'u+w', source]);
    prepare?.(source);
    const partial = `${binary}.partial-${process.pid}`;
    execFileSync('go', ['build', '-trimpath', '-o', partial, pkg], {
      cwd: source,
      stdio: 'inherit',
      env: { ...process.env, CGO_ENABLED: '0' },
    });
    fs.renameSync(partial, binary); // atomic: a concurrent run never sees a half-written binary
  } finally {
    fs.rmSync(source, { recursive: true, force: true });
  }
}

/** Builds our FerretDB once per machine from the Go module proxy; returns the binary path. */
export function ensureFerretBinary(): string {
  const dir = cacheDirOf(ferretBuildName());
  const binary = path.join(dir, 'ferretdb');
  if (fs.existsSync(binary)) return binary;
  fs.mkdirSync(dir, { recursive: true });
  say(`building FerretDB ${FERRETDB_VERSION} with Go (once per machine, a few minutes)...`);
  buildGoModule({
    module: 'github.com/FerretDB/FerretDB',
    version: FERRETDB_VERSION,
    pkg: './cmd/ferretdb',
    binary,
    prepare: (source) => {
      // The module zip lacks build/version/version.txt, which the build embeds.
      fs.mkdirSync(path.join(source, 'build', 'version'), { recursive: true });
      fs.writeFileSync(path.join(source, 'build', 'version', 'version.txt'), FERRETDB_VERSION);
      execFileSync('git', ['apply', '-p1', FERRETDB_PATCH], { cwd: source, stdio: 'inherit' });
    },
  });
  say(`FerretDB built at ${binary}`);
  return binary;
}

/**
 * Builds Jaeger once per machine from the Go module proxy, as FerretDB is (`go install` refuses the module: its
 * go.mod has a replace directive); returns the binary path. A build another process has under way (a lock folder
 * naming a live pid) is waited for rather than repeated.
 */
export async function ensureJaegerBinary(waitForOtherBuildMs = 30 * 60_000): Promise<string> {
  const dir = cacheDirOf(`jaeger-${JAEGER_VERSION}`);
  const binary = path.join(dir, 'jaeger');
  if (fs.existsSync(binary)) return binary;
  fs.mkdirSync(dir, { recursive: true });
  const lock = path.join(dir, 'building');
  const deadline = Date.now() + waitForOtherBuildMs;
  // A build by hand (docs/deploy.md) writes jaeger.partial and renames it when done.
  const handPartial = `${binary}.partial`;
  const building = () => fs.existsSync(handPartial) && Date.now() - fs.statSync(handPartial).mtimeMs < 30 * 60_000;
  while (building() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2_000));
  if (fs.existsSync(binary)) return binary;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
      break;
    } catch {
      const pid = Number(fs.readFileSync(path.join(lock, 'pid'), { encoding: 'utf8', flag: 'a+' }));
      if (pid && !commandLineOf(pid)) fs.rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`Jaeger is still being built by pid ${pid} (${lock})`);
      else await new Promise((r) => setTimeout(r, 2_000));
      if (fs.existsSync(binary)) return binary;
    }
  }
  try {
    if (fs.existsSync(binary)) return binary;
    say(`building Jaeger ${JAEGER_VERSION} with Go (once per machine, 10-15 minutes on two cores)...`);
    buildGoModule({ module: 'github.com/jaegertracing/jaeger', version: JAEGER_VERSION, pkg: './cmd/jaeger', binary });
    say(`Jaeger built at ${binary}`);
    return binary;
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}
