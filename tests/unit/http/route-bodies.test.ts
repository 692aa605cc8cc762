/**
 * A route that declares no body takes none (docs/api.md#envelopes): sent nothing, or `{}`, its handler
 * runs; anything else is refused before it, as a route with a strict body refuses it. Over every such
 * route of the table, each handler replaced by one that says it ran; the remote MCP endpoint and the
 * receivers read their bodies themselves. No database: no handler reads the table.
 */
import { describe, expect, it } from "vitest";
import { ALL_FAMILIES } from "../../../client/mcp/all-families.js";
import { type AppDeps, createHttpApp, type FamilyModules, familyModule } from "../../../core/src/http/app.js";
import { callerChecks } from "../../../core/src/http/caller-checks.js";
import type { ReachLookups } from "../../../core/src/http/reach.js";
import { createDb, loadConfig } from "../../../core/src/index.js";

const config = loadConfig({ env: { TABLE_NAME: "unused" } });
const deps: AppDeps = {
  config: {
    ...config,
    serviceApiKey: `kaizen_${"ab".repeat(32)}`,
    webhookSecrets: { codehost: "secret", errortracker: "secret", analytics: "secret" },
  },
  // Never called: nothing here reads or writes the table.
  db: createDb({ tableName: "unused", region: "us-east-1", endpoint: "http://127.0.0.1:9" }),
};
const AUTH = { Authorization: `Bearer ${deps.config.serviceApiKey}` };

/** The routes whose handler ran, by key. */
const ran: string[] = [];
// The root key reaches everything: no lookup is asked, but every family must be given its own.
const nowhere = async () => undefined;
const everyLookup = (): ReachLookups => ({
  issue: nowhere,
  dispatch: nowhere,
  prompt: nowhere,
  signal: nowhere,
  relation: nowhere,
  dispatchOf: { issue: nowhere, prompt: nowhere },
});
const families = Object.fromEntries(
  Object.entries(ALL_FAMILIES).map(([family, module]) => {
    const handlers = () =>
      Object.fromEntries(
        Object.keys(module.routes).map((key) => [
          key,
          () => {
            ran.push(key);
            return Response.json({ data: key });
          },
        ]),
      ) as never;
    return [family, familyModule(module.routes, everyLookup, handlers)];
  }),
) as FamilyModules;
const app = createHttpApp(families, deps, { callers: callerChecks(deps) });

type Declared = { auth: string; body?: unknown };
const declarations = Object.values(ALL_FAMILIES).flatMap((module) =>
  Object.entries(module.routes as Record<string, Declared>),
);
/** Bearer routes that change something and declare no body, but the remote MCP endpoint (JSON-RPC). */
const bodiless = declarations
  .filter(([key, declaration]) => declaration.auth === "bearer" && !key.startsWith("GET ") && !declaration.body)
  .map(([key]) => key)
  .filter((key) => key !== "POST /mcp");

function send(key: string, body: string | undefined, contentType = "application/json") {
  const [method = "", pattern = ""] = key.split(" ");
  const path = pattern.replace(/:(\w+)/g, "$1_01J0000000000000000000000A");
  return app.request(path, {
    method,
    headers: { ...AUTH, ...(body === undefined ? {} : { "Content-Type": contentType }) },
    ...(body === undefined ? {} : { body }),
  });
}

async function answer(key: string, body: string | undefined, contentType?: string) {
  const before = ran.length;
  const response = await send(key, body, contentType);
  return { status: response.status, body: await response.json(), ran: ran.length > before };
}

describe("a route that declares no body", () => {
  it("is every bearer route that changes something without a body but the remote MCP endpoint", () => {
    expect(bodiless).toEqual(
      expect.arrayContaining([
        "POST /api/dispatch/:id/release",
        "POST /api/templates/:id/versions/:versionId/promote",
        "POST /api/event-destinations/:id/rotate-secret",
        "POST /api/event-destinations/:id/deliveries/:deliveryId/retry",
        "DELETE /api/issues/:id",
      ]),
    );
  });

  it("runs its handler when sent no bytes, or `{}`", async () => {
    for (const key of bodiless) {
      expect(await answer(key, undefined), key).toEqual({ status: expect.any(Number), body: { data: key }, ran: true });
      expect(await answer(key, ""), key).toMatchObject({ body: { data: key }, ran: true });
      expect(await answer(key, "{}"), key).toMatchObject({ body: { data: key }, ran: true });
      expect(await answer(key, " { } \n"), key).toMatchObject({ body: { data: key }, ran: true });
    }
  });

  it("refuses fields as a strict schema does, unknown fields with `details`, and runs nothing", async () => {
    for (const key of bodiless) {
      expect(await answer(key, '{"bogus":true}'), key).toEqual({
        status: 400,
        body: { error: "unknown field: bogus", details: [{ path: "", message: "unknown field: bogus" }] },
        ran: false,
      });
      expect(await answer(key, '{"a":1,"b":null}'), key).toEqual({
        status: 400,
        body: { error: "unknown fields: a, b", details: [{ path: "", message: "unknown fields: a, b" }] },
        ran: false,
      });
    }
  });

  it("refuses what is not a JSON object with the 400 (or 415) a route with a strict body gives", async () => {
    // `POST /api/labels` declares a strict body: what it answers to each of these is the rule.
    const sent: [string, string?][] = [
      ["notjson"],
      ["{"],
      ["[]"],
      ["3"],
      ["null"],
      ['"text"'],
      // Whitespace alone is a body, and not JSON: an empty body is no bytes at all.
      [" \n"],
      ['{"bogus":true}', "text/plain"],
      ["{}", "application/x-www-form-urlencoded"],
    ];
    for (const [body, contentType] of sent) {
      const strict = await answer("POST /api/labels", body, contentType);
      expect(strict.status, body).toBeGreaterThanOrEqual(400);
      expect(strict.ran).toBe(false);
      for (const key of bodiless) expect(await answer(key, body, contentType), `${key} ${body}`).toEqual(strict);
    }
    expect((await answer("POST /api/dispatch/:id/release", "notjson")).body).toMatchObject({
      error: "Malformed JSON body",
    });
    expect((await answer("POST /api/dispatch/:id/release", "[]")).status).toBe(400);
    expect((await answer("POST /api/dispatch/:id/release", "{}", "text/plain")).status).toBe(415);
  });

  it("leaves the remote MCP endpoint and the receivers their own bodies", async () => {
    for (const key of [
      "POST /mcp",
      "POST /api/signals/codehost",
      "POST /api/signals/errortracker",
      "POST /api/signals/analytics",
    ]) {
      expect(await answer(key, "notjson"), key).toMatchObject({ body: { data: key }, ran: true });
      expect(await answer(key, '{"jsonrpc":"2.0"}'), key).toMatchObject({ body: { data: key }, ran: true });
    }
  });
});
