/**
 * Every route of the route table called once or more, as a client would in a working day, with each
 * answer checked against what its declaration (and so the OpenAPI document) says that route answers,
 * and against the rule of docs/api.md#concurrency-and-idempotency for its `ETag` and `Location`.
 */
import { readdirSync } from "node:fs";
import type { Hono } from "hono";
import { expect } from "vitest";
import * as z from "zod/mini";
import { CONSOLE_BUILD_DIR } from "../../console/build.js";
import type { Db } from "../../core/src/db/db.js";
import { ALL_DECLARATIONS } from "../../core/src/families.js";
import type { AppEnv } from "../../core/src/http/app.js";
import { versionOfTag } from "../../core/src/http/conditional.js";
import { issueKey } from "../../core/src/issues/keys.js";
import { type Declaration, namesLocation, type Success, successStatus } from "../../core/src/openapi/declare.js";
import { RESOURCE_SCHEMAS } from "../../core/src/openapi/resources.js";
import { OPEN_GUARD } from "../../core/src/outbound-guard.js";
import type { Family, RouteKey } from "../../core/src/routes.js";
import { eventDeliveries } from "../../core/src/services.js";
import { AUTH } from "./app.js";
import { analyticsDelivery, codehostDelivery, errortrackerDelivery, issueEvent } from "./deliveries.js";

type Data = Record<string, unknown> & { id: string };

/** Every route key of every family. */
export type AnyRouteKey = { [F in Family]: RouteKey<F> }[Family];

/** The declaration of the route `key`, whichever family declares it. */
export function declarationOf(key: string): Declaration {
  for (const declarations of Object.values(ALL_DECLARATIONS)) {
    const declaration = (declarations as Record<string, Declaration>)[key];
    if (declaration) return declaration;
  }
  throw new Error(`No family declares ${key}`);
}

/** The schema of the whole body a success answers with, or undefined when it is not JSON. */
function bodySchema(success: Success): z.ZodMiniType | undefined {
  if ("item" in success) return z.object({ data: RESOURCE_SCHEMAS[success.item] });
  if ("list" in success) {
    return z.object({ data: z.array(RESOURCE_SCHEMAS[success.list]), total: z.int().check(z.gte(0)) });
  }
  if ("raw" in success && success.raw === "health") return RESOURCE_SCHEMAS.Health;
  return undefined;
}

/** Every declared route's path as a pattern of concrete paths, and whether it takes `If-Match`. */
const DECLARED_PATHS = Object.values(ALL_DECLARATIONS).flatMap((declarations) =>
  Object.entries(declarations as Record<string, Declaration>).map(([key, declaration]) => ({
    pattern: new RegExp(`^${(key.split(" ")[1] ?? "").replace(/:\w+/g, "[^/]+")}$`),
    ifMatch: declaration.ifMatch === true,
  })),
);

/**
 * The `ETag` and `Location` rule of docs/api.md#concurrency-and-idempotency for an item answer of `key`
 * to a request for `path`: an `ETag`, strong (`"<version>"`) or weak (`W/"…"`); a strong one that
 * `If-Match` takes where the resource answered about (the `Location` of what was created, else the
 * path itself) has a route that takes `If-Match`; and a `Location`, at a declared route's path, exactly
 * when the declaration says the answer names one ({@link namesLocation}: every 201 but those of
 * resources no route reads one at a time).
 */
function expectTagged(key: AnyRouteKey, path: string, success: Success, response: Response): void {
  const etag = response.headers.get("ETag");
  expect(etag ?? "", `${key}: an item answer without an ETag`).toMatch(/^(W\/)?"[\x21\x23-\x7e]+"$/);
  const location = response.headers.get("Location");
  expect(
    location !== null,
    `${key}: a ${response.status} ${location === null ? "without a" : "with an undeclared"} Location`,
  ).toBe(namesLocation(success));
  if (location !== null) {
    expect(
      DECLARED_PATHS.some(({ pattern }) => pattern.test(location)),
      `${key}: Location ${location} is no route's address`,
    ).toBe(true);
  }
  const address = location ?? path;
  if (DECLARED_PATHS.some(({ pattern, ifMatch }) => ifMatch && pattern.test(address))) {
    expect(
      versionOfTag(etag ?? ""),
      `${key}: ETag ${etag} is not the strong version If-Match takes on ${address}`,
    ).toBeDefined();
  }
}

