/**
 * docs/quickstart.md runs as written (issue item "a first sale in five minutes"): `npm start`, a token, a
 * webhook receiver, an encrypted card, a sale, a refund and the verified webhooks. Each block's marker
 * (test/helpers/runnable-page.ts) says how: the stack's block runs with bash in its own terminal, the
 * reader's blocks in one bash session (so `TOKEN`, `SALE_ID` and the background receiver carry over, as in
 * a terminal), the JS blocks are saved under the names the page gives and run by the page's own `node`
 * commands, and each output block is waited for. The text of every block is run unchanged; the test sets
 * only the variables the page tells the reader to set (its own free ports), and its file's database and
 * queue prefix stand in for a fresh machine (the stack seeds the demo merchant on that empty database).
 */
import '../helpers/env';
import test from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_PORT } from '../../config/variables';
import { deadline, eventually, freePort, ROOT } from '../helpers/processes';
import { newLogFile } from '../helpers/test-logs';
import { type Block, missingLines, parsePage, variablesOf } from '../helpers/runnable-page';

const readPage = () => fs.readFileSync(path.join(ROOT, 'docs', 'quickstart.md'), 'utf8');

/** A bash in a process group of its own, as a terminal's job is: its output kept and logged. */
class Terminal {
  output = '';
  /** Its output pipes are closed: bash and every process that held them (a background job) have ended. */
  closed = false;
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;

