/** @module http/body — reads a JSON request body: media type, then UTF-8, depth and syntax (size is bodyLimit's job). */
import type { Context } from "hono";
import { UnsupportedMediaTypeError, ValidationError } from "../errors.js";

const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
// `fatal`: bytes that are not UTF-8 are the client's mistake (400), never silently turned into U+FFFD.
// A leading BOM is dropped, as `Response.text()` does and RFC 8259 allows.
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Deepest nesting of arrays and objects a JSON body may have: far beyond any real payload, far
 * below the depth at which `JSON.stringify` (answering it, storing a manual signal's payload)
 * overflows the stack, which would make a stored item unreadable.
 */
export const MAX_JSON_DEPTH = 128;

/** The 400 message for a body nested deeper than {@link MAX_JSON_DEPTH}. */
export const TOO_DEEP_MESSAGE = `JSON body is nested more than ${MAX_JSON_DEPTH} levels deep`;

/**
 * The parsed JSON body; 415 when the request does not say it is JSON, 400 when it is not UTF-8,
 * nested deeper than {@link MAX_JSON_DEPTH} or not valid JSON. Duplicate keys are not an error:
 * the last one wins, as in `JSON.parse`.
 * @example const input = parseWith(createIssueBody, await readJsonBody(c), "body");
 */
export async function readJsonBody(c: Context): Promise<unknown> {
  if (!JSON_MEDIA_TYPE.test(c.req.header("Content-Type") ?? "")) {
    throw new UnsupportedMediaTypeError("application/json");
  }
  // The bytes, not `c.req.text()`: the idempotency middleware may already have read them, and Hono's
  // cached text is decoded leniently.
  const text = decodeUtf8(new Uint8Array(await c.req.arrayBuffer()));
  if (text.trim() === "") throw new ValidationError("Request body is empty; expected a JSON object");
  if (nestedDeeperThan(text, MAX_JSON_DEPTH)) throw new ValidationError(TOO_DEEP_MESSAGE);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ValidationError("Malformed JSON body", [{ path: "", message: (error as Error).message }]);
  }
}

function decodeUtf8(bytes: Uint8Array): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new ValidationError("Request body is not valid UTF-8");
  }
}

// The characters that matter to nesting, as UTF-16 code units: " \ [ ] { }
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether JSON text nests arrays and objects deeper than `max` (brackets inside strings do not
 * count): one pass that stops at the first level too deep, so nothing deep is ever built.
 * @example nestedDeeperThan('{"a":[1]}', 1) // true
 */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === BACKSLASH) i++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      depth++;
      if (depth > max) return true;
    } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) depth--;
  }
  return false;
}
