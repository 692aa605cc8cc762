/**
 * @module tests/integration/observability — the request log line: exactly one per request, who
 * served it, the DynamoDB usage of that request alone (even among concurrent ones), the cause of a
 * 5xx, and never a secret or a payload.
 */
import { Logger, type LogItem } from "@aws-lambda-powertools/logger";
import type { Hono } from "hono";
import { beforeAll, describe, expect, it } from "vitest";
import { ALL_FAMILIES } from "../../client/mcp/all-families.js";
import { type AppEnv, type FamilyModules, familyModule } from "../../core/src/http/app.js";
import { type AppDeps, createApp, createDb, type Db } from "../../core/src/index.js";
import { AUTH, createIssues, jsonPost, type TestApp, testApp } from "../helpers/app.js";
import { TEST_API_KEY, TEST_WEBHOOK_SECRETS, testConfig } from "../helpers/db.js";
import { analyticsDelivery, codehostDelivery, issueEvent } from "../helpers/deliveries.js";

/** A Powertools logger that keeps what it would print: the exact JSON text of every line. */
class CapturingLogger extends Logger {
  readonly printed: string[] = [];

  constructor() {
    // The level is given here because the test run silences POWERTOOLS_LOG_LEVEL.
    super({ serviceName: "kaizen-test", logLevel: "INFO" });
  }

  protected override printLog(_logLevel: number, log: LogItem): void {
    log.prepareForPrint();
    this.printed.push(JSON.stringify(log.getAttributes(), this.getJsonReplacer()));
  }

  lines(): LogLine[] {
    return this.printed.map((text) => JSON.parse(text) as LogLine);
  }

  /** The one line of the request that answered with this `X-Request-Id` (fails on none or several). */
  lineOf(response: Response): LogLine {
    const requestId = response.headers.get("X-Request-Id");
    const matching = this.lines().filter((line) => line.requestId === requestId);
    expect(matching, `log lines of ${requestId}`).toHaveLength(1);
    return matching[0] as LogLine;
  }
}

interface LoggedErrorLine {
  name: string;
  message: string;
  stack?: string;
  cause?: LoggedErrorLine;
  [other: string]: unknown;
}

interface LogLine {
  level: string;
  message: string;
  service: string;
  requestId: string;
  family: string;
  method: string;
  route: string;
  path: string;
  status: number;
  durationMs: number;
  dbCalls: number;
  dbReadCapacity: number;
  dbWriteCapacity: number;
  dispatchId?: string;
  error?: LoggedErrorLine;
}

/** A well-formed dispatch token for a dispatch that does not exist: refused, and never logged. */
const DISPATCH_TOKEN = `kzd_01J2ZQ5K8Y3M4N6P7R9S0T1V2W_${"c0ffee".repeat(10)}abcd`;
/** Text placed in request bodies; a log line that holds it logged a payload. */
const BODY_MARKER = "body-marker-7f3a9c";

function loggedApp(t: TestApp, logger: Logger, families: FamilyModules = ALL_FAMILIES, db: Db = t.db): Hono<AppEnv> {
  const deps: AppDeps = { config: testConfig({ tableName: t.tableName, endpoint: t.endpoint }), db, logger };
  return createApp(families, deps);
}