  constructor(name: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) {
    const log = fs.openSync(newLogFile(name), 'a');
    this.child = spawn('bash', args, { cwd, env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    for (const stream of [this.child.stdout!, this.child.stderr!]) {
      stream.setEncoding('utf8');
      stream.on('data', (text: string) => {
        this.output += text;
        fs.writeSync(log, text);
      });
    }
    this.exited = new Promise((resolve) =>
      this.child.once('close', (code) => {
        fs.closeSync(log);
        this.closed = true;
        resolve(code);
      }),
    );
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** To every process of its group, as a terminal's Ctrl-C (SIGINT) does. */
  signal(signal: NodeJS.Signals): void {
    try {
      process.kill(-this.child.pid!, signal);
    } catch {
      // the group is gone
    }
  }
}

/** The environment of a newcomer's shell: the test's own logging settings left out. */
function shellEnvironment(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of ['NODE_ENV', 'LOG_LEVEL', 'TEST_LOG_FILE', 'TEST_LOG_PID']) delete env[name];
  return env;
}

/** A clone stand-in: a folder whose entries link to this checkout's (node_modules too), .git and .data left out. */
function cloneOfCheckout(into: string): string {
  const clone = path.join(into, 'clone');
  fs.mkdirSync(clone);
  for (const entry of fs.readdirSync(ROOT))
    if (entry !== '.git' && entry !== '.data') fs.symlinkSync(path.join(ROOT, entry), path.join(clone, entry));
  return clone;
}

const tail = (text: string) => text.slice(-6000);
const where = (block: Block) => `docs/quickstart.md:${block.line}`;

test('every block of the quickstart has a marker the test knows, and its variables are those of npm start', (t) => {
  const { blocks, problems } = parsePage(readPage());
  t.deepEqual(problems, []);
  const roles = blocks.map((block) => block.role);
  t.is(roles.filter((role) => role === 'stack').length, 1, 'one npm start');
  t.true(roles.indexOf('stack') < roles.indexOf('run'), 'the stack starts before the reader runs anything');
  t.true(roles.indexOf('variables') < roles.indexOf('run'), 'the reader sets the variables before using them');
  const variables = Object.assign({}, ...blocks.filter((b) => b.role === 'variables').map(variablesOf));
  t.deepEqual(Object.keys(variables).sort(), ['BASE_URL', 'RECEIVER_PORT']);
  t.is(variables.BASE_URL, `http://127.0.0.1:${DEFAULT_PORT}`, "npm start's own address");
  t.regex(variables.RECEIVER_PORT, /^\d{4,5}$/);
  const commands = blocks.filter((b) => b.role === 'run').map((b) => b.text);
  for (const block of blocks)
    if (block.role === 'file')
      t.true(
        commands.some((text) => text.includes(`node ${block.name}`)),
        `${where(block)}: ${block.name} is run`,
      );
});

test('the page reader finds an unmarked block, an unknown marker, a wrong language and a command in variables', (t) => {
  const page = [
    '<!-- quickstart: run -->\n\n```sh\necho one\n```',
    '```sh\nunmarked\n```',
    '<!-- quickstart: runs -->\n```sh\necho two\n```',
    '<!-- quickstart: file a.mjs -->\n```sh\necho three\n```',
    '<!-- quickstart: output -->\nno block after it',
  ].join('\n\n');
  const { blocks, problems } = parsePage(page);
  t.deepEqual(problems, [
    'line 7: no marker',
    'line 12: unknown marker "runs"',
    'line 17: a file block is ```js, not ```sh',
    '1 marker(s) not followed by a block',
  ]);
  t.deepEqual(
    blocks.map((b) => [b.role, b.text]),
    [
      ['run', 'echo one'],
      ['file', 'echo three'],
    ],
  );
  const variables = (text: string): Block => ({ role: 'variables', line: 1, language: 'sh', text });
  t.deepEqual(variablesOf(variables('export A=http://x:1 B=2')), { A: 'http://x:1', B: '2' });
  t.throws(() => variablesOf(variables('export A=1; rm -rf x')), { message: /only `export NAME=value/ });
  t.deepEqual(missingLines('a ... c\n...\nzz', 'a b c\nother'), ['zz']);
});

test('the quickstart runs as written: npm start, a token, a card sale, a refund, verified webhooks', async (t) => {
  t.timeout(deadline(240_000), 'npm start compiles four processes under tsx');
  const { blocks, problems } = parsePage(readPage());
  if (problems.length) return t.fail(problems.join('\n'));
  const [port, sandboxPort, receiverPort] = [await freePort(), await freePort(), await freePort()];
  const variables = { BASE_URL: `http://127.0.0.1:${port}`, RECEIVER_PORT: String(receiverPort) };
  const stackEnvironment = {
    ...shellEnvironment(),
    PORT: String(port),
    SANDBOX_PORT: String(sandboxPort),
  };
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'quickstart-'));
  const clone = cloneOfCheckout(workspace);
  let stack: Terminal | undefined;
  let reader: Terminal | undefined;
  let current: Terminal | undefined;
  try {
    for (const [index, block] of blocks.entries()) {
      if (block.role === 'stack') {
        current = stack = new Terminal('npm-start', ['-c', block.text], clone, stackEnvironment);
        // Ready as the page says: web listening on its address, worker ready.
        const listening = `web listening on ${variables.BASE_URL}`;
        const ready = () => stack!.output.includes(listening) && /worker\s+\|.*worker ready/.test(stack!.output);
        await eventually(() => !stack!.running || ready(), 120_000, 200);
        if (!stack.running) throw new Error(`${where(block)}: npm start ended:\n${tail(stack.output)}`);
      } else if (block.role === 'variables') {
        t.deepEqual(Object.keys(variablesOf(block)).sort(), Object.keys(variables).sort(), where(block));
      } else if (block.role === 'file') {
        fs.writeFileSync(path.join(clone, block.name), `${block.text}\n`);
      } else if (block.role === 'run') {
        reader ??= new Terminal('reader', ['-euo', 'pipefail', '-s'], clone, { ...shellEnvironment(), ...variables });
        current = reader;
        const file = path.join(workspace, `block-${index}.sh`);
        fs.writeFileSync(file, `${block.text}\n`);
        const done = `@@ quickstart block ${index} done`;
        reader.child.stdin!.write(`source ${file} </dev/null\necho '${done}'\n`);
        await eventually(() => !reader!.running || reader!.output.includes(done), 60_000, 100);
        if (!reader.running) throw new Error(`${where(block)}: the block failed:\n${tail(reader.output)}`);
      } else if (block.role === 'output') {
        const terminal = current!;
        await eventually(() => missingLines(block.text, terminal.output).length === 0, 30_000, 200).catch(() => {
          const missing = missingLines(block.text, terminal.output).join('\n');
          throw new Error(
            `${where(block)}: never printed\n${missing}\n--- the terminal printed:\n${tail(terminal.output)}`,
          );
        });
      }
    }
    // The reader's terminal closes; its background receiver was stopped by the page's `kill %1`.
    reader?.child.stdin!.end();
    if (reader) {
      await eventually(() => reader!.closed, 20_000).catch(() => {
        throw new Error(`the reader's terminal still runs a job after the page's last block:\n${tail(reader!.output)}`);
      });
      t.is(await reader.exited, 0, tail(reader.output));
    }
    // Ctrl-C in the first terminal stops the stack and every process it started.
    stack!.signal('SIGINT');
    await eventually(() => stack!.closed, 30_000);
    t.is(startedPids(stack!).length, 4, tail(stack!.output));
    await eventually(() => startedPids(stack!).every((pid) => !alive(pid)), 20_000);
  } finally {
    // After a failure: what a reader's Ctrl-C would stop, then whatever is left.
    for (const terminal of [reader, stack]) {
      if (!terminal || terminal.closed) continue;
      terminal.signal('SIGINT');
      await eventually(() => terminal.closed, 30_000).catch(() => terminal.signal('SIGKILL'));
    }
    for (const pid of stack ? startedPids(stack) : []) if (alive(pid)) process.kill(pid, 'SIGKILL');
    fs.rmSync(workspace, { recursive: true, force: true });
  }
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The processes npm start said it started. */
const startedPids = (stack: Terminal) =>
  [...stack.output.matchAll(/\[start\] \S+ started \(pid (\d+)\)/g)].map((match) => Number(match[1]));
