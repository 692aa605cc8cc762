/** @module http/body — reads a JSON request body: media type, then syntax (size is bodyLimit's job). */
import type { Context } from "hono";
import { UnsupportedMediaTypeError, ValidationError } from "../errors.js";

const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * The parsed JSON body; 415 when the request does not say it is JSON, 400 when it is not valid JSON.
 * @example const input = parseWith(createIssueBody, await readJsonBody(c), "body");
 */
export async function readJsonBody(c: Context): Promise<unknown> {
  if (!JSON_MEDIA_TYPE.test(c.req.header("Content-Type") ?? "")) {
    throw new UnsupportedMediaTypeError("application/json");
  }
  const text = await c.req.text();
  if (text.trim() === "") throw new ValidationError("Request body is empty; expected a JSON object");
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ValidationError("Malformed JSON body", [{ path: "", message: (error as Error).message }]);
  }
}
