/**
 * `npm start`: local services, then the Procfile's release command to its end (the migrations), then every
 * Procfile process with prefixed logs. Ctrl-C (or SIGTERM) stops the processes gracefully, then the services this
 * run started (not those it found). While it runs, .data/stacks/ names it, so the admin CLI talks to its database
 * (stacks.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { startOrFindServices, stopService } from './services';
import { recordStack } from './stacks';
import { describeLeftRunning, describeServices, describeStop, describeWebhooks } from './start-log';
import { loadLocalSecrets } from '../../config/local-secrets';
import { badConfiguration, type Config, exitRefusingToStart, getConfig, PROJECT_ROOT } from '../../config';
import { procfileCommands, type ProcfileEntry } from './procfile';
import { describeSecretLocations, seedDemoData } from './seed';
import { clashesWithRunningStack } from './clashes';

const COLORS = [36, 33, 35, 32, 34, 31];

/** Colours a process's prefix on a terminal only: in a file or a pipe the escape codes would be noise. */
function paint(text: string, color: number): string {
  return process.stdout.isTTY ? `\x1b[${color}m${text}\x1b[0m` : text;
}

/** The URLs this stack serves and calls, whose defaults follow PORT and SANDBOX_PORT. */
function describeUrls(
  config: Pick<Config, 'instance' | 'publicBaseUrl' | 'acquirer' | 'sandbox' | 'mongodbUri' | 'queuePrefix'>,
): string {
  const instance = config.instance
    ? `[start] instance ${config.instance}: database ${new URL(config.mongodbUri).pathname.slice(1)}, ` +
      `queue prefix ${config.queuePrefix}\n`
    : '';
  return (
    instance +
    `[start] service ${config.publicBaseUrl} (PUBLIC_BASE_URL), acquirer ${config.acquirer.baseUrl}, ` +
    `sandbox on port ${config.sandbox.port} posting notices to ${config.sandbox.notifyUrl}\n`
  );
}

function prefixed(stream: NodeJS.ReadableStream, name: string, color: number, width: number): void {
  let buffered = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) process.stdout.write(`${paint(`${name.padEnd(width)} |`, color)} ${line}\n`);
  });
}

/**
 * Runs the release command to its end, as a platform runs it between two releases: the processes start only once it
 * succeeded (they would find migrations pending). In its own process group like the processes; Ctrl-C meanwhile
 * asks it to stop between two writes. Resolves with its exit code, or the signal that ended it.
 */
function runRelease(entry: ProcfileEntry, color: number, width: number): Promise<number | string> {
  const child = spawn(entry.command[0], entry.command.slice(1), {
    cwd: PROJECT_ROOT,
    env: { ...process.env, PROCESS_NAME: entry.name },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  prefixed(child.stdout!, entry.name, color, width);
  prefixed(child.stderr!, entry.name, color, width);
  // Not "started (pid": that line names the long-running processes, which Ctrl-C stops.
  process.stdout.write(`[start] ${entry.name} running (pid ${child.pid}) before the processes start\n`);
  const stop = () => child.kill('SIGTERM');
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return new Promise((resolve) =>
    child.once('close', (code, signal) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal ?? code ?? 'unknown');
    }),
  );
}

async function main() {
  if (process.env.NODE_ENV === 'production')
    exitRefusingToStart(
      badConfiguration([
        'NODE_ENV=production: npm start runs the local stack (FerretDB, Redis, the acquirer sandbox, demo data, ' +
          'generated secrets); in production run the Procfile processes (docs/deploy.md)',
      ]),
    );
  loadLocalSecrets(); // generate once before processes race for it
  // A developer's receiver is on this machine: webhooks may reach it unless the developer says otherwise. The
  // processes inherit the variable.
  const webhooksSetByYou = process.env.WEBHOOKS_ALLOW_LOCALHOST !== undefined;
  if (!webhooksSetByYou) process.env.WEBHOOKS_ALLOW_LOCALHOST = 'true';
  const config = getConfig();
  const { started: services, found } = await startOrFindServices(false, config);
  const clashes = await clashesWithRunningStack(config);
  if (clashes.length) {
    for (const service of services) await stopService(service);
    throw new Error(`not started: ${clashes.join('; ')}`);
  }
  const forgetStack = recordStack({
    instance: config.instance,
    mongodbUri: config.mongodbUri,
    queuePrefix: config.queuePrefix,
    publicBaseUrl: config.publicBaseUrl,
  });
  process.stdout.write(describeServices({ started: services, found }));
  const { release, processes: entries } = procfileCommands();
  const width = Math.max(...[release, ...entries].filter((e) => e !== undefined).map((e) => e.name.length));
  if (release) {
    const ended = await runRelease(release, COLORS[0], width);
    if (ended !== 0) {
      forgetStack();
      for (const service of services)
        process.stdout.write(describeStop(service.name, service.child.pid, await stopService(service)));
      throw new Error(`the release command (${release.command.join(' ')}) ended with ${ended}: nothing else started`);
    }
    process.stdout.write(`[start] ${release.name} done\n`);
  }
  await seedDemoData();
  process.stdout.write(describeSecretLocations(config));
  process.stdout.write(describeUrls(config));
  process.stdout.write(describeWebhooks(config, webhooksSetByYou));
  const children: { name: string; child: ChildProcess }[] = [];
  let stopping = false;

  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write('\n[start] stopping processes...\n');
    await Promise.all(
      children.map(
        ({ child }) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode) return resolve();
            const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
            child.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            child.kill('SIGTERM');
          }),
      ),
    );
    forgetStack();
    for (const service of services)
      process.stdout.write(describeStop(service.name, service.child.pid, await stopService(service)));
    process.stdout.write(describeLeftRunning(found));
    process.exit(code);
  };

  entries.forEach(({ name, command }, index) => {
    const child = spawn(command[0], command.slice(1), {
      cwd: PROJECT_ROOT,
      env: { ...process.env, PROCESS_NAME: name, SUPERVISOR_PID: String(process.pid) },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // own process group: a terminal Ctrl-C reaches only us, and we stop each child once, gracefully
    });
    const color = COLORS[(index + 1) % COLORS.length];
    prefixed(child.stdout!, name, color, width);
    prefixed(child.stderr!, name, color, width);
    child.on('exit', (code, signal) => {
      process.stdout.write(`[start] ${name} exited (${signal ?? code})\n`);
      if (!stopping) void stopAll(1); // one process dying takes the stack down, as foreman does
    });
    process.stdout.write(`[start] ${name} started (pid ${child.pid})\n`);
    children.push({ name, child });
  });
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));
}

main().catch((error: Error) => {
  process.stderr.write(`[start] ${error.message}\n`);
  process.exit(1);
});
