/**
 * A real Redis Cluster owned by one test file: six redis-server processes on free loopback ports
 * (cluster mode, AOF on, each in its own temporary folder), joined by `redis-cli --cluster create`
 * into three masters with one replica each. A short cluster-node-timeout makes a failover take
 * seconds. Every node is killed and its folder removed at the end, also if the file crashes.
 *
 * Secured, as production should run it: a password on every node (requirepass, and masterauth so
 * replicas can follow their master), and with a test CA TLS only: clients, the cluster bus and
 * replication all speak TLS, no plain port is open.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eventually } from '../helpers/processes';
import type { TestPki } from '../helpers/redis-security';

const run = promisify(execFile);

/** How long a master may be unreachable before the cluster fails it over to its replica. */
export const CLUSTER_NODE_TIMEOUT_MS = 2000;

interface ClusterNode {
  port: number;
  dir: string;
  child: ChildProcess;
}

async function portIsFree(port: number): Promise<boolean> {
  const server = net.createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A free port whose cluster bus port (port + 10000) is free too, both below Linux's ephemeral range
 * (32768 and up), so no outgoing connection takes one between this check and the node's start.
 */
async function freeClusterPort(taken: Set<number>): Promise<number> {
  for (let tries = 0; tries < 200; tries++) {
    const port = 10_000 + Math.floor(Math.random() * 12_700);
    if (taken.has(port) || taken.has(port + 10_000) || taken.has(port - 10_000)) continue;
    if ((await portIsFree(port)) && (await portIsFree(port + 10_000))) {
      taken.add(port);
      return port;
    }
  }
  throw new Error('no free pair of ports for a cluster node');
}

export interface ClusterSecurity {
  /** requirepass and masterauth of every node. */
  password?: string;
  /** TLS only, with this CA's server certificate (client certificates optional). */
  pki?: TestPki;
}

function securityArguments({ password, pki }: ClusterSecurity, port: number): string[] {
  const auth = password ? ['--requirepass', password, '--masterauth', password] : [];
  if (!pki) return ['--port', String(port), ...auth];
  // prettier-ignore
  return [
    '--port', '0', '--tls-port', String(port), '--tls-cluster', 'yes', '--tls-replication', 'yes',
    '--tls-cert-file', pki.serverCertFile, '--tls-key-file', pki.serverKeyFile, '--tls-ca-cert-file', pki.caFile,
    '--tls-auth-clients', 'optional', ...auth,
  ];
}

/** redis-cli on a node, with the cluster's TLS and password (REDISCLI_AUTH keeps the password off the command). */
async function cli(security: ClusterSecurity, args: string[]): Promise<string> {
  const tls = security.pki ? ['--tls', '--cacert', security.pki.caFile] : [];
  const { stdout } = await run('redis-cli', [...tls, ...args], {
    timeout: 60_000,
    env: { ...process.env, ...(security.password ? { REDISCLI_AUTH: security.password } : {}) },
  });
  return stdout.trim();
}

const alive = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of alive) child.kill('SIGKILL');
});

export class OwnedRedisCluster {
  private constructor(
    readonly nodes: ClusterNode[],
    readonly security: ClusterSecurity,
  ) {}

