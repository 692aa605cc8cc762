/**
 * @module tests/integration/property/hostile-requests — every route of the route table, in process, under
 * hostile requests: odd methods, ids and paths (malformed percent-encoding, dot segments, very long
 * segments), query strings, headers (huge, duplicated, latin1, lying Content-Length) and bodies
 * (deep nesting, 1 MiB strings, bytes that are not UTF-8, duplicate keys, numbers beyond 2^53),
 * with the service key and without. Every answer is a 2xx/4xx with the JSON envelope, in time.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { BEARER_FAILURE_MESSAGE } from "../../../core/src/http/auth.js";
import { allRoutes, type RouteSpec, routeKey } from "../../../core/src/routes.js";
import { WEBHOOK_FAILURE_MESSAGE } from "../../../core/src/webhooks/routes.js";
import { type TestApp, testApp } from "../../helpers/app.js";
import { TEST_API_KEY } from "../../helpers/db.js";
import {
  answerWithin,
  expectEnvelope,
  type HostileBody,
  hostileBody,
  hostileQueryString,
  hostileSegment,
  type PropertyWorld,
  pathOnWorld,
  type RouteContract,
  routeContracts,
  routedPath,
  routePath,
  seedWorld,
  ulidLike,
} from "../../helpers/property.js";

/** Runs per route for each credential; the table has ~60 routes. */
const RUNS_PER_ROUTE = 25;
const RUNS_ACROSS_TABLE = 300;

const routes = allRoutes();
const QUERY_NAMES = ["page", "limit", "status", "type", "types", "priority", "projectId", "sort", "since", "agent"];
const HEADER_NAMES = [
  "Content-Type",
  "Content-Length",
  "Transfer-Encoding",
  "Content-Encoding",
  "Idempotency-Key",
  "If-Match",
  "If-None-Match",
  "Origin",
  "Accept",
  "Accept-Charset",
  "X-Forwarded-For",
  "X-Request-Id",
  "Cookie",
  "Expect",
  "Range",
  "Host",
  "X-Codehost-Signature-256",
  "X-Codehost-Event",
  "X-Codehost-Delivery",
  "X-Errortracker-Hook-Signature",
  "X-Errortracker-Hook-Resource",
  "Request-ID",
  "X-Analytics-Secret",
  "X-Analytics-Delivery",
];
const MIB = 1024 * 1024;

/**
 * A body each route accepts, for hostile values to ride in on one field past validation. A route
 * missing here still gets every other kind of body.
 */
const VALID_BODIES: Record<string, Record<string, unknown>> = {
  "POST /api/issues": { title: "Valid", type: "task" },
  "PATCH /api/issues/:id": { title: "Renamed" },
  "POST /api/issues/:id/comments": { body: "Hi", authorName: "fuzz", authorType: "agent" },
  "POST /api/issues/:id/relations": { type: "related", relatedIssueId: "KZN-2" },
  "POST /api/projects": { name: "Valid" },
  "PATCH /api/projects/:id": { name: "Renamed" },
  "POST /api/goals": { title: "Valid" },
  "PATCH /api/goals/:id": { title: "Renamed" },
  "POST /api/labels": { name: "valid", color: "#00aa00" },
  "POST /api/signals": { source: "fuzz", type: "edge", title: "Edge", severity: "low", payload: {} },
  "POST /api/templates": { slug: "fuzz-valid", name: "Valid", content: "Do {{issue.title}}" },
  "PATCH /api/templates/:id": { name: "Renamed" },
  "POST /api/templates/:id/versions": { content: "Do it" },
  "POST /api/prompts/:id/reviews": { clarity: 4, completeness: 4, relevance: 4, authorType: "agent" },
  "POST /api/dispatch/claim": { agent: "fuzz" },
  "POST /api/dispatch/:id/complete": { result: "done", summary: "Done" },
};

const latin1Text = fc.string({
  unit: fc
    .integer({ min: 0x20, max: 0xff })
    .filter((code) => code !== 0x7f)
    .map((code) => String.fromCharCode(code)),
  maxLength: 40,
});
const headerValue = fc.oneof(
  fc.constantFrom(
    "application/json",
    "application/json; charset=utf-8",
    "application/json; charset=iso-8859-1",
    "APPLICATION/JSON",
    "application/vnd.api+json",
    "application/jsonx",
    "application/json;;;",
    "text/plain",
    "multipart/form-data; boundary=x",
    "application/x-www-form-urlencoded",
    "",
    "*/*",
    "0",
    "1",
    "-1",
    "abc",
    "99999999999999999999",
    "1e3",
    "chunked",
    "gzip",
    "gzip, chunked",
    "*",
    '"1"',
    'W/"1"',
    '"1", "2"',
    '"99999999999999999999"',
    "100-continue",
    "bytes=0-1",
    "null",
    "sha256=",
    "kzd_",
  ),
  latin1Text,
  ulidLike,
  fc.constantFrom("x".repeat(8192), "y".repeat(65_536), "z".repeat(MIB)),
);
const headerName = fc.oneof(fc.constantFrom(...HEADER_NAMES), fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,30}$/));
const extraHeaders = fc.array(fc.tuple(headerName, headerValue), { maxLength: 6 });

