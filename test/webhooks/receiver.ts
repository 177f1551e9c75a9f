/** A local webhook receiver for the tests of this folder: each path answers from its script of statuses. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** Each path answers from its script of statuses (the last one repeats; 0 never answers); 200 unscripted. */
export class Receiver {
  readonly received: Received[] = [];
  private scripts = new Map<string, number[]>();
  private server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      this.received.push({
        path,
        headers: req.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const script = this.scripts.get(path) ?? [200];
      const status = script.length > 1 ? script.shift()! : script[0];
      if (status === 0) return; // hang: never answer
      if (status >= 300 && status < 400) res.setHeader('location', `${path}-redirected`);
      res.writeHead(status).end('ok');
    });
  });
  port = 0;

  async start() {
    this.server.listen(0, '127.0.0.1');
    await new Promise((resolve) => this.server.once('listening', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  get host(): string {
    return `127.0.0.1:${this.port}`;
  }

  url(path: string, statuses: number[] = [200]): string {
    this.scripts.set(path, [...statuses]);
    return `http://${this.host}${path}`;
  }

  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  /** The webhook-id of every delivery received, in order. */
  ids(): string[] {
    return this.received.map((r) => r.headers['webhook-id']);
  }

  close() {
    this.server.closeAllConnections();
    this.server.close();
  }
}
