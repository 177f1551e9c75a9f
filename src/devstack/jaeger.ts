/** Jaeger (a trace store, for OpenTelemetry traces) on loopback ports: `npm run services -- jaeger`, and the tests. */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { JAEGER_VERSION, ensureJaegerBinary } from './go-builds';
import { DATA_DIR, openLog, remember, say, tcpOpen, waitFor, type StartedService } from './service-kit';

export interface JaegerPorts {
  /** OTLP over HTTP (the SDK's OTEL_EXPORTER_OTLP_ENDPOINT). */
  otlpHttp: number;
  /** The query HTTP API and UI. */
  query: number;
  /** The query gRPC API (unused by us, but it listens). */
  queryGrpc: number;
}

export const DEFAULT_JAEGER_PORTS: JaegerPorts = { otlpHttp: 4318, query: 16686, queryGrpc: 16685 };

/**
 * Our Jaeger v2 configuration: the all-in-one's (cmd/jaeger/internal/all-in-one.yaml) cut down to an OTLP/HTTP
 * receiver, memory storage and the query API, on loopback ports of our choosing, without its own metrics listener.
 */
export function jaegerConfig(ports: JaegerPorts): string {
  return [
    'service:',
    '  extensions: [jaeger_storage, jaeger_query]',
    '  pipelines:',
    '    traces:',
    '      receivers: [otlp]',
    '      processors: [batch]',
    '      exporters: [jaeger_storage_exporter]',
    '  telemetry:',
    '    metrics:',
    '      level: none',
    '    logs:',
    '      level: warn',
    'extensions:',
    '  jaeger_query:',
    '    storage:',
    '      traces: memstore',
    '    http:',
    `      endpoint: 127.0.0.1:${ports.query}`,
    '    grpc:',
    `      endpoint: 127.0.0.1:${ports.queryGrpc}`,
    '  jaeger_storage:',
    '    backends:',
    '      memstore:',
    '        memory:',
    '          max_traces: 100000',
    'receivers:',
    '  otlp:',
    '    protocols:',
    '      http:',
    `        endpoint: 127.0.0.1:${ports.otlpHttp}`,
    'processors:',
    '  batch:',
    '    timeout: 200ms',
    'exporters:',
    '  jaeger_storage_exporter:',
    '    trace_storage: memstore',
    '',
  ].join('\n');
}

export interface StartedJaeger extends StartedService {
  /** OTEL_EXPORTER_OTLP_ENDPOINT for our processes. */
  otlpUrl: string;
  /** Query API and UI: /api/services, /api/traces?service=..., /search. */
  queryUrl: string;
}

/** Starts Jaeger (memory storage) on the given loopback ports and waits until its query API answers. */
export async function startJaeger(ports: JaegerPorts, detached: boolean): Promise<StartedJaeger> {
  const binary = await ensureJaegerBinary();
  fs.mkdirSync(DATA_DIR, { recursive: true });
  const config = path.join(DATA_DIR, `jaeger-${ports.otlpHttp}.yaml`);
  fs.writeFileSync(config, jaegerConfig(ports));
  const log = openLog(detached ? 'jaeger' : `jaeger-${ports.otlpHttp}`);
  const child = spawn(binary, ['--config', config], { stdio: ['ignore', log, log], detached });
  fs.closeSync(log);
  const queryUrl = `http://127.0.0.1:${ports.query}`;
  const answers = async () => {
    try {
      return (await fetch(`${queryUrl}/api/services`)).ok && (await tcpOpen('127.0.0.1', ports.otlpHttp));
    } catch {
      return false;
    }
  };
  await waitFor('Jaeger', answers, 30_000, child);
  say(`Jaeger ${JAEGER_VERSION} up: OTLP http://127.0.0.1:${ports.otlpHttp}, UI ${queryUrl} (pid ${child.pid})`);
  return { ...remember('jaeger', child, detached), otlpUrl: `http://127.0.0.1:${ports.otlpHttp}`, queryUrl };
}
