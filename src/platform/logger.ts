/**
 * pino JSON-lines logger. Redaction is by key (authorization, passwords, tokens, card data) and,
 * as a last line of defence, by value: anything shaped like a card number is masked.
 */
import { context, isSpanContextValid, trace } from '@opentelemetry/api';
import pino from 'pino';

const SENSITIVE_KEYS = [
  'authorization',
  'cookie',
  'password',
  'token',
  'access',
  'refresh',
  'secret',
  'card',
  'cardNumber',
  'CardNumber',
  'cvv',
  'CVV',
  'SecurityCode',
  'securityCode',
  'encryptedCard',
  'encrypted_card',
  'MerchantKey',
  'merchantKey',
  'client_secret',
  'access_token',
  'systemToken',
  'file',
  'evidence',
];

export const REDACT_PATHS = [
  ...SENSITIVE_KEYS,
  ...SENSITIVE_KEYS.map((k) => `*.${k}`),
  ...SENSITIVE_KEYS.map((k) => `*.*.${k}`),
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-merchant-token"]',
];

const CARD_LIKE = /\b(?:\d[ -]?){13,19}\b/g;

/** Masks runs of 13-19 digits (card-number shaped) wherever they appear in a string. */
export function maskCardNumbers(text: string): string {
  return text.replace(CARD_LIKE, (match) => `[masked ****${match.replace(/\D/g, '').slice(-4)}]`);
}

/**
 * Tests keep each process's logs in a file and print them only when a test fails
 * (test/helpers/test-logs.ts): TEST_LOG_FILE is where, honoured only under NODE_ENV=test and only
 * by the process TEST_LOG_PID names (child processes inherit both, and their starters read their
 * logs on stdout). Production always logs to stdout.
 */
function testLogFile(): string | undefined {
  const { NODE_ENV, TEST_LOG_FILE, TEST_LOG_PID } = process.env;
  return NODE_ENV === 'test' && TEST_LOG_FILE && Number(TEST_LOG_PID) === process.pid ? TEST_LOG_FILE : undefined;
}

/** trace_id and span_id of the span active where a line is logged (traces on, src/platform/tracing.ts). */
function traceIds(): { trace_id?: string; span_id?: string } {
  const span = trace.getSpan(context.active());
  const ids = span?.spanContext();
  return ids && isSpanContextValid(ids) ? { trace_id: ids.traceId, span_id: ids.spanId } : {};
}

/** `destination` is for tests that read the lines a logger writes; processes log to stdout (or TEST_LOG_FILE). */
export function createLogger(
  name: string,
  level = process.env.LOG_LEVEL || 'info',
  destination?: pino.DestinationStream,
) {
  const options: pino.LoggerOptions = {
    name,
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    formatters: { level: (label) => ({ level: label }) },
    mixin: traceIds,
    hooks: {
      logMethod(args, method) {
        const masked = args.map((a) => (typeof a === 'string' ? maskCardNumbers(a) : a)) as typeof args;
        return method.apply(this, masked);
      },
    },
    serializers: {
      err: (err: Error) => ({
        type: err?.name,
        message: maskCardNumbers(String(err?.message ?? err)),
        stack: err?.stack,
      }),
    },
  };
  if (destination) return pino(options, destination);
  const file = testLogFile();
  return file ? pino(options, pino.destination({ dest: file, append: true, mkdir: true, sync: true })) : pino(options);
}

export type Logger = ReturnType<typeof createLogger>;

export const logger = createLogger(process.env.PROCESS_NAME || 'app');
