/**
 * @module tests/integration/property/hostile-bodies — what the API decides for JSON bodies at the edges, on
 * every route that takes one (read from the OpenAPI document): bytes that are not UTF-8 are a 400,
 * never U+FFFD; duplicate keys keep the last; integers beyond 2^53 or out of double range are a
 * 400 naming the field (the same for integer query parameters); nesting deeper than MAX_JSON_DEPTH
 * is a 400, and free-form JSON within it or with a 1 MiB string is stored and read back whole.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, nestedDeeperThan, TOO_DEEP_MESSAGE } from "../../../core/src/http/body.js";
import { takesIdempotencyKey } from "../../../core/src/http/idempotency.js";
import { allRoutes, type RouteSpec, routeKey } from "../../../core/src/routes.js";
import { AUTH, jsonPost, type TestApp, testApp } from "../../helpers/app.js";
import {
  bytesBetween,
  expectEnvelope,
  INVALID_UTF8_SEQUENCES,
  type PropertyWorld,
  pathOnWorld,
  type RouteContract,
  routeContracts,
  seedWorld,
} from "../../helpers/property.js";

const NOT_UTF8 = { error: "Request body is not valid UTF-8" };
const RUNS = 100;
const DEEP = 10_000;

type Body<T> = { data: T };
type Issue = { id: string; title: string; priority: number; type: string };

/** Sends raw bytes or text as a JSON body with the service key. */
function rawJson(method: string, body: string | Uint8Array, headers: Record<string, string> = {}): RequestInit {
  return { method, headers: { ...AUTH, "Content-Type": "application/json", ...headers }, body };
}

