/** What the route-table property tests share: random query strings, and the answer every request must get. */
import fc from "fast-check";
import type { Hono } from "hono";
import { expect } from "vitest";
import type { AppEnv } from "../../core/src/http/app.js";
import { AUTH } from "./app.js";

/** A query string of up to `maxKeys` parameters, named from `names` or at random. */
export function queryString(names: readonly string[], maxKeys: number) {
  return fc
    .dictionary(fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 5 })), fc.string({ maxLength: 30 }), {
      maxKeys,
    })
    .map((params) => new URLSearchParams(params).toString());
}

/**
 * Sends `payload` (JSON, or raw text when a string) with the method of the route to `path` and
 * checks the answer: never a 5xx, always the JSON envelope (`error` for 4xx, `data` otherwise).
 */
export async function expectEnvelopeAnswer(
  app: Hono<AppEnv>,
  method: string,
  path: string,
  search: string,
  payload: unknown,
): Promise<void> {
  const init: RequestInit = { method, headers: { ...AUTH } };
  if (method === "POST" || method === "PATCH") {
    Object.assign(init, {
      headers: { ...AUTH, "Content-Type": "application/json" },
      body: typeof payload === "string" ? payload : JSON.stringify(payload),
    });
  }
  const response = await app.request(`${path}${search ? `?${search}` : ""}`, init);
  expect(response.status, `${method} ${path}`).toBeLessThan(500);
  if (response.status === 204) return;
  expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
  const json = (await response.json()) as Record<string, unknown>;
  if (response.status >= 400) expect(typeof json.error).toBe("string");
  else expect(json).toHaveProperty("data");
}
