/**
 * Services a fault test owns and may stop and start: a redis-server with AOF on (so what was
 * queued survives its restart, as in production) and a FerretDB with its own SQLite folder.
 * Each listens on its own free loopback port; the machine's shared services are never touched.
 */
import { getConfig } from '../../config';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureFerretBinary, mongoAnswers, redisAnswers } from '../../src/devstack/services';
import { eventually, freePort } from '../helpers/processes';
import {
  pingRedis,
  REDIS_ACL_PASSWORD,
  REDIS_ACL_USER,
  securedRedisArguments,
  type TestPki,
} from '../helpers/redis-security';
import { useServices } from '../helpers/services';

abstract class OwnedService {
  private child?: ChildProcess;
  readonly dir: string;

  constructor(
    readonly kind: string,
    readonly port: number,
  ) {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), `fault-${kind}-`));
  }

  protected abstract command(): [string, string[]];
  abstract answers(): Promise<boolean>;

  async start(): Promise<void> {
    const [bin, args] = this.command();
    const log = fs.openSync(path.join(this.dir, `${this.kind}.log`), 'a');
    this.child = spawn(bin, args, { stdio: ['ignore', log, log] });
    fs.closeSync(log);
    await eventually(() => this.answers(), 30_000, 200);
  }

  /** A crash (SIGKILL): nothing is flushed; what the service had not persisted is lost. */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  /** Graceful stop (SIGTERM): Redis writes its AOF, FerretDB closes its SQLite files. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  }

  async destroy(): Promise<void> {
    await this.stop();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * How an owned Redis keeps its data: AOF fsynced on every write (the default here), AOF fsynced every
 * second (docs/deploy.md's recommendation: a crash may lose the last second), or nothing at all.
 */
export type RedisPersistence = 'aof-always' | 'aof-everysec' | 'none';

export class OwnedRedis extends OwnedService {
  constructor(
    port: number,
    public persistence: RedisPersistence = 'aof-always',
  ) {
    super('redis', port);
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  protected command(): [string, string[]] {
    return [
      'redis-server',
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        this.persistence === 'none' ? 'no' : 'yes',
        '--appendfsync',
        this.persistence === 'aof-everysec' ? 'everysec' : 'always',
        '--dir',
        this.dir,
        '--maxmemory-policy',
        'noeviction',
      ],
    ];
  }

  answers(): Promise<boolean> {
    return redisAnswers(this.url);
  }
}

/** A Redis reached only over TLS with a client certificate and a password (test/helpers/redis-security.ts). */
export class SecuredOwnedRedis extends OwnedService {
  constructor(
    port: number,
    readonly pki: TestPki,
  ) {
    super('secured-redis', port);
  }

  protected command(): [string, string[]] {
    return ['redis-server', [...securedRedisArguments(this.port, this.pki, 'yes'), '--save', '', '--dir', this.dir]];
  }

  async answers(): Promise<boolean> {
    const tls = { ca: this.pki.ca, cert: this.pki.clientCert, key: this.pki.clientKey };
    return (await pingRedis(this.port, { tls, username: REDIS_ACL_USER, password: REDIS_ACL_PASSWORD })) === 'PONG';
  }
}

export class OwnedFerretDB extends OwnedService {
  constructor(port: number) {
    super('ferretdb', port);
  }

  uri(database: string): string {
    return `mongodb://127.0.0.1:${this.port}/${database}`;
  }

  protected command(): [string, string[]] {
    const sqlite = path.join(this.dir, 'sqlite') + '/';
    const state = path.join(this.dir, 'state');
    fs.mkdirSync(sqlite, { recursive: true });
    fs.mkdirSync(state, { recursive: true });
    return [
      ensureFerretBinary(),
      [
        '--handler=sqlite',
        `--sqlite-url=file:${sqlite}`,
        `--listen-addr=127.0.0.1:${this.port}`,
        `--state-dir=${state}`,
        '--telemetry=disable',
        '--log-level=warn',
        '--debug-addr=-',
      ],
    ];
  }

  answers(): Promise<boolean> {
    return mongoAnswers(this.uri('admin'));
  }
}

export function redisServerInstalled(): boolean {
  return spawnSync('redis-server', ['--version']).status === 0;
}

/**
 * A test-owned Redis for the whole file, started before anything loads the config: REDIS_URL
 * points at it, so this process and every process the file starts use it.
 */
export async function ownRedisForThisFile(): Promise<OwnedRedis> {
  const redis = new OwnedRedis(await freePort());
  await redis.start();
  process.env.REDIS_URL = redis.url;
  if (getConfig().redisUrl !== redis.url) throw new Error('config was loaded before the owned Redis was set');
  return redis;
}

/**
 * The hooks of a file whose processes all run on a Redis of its own (ownRedisForThisFile), destroyed
 * after its tests; `owned.redis` is set once the hooks ran.
 */
export function useServicesOnOwnedRedis(): { redis: OwnedRedis } {
  const owned = {} as { redis: OwnedRedis };
  useServices({
    setUp: async () => {
      owned.redis = await ownRedisForThisFile();
    },
    tearDown: async () => {
      await owned.redis?.destroy();
    },
  });
  return owned;
}
