/** One request to a running app or process, read whole: for tests that look at answers which may not be JSON. */

export interface CallResult {
  status: number;
  headers: Headers;
  /** The answer's body as sent. */
  text: string;
  /** The body parsed as JSON, or the text itself where it is not JSON (an HTML error page, an empty body). */
  body: any;
}

/**
 * Sends `body` as JSON (a string goes as it is, for bodies that must fail to parse) with a JSON content type,
 * to `target.url` + `path`: `target` is a TestApp or a RunningProcess.
 */
export async function call(
  target: { url: string },
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<CallResult> {
  const res = await fetch(`${target.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: any;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
}