describe("JSON bodies at the edges", () => {
  let t: TestApp;
  let world: PropertyWorld;
  let contracts: Map<string, RouteContract>;
  /** Bearer routes that take a JSON body, with the fields it has. */
  let jsonRoutes: { route: RouteSpec; fields: string[]; path: string }[];

  const pathOn = (route: RouteSpec) => pathOnWorld(world, route.path);

  async function issueTitles(): Promise<string[]> {
    const response = await t.app.request("/api/issues?limit=100", { headers: AUTH });
    return ((await response.json()) as { data: Issue[] }).data.map((issue) => issue.title);
  }

  beforeAll(async () => {
    t = await testApp();
    world = await seedWorld(t.app);
    contracts = await routeContracts(t.app);
    // Not `/mcp`: its body is JSON-RPC, held to these edges in JSON-RPC's own answers (remote-mcp.test.ts).
    jsonRoutes = allRoutes()
      .filter((route) => route.auth === "bearer" && route.path !== "/mcp")
      .flatMap((route) => {
        const fields = contracts.get(routeKey(route))?.bodyFields;
        return fields ? [{ route, fields, path: pathOn(route) }] : [];
      });
  });

  it("finds the JSON routes in the OpenAPI document", () => {
    // A guard on the derivation itself: an empty list would make every test below pass vacuously.
    const keys = jsonRoutes.map(({ route }) => routeKey(route));
    expect(keys).toEqual(
      expect.arrayContaining([
        "POST /api/issues",
        "PATCH /api/issues/:id",
        "POST /api/signals",
        "POST /api/dispatch/claim",
        "POST /api/prompts/:id/reviews",
        "POST /api/templates/:id/versions",
      ]),
    );
    expect(keys.length).toBeGreaterThanOrEqual(15);
  });

  describe("bytes that are not UTF-8", () => {
    it("are a 400 on every JSON route, for each kind of bad sequence, with Idempotency-Key or without", async () => {
      for (const { route, fields, path } of jsonRoutes) {
        for (const bytes of INVALID_UTF8_SEQUENCES) {
          const keyed = takesIdempotencyKey(route) ? [false, true] : [false];
          for (const withKey of keyed) {
            const headers: Record<string, string> = withKey ? { "Idempotency-Key": crypto.randomUUID() } : {};
            const body = bytesBetween(`{"${fields[0] ?? "title"}":"`, bytes, '"}');
            const label = `${routeKey(route)} [${bytes.join(",")}]${withKey ? " with Idempotency-Key" : ""}`;
            const response = await t.app.request(path, rawJson(route.method, body, headers));
            expect(response.status, label).toBe(400);
            expect(await expectEnvelope(response, label), label).toEqual(NOT_UTF8);
          }
        }
      }
    });

    it("are a 400 wherever they sit in an otherwise valid body", async () => {
      const encoder = new TextEncoder();
      const sample = fc.constantFrom(...jsonRoutes).chain(({ route, fields, path }) =>
        fc.record({
          route: fc.constant(route),
          path: fc.constant(path),
          text: fc
            .dictionary(fc.constantFrom(...(fields.length > 0 ? fields : ["x"])), fc.jsonValue({ maxDepth: 2 }), {
              minKeys: 1,
              maxKeys: 4,
            })
            .map((object) => JSON.stringify(object)),
          bytes: fc.constantFrom(...INVALID_UTF8_SEQUENCES),
          at: fc.nat(),
        }),
      );
      await fc.assert(
        fc.asyncProperty(sample, async ({ route, path, text, bytes, at }) => {
          const encoded = encoder.encode(text);
          const cut = at % (encoded.length + 1);
          const body = new Uint8Array([...encoded.subarray(0, cut), ...bytes, ...encoded.subarray(cut)]);
          const response = await t.app.request(path, rawJson(route.method, body));
          const label = `${routeKey(route)} ${text.slice(0, 100)} with [${bytes.join(",")}] at byte ${cut}`;
          expect(response.status, label).toBe(400);
          expect(await expectEnvelope(response, label), label).toEqual(NOT_UTF8);
        }),
        { numRuns: RUNS },
      );
    });

    it("never reach the store as U+FFFD: a title with bytes C3 28 is refused, not saved as \\uFFFD(", async () => {
      const before = await issueTitles();
      const variants: Record<string, string>[] = [{}, { "Idempotency-Key": crypto.randomUUID() }];
      for (const headers of variants) {
        const body = bytesBetween('{"title":"', [0xc3, 0x28], '","type":"task"}');
        const response = await t.app.request("/api/issues", rawJson("POST", body, headers));
        expect(response.status).toBe(400);
        expect(await response.json()).toEqual(NOT_UTF8);
      }
      const after = await issueTitles();
      expect(after).toEqual(before);
      expect(after.some((title) => title.includes("\uFFFD"))).toBe(false);
      // The same title as real UTF-8 (U+FFFD written by the client itself) is stored as sent.
      const honest = await t.app.request("/api/issues", jsonPost({ title: "\uFFFD(", type: "task" }));
      expect(honest.status).toBe(201);
      expect(((await honest.json()) as Body<Issue>).data.title).toBe("\uFFFD(");
    });
  });

  describe("duplicate keys", () => {
    it("keep the last value, as JSON.parse does, on every JSON route's fields", async () => {
      const created = await t.app.request(
        "/api/issues",
        rawJson("POST", '{"title":"first","type":"bug","title":"second","type":"task"}'),
      );
      expect(created.status).toBe(201);
      const issue = ((await created.json()) as Body<Issue>).data;
      expect(issue).toMatchObject({ title: "second", type: "task" });
      // The last value is the one validated: a bad value after a good one is a 400.
      const refused = await t.app.request("/api/issues", rawJson("POST", '{"title":"ok","type":"task","type":"nope"}'));
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ details: [{ path: "type" }] });
      const patched = await t.app.request(
        `/api/issues/${issue.id}`,
        rawJson("PATCH", '{"priority":4,"priority":1,"title":"a","title":"b"}'),
      );
      expect(patched.status).toBe(200);
      expect(((await patched.json()) as Body<Issue>).data).toMatchObject({ priority: 1, title: "b" });
    });

    it("never make a JSON route answer 5xx", async () => {
      const sample = fc.constantFrom(...jsonRoutes).chain(({ route, fields, path }) =>
        fc.record({
          route: fc.constant(route),
          path: fc.constant(path),
          pairs: fc.array(
            fc.tuple(fc.constantFrom(...(fields.length > 0 ? fields : ["x"])), fc.jsonValue({ maxDepth: 2 })),
            { minLength: 2, maxLength: 8 },
          ),
        }),
      );
      await fc.assert(
        fc.asyncProperty(sample, async ({ route, path, pairs }) => {
          const text = `{${pairs.map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`).join(",")}}`;
          const response = await t.app.request(path, rawJson(route.method, text));
          await expectEnvelope(response, `${routeKey(route)} ${text.slice(0, 200)}`);
        }),
        { numRuns: RUNS },
      );
    });
  });

  describe("numbers beyond 2^53 or out of double range", () => {
    /** JSON number text no integer field may take: unsafe integers, overflowing to ±Infinity, fractions. */
    const outOfRange = fc.oneof(
      fc.bigInt({ min: 2n ** 53n + 1n, max: 10n ** 40n }).map(String),
      fc.bigInt({ min: -(10n ** 40n), max: -(2n ** 53n) - 1n }).map(String),
      fc.constantFrom("9007199254740993", "9007199254740992", "1e16", "1e308", "1e400", "-1e400", "1.5", "4.5e0"),
    );

    it("are a 400 naming the field, in every integer field of every JSON route", async () => {
      const targets = jsonRoutes.flatMap(({ route, path }) =>
        (contracts.get(routeKey(route))?.integerFields ?? []).map((field) => ({ route, path, field })),
      );
      expect(targets.map(({ field }) => field)).toEqual(
        expect.arrayContaining(["priority", "leaseSeconds", "clarity", "completeness", "relevance", "specificity"]),
      );
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...targets), outOfRange, async ({ route, path, field }, number) => {
          const text = `{"${field}":${number}}`;
          const response = await t.app.request(path, rawJson(route.method, text));
          const label = `${routeKey(route)} ${text}`;
          expect(response.status, label).toBe(400);
          const body = (await expectEnvelope(response, label)) as { details?: { path: string }[] };
          expect(
            body.details?.map((problem) => problem.path),
            label,
          ).toContain(field);
        }),
        { numRuns: RUNS },
      );
    });

    it("are a 400 naming the parameter, in every integer query parameter (page, limit, priority, leaseSeconds, days, after)", async () => {
      const targets = allRoutes()
        .filter((route) => route.method === "GET" && route.auth === "bearer")
        .flatMap((route) =>
          (contracts.get(routeKey(route))?.integerQuery ?? []).map((name) => ({ route, name, path: pathOn(route) })),
        );
      expect(new Set(targets.map(({ name }) => name))).toEqual(
        new Set(["page", "limit", "leaseSeconds", "priority", "days", "after"]),
      );
      const text = fc.oneof(
        outOfRange,
        fc.constantFrom(
          "-1",
          "0x10",
          "1.0",
          " 1",
          "１",
          "1,2",
          "+1",
          "NaN",
          "Infinity",
          "1e2",
          "00000000000000000000010001",
        ),
      );
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...targets), text, async ({ route, name, path }, value) => {
          const response = await t.app.request(`${path}?${name}=${encodeURIComponent(value)}`, { headers: AUTH });
          const label = `${routeKey(route)}?${name}=${value}`;
          expect(response.status, label).toBe(400);
          const body = (await expectEnvelope(response, label)) as { details?: { path: string }[] };
          expect(
            body.details?.map((problem) => problem.path),
            label,
          ).toContain(name);
        }),
        { numRuns: RUNS },
      );
    });

    it("-0 is zero, and an in-range integer written with a zero fraction is that integer", async () => {
      const created = await t.app.request("/api/issues", rawJson("POST", '{"title":"z","type":"task","priority":-0}'));
      expect(created.status).toBe(201);
      const text = await created.text();
      expect(text).toContain('"priority":0');
      expect(text).not.toContain("-0");
      const written = await t.app.request("/api/issues", rawJson("POST", '{"title":"w","type":"task","priority":3.0}'));
      expect(((await written.json()) as Body<Issue>).data.priority).toBe(3);
    });
  });

  describe("shape, depth and size", () => {
    const notAnObject = ["null", "[]", "[{}]", "0", '"text"', "true", `${"[".repeat(DEEP)}${"]".repeat(DEEP)}`];

    it("a body that is not a JSON object, 10,000 levels deep included, is a 400 on every JSON route", async () => {
      for (const { route, path } of jsonRoutes) {
        for (const text of [...notAnObject, `${'{"a":'.repeat(DEEP)}1${"}".repeat(DEEP)}`, "[".repeat(DEEP)]) {
          const label = `${routeKey(route)} ${text.slice(0, 20)}`;
          const response = await t.app.request(path, rawJson(route.method, text));
          expect(response.status, label).toBe(400);
          await expectEnvelope(response, label);
        }
      }
    });

    it("a leading byte-order mark is ignored; trailing garbage is a 400", async () => {
      const bom = await t.app.request("/api/issues", rawJson("POST", '\ufeff{"title":"bom","type":"task"}'));
      expect(bom.status).toBe(201);
      for (const text of ['{"title":"x","type":"task"} x', '{"title":"x","type":"task"}{}', '{"title":"x"}\u0000']) {
        const response = await t.app.request("/api/issues", rawJson("POST", text));
        expect(response.status, text).toBe(400);
        expect(await response.json(), text).toMatchObject({ error: "Malformed JSON body" });
      }
    });

    it(`free-form JSON nested more than ${MAX_JSON_DEPTH} levels is a 400; within it, and a string of almost 1 MiB, is stored and read back whole`, async () => {
      const nested = (depth: number) => `${'{"a":'.repeat(depth)}"bottom"${"}".repeat(depth)}`;
      const signalWith = (payload: string) =>
        `{"source":"fuzz","type":"edge","title":"edge","severity":"low","payload":${payload}}`;
      for (const depth of [MAX_JSON_DEPTH, DEEP]) {
        const response = await t.app.request("/api/signals", rawJson("POST", signalWith(`{"deep":${nested(depth)}}`)));
        expect(response.status, `depth ${depth}`).toBe(400);
        expect(await response.json()).toEqual({ error: TOO_DEEP_MESSAGE });
      }
      const long = "ü".repeat(500_000); // 1,000,000 bytes of UTF-8
      // The body's own object and `payload` are two levels: the payload may nest the rest.
      for (const payload of [`{"deep":${nested(MAX_JSON_DEPTH - 3)}}`, `{"long":"${long}"}`]) {
        const created = await t.app.request("/api/signals", rawJson("POST", signalWith(payload)));
        expect(created.status, payload.slice(0, 30)).toBe(201);
        const { signal } = ((await created.json()) as Body<{ signal: { id: string } }>).data;
        const read = await t.app.request(`/api/signals/${signal.id}`, { headers: AUTH });
        expect(read.status).toBe(200);
        const stored = ((await read.json()) as Body<{ payload: unknown }>).data.payload;
        expect(JSON.stringify(stored)).toBe(payload);
      }
    });

    it("the nesting check counts what JSON.parse builds: brackets inside strings and escapes do not count", () => {
      const depthOf = (value: unknown): number =>
        typeof value === "object" && value !== null
          ? 1 + Math.max(0, ...Object.values(value).map((child) => depthOf(child)))
          : 0;
      const tricky = fc.constantFrom("[", "]", "{", "}", '\\"', "\\", '"[{', "\\u005b");
      const leaf = fc.oneof(
        fc.jsonValue({ maxDepth: 0 }),
        fc.array(tricky).map((parts) => parts.join("")),
      );
      const value = fc.letrec((tie) => ({
        node: fc.oneof(
          { depthSize: "small", withCrossShrink: true },
          leaf,
          fc.array(tie("node"), { maxLength: 3 }),
          fc.dictionary(fc.oneof(fc.string(), tricky), tie("node"), { maxKeys: 3 }),
        ),
      })).node;
      fc.assert(
        fc.property(value, fc.nat({ max: 8 }), fc.constantFrom(0, 2), (json, max, indent) => {
          const text = JSON.stringify(json, null, indent);
          expect(nestedDeeperThan(text, max), text).toBe(depthOf(json) > max);
        }),
        { numRuns: 500 },
      );
    });
  });
});
