/** The one way tests send a request to a running app or process (`target` is a TestApp or a RunningProcess). */

export interface CallResult {
  status: number;
  headers: Headers;
  /** The answer's body as sent, decoded as UTF-8. */
  text: string;
  /** The answer's body as sent, byte for byte (a document download). */
  bytes: Buffer;
  /** The body parsed as JSON, or the text itself where it is not JSON (an HTML error page, an empty body). */
  body: any;
}

/** Request headers; one given as undefined is not sent (`{ 'content-type': undefined }`: no content type). */
export type RequestHeaders = Record<string, string | undefined>;

/**
 * Sends `body`, if any, as JSON (a string or bytes go as they are: bodies that must fail to parse, compressed or signed
 * ones) with a JSON content type
 * (`headers` may replace or drop it), to `target.url` + `path`, and gives the answer as the app sent it (a redirect
 * is not followed) and as fetch reads it: for a test that reads the answer while it streams. `call` reads it whole.
 */
export function send(
  target: { url: string },
  method: string,
  path: string,
  headers: RequestHeaders = {},
  body?: unknown,
): Promise<Response> {
  const contentType = body === undefined ? {} : { 'content-type': 'application/json' };
  const sent = Object.entries({ ...contentType, ...headers }).filter(
    (header): header is [string, string] => header[1] !== undefined,
  );
  return fetch(`${target.url}${path}`, {
    method,
    headers: sent,
    redirect: 'manual',
    body:
      body === undefined
        ? undefined
        : typeof body === 'string' || body instanceof Uint8Array
          ? body
          : JSON.stringify(body),
  });
}

/** `send`, with the answer read whole: for tests that look at answers which may not be JSON. */
export async function call(
  target: { url: string },
  method: string,
  path: string,
  headers: RequestHeaders = {},
  body?: unknown,
): Promise<CallResult> {
  const res = await send(target, method, path, headers, body);
  const bytes = Buffer.from(await res.arrayBuffer());
  // What res.text() gives: UTF-8, a byte order mark dropped.
  const text = new TextDecoder().decode(bytes);
  let parsed: any;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { status: res.status, headers: res.headers, text, bytes, body: parsed };
}

/** `call`, for an answer that must be JSON: any other body fails the test, naming the status and the text. */
export async function callJson(
  target: { url: string },
  method: string,
  path: string,
  headers: RequestHeaders = {},
  body?: unknown,
): Promise<CallResult> {
  const result = await call(target, method, path, headers, body);
  try {
    JSON.parse(result.text);
  } catch {
    throw new Error(`not JSON (${result.status}): ${result.text.slice(0, 300)}`);
  }
  return result;
}