describe("the request log line", () => {
  let t: TestApp;
  let issueId: string;
  beforeAll(async () => {
    t = await testApp();
    const [first] = await createIssues(t.app, 3);
    issueId = String(first?.id);
  });

  it("is exactly one JSON line per request, naming the request, its family, route, status and duration", async () => {
    const logger = new CapturingLogger();
    const app = loggedApp(t, logger);
    const created = await app.request(
      "/api/issues",
      jsonPost({ title: "Logged", type: "task" }, { "Idempotency-Key": "obs-1" }),
    );
    expect(created.status).toBe(201);
    const { id } = ((await created.json()) as { data: { id: string } }).data;
    const read = await app.request(`/api/issues/${id}`, { headers: AUTH });
    const head = await app.request(`/api/issues/${id}`, { method: "HEAD", headers: AUTH });
    const missing = await app.request("/api/nowhere", { headers: AUTH });
    const health = await app.request("/health");

    expect(logger.printed).toHaveLength(5);
    for (const text of logger.printed) expect(text).not.toContain("\n");

    expect(logger.lineOf(created)).toMatchObject({
      level: "INFO",
      message: "request",
      family: "issues",
      method: "POST",
      route: "/api/issues",
      path: "/api/issues",
      status: 201,
    });
    expect(logger.lineOf(read)).toMatchObject({
      family: "issues",
      method: "GET",
      route: "/api/issues/:id",
      path: `/api/issues/${id}`,
      status: 200,
    });
    expect(logger.lineOf(head)).toMatchObject({ family: "issues", method: "HEAD", route: "/api/issues/:id" });
    expect(logger.lineOf(missing)).toMatchObject({ family: "none", route: "none", status: 404, dbCalls: 0 });
    expect(logger.lineOf(health)).toMatchObject({ family: "service", route: "/health" });
    for (const line of logger.lines()) {
      expect(line.requestId).toMatch(/\S/);
      expect(typeof line.durationMs).toBe("number");
      expect(line.durationMs).toBeGreaterThanOrEqual(0);
      expect(line.error).toBeUndefined();
    }
  });

  it("names the app's own family for a path outside the table when the app serves one family", async () => {
    const logger = new CapturingLogger();
    const app = loggedApp(t, logger, { issues: ALL_FAMILIES.issues });
    const response = await app.request("/nowhere/at/all");
    expect(response.status).toBe(404);
    expect(logger.lineOf(response)).toMatchObject({ family: "issues", route: "none", status: 404 });
  });

  it("reports the DynamoDB calls and capacity of its own request, as the client counted them", async () => {
    const logger = new CapturingLogger();
    const app = loggedApp(t, logger);
    const requests: [string, RequestInit][] = [
      ["/api/issues", jsonPost({ title: "Costed", type: "task" })],
      ["/api/issues?limit=2", { headers: AUTH }],
      [`/api/issues/${issueId}`, { headers: AUTH }],
    ];
    const lines: LogLine[] = [];
    for (const [path, init] of requests) {
      const before = t.db.usage();
      const response = await app.request(path, init);
      const after = t.db.usage();
      expect(response.status, path).toBeLessThan(300);
      const line = logger.lineOf(response);
      expect(line.dbCalls, path).toBe(after.calls - before.calls);
      expect(line.dbCalls, path).toBeGreaterThan(0);
      expect(line.dbReadCapacity, path).toBeCloseTo(after.readCapacity - before.readCapacity, 6);
      expect(line.dbWriteCapacity, path).toBeCloseTo(after.writeCapacity - before.writeCapacity, 6);
      lines.push(line);
    }
    const [create, list] = lines;
    expect(create?.dbWriteCapacity).toBeGreaterThan(0);
    expect(list?.dbReadCapacity).toBeGreaterThan(0);
    expect(list?.dbWriteCapacity).toBe(0);
  });

  it("keeps the counts of concurrent requests apart: a read by id and a list page sent together", async () => {
    const logger = new CapturingLogger();
    const app = loggedApp(t, logger);
    const byId = () => app.request(`/api/issues/${issueId}`, { headers: AUTH });
    const listPage = () => app.request("/api/issues?limit=2&page=2", { headers: AUTH });
    // Each alone first: what it costs when nothing else runs.
    const soloById = logger.lineOf(await byId()).dbCalls;
    const soloList = logger.lineOf(await listPage()).dbCalls;
    expect(soloById).not.toBe(soloList);

    const before = t.db.usage();
    const together = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? byId() : listPage())));
    const after = t.db.usage();
    const lines = together.map((response) => logger.lineOf(response));
    lines.forEach((line, i) => {
      expect(line.status).toBe(200);
      expect(line.dbCalls, `${line.route} sent together`).toBe(i % 2 === 0 ? soloById : soloList);
    });
    // Nothing is lost or counted twice: the lines add up to the process total.
    expect(lines.reduce((sum, line) => sum + line.dbCalls, 0)).toBe(after.calls - before.calls);
  });

  it("logs a 503 from an unreachable store at ERROR with the cause, in the request's own line", async () => {
    const logger = new CapturingLogger();
    const unreachable = createDb({ tableName: t.tableName, region: "us-east-1", endpoint: "http://127.0.0.1:9" });
    const app = loggedApp(t, logger, ALL_FAMILIES, unreachable);
    const response = await app.request("/api/issues", jsonPost({ title: `Secret ${BODY_MARKER}`, type: "task" }));
    expect(response.status).toBe(503);
    expect(logger.printed).toHaveLength(1);
    const line = logger.lineOf(response);
    expect(line).toMatchObject({
      level: "ERROR",
      message: "request",
      family: "issues",
      route: "/api/issues",
      status: 503,
      dbCalls: 0,
    });
    expect(line.error).toMatchObject({ name: "UnavailableError", message: "Database unavailable" });
    expect(line.error?.stack).toContain("UnavailableError");
    expect(line.error?.cause?.name).toMatch(/\w/);
    // Name, message, stack and cause only: no SDK metadata or other fields of the error.
    expect(Object.keys(line.error ?? {}).sort()).toEqual(["cause", "message", "name", "stack"]);
    expect(
      Object.keys(line.error?.cause ?? {}).every((key) => ["cause", "message", "name", "stack"].includes(key)),
    ).toBe(true);
  });

  it("logs an unexpected 500 with its cause chain, redacting credentials and dropping the error's other fields", async () => {
    const logger = new CapturingLogger();
    const { reaches } = ALL_FAMILIES.issues;
    if (!reaches) throw new Error("the issues family reads where what its routes reach belongs");
    const failing = familyModule(ALL_FAMILIES.issues.routes, reaches, (deps) => ({
      ...ALL_FAMILIES.issues.handlers(deps),
      "GET /api/issues/:id": () => {
        const stored = Object.assign(new Error("conditional write failed"), { Item: { note: BODY_MARKER } });
        throw new Error(`dispatch ${DISPATCH_TOKEN} could not be read with Bearer ${TEST_API_KEY}`, { cause: stored });
      },
    }));
    const app = loggedApp(t, logger, { issues: failing });
    const response = await app.request(`/api/issues/${issueId}`, { headers: AUTH });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: "Internal server error" });
    const line = logger.lineOf(response);
    expect(line).toMatchObject({ level: "ERROR", family: "issues", route: "/api/issues/:id", status: 500 });
    expect(line.error?.name).toBe("Error");
    expect(line.error?.message).toBe("dispatch [redacted] could not be read with [redacted]");
    expect(line.error?.cause).toMatchObject({ name: "Error", message: "conditional write failed" });
    expect(line.error?.cause?.Item).toBeUndefined();
    const text = logger.printed.join("\n");
    for (const secret of [DISPATCH_TOKEN, TEST_API_KEY, BODY_MARKER]) expect(text).not.toContain(secret);
  });

  it("never carries a key, token, webhook secret or signature, header value or body", async () => {
    const logger = new CapturingLogger();
    const app = loggedApp(t, logger);
    const otherKey = `kaizen_${"9".repeat(64)}`;
    const codehost = codehostDelivery("issues", { ...issueEvent("opened", 7, `Checkout ${BODY_MARKER}`) });
    const analytics = analyticsDelivery({ event: "checkout_failed", note: BODY_MARKER });
    const responses = [
      await app.request(
        "/api/issues",
        jsonPost({ title: `Body ${BODY_MARKER}`, type: "task" }, { "Idempotency-Key": `key-${BODY_MARKER}` }),
      ),
      await app.request("/api/issues", { headers: { Authorization: `Bearer ${otherKey}` } }),
      await app.request("/api/issues", { headers: { Authorization: `Bearer ${DISPATCH_TOKEN}` } }),
      await app.request(`/api/issues/${DISPATCH_TOKEN}`, { headers: AUTH }),
      await app.request(`/api/issues?q=${BODY_MARKER}`, { headers: { ...AUTH, Cookie: `session=${BODY_MARKER}` } }),
      await app.request(codehost.path, codehost.init),
      await app.request(analytics.path, analytics.init),
      await app.request(analytics.path, {
        ...analytics.init,
        headers: { ...analytics.init.headers, "X-Analytics-Secret": `wrong-${BODY_MARKER}` },
      }),
    ];
    expect(responses.map((response) => response.status)).toEqual([201, 401, 401, 404, 200, 201, 201, 401]);
    for (const response of responses) logger.lineOf(response);
    expect(logger.printed).toHaveLength(responses.length);

    const text = logger.printed.join("\n");
    const secrets = [
      TEST_API_KEY,
      otherKey,
      DISPATCH_TOKEN,
      BODY_MARKER,
      codehost.init.headers["X-Codehost-Signature-256"] as string,
      ...Object.values(TEST_WEBHOOK_SECRETS),
      "Bearer",
    ];
    for (const secret of secrets) expect(text, secret).not.toContain(secret);
    expect(logger.lineOf(responses[3] as Response).path).toBe("/api/issues/[redacted]");
    expect(logger.lineOf(responses[5] as Response)).toMatchObject({
      family: "webhooks",
      route: "/api/signals/codehost",
    });
  });
});