/** Authorization values that must not authenticate. */
const wrongCredentials = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom(
    "",
    "Bearer",
    "Bearer ",
    `Bearer ${TEST_API_KEY.toUpperCase()}`,
    `Bearer ${TEST_API_KEY}x`,
    `Bearer ${TEST_API_KEY.slice(0, -1)}`,
    `Bearer  ${TEST_API_KEY}`,
    `Bearer ${TEST_API_KEY}, Bearer ${TEST_API_KEY}`,
    `Bearer ${TEST_API_KEY}, Bearer wrong`,
    `Basic ${Buffer.from(`user:${TEST_API_KEY}`).toString("base64")}`,
    `Token ${TEST_API_KEY}`,
    TEST_API_KEY,
    `Bearer ${"a".repeat(65_536)}`,
    `Bearer kaizen_${"é".repeat(64)}`,
  ),
  latin1Text.map((text) => `Bearer ${text}`),
  fc
    .tuple(ulidLike, fc.stringMatching(/^[0-9a-f]{64}$/))
    .map(([ulid, hex]) => `Bearer kzd_${ulid.replace(/^[a-z]+_/, "")}_${hex}`),
);

interface HostileRequest {
  method: string;
  path: string;
  query: string;
  authorization: string | undefined;
  /** Also send the Authorization value a second time (a duplicated header). */
  duplicateAuthorization: boolean;
  headers: [string, string][];
  body: HostileBody;
}

/** Builds the request; GET and HEAD carry no body (the Request API refuses one). */
function toRequest(request: HostileRequest): Request {
  const headers = new Headers();
  if (request.authorization !== undefined) {
    headers.append("Authorization", request.authorization);
    if (request.duplicateAuthorization) headers.append("Authorization", request.authorization);
  }
  for (const [name, value] of request.headers) {
    if (name.toLowerCase() !== "authorization") headers.append(name, value);
  }
  const method = request.method;
  const bodyless = ["GET", "HEAD"].includes(method.toUpperCase());
  return new Request(`http://localhost${request.path}${request.query ? `?${request.query}` : ""}`, {
    method,
    headers,
    ...(bodyless ? {} : { body: request.body.body }),
  });
}

function safeDecode(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}

function describeRequest(request: HostileRequest): string {
  return `${request.method} ${request.path.slice(0, 200)}${request.query ? `?${request.query.slice(0, 200)}` : ""}`;
}

/** Sends it and checks the answer; returns it with its parsed body. */
async function send(t: TestApp, request: HostileRequest) {
  const label = describeRequest(request);
  const response = await answerWithin(Promise.resolve(t.app.request(toRequest(request))), label);
  const body = await expectEnvelope(response, label, { method: request.method, path: request.path });
  if (response.status === 405) expect(response.headers.get("allow"), label).toMatch(/^[A-Z]+(, [A-Z]+)*$/);
  return { status: response.status, body };
}