  static async start(size = 6, security: ClusterSecurity = {}): Promise<OwnedRedisCluster> {
    const taken = new Set<number>();
    const nodes: ClusterNode[] = [];
    for (let i = 0; i < size; i++) {
      const port = await freeClusterPort(taken);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), `cluster-redis-${port}-`));
      const log = fs.openSync(path.join(dir, 'redis.log'), 'a');
      // prettier-ignore
      const child = spawn('redis-server', [
        ...securityArguments(security, port), '--bind', '127.0.0.1', '--dir', dir,
        '--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf',
        '--cluster-node-timeout', String(CLUSTER_NODE_TIMEOUT_MS),
        '--appendonly', 'yes', '--appendfsync', 'everysec', '--save', '', '--maxmemory-policy', 'noeviction',
      ], { stdio: ['ignore', log, log] });
      fs.closeSync(log);
      alive.add(child);
      child.once('exit', () => alive.delete(child));
      nodes.push({ port, dir, child });
    }
    const cluster = new OwnedRedisCluster(nodes, security);
    try {
      await Promise.all(
        nodes.map((n) => eventually(async () => (await cluster.redisCli(n.port, 'ping')) === 'PONG', 20_000, 100)),
      );
      const addresses = nodes.map((n) => `127.0.0.1:${n.port}`);
      await cli(security, ['--cluster', 'create', ...addresses, '--cluster-replicas', '1', '--cluster-yes']);
      await cluster.waitUntilHealthy();
    } catch (error) {
      await cluster.destroy();
      throw error;
    }
    return cluster;
  }

  /** REDIS_CLUSTER_NODES for our processes: a few seed nodes are enough, ioredis learns the rest. */
  get seedNodes(): string {
    return this.nodes
      .slice(0, 3)
      .map((n) => `127.0.0.1:${n.port}`)
      .join(',');
  }

  /**
   * What our processes need to use the cluster: the seed nodes, and REDIS_URL for its scheme and
   * credentials (its host is not used with REDIS_CLUSTER_NODES) and the CA that signed the nodes.
   */
  get environment(): Record<string, string> {
    const { password, pki } = this.security;
    const scheme = pki ? 'rediss' : 'redis';
    return {
      REDIS_CLUSTER_NODES: this.seedNodes,
      REDIS_URL: `${scheme}://${password ? `:${encodeURIComponent(password)}@` : ''}127.0.0.1:${this.nodes[0].port}`,
      ...(pki ? { REDIS_TLS_CA: pki.ca } : {}),
    };
  }

  async redisCli(port: number, ...args: string[]): Promise<string> {
    return cli(this.security, ['-h', '127.0.0.1', '-p', String(port), ...args]);
  }

  private living(): ClusterNode[] {
    return this.nodes.filter((n) => n.child.exitCode === null && n.child.signalCode === null);
  }

  /** Every living node says cluster_state:ok and every slot is served. */
  async waitUntilHealthy(timeoutMs = 30_000): Promise<void> {
    await eventually(
      async () => {
        for (const node of this.living()) {
          const info = await this.redisCli(node.port, 'cluster', 'info');
          if (!/cluster_state:ok/.test(info) || !/cluster_slots_ok:16384/.test(info)) return false;
        }
        return true;
      },
      timeoutMs,
      200,
    );
  }

  async keyslot(key: string): Promise<number> {
    return Number(await this.redisCli(this.living()[0].port, 'cluster', 'keyslot', key));
  }

  /** The port of the master serving `slot`, as a living node sees the cluster now. */
  async masterOf(slot: number): Promise<number> {
    for (const node of this.living()) {
      const lines = (await this.redisCli(node.port, 'cluster', 'nodes')).split('\n');
      for (const line of lines) {
        const [, address, flags, , , , , state, ...ranges] = line.split(' ');
        if (!flags.split(',').includes('master') || flags.includes('fail') || state !== 'connected') continue;
        const serves = ranges.some((range) => {
          if (range.startsWith('[')) return false;
          const [from, to = from] = range.split('-').map(Number);
          return slot >= from && slot <= to;
        });
        if (serves) return Number(address.split('@')[0].split(':')[1]);
      }
    }
    throw new Error(`no living master serves slot ${slot}`);
  }

  /** SIGKILL: the node dies without writing anything more, as a lost machine does. */
  async kill(port: number): Promise<void> {
    const node = this.nodes.find((n) => n.port === port);
    if (!node) throw new Error(`no node on port ${port}`);
    const exited = new Promise((resolve) => node.child.once('exit', resolve));
    node.child.kill('SIGKILL');
    await exited;
  }

  async destroy(): Promise<void> {
    await Promise.all(
      this.nodes.map(async (node) => {
        if (node.child.exitCode === null && node.child.signalCode === null) {
          const exited = new Promise((resolve) => node.child.once('exit', resolve));
          node.child.kill('SIGKILL');
          await exited;
        }
        fs.rmSync(node.dir, { recursive: true, force: true });
      }),
    );
  }
}