/**
 * Checks `response` to a request for `path` against the declaration of `key`: a status it documents,
 * a JSON body its schema accepts with no field it does not describe (the response schemas strip
 * unknown fields, so the parsed body equals the answer only when there were none), and for an item
 * answer its `ETag` and `Location` ({@link expectTagged}). Returns the answer's `data`.
 */
export async function expectAsDocumented(key: AnyRouteKey, path: string, response: Response): Promise<unknown> {
  const declaration = declarationOf(key);
  const success = [declaration.success, declaration.alsoSuccess].find(
    (candidate) => candidate !== undefined && successStatus(candidate) === response.status,
  );
  if (!success) throw new Error(`${key} answered ${response.status}: ${await response.text()}`);
  expect(response.headers.get("X-Request-Id"), `${key}: an answer without an X-Request-Id`).toBeTruthy();
  if ("item" in success) expectTagged(key, path, success, response);
  const schema = bodySchema(success);
  if (successStatus(success) === 204 || !schema) return undefined;
  const body = await response.json();
  const result = z.safeParse(schema, body);
  expect(result.error, `${key}: an answer its documented schema refuses`).toBeUndefined();
  expect(result.data, `${key}: an answer with fields its documented schema does not describe`).toEqual(body);
  return (body as { data?: unknown }).data ?? body;
}

/**
 * Calls each route of the route table with a realistic request (creating what the next ones need),
 * checks every answer with {@link expectAsDocumented}, and returns the route keys it called.
 */