describe("every route under hostile requests", () => {
  let t: TestApp;
  let world: PropertyWorld;
  let contracts: Map<string, RouteContract>;
  beforeAll(async () => {
    t = await testApp();
    world = await seedWorld(t.app);
    contracts = await routeContracts(t.app);
    // KZN-2, for relations to name an issue other than the one in their path.
    await t.app.request("/api/issues", {
      method: "POST",
      headers: { Authorization: `Bearer ${TEST_API_KEY}`, "Content-Type": "application/json" },
      body: JSON.stringify({ title: "Second", type: "task" }),
    });
  });

  it("starts from valid bodies that name routes of the table and are accepted", async () => {
    const keys = new Set(routes.map(routeKey));
    for (const [key, body] of Object.entries(VALID_BODIES)) {
      expect(keys.has(key), key).toBe(true);
      const [method = "", template = ""] = key.split(" ");
      const path = pathOnWorld(world, template);
      const response = await t.app.request(path, {
        method,
        headers: { Authorization: `Bearer ${TEST_API_KEY}`, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(response.status, `${key}: ${await response.clone().text()}`).toBeLessThan(300);
    }
  });

  const segment = () => fc.oneof(fc.constantFrom(...world.ids), hostileSegment);
  const methodOf = (route: RouteSpec) =>
    fc.oneof(
      { weight: 6, arbitrary: fc.constant<string>(route.method) },
      fc.constant(route.method.toLowerCase()),
      fc.constant(route.method === "GET" ? "HEAD" : "OPTIONS"),
    );

  it.each(routes.map((route) => [routeKey(route), route] as const))(
    "%s, with the service key or a live dispatch token: 2xx/4xx with the envelope",
    async (_name, route) => {
      const request = fc.record({
        method: methodOf(route),
        path: fc
          .array(segment(), { minLength: 2, maxLength: 2 })
          .map(([id = "", other = ""]) => routePath(route.path, (name) => (name === "id" ? id : other))),
        query: hostileQueryString(QUERY_NAMES),
        authorization: fc.oneof(
          { weight: 5, arbitrary: fc.constant(`Bearer ${TEST_API_KEY}`) },
          fc.constant(`bearer ${TEST_API_KEY}`),
          fc.constant(`Bearer ${world.dispatchToken}`),
          fc.constant(`Bearer ${world.apiKey}`),
        ),
        duplicateAuthorization: fc.constant(false),
        headers: extraHeaders,
        body: hostileBody(contracts.get(routeKey(route))?.bodyFields ?? [], VALID_BODIES[routeKey(route)]),
      });
      await fc.assert(
        fc.asyncProperty(request, async (hostile) => {
          await send(t, hostile);
        }),
        { numRuns: RUNS_PER_ROUTE },
      );
    },
  );

  it("refuses every route without valid credentials with its one 401 (or 413 first on a receiver)", async () => {
    const request = fc.constantFrom(...routes).chain((route) =>
      fc.record({
        route: fc.constant(route),
        method: fc.constant<string>(route.method),
        path: segment().map((id) => routePath(route.path, id)),
        query: hostileQueryString(QUERY_NAMES),
        authorization: wrongCredentials,
        duplicateAuthorization: fc.boolean(),
        headers: extraHeaders,
        body: hostileBody(contracts.get(routeKey(route))?.bodyFields ?? [], VALID_BODIES[routeKey(route)]),
      }),
    );
    await fc.assert(
      fc.asyncProperty(request, async ({ route, ...hostile }) => {
        const { status, body } = await send(t, hostile);
        const label = describeRequest(hostile);
        // A dot segment in the id (`.%2e`) makes the URL parser climb out of the route: a 404 then.
        if (routedPath(hostile.path) !== safeDecode(hostile.path)) return;
        if (route.auth === "bearer") {
          expect(status, label).toBe(401);
          expect(body, label).toEqual({ error: BEARER_FAILURE_MESSAGE });
        }
        if (route.auth === "webhook") {
          // The body limit answers before the signature is checked; a lying Content-Length trips it.
          expect([401, 413], label).toContain(status);
          if (status === 401) expect(body, label).toEqual({ error: WEBHOOK_FAILURE_MESSAGE });
        }
      }),
      { numRuns: RUNS_ACROSS_TABLE },
    );
  });

  it("answers odd methods and mangled paths anywhere with the envelope (404/405 with Allow)", async () => {
    const oddMethod = fc.constantFrom(
      "PROPFIND",
      "MKCOL",
      "COPY",
      "MOVE",
      "LOCK",
      "PURGE",
      "SEARCH",
      "QUERY",
      "LINK",
      "M-SEARCH",
      "FOO",
      "get",
      "post",
      "patch",
      "put",
      "delete",
      "options",
      "head",
      "PUT",
      "OPTIONS",
      "HEAD",
      "PATCH",
      "DELETE",
      "POST",
      "GET",
    );
    const mangle = fc.constantFrom<(path: string) => string>(
      (path) => path,
      (path) => `${path}/`,
      (path) => `/${path}`,
      (path) => path.toUpperCase(),
      (path) => `${path}/%2e%2e/%2e%2e/health`,
      (path) => `${path}/..%2f..%2f`,
      (path) => `${path}%00`,
      (path) => `${path};param`,
      (path) => `${path}/${"s".repeat(100_000)}`,
      (path) => path.replaceAll("/", "//"),
      (path) => path.replace("/api", "/API"),
      (path) => `${path}%zz%C0%AF`,
    );
    const path = fc.oneof(
      fc
        .tuple(fc.constantFrom(...routes), segment(), mangle)
        .map(([route, id, change]) => change(routePath(route.path, id))),
      fc.string({ unit: "grapheme", maxLength: 60 }).map((text) => `/${encodeURI(text)}`),
      fc.constantFrom(
        "/",
        "//",
        "/api",
        "/api/",
        "/%",
        "/%zz",
        "/api/%C0%AE%C0%AE/",
        "/docs/assets/%2e%2e%2fpackage.json",
      ),
    );
    const request = fc.record({
      method: oddMethod,
      path,
      query: hostileQueryString(QUERY_NAMES),
      authorization: fc.oneof(fc.constant(`Bearer ${TEST_API_KEY}`), wrongCredentials),
      duplicateAuthorization: fc.boolean(),
      headers: extraHeaders,
      body: hostileBody(["title", "type", "name", "agent"]),
    });
    await fc.assert(
      fc.asyncProperty(request, async (hostile) => {
        await send(t, hostile);
      }),
      { numRuns: RUNS_ACROSS_TABLE },
    );
  });
});
