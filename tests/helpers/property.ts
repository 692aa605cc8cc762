/**
 * What the property tests share: random query strings, path ids and bodies, hostile ones included,
 * and the answer every request must get — never a 5xx, always the JSON envelope, never a hang.
 */
import fc from "fast-check";
import type { Hono } from "hono";
import { expect } from "vitest";
import type { AppEnv } from "../../core/src/http/app.js";
import { AUTH } from "./app.js";

/** Longest a test waits for one answer before calling it a hang. */
export const ANSWER_TIMEOUT_MS = 10_000;

/** Statuses that carry no body. */
const BODYLESS_STATUSES = new Set([204, 304]);

/** The only 2xx answers that are not JSON (docs/api.md#envelopes: "except 204, the docs page and /llms.txt"), and the web console's pages and files. */
function isPageOrAsset(path: string): boolean {
  return path === "/llms.txt" || ["/docs", "/app"].some((page) => path === page || path.startsWith(`${page}/`));
}

/** JSON documents with a shape of their own rather than `{"data": …}` (docs/api.md#service-health-dashboard-and-docs). */
const OWN_SHAPE_DOCUMENTS = new Set(["/health", "/api/openapi.json"]);

/** The path as the router sees it: after the URL parser's dot segments and percent-decoding. */
export function routedPath(path: string): string {
  const { pathname } = new URL(`http://localhost${path}`);
  try {
    return decodeURI(pathname);
  } catch {
    return pathname;
  }
}

/** A query string of up to `maxKeys` parameters, named from `names` or at random. */
export function queryString(names: readonly string[], maxKeys: number) {
  return fc
    .dictionary(fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 5 })), fc.string({ maxLength: 30 }), {
      maxKeys,
    })
    .map((params) => new URLSearchParams(params).toString());
}

/**
 * A raw query string as a hostile client writes it: names from `names` repeated with different
 * values, huge and non-ASCII values, malformed percent-encoding (`%zz`, `%C0`), empty pairs.
 */
export function hostileQueryString(names: readonly string[]) {
  const name = fc.oneof(
    fc.constantFrom(...names),
    fc.constantFrom("__proto__", "constructor", "page[]", "", "a%zz", "%C0", "limit%00"),
    fc.string({ maxLength: 8 }).map(encodeURIComponent),
  );
  const value = fc.oneof(
    fc.constantFrom("", "1", "0", "-1", "1.5", "1e3", "abc", "9007199254740993", "1e400", "NaN", "true", "null"),
    fc.constantFrom("%zz", "%C0", "%C0%AF", "%FF%FE", "%00", "%", "%E2%82", "+", "%2C%2C", ",,,", "a,b,c"),
    fc.string({ unit: "grapheme", maxLength: 20 }).map(encodeURIComponent),
    fc.constantFrom("a".repeat(100_000), "%F0%9F%92%A5".repeat(500), encodeURIComponent("ü".repeat(2000))),
  );
  return fc
    .array(
      fc.oneof(
        fc.tuple(name, value).map(([n, v]) => `${n}=${v}`),
        fc.constantFrom("", "&", "=", "=="),
      ),
      {
        maxLength: 6,
      },
    )
    .map((pairs) => pairs.join("&"));
}

/** A ULID-shaped id with one of our type prefixes (or none). */
export const ulidLike = fc
  .tuple(
    fc.constantFrom("iss_", "prj_", "gol_", "lbl_", "rel_", "tpl_", "ver_", "prm_", "dsp_", "sig_", "cmt_", "rev_", ""),
    fc.string({ unit: fc.constantFrom(..."0123456789ABCDEFGHJKMNPQRSTVWXYZ"), minLength: 26, maxLength: 26 }),
  )
  .map(([prefix, body]) => `${prefix}${body}`);

/**
 * One path segment where a route has `:id`: ULIDs, `KZN-n`, garbage, percent-encoding valid and
 * not (`%zz`, overlong `%C0%AF`), dot segments smuggled past the URL parser, very long segments.
 */
export const hostileSegment = fc.oneof(
  ulidLike,
  fc.oneof(fc.nat(), fc.constant(0), fc.constant(2 ** 53 + 1)).map((n) => `KZN-${n}`),
  fc.constantFrom("KZN-", "KZN--1", "kzn-1", "KZN-1.5", "KZN-99999999999999999999", "KZN-0x10", "KZN-1e3"),
  fc.constantFrom("%zz", "%C0", "%C0%AF", "%FF", "%00", "%2F", "%2e%2e", ".%2e", "%252e", "%E2%82", "%", "%u0041"),
  fc.constantFrom("a".repeat(2048), "b".repeat(70_000), "%F0%9F%92%A5".repeat(300), "x;y", "a=b", "@", "~", "*"),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 40 }).map(encodeURIComponent),
);