export async function walkEveryRoute(app: Hono<AppEnv>, db: Db): Promise<Set<AnyRouteKey>> {
  const answered = new Set<AnyRouteKey>();
  async function call<T = Data>(
    key: AnyRouteKey,
    params: Record<string, string> = {},
    options: { query?: string; body?: unknown; init?: RequestInit } = {},
  ): Promise<T> {
    const [method, path = ""] = key.split(" ");
    const url = path.replace(/:(\w+)/g, (_, name: string) => params[name] ?? `missing-${name}`);
    const response = await app.request(`${url}${options.query ? `?${options.query}` : ""}`, {
      method,
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      ...options.init,
      headers: { ...AUTH, "Content-Type": "application/json", ...(options.init?.headers as Record<string, string>) },
    });
    answered.add(key);
    return (await expectAsDocumented(key, url, response)) as T;
  }
  const delivered = (key: AnyRouteKey, delivery: { init: RequestInit }) => call(key, {}, { init: delivery.init });

  // Service and docs.
  await call("GET /");
  await call("GET /health");
  await call("GET /llms.txt");
  await call("GET /api/openapi.json");
  await call("GET /docs");
  await call("GET /docs/assets/:file", { file: "swagger-ui.css" });
  // The web console: every page URL answers with the same shell, whatever it names.
  for (const key of ["GET /app", "GET /app/issues", "GET /app/queue", "GET /app/activity"] as const) await call(key);
  for (const key of ["GET /app/prompts", "GET /app/providers", "GET /app/projects"] as const) await call(key);
  for (const key of [
    "GET /app/goals",
    "GET /app/labels",
    "GET /app/agents",
    "GET /app/keys",
    "GET /app/audit",
  ] as const)
    await call(key);
  await call("GET /app/issues/:id", { id: "KZN-1" });
  await call("GET /app/prompts/:id", { id: "tpl_01JD0000000000000000000000" });
  await call("GET /app/projects/:id", { id: "prj_01JD0000000000000000000000" });
  for (const file of readdirSync(CONSOLE_BUILD_DIR).filter((name) => name !== "index.html")) {
    await call("GET /app/assets/:file", { file });
  }
  await call("GET /api/providers");

  // Catalog.
  await call("POST /api/labels", {}, { body: { name: "walk", color: "#AABBCC" } });
  const spareLabel = await call("POST /api/labels", {}, { body: { name: "spare", color: "#000000" } });
  await call("GET /api/labels");
  const project = await call("POST /api/projects", {}, { body: { name: "Walk", limits: { maxActivePerAgent: 5 } } });
  const spareProject = await call("POST /api/projects", {}, { body: { name: "Spare" } });
  await call("GET /api/projects");
  await call(
    "PATCH /api/projects/:id",
    { id: project.id },
    { body: { health: "at_risk", limits: { maxActivePerAgent: 5, dailyCostBudgetUsd: 100 } } },
  );
  const goal = await call("POST /api/goals", {}, { body: { title: "Fast checkout", projectId: project.id } });
  await call("GET /api/goals");
  await call("GET /api/goals/:id", { id: goal.id });
  await call("PATCH /api/goals/:id", { id: goal.id }, { body: { currentValue: 3.5, unit: "s" } });

  // Issues, relations, comments.
  const parent = await call(
    "POST /api/issues",
    {},
    {
      body: {
        title: "Checkout is slow",
        type: "hypothesis",
        projectId: project.id,
        labels: ["walk"],
        hypothesis: { statement: "The cart query scans", confidence: 0.7, evidence: [], validationCriteria: "p99" },
        commits: [{ sha: "abc1234", message: "Index the cart" }],
      },
    },
  );
  const task = await call(
    "POST /api/issues",
    {},
    { body: { title: "Add the index", type: "task", parentId: parent.id, status: "todo", priority: 1 } },
  );
  const other = await call("POST /api/issues", {}, { body: { title: "Release it", type: "task", status: "todo" } });
  await call("GET /api/issues", {}, { query: "status=todo,triage&sort=priority" });
  await call("PATCH /api/issues/:id", { id: parent.id }, { body: { status: "backlog" } });
  const relation = await call(
    "POST /api/issues/:id/relations",
    { id: parent.id },
    { body: { type: "related", relatedIssueId: other.id } },
  );
  const comment = await call(
    "POST /api/issues/:id/comments",
    { id: parent.id },
    { body: { body: "Looks likely", authorName: "Ada", authorType: "human" } },
  );
  await call(
    "POST /api/issues/:id/comments",
    { id: parent.id },
    { body: { body: "Agreed", authorName: "walker", authorType: "agent", parentId: comment.id } },
  );
  await call("GET /api/issues/:id/comments", { id: parent.id });
  await call("GET /api/projects/:id", { id: project.id });

  // Signals: manual, and one delivery per receiver (one delivered twice).
  const manual = await call<{ signal: Data; issue: Data }>(
    "POST /api/signals",
    {},
    { body: { source: "walk", type: "probe", title: "Walk signal", severity: "high", payload: { n: 1 } } },
  );
  const opened = codehostDelivery("issues", issueEvent("opened", 7, "Cart button broken"), { delivery: "walk-7" });
  await delivered("POST /api/signals/codehost", opened);
  await delivered("POST /api/signals/codehost", opened);
  await delivered(
    "POST /api/signals/errortracker",
    errortrackerDelivery("issue", { action: "created", data: { issue: { id: "77", level: "error", title: "Boom" } } }),
  );
  await delivered("POST /api/signals/analytics", analyticsDelivery({ event: "checkout_dropped", uuid: "walk-uuid" }));
  await call("GET /api/signals", {}, { query: "severity=high" });
  await call("GET /api/signals/:id", { id: manual.signal.id });
  await call("GET /api/issues/:id/signals", { id: manual.issue.id });
  await call("GET /api/issues/:id", { id: task.id });
  await call("GET /api/issues/:id", { id: parent.id });
  await call("GET /api/issues/:id", { id: manual.issue.id });
  // A duplicate of the manual signal's issue, merged into it.
  const duplicate = await call("POST /api/issues", {}, { body: { title: "Walk signal, again", type: "signal" } });
  await call("POST /api/issues/:id/merge", { id: duplicate.id }, { body: { intoId: manual.issue.id } });

  // Templates and versions.
  await call("GET /api/templates");
  const template = await call(
    "POST /api/templates",
    {},
    {
      body: {
        slug: "walk-task",
        name: "Walk",
        conditions: { type: "task" },
        specificity: 50,
        content: "Do {{issue.title}}",
      },
    },
  );
  await call("GET /api/templates/:id", { id: template.id });
  await call("PATCH /api/templates/:id", { id: template.id }, { body: { description: "For the walk" } });
  const draft = await call(
    "POST /api/templates/:id/versions",
    { id: template.id },
    { body: { content: "Please do {{issue.title}}", changelog: "Politer" } },
  );
  await call("GET /api/templates/:id/versions", { id: template.id });
  await call("POST /api/templates/:id/versions/:versionId/promote", { id: template.id, versionId: draft.id });
  await call("GET /api/templates/preview/:issueId", { issueId: task.id });
  await call("GET /api/templates/preview/:issueId", { issueId: task.id }, { query: `versionId=${draft.id}` });
  const candidate = await call(
    "POST /api/templates/:id/versions",
    { id: template.id },
    { body: { content: "Kindly do {{issue.title}}", changelog: "Kinder" } },
  );
  const experiment = await call(
    "POST /api/templates/:id/experiments",
    { id: template.id },
    { body: { candidateVersionId: candidate.id, trafficPercent: 20 } },
  );
  await call("GET /api/templates/:id/experiments", { id: template.id });
  // Partials: one a draft includes, then released by a later version and deleted last.
  await call("GET /api/partials");
  const partial = await call<{ name: string }>(
    "POST /api/partials",
    {},
    { body: { name: "walk-footer", content: "Thanks, {{issueRef issue}}.", description: "For the walk" } },
  );
  await call("GET /api/partials/:name", { name: partial.name });
  await call(
    "PATCH /api/partials/:name",
    { name: partial.name },
    { body: { content: "Thank you, {{issueRef issue}}." } },
  );
  await call("GET /api/templates/:id/experiments/:experimentId", { id: template.id, experimentId: experiment.id });

  // Dispatch, prompts and reviews.
  await call("GET /api/dispatch/queue");
  const claim = await call<{ dispatch: Data; prompt: Data }>(
    "POST /api/dispatch/claim",
    {},
    { body: { agent: "walker", leaseSeconds: 600 } },
  );
  await call("POST /api/dispatch/:id/heartbeat", { id: claim.dispatch.id });
  await call(
    "POST /api/dispatch/:id/activities",
    { id: claim.dispatch.id },
    { body: { type: "elicitation", body: "Which index?" } },
  );
  await call("POST /api/dispatch/:id/messages", { id: claim.dispatch.id }, { body: { body: "The cart's" } });
  await call("GET /api/dispatch/:id/activities", { id: claim.dispatch.id }, { query: "after=0" });
  await call("GET /api/dispatch", {}, { query: "status=active" });
  await call("GET /api/dispatch/:id", { id: claim.dispatch.id });
  await call("GET /api/prompts", {}, { query: `issueId=${claim.dispatch.issueId}` });
  await call("GET /api/prompts/:id", { id: claim.prompt.id });
  await call(
    "POST /api/prompts/:id/reviews",
    { id: claim.prompt.id },
    { body: { clarity: 5, completeness: 4, relevance: 4, feedback: "Clear", authorType: "agent" } },
  );
  await call("GET /api/prompts/:id/reviews", { id: claim.prompt.id });
  await call("GET /api/templates/:id/reviews", { id: template.id });
  await call(
    "POST /api/dispatch/:id/complete",
    { id: claim.dispatch.id },
    {
      body: {
        result: "done",
        summary: "Indexed",
        pullRequests: [{ number: 12, title: "Index the cart" }],
        usage: { inputTokens: 900, outputTokens: 80, costUsd: 0.12, model: "walk-model" },
      },
    },
  );
  const next = await call<{ dispatch: Data }>("GET /api/dispatch/next", {}, { query: "agent=second" });
  await call("POST /api/dispatch/:id/release", { id: next.dispatch.id });
  // Plan approval: a project that asks for it, a plan sent back and one approved.
  const guarded = await call("POST /api/projects", {}, { body: { name: "Guarded", autonomy: { planApproval: true } } });
  await call(
    "POST /api/issues",
    {},
    { body: { title: "Plan it", type: "task", status: "todo", projectId: guarded.id } },
  );
  const planned = await call<{ dispatch: Data }>(
    "GET /api/dispatch/next",
    {},
    { query: `agent=planner&projectId=${guarded.id}` },
  );
  const plan = { body: { type: "plan", body: "1. Add the index" } };
  await call("POST /api/dispatch/:id/activities", { id: planned.dispatch.id }, plan);
  await call("POST /api/dispatch/:id/reject", { id: planned.dispatch.id }, { body: { feedback: "Measure first" } });
  await call("POST /api/dispatch/:id/activities", { id: planned.dispatch.id }, plan);
  await call("POST /api/dispatch/:id/approve", { id: planned.dispatch.id }, { body: { comment: "Go" } });
  await call("POST /api/dispatch/:id/release", { id: planned.dispatch.id });
  const stopped = await call<{ dispatch: Data }>("GET /api/dispatch/next", {}, { query: "agent=third" });
  await call(
    "POST /api/dispatch/:id/stop",
    { id: stopped.dispatch.id },
    // The body as JSON text: the API names a field `then`.
    { body: JSON.parse('{"reason": "Walked", "then": "backlog"}') },
  );
  await call("POST /api/dispatch/claim", {}, { body: { agent: "walker", types: ["monitor"] } });

  // Outbound events: a destination nothing listens at (port 9, discard), and one delivery to it,
  // of the issue above, handed to the events' handler as the table's stream would hand it over.
  const destination = await call(
    "POST /api/event-destinations",
    {},
    { body: { url: "http://127.0.0.1:9/kaizen", events: ["issue.created"], description: "walk" } },
  );
  await call("GET /api/event-destinations");

  // Hosted runners: one made, listed, read and changed (its GitHub token never shown); deleted last.
  const runner = await call(
    "POST /api/runners",
    {},
    { body: { name: "walker", kind: "github_actions", repository: "acme/app", githubToken: "ghp_walk" } },
  );
  await call("GET /api/runners");
  await call("GET /api/runners/:id", { id: runner.id });
  await call("PATCH /api/runners/:id", { id: runner.id }, { body: { concurrency: 2, active: false } });

  // API keys: one made, listed, read and revoked.
  const key = await call("POST /api/keys", {}, { body: { name: "walker", scopes: ["read"] } });
  await call("GET /api/keys");
  await call("GET /api/keys/:id", { id: key.id });
  await call("DELETE /api/keys/:id", { id: key.id });
  await call("GET /api/me");
  await call("GET /api/audit");
  await call("GET /api/event-destinations/:id", { id: destination.id });
  await call("PATCH /api/event-destinations/:id", { id: destination.id }, { body: { description: "walked" } });
  const issueItem = await db.get(issueKey(other.id), { consistent: true });
  if (!issueItem) throw new Error("the walk's issue is not in the table");
  await eventDeliveries({ db, outboundGuard: OPEN_GUARD }).handleChanges([
    {
      id: "walk-record-1",
      kind: "INSERT",
      sequenceNumber: "1",
      keys: issueKey(other.id),
      newImage: issueItem,
      at: Date.now(),
    },
  ]);
  const [delivery] = await call<Data[]>("GET /api/event-destinations/:id/deliveries", { id: destination.id });
  if (!delivery) throw new Error("the walk's event made no delivery");
  await call("POST /api/event-destinations/:id/deliveries/:deliveryId/retry", {
    id: destination.id,
    deliveryId: delivery.id,
  });
  await call("POST /api/event-destinations/:id/rotate-secret", { id: destination.id });

  // Dashboard.
  await call("GET /api/dashboard/stats");
  await call("GET /api/dashboard/activity");
  await call("GET /api/dashboard/prompts");
  await call("GET /api/dashboard/usage", {}, { query: "days=2" });
  await call("GET /api/dashboard/agents", {}, { query: "days=2" });

  // Remote MCP: a JSON-RPC request, answered as JSON by the tools of `kaizen mcp`.
  await call(
    "POST /mcp",
    {},
    {
      body: { jsonrpc: "2.0", id: 1, method: "tools/list" },
      init: { headers: { Accept: "application/json, text/event-stream" } },
    },
  );

  // Deletes, last.
  await call("DELETE /api/relations/:id", { id: relation.id });
  await call("DELETE /api/issues/:id", { id: other.id });
  await call("DELETE /api/labels/:id", { id: spareLabel.id });
  await call("DELETE /api/goals/:id", { id: goal.id });
  await call("DELETE /api/projects/:id", { id: spareProject.id });
  await call("DELETE /api/templates/:id/experiments/:experimentId", { id: template.id, experimentId: experiment.id });
  await call("DELETE /api/templates/:id", { id: template.id });
  await call("DELETE /api/partials/:name", { name: partial.name });
  await call("DELETE /api/event-destinations/:id", { id: destination.id });
  await call("DELETE /api/runners/:id", { id: runner.id });
  return answered;
}
