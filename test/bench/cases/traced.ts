/**
 * The `me` and pre-capture cases again, with the web process's traces on (OTEL_EXPORTER_OTLP_ENDPOINT set, every
 * span exported over OTLP: to the bench's sink, or a real Jaeger with BENCH_TRACES_TO=jaeger, see run.ts): beside
 * the same cases without, in the same run, they give what tracing costs.
 * The baselines are the same (bare Express, the sandbox), untraced; the sandbox stays untraced too.
 */
import { meCase } from './me';
import { salesCase } from './sales';
import type { BenchCase } from './types';

export const meTracedCase: BenchCase = {
  ...meCase,
  name: 'me-traced',
  route: `${meCase.route} (traced)`,
  traced: true,
};

export const salesTracedCase: BenchCase = {
  ...salesCase,
  name: 'sales-traced',
  route: `${salesCase.route} (traced)`,
  traced: true,
};