/**
 * A route's path with each `:param` replaced by a value of `segment`.
 * @example routePath("/api/issues/:id", "KZN-1") // "/api/issues/KZN-1"
 */
export function routePath(template: string, segment: string | ((name: string) => string)): string {
  return template.replace(/:(\w+)/g, (_match, name: string) => (typeof segment === "string" ? segment : segment(name)));
}

/** `work`, or a failure naming `label` as a hang when it has not settled within `ms`. */
export async function answerWithin<T>(work: Promise<T>, label: string, ms = ANSWER_TIMEOUT_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`hang: no answer within ${ms} ms to ${label}`)), ms);
  });
  try {
    return await Promise.race([work, hang]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Checks one answer: never a 5xx; 204/304 and HEAD without a body; the docs pages as they are;
 * `/health` and the OpenAPI document JSON of their own shape; `/mcp` JSON-RPC's answers; everything else
 * `application/json; charset=utf-8` with `error` (a non-empty string) for a 4xx and `data` for a
 * 2xx. Returns the parsed body, when there is one.
 * @example await expectEnvelope(await app.request("/api/issues"), "GET /api/issues", { path: "/api/issues" })
 */
export async function expectEnvelope(
  response: Response,
  label: string,
  request: { method?: string; path?: string } = {},
): Promise<Record<string, unknown> | undefined> {
  const text = await answerWithin(response.text(), `${label} (reading the body)`);
  expect(response.status, `${label} → ${response.status} ${text.slice(0, 300)}`).toBeLessThan(500);
  expect(response.status, label).toBeGreaterThanOrEqual(200);
  if (BODYLESS_STATUSES.has(response.status) || request.method?.toUpperCase() === "HEAD") {
    expect(text, `${label}: a ${response.status} answer to ${request.method ?? "GET"} has no body`).toBe("");
    return undefined;
  }
  const path = request.path === undefined ? undefined : routedPath(request.path);
  if (response.status < 300 && path !== undefined && isPageOrAsset(path)) return undefined;
  expect(response.headers.get("content-type"), label).toBe("application/json; charset=utf-8");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    expect.fail(`${label}: the body is not JSON: ${text.slice(0, 300)}`);
  }
  // The remote MCP endpoint answers what gets past the API's own checks in JSON-RPC's shape (docs/api.md#remote-mcp).
  if (path === "/mcp" && isJsonRpcAnswer(json)) return json as Record<string, unknown>;
  expect(typeof json === "object" && json !== null && !Array.isArray(json), label).toBe(true);
  const body = json as Record<string, unknown>;
  if (response.status >= 400) {
    expect(typeof body.error, `${label}: ${text.slice(0, 300)}`).toBe("string");
    expect(body.error, label).not.toBe("");
  } else if (path === undefined || !OWN_SHAPE_DOCUMENTS.has(path)) expect(body, label).toHaveProperty("data");
  return body;
}

/** A JSON-RPC 2.0 answer (a result, or an error with a numeric code and a message), or a batch of them. */
function isJsonRpcAnswer(json: unknown): boolean {
  if (Array.isArray(json)) return json.length > 0 && json.every(isJsonRpcAnswer);
  if (typeof json !== "object" || json === null) return false;
  const answer = json as { jsonrpc?: unknown; result?: unknown; error?: { code?: unknown; message?: unknown } };
  if (answer.jsonrpc !== "2.0") return false;
  if (answer.error === undefined) return answer.result !== undefined;
  return typeof answer.error.code === "number" && typeof answer.error.message === "string";
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
  const label = `${method} ${path}`;
  const response = await answerWithin(
    Promise.resolve(app.request(`${path}${search ? `?${search}` : ""}`, init)),
    label,
  );
  await expectEnvelope(response, label, { method, path });
}

/** Real resources for random requests to land on, so they reach past the "not found" answers. */
export interface PropertyWorld {
  /** Every id made, by kind, plus the issue's `KZN-n` and a default template's slug. */
  ids: string[];
  /** A live dispatch token (a credential that is not the service key). */
  dispatchToken: string;
  dispatchId: string;
  promptId: string;
  issueId: string;
  projectId: string;
  goalId: string;
  /** An API key of its own (write and dispatch, narrowed to the project), and its id. */
  apiKey: string;
  keyId: string;
}

/**
 * A route's path on the seeded resources: its own dispatch, prompt, project, goal or API key, a
 * default template or partial, else the issue.
 * @example pathOnWorld(world, "/api/issues/:id/comments") // "/api/issues/iss_01…/comments"
 */
export function pathOnWorld(world: PropertyWorld, template: string): string {
  return routePath(template, () => {
    if (template.startsWith("/api/dispatch/")) return world.dispatchId;
    if (template.startsWith("/api/prompts/")) return world.promptId;
    if (template.startsWith("/api/templates/")) return "task-execution";
    if (template.startsWith("/api/partials/")) return "kaizen-reporting";
    if (template.startsWith("/api/projects/")) return world.projectId;
    if (template.startsWith("/api/goals/")) return world.goalId;
    if (template.startsWith("/api/keys/")) return world.keyId;
    return world.issueId;
  });
}

/** Makes one of each resource through the API (issue, project, goal, label, signal, claim → dispatch and prompt, API key). */
export async function seedWorld(app: Hono<AppEnv>): Promise<PropertyWorld> {
  const made = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
    const response = await app.request(path, {
      method: "POST",
      headers: { ...AUTH, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    if (response.status !== 201) throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`);
    return ((await response.json()) as { data: Record<string, unknown> }).data;
  };
  const idOf = (value: unknown): string => String((value as { id: unknown }).id);
  const issue = await made("/api/issues", { title: "Hostile target", type: "task", status: "todo" });
  const project = await made("/api/projects", { name: "Hostile project" });
  const goal = await made("/api/goals", { title: "Hostile goal" });
  const label = await made("/api/labels", { name: "hostile", color: "#aa00ff" });
  const signal = await made("/api/signals", { source: "fuzz", type: "probe", title: "Probe", severity: "low" });
  const claim = (await made("/api/dispatch/claim", { agent: "fuzzer" })) as {
    dispatch: { id: string; token: string };
    prompt: { id: string; templateId: string; versionId: string } | null;
  };
  if (!claim.prompt) throw new Error("the claim rendered no prompt");
  const key = (await made("/api/keys", {
    name: "hostile",
    scopes: ["write", "dispatch"],
    projectIds: [idOf(project)],
  })) as { id: string; key: string };
  return {
    ids: [
      idOf(issue),
      `KZN-${String(issue.number)}`,
      idOf(project),
      idOf(goal),
      idOf(label),
      idOf((signal as { signal: unknown }).signal),
      claim.dispatch.id,
      claim.prompt.id,
      claim.prompt.templateId,
      claim.prompt.versionId,
      "task-execution",
      key.id,
    ],
    dispatchToken: claim.dispatch.token,
    dispatchId: claim.dispatch.id,
    promptId: claim.prompt.id,
    issueId: idOf(issue),
    projectId: idOf(project),
    goalId: idOf(goal),
    apiKey: key.key,
    keyId: key.id,
  };
}

/** What the OpenAPI document says a route takes. */
export interface RouteContract {
  /** Top-level fields of its JSON body; absent when it takes no JSON body. */
  bodyFields?: string[];
  /** Top-level body fields that are integers. */
  integerFields: string[];
  /** Query parameters that are integers (by type or by a digits-only pattern). */
  integerQuery: string[];
}

type Schema = { type?: string; pattern?: string; anyOf?: Schema[]; properties?: Record<string, Schema> };
type Parameter = { name?: string; in?: string; schema?: Schema; $ref?: string };
type Operation = {
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  parameters?: Parameter[];
};

function isInteger(schema: Schema | undefined): boolean {
  if (!schema) return false;
  const integerPatterns = ["^[0-9]+$", "^[0-4]$", "^(0|[1-9][0-9]{0,9})$"];
  if (schema.type === "integer" || integerPatterns.includes(schema.pattern ?? "")) return true;
  return schema.anyOf?.some(isInteger) ?? false;
}

/**
 * Each route's contract, read from the OpenAPI document (made from the same schemas that validate
 * requests), keyed `METHOD /path/:param`, so a new route or field is covered without a test edit.
 */
export async function routeContracts(app: Hono<AppEnv>): Promise<Map<string, RouteContract>> {
  const document = (await (await app.request("/api/openapi.json")).json()) as {
    paths: Record<string, Record<string, Operation>>;
    components: { parameters: Record<string, Parameter> };
  };
  const resolve = (parameter: Parameter): Parameter =>
    parameter.$ref ? (document.components.parameters[parameter.$ref.split("/").pop() ?? ""] ?? {}) : parameter;
  const contracts = new Map<string, RouteContract>();
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const properties = operation.requestBody?.content?.["application/json"]?.schema?.properties;
      const parameters = (operation.parameters ?? []).map(resolve);
      contracts.set(`${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ":$1")}`, {
        ...(operation.requestBody?.content?.["application/json"] ? { bodyFields: Object.keys(properties ?? {}) } : {}),
        integerFields: Object.entries(properties ?? {})
          .filter(([, schema]) => isInteger(schema))
          .map(([name]) => name),
        integerQuery: parameters
          .filter((parameter) => parameter.in === "query" && isInteger(parameter.schema))
          .map((parameter) => parameter.name ?? ""),
      });
    }
  }
  return contracts;
}

const MIB = 1024 * 1024;
const utf8 = new TextEncoder();
const DEEP = 10_000;

/** `prefix`, then raw bytes, then `suffix`: how a body with bytes that are not UTF-8 is built. */
export function bytesBetween(prefix: string, bytes: readonly number[], suffix: string): Uint8Array {
  return new Uint8Array([...utf8.encode(prefix), ...bytes, ...utf8.encode(suffix)]);
}

/** Byte sequences that are not UTF-8: a bad continuation, a lone continuation, overlong, a surrogate, 0xFF, a truncated tail. */
export const INVALID_UTF8_SEQUENCES: readonly (readonly number[])[] = [
  [0xc3, 0x28],
  [0x80],
  [0xc0, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xff, 0xfe],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0xe2, 0x82],
];

/** A request body and a short description of it (what a failing run prints instead of 1 MiB of it). */
export interface HostileBody {
  what: string;
  body: string | Uint8Array;
}

function described(what: string, body: string | Uint8Array): HostileBody {
  return { what, body, [fc.toStringMethod]: () => what } as HostileBody;
}

function preview(body: string | Uint8Array): string {
  return typeof body === "string" ? JSON.stringify(body.slice(0, 120)) : `bytes [${body.slice(0, 40).join(",")}]`;
}

let constantBodies: HostileBody[] | undefined;

/** Bodies no arbitrary would find by chance: depth, size, bytes and JSON's odd corners (made once). */
function constantHostileBodies(): HostileBody[] {
  if (constantBodies) return constantBodies;
  const deepArray = `${"[".repeat(DEEP)}${"]".repeat(DEEP)}`;
  const deepObject = `${'{"a":'.repeat(DEEP)}1${"}".repeat(DEEP)}`;
  const nearLimit = (field: string) => `{"${field}":"${"a".repeat(MIB - field.length - 7)}"}`;
  const bodies: [string, string | Uint8Array][] = [
    ["10,000 nested arrays", deepArray],
    ["10,000 nested objects", deepObject],
    ["10,000 unclosed arrays", "[".repeat(DEEP)],
    [
      "10,000-deep values in payload, conditions and hypothesis",
      `{"title":"x","type":"task","payload":${deepObject},"conditions":${deepArray},"hypothesis":${deepObject}}`,
    ],
    ["a title of 1 MiB, the whole body exactly at the limit", nearLimit("title")],
    ["a description of 1 MiB, the whole body exactly at the limit", nearLimit("description")],
    ["a name of 1 MiB, the whole body one byte over the limit", `${nearLimit("name")} `],
    ["a title of 512 Ki two-byte characters", `{"title":"${"é".repeat(MIB / 2)}"}`],
    ["a title of escaped characters, just under 1 MiB", `{"title":"${"\\u00e9".repeat(MIB / 6 - 4)}"}`],
    ...INVALID_UTF8_SEQUENCES.map((bytes): [string, Uint8Array] => [
      `a title with bytes ${bytes.map((byte) => byte.toString(16)).join(" ")} (not UTF-8)`,
      bytesBetween('{"title":"', bytes, '","type":"task"}'),
    ]),
    ["a UTF-16 BE byte-order mark", bytesBetween("", [0xfe, 0xff], '{"title":"x"}')],
    ["UTF-16 LE text", new Uint8Array([0xff, 0xfe, ...[...utf8.encode('{"title":"x"}')].flatMap((byte) => [byte, 0])])],
    ["duplicate keys", '{"title":"a","title":"b","type":"task","type":"bug"}'],
    ["a __proto__ key", '{"__proto__":{"admin":true},"title":"x","type":"task"}'],
    ["a constructor key", '{"constructor":{"prototype":{"polluted":1}}}'],
    ["priority 2^53+1", '{"priority":9007199254740993,"title":"x","type":"task"}'],
    ["priority 1e400", '{"priority":1e400}'],
    ["priority -0", '{"priority":-0,"title":"x","type":"task"}'],
    ["leaseSeconds 1e400", '{"leaseSeconds":1e400,"agent":"a"}'],
    ["ratings beyond 2^53, -1e400 and -0", '{"clarity":9007199254740993,"completeness":-1e400,"relevance":-0}'],
    ["goal values ±1e400", '{"targetValue":1e400,"currentValue":-1e400,"title":"x"}'],
    ["1e-400 and a 30-digit integer", '{"specificity":1e-400,"number":123456789012345678901234567890}'],
    ["a UTF-8 byte-order mark", '\ufeff{"title":"x","type":"task"}'],
    ["trailing garbage", '{"title":"x","type":"task"} trailing'],
    ["two objects", '{"title":"x","type":"task"}{}'],
    ["a trailing NUL", '{"title":"x"}\u0000'],
    ["an escaped lone surrogate", '{"title":"\\ud800","type":"task"}'],
    ["an escaped NUL", '{"title":"\\u0000","type":"task"}'],
    ["empty", ""],
    ["whitespace", "   \n\t"],
    ...["null", "[]", "[{}]", "0", '"a string"', "true", "{", "}", '{"title":', "NaN", "Infinity"].map(
      (text): [string, string] => [text, text],
    ),
    ["single quotes", "{'single':'quotes'}"],
    ["a trailing comma", '{"title":"x",}'],
  ];
  constantBodies = bodies.map(([what, body]) => described(what, body));
  return constantBodies;
}

/** Values of the kinds clients get wrong: wrong types, edge numbers, odd strings, nesting. */
export const hostileValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    "",
    " ",
    "KZN-1",
    "todo",
    "task",
    "agent",
    "done",
    "#zzzzzz",
    "💥",
    "\u0000",
    "\ud800",
    "a".repeat(600),
  ),
  fc.constantFrom(-1, 0, 1, 4, 5, 1.5, -0, 1e308, -1e308, 2 ** 53, 2 ** 53 + 2, Number.MIN_VALUE, 0.1 + 0.2),
  fc.string({ unit: "binary", maxLength: 30 }),
);

/** JSON value text for one field of an otherwise valid body: depth, size, numbers JSON.parse bends (made once). */
let rawValues: string[] | undefined;

function rawHostileValues(): string[] {
  rawValues ??= [
    `${"[".repeat(DEEP)}${"]".repeat(DEEP)}`,
    `${'{"a":'.repeat(DEEP)}1${"}".repeat(DEEP)}`,
    `${'{"a":'.repeat(200)}1${"}".repeat(200)}`,
    `"${"a".repeat(MIB - 300)}"`,
    `"${"\\u00e9".repeat(100_000)}"`,
    "9007199254740993",
    "-9007199254740993",
    "123456789012345678901234567890",
    "1e400",
    "-1e400",
    "1e-400",
    "-0",
    "4.0",
    '"\\ud800"',
    '"\\u0000"',
    "null",
    "[]",
    "{}",
    '{"__proto__":{"x":1}}',
  ];
  return rawValues;
}

/**
 * A request body a hostile client sends to a route taking `fields`: near-valid objects, JSON of
 * every shape, raw bytes, and the constant corner cases above (deep nesting, 1 MiB strings, bytes
 * that are not UTF-8, duplicate keys, numbers beyond 2^53, BOM, trailing garbage, empty). With
 * `valid`, a body the route accepts, also that body with one field (its own or another of
 * `fields`) given a hostile value, so the value travels past validation into the store.
 */
export function hostileBody(fields: readonly string[], valid?: Record<string, unknown>): fc.Arbitrary<HostileBody> {
  const names = fields.length > 0 ? fields : ["title"];
  const generated = fc
    .oneof(
      fc
        .dictionary(fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 6 })), hostileValue, { maxKeys: 8 })
        .map((object) => JSON.stringify(object)),
      fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value) ?? "null"),
      fc.uint8Array({ maxLength: 64 }),
      fc.string({ unit: "binary", maxLength: 64 }),
    )
    .map((body) => described(preview(body), body));
  if (!valid) return fc.oneof(generated, fc.constantFrom(...constantHostileBodies()));
  const placeholder = "\u0000hostile\u0000";
  const changed = fc
    .tuple(
      fc.constantFrom(...new Set([...Object.keys(valid), ...names])),
      fc.oneof(
        fc.constantFrom(...rawHostileValues()),
        hostileValue.map((value) => JSON.stringify(value) ?? "null"),
      ),
    )
    .map(([field, raw]) =>
      described(
        `${JSON.stringify(valid)} with ${field}: ${raw.slice(0, 60)}`,
        JSON.stringify({ ...valid, [field]: placeholder }).replace(JSON.stringify(placeholder), () => raw),
      ),
    );
  return fc.oneof(
    generated,
    fc.constantFrom(...constantHostileBodies()),
    changed,
    fc.constant(described("valid", JSON.stringify(valid))),
  );
}
