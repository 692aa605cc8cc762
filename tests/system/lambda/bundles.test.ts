/** The built bundles, invoked as Lambda would: API Gateway HTTP API v2 events against DynamoDB Local. */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { ALL_DECLARATIONS } from "../../../core/src/families.js";
import { SEEDING_MESSAGE } from "../../../core/src/templates/default-templates.js";
import { signCodehost, signErrortracker } from "../../../core/src/webhooks/verify.js";
import { packageFiles } from "../../../scripts/build.js";
import { apiGatewayEvent } from "../../helpers/apigw.js";
import { TEST_API_KEY, TEST_WEBHOOK_SECRETS } from "../../helpers/db.js";
import { deployedEnv, invoke, loadHandler } from "../../helpers/lambda.js";

describe("Lambda bundles", () => {
  let env: Record<string, string>;
  beforeAll(async () => {
    ({ env } = await deployedEnv());
  });

  it("exist for every handler file", () => {
    const families = readdirSync("functions").map((file) => file.replace(/\.ts$/, ""));
    expect(Object.keys(inject("bundles")).sort()).toEqual(families.sort());
  });

  it("carry none of their routes' OpenAPI text: the service serves the prebuilt document", () => {
    const bundles = inject("bundles") as Record<string, string>;
    let checked = 0;
    for (const [family, declarations] of Object.entries(ALL_DECLARATIONS)) {
      const entry = bundles[family];
      if (!entry) throw new Error(`no bundle for ${family}`);
      const code = packageFiles(family, dirname(entry))
        // The document itself (docs/openapi.json), read on demand by `GET /api/openapi.json`.
        .filter((file) => file.endsWith(".mjs") && !file.includes(`${family}-openapi-`))
        .map((file) => readFileSync(join(dirname(entry), file), "utf8"))
        .join("\n");
      for (const [key, { doc }] of Object.entries(declarations)) {
        if (!doc) throw new Error(`${key} has no text outside a bundle`);
        for (const text of [doc.summary, doc.description]) {
          // The longest stretch esbuild prints as it is (no quote, escape or non-ASCII character in it).
          const probe = (text ?? "").split(/[^\x20-\x7e]|["'`\\$]/).sort((a, b) => b.length - a.length)[0] ?? "";
          if (probe.length < 20) continue;
          expect(code.includes(probe), `${family} bundle carries the text of ${key}: ${probe}`).toBe(false);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(60);
  });

  /** The sources of what a function carries, as its package's source maps name them. */
  const carried = (family: string) => {
    const entry = (inject("bundles") as Record<string, string>)[family];
    if (!entry) throw new Error(`no bundle for ${family}`);
    return packageFiles(family, dirname(entry))
      .filter((file) => file.endsWith(".mjs.map"))
      .flatMap(
        (file) => (JSON.parse(readFileSync(join(dirname(entry), file), "utf8")) as { sources: string[] }).sources,
      )
      .map((source) => source.replace(/^(\.\.\/)+/, ""));
  };

  it("carry the stores that tell where a resource belongs only where their family's routes reach that resource", () => {
    const lookupStores = [
      "core/src/issues/issue-store.ts",
      "core/src/issues/relation-store.ts",
      "core/src/prompts/prompt-store.ts",
      "core/src/signals/signal-queries.ts",
    ];
    for (const family of ["access", "destinations", "runners", "service"]) {
      expect(
        carried(family).filter((source) => lookupStores.includes(source)),
        family,
      ).toEqual([]);
    }
    expect(carried("issues")).toContain("core/src/issues/relation-store.ts");
    expect(carried("prompts")).toContain("core/src/prompts/prompt-store.ts");
  });

  it("carry the whole route table only where it is read: the service function (API Gateway's $default route) and MCP (a tool's route)", () => {
    const withTable = Object.keys(inject("bundles") as Record<string, string>).filter((family) =>
      carried(family).includes("core/src/route-table.ts"),
    );
    expect(withTable).toEqual(["mcp", "service"]);
  });

  it("carry the code-host review loop only in the webhook receivers: a manual signal is never a code-host review", () => {
    const reviewLoop = ["core/src/signals/review-loop.ts", "core/src/dispatch/human-reviews.ts"];
    expect(carried("signals").filter((source) => reviewLoop.includes(source))).toEqual([]);
    expect(carried("webhooks")).toEqual(expect.arrayContaining(reviewLoop));
  });

  it("carry the catalog's service only in the catalog function: improvement tasks make their label through the label store", () => {
    const withService = Object.keys(inject("bundles") as Record<string, string>).filter((family) =>
      carried(family).includes("core/src/catalog/catalog-service.ts"),
    );
    expect(withService).toEqual(["catalog"]);
    for (const family of ["prompts", "webhooks"]) {
      expect(carried(family), family).toContain("core/src/prompts/improvement-tasks.ts");
    }
  });

  it("carry the issue writes only where their family writes issues: a template preview and the dashboard only read them", () => {
    for (const family of ["templates", "dashboard"]) {
      expect(carried(family), family).toContain("core/src/issues/issue-reads.ts");
      expect(carried(family), family).not.toContain("core/src/issues/issue-store.ts");
    }
    expect(carried("issues")).toContain("core/src/issues/issue-store.ts");
  });

  it("carry one signal's read alone where a prompt is rendered: the signal listings stay with the families that list signals", () => {
    for (const family of ["templates", "dispatch", "handoffs"]) {
      expect(carried(family), family).toContain("core/src/signals/signal-reads.ts");
      expect(carried(family), family).not.toContain("core/src/signals/signal-queries.ts");
    }
    expect(carried("signals")).toContain("core/src/signals/signal-queries.ts");
  });

  it("carry the template writes only where their family writes templates: the dashboard only reads them", () => {
    expect(carried("dashboard")).toContain("core/src/templates/template-reads.ts");
    expect(carried("dashboard")).not.toContain("core/src/templates/template-store.ts");
    expect(carried("templates")).toContain("core/src/templates/template-store.ts");
  });

  it("carry the default templates' seeding only where a prompt is rendered: claims (dispatch; hosted runners' hand-offs), template previews, MCP's tools", () => {
    const bundles = inject("bundles") as Record<string, string>;
    const carrying = (source: string) =>
      Object.keys(bundles)
        .filter((family) => carried(family).includes(source))
        .sort();
    const rendering = ["dispatch", "handoffs", "mcp", "templates"];
    expect(carrying("core/src/templates/default-templates.ts")).toEqual(rendering);
    expect(carrying("core/src/prompts/claim-prompts.ts")).toEqual(["dispatch", "handoffs", "mcp"]);
    // The seeding's own words, as minified into the bundles' files.
    const saying = Object.entries(bundles)
      .filter(([family, entry]) =>
        packageFiles(family, dirname(entry))
          .filter((file) => file.endsWith(".mjs"))
          .some((file) => readFileSync(join(dirname(entry), file), "utf8").includes(SEEDING_MESSAGE)),
      )
      .map(([family]) => family)
      .sort();
    expect(saying).toEqual(rendering);
  });

  it("carry the signal reads only where they are used (the receivers only store signals), and no issues' service beside signals", () => {
    const reads = ["core/src/signals/signal-service.ts"];
    expect(carried("webhooks").filter((source) => reads.includes(source))).toEqual([]);
    expect(carried("signals")).toEqual(expect.arrayContaining(reads));
    // Signals find issues by reference (IssueReads.require), not through what serves the issues' routes.
    for (const family of ["webhooks", "signals"]) {
      expect(carried(family), family).not.toContain("core/src/issues/issue-service.ts");
    }
    expect(carried("issues")).toContain("core/src/issues/issue-service.ts");
  });

  it("carry the API's caller checks everywhere but in the webhook receivers, whose routes the providers' signatures verify", () => {
    const checks = ["core/src/access/api-key-store.ts", "core/src/http/caller-checks.ts"];
    // Every function but the stream's and the schedules' serves HTTP.
    const served = Object.keys(inject("bundles") as Record<string, string>).filter(
      (family) => !["events", "handoffs", "sweeps"].includes(family),
    );
    for (const family of served) {
      const carries = carried(family)
        .filter((source) => checks.includes(source))
        .sort();
      expect(carries, family).toEqual(family === "webhooks" ? [] : checks);
    }
  });

  it("carry no conflict emulator: on AWS, DynamoDB refuses conflicting transactions itself", () => {
    const withEmulator = Object.keys(inject("bundles") as Record<string, string>).filter((family) =>
      carried(family).includes("core/src/db/conflict-emulator.ts"),
    );
    expect(withEmulator).toEqual([]);
  });

  it("service: GET / and GET /health", async () => {
    const handler = await loadHandler("service", env);
    const root = await invoke(handler, apiGatewayEvent({ method: "GET", path: "/" }));
    expect(root.statusCode).toBe(200);
    expect(root.json).toMatchObject({ data: { name: "kaizen" } });
    expect(root.headers["content-type"]).toBe("application/json; charset=utf-8");
    const health = await invoke(handler, apiGatewayEvent({ method: "GET", path: "/health" }));
    expect(health.statusCode).toBe(200);
    expect(health.json).toMatchObject({ status: "ok", checks: { database: "ok" } });
  });

  it("service: the $default route gives the JSON 404 and 405 of the whole route table", async () => {
    const handler = await loadHandler("service", env);
    const missing = await invoke(
      handler,
      apiGatewayEvent({ method: "GET", path: "/api/nothing", routeKey: "$default" }),
    );
    expect(missing.statusCode).toBe(404);
    expect(missing.json).toEqual({ error: "No route for GET /api/nothing" });
    const wrong = await invoke(
      handler,
      apiGatewayEvent({ method: "DELETE", path: "/api/issues", routeKey: "$default" }),
    );
    expect(wrong.statusCode).toBe(405);
    expect(wrong.headers.allow).toBe("GET, HEAD, POST");
  });

  it("dispatch: a GET the gateway routes to /api/dispatch/{id} on the path of the claim is the 405 of its path", async () => {
    const handler = await loadHandler("dispatch", env);
    const result = await invoke(
      handler,
      apiGatewayEvent({ method: "GET", path: "/api/dispatch/claim", routeKey: "GET /api/dispatch/{id}" }),
    );
    expect({ status: result.statusCode, allow: result.headers.allow, body: result.json }).toEqual({
      status: 405,
      allow: "POST",
      body: { error: "Method not allowed" },
    });
  });

  it("uses API Gateway's request id when the client sends none, and the client's when it does", async () => {
    const handler = await loadHandler("service", env);
    const event = apiGatewayEvent({ method: "GET", path: "/" });
    const result = await invoke(handler, event);
    expect(result.headers["x-request-id"]).toBe(event.requestContext.requestId);
    const own = await invoke(
      handler,
      apiGatewayEvent({ method: "GET", path: "/", headers: { "x-request-id": "mine" } }),
    );
    expect(own.headers["x-request-id"]).toBe("mine");
  });

  it("issues: create with a base64-encoded body, read it back, list with a query string", async () => {
    const handler = await loadHandler("issues", env);
    const body = JSON.stringify({ title: "Émoji 🚀 and 漢字", type: "task", priority: 1 });
    const created = await invoke(
      handler,
      apiGatewayEvent({
        method: "POST",
        path: "/api/issues",
        headers: { Authorization: `Bearer ${TEST_API_KEY}`, "Content-Type": "application/json" },
        body,
        base64: true,
      }),
    );
    expect(created.statusCode).toBe(201);
    const issue = created.json.data as { id: string; number: number; title: string };
    expect(issue.title).toBe("Émoji 🚀 and 漢字");
    expect(created.headers.etag).toBe('"1"');

    const fetched = await invoke(
      handler,
      apiGatewayEvent({
        method: "GET",
        path: `/api/issues/KZN-${issue.number}`,
        headers: { authorization: `Bearer ${TEST_API_KEY}` },
      }),
    );
    expect(fetched.statusCode).toBe(200);
    expect((fetched.json.data as { id: string }).id).toBe(issue.id);

    const listed = await invoke(
      handler,
      apiGatewayEvent({
        method: "GET",
        path: "/api/issues",
        query: "priority=1&limit=5&page=1",
        headers: { AUTHORIZATION: `Bearer ${TEST_API_KEY}` },
      }),
    );
    expect(listed.statusCode).toBe(200);
    expect(listed.json).toMatchObject({ total: 1, data: [{ id: issue.id }] });

    const plain = await invoke(
      handler,
      apiGatewayEvent({
        method: "POST",
        path: "/api/issues",
        headers: { authorization: `Bearer ${TEST_API_KEY}`, "content-type": "application/json" },
        body: JSON.stringify({ title: "plain", type: "plan" }),
      }),
    );
    expect(plain.statusCode).toBe(201);
  });

  it("issues: refuses bad input with the JSON envelope", async () => {
    const handler = await loadHandler("issues", env);
    const auth = { authorization: `Bearer ${TEST_API_KEY}` };
    const cases: [Parameters<typeof apiGatewayEvent>[0], number, string][] = [
      [{ method: "GET", path: "/api/issues" }, 401, "Missing or malformed Authorization header"],
      [
        { method: "GET", path: "/api/issues", headers: { authorization: "Basic eDp5" } },
        401,
        "Missing or malformed Authorization header",
      ],
      [
        { method: "GET", path: "/api/issues", query: "page=0", headers: auth },
        400,
        "page: page must be an integer between 1 and 10000",
      ],
      [
        {
          method: "POST",
          path: "/api/issues",
          headers: { ...auth, "content-type": "application/json" },
          body: "{oops",
          base64: true,
        },
        400,
        "Malformed JSON body",
      ],
      [
        { method: "POST", path: "/api/issues", headers: { ...auth, "content-type": "text/plain" }, body: "{}" },
        415,
        "Content-Type must be application/json",
      ],
      [
        {
          method: "POST",
          path: "/api/issues",
          headers: { ...auth, "content-type": "application/json" },
          body: JSON.stringify({ title: "x", type: "task", description: "y".repeat(1024 * 1024) }),
        },
        413,
        "Request body exceeds the 1 MiB limit",
      ],
      [{ method: "GET", path: "/api/issues/KZN-424242", headers: auth }, 404, "Issue KZN-424242 not found"],
      // A route that takes no body refuses one the gateway passes on, before it looks for the issue.
      [
        {
          method: "DELETE",
          path: "/api/issues/KZN-424242",
          headers: { ...auth, "content-type": "application/json" },
          body: '{"bogus":true}',
        },
        400,
        "unknown field: bogus",
      ],
    ];
    for (const [event, status, message] of cases) {
      const result = await invoke(handler, apiGatewayEvent(event));
      expect({ status: result.statusCode, error: result.json.error }).toEqual({ status, error: message });
    }
  });

  it("fails closed with 500 when SERVICE_API_KEY is not configured", async () => {
    const handler = await loadHandler("issues", { ...env, SERVICE_API_KEY: undefined });
    const result = await invoke(
      handler,
      apiGatewayEvent({ method: "GET", path: "/api/issues", headers: { authorization: `Bearer ${TEST_API_KEY}` } }),
    );
    expect(result.statusCode).toBe(500);
    expect(result.json).toEqual({ error: "SERVICE_API_KEY is not configured" });
  });

  it("refuses to start with a malformed key, saying why", () => {
    const bundle = inject("bundles").issues ?? "";
    const run = spawnSync(
      process.execPath,
      ["--no-warnings", "--input-type=module", "-e", `await import(${JSON.stringify(pathToFileURL(bundle).href)})`],
      {
        env: { ...process.env, ...env, SERVICE_API_KEY: "kaizen_not-a-key" },
        encoding: "utf8",
      },
    );
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain("SERVICE_API_KEY is malformed");
    expect(run.stderr).not.toContain("kaizen_not-a-key");
  });

  it("reads the table and key from SST links when no environment variable is set", async () => {
    const handler = await loadHandler("issues", {
      TABLE_NAME: undefined,
      SERVICE_API_KEY: undefined,
      DYNAMODB_ENDPOINT: env.DYNAMODB_ENDPOINT,
      SST_RESOURCE_App: JSON.stringify({ name: "kaizen", stage: "test" }),
      SST_RESOURCE_Table: JSON.stringify({ name: env.TABLE_NAME }),
      SST_RESOURCE_ServiceApiKey: JSON.stringify({ value: TEST_API_KEY }),
    });
    const result = await invoke(
      handler,
      apiGatewayEvent({ method: "GET", path: "/api/issues", headers: { authorization: `Bearer ${TEST_API_KEY}` } }),
    );
    expect(result.statusCode).toBe(200);
    expect(result.json.total).toBeGreaterThan(0);
  });

  describe("webhooks", () => {
    const secrets = {
      CODEHOST_WEBHOOK_SECRET: TEST_WEBHOOK_SECRETS.codehost,
      ERRORTRACKER_CLIENT_SECRET: TEST_WEBHOOK_SECRETS.errortracker,
      ANALYTICS_WEBHOOK_SECRET: TEST_WEBHOOK_SECRETS.analytics,
    };
    const issueBody = JSON.stringify({
      action: "opened",
      issue: { number: 31, title: "Paiement échoué 💳 支付失败" },
      repository: { full_name: "octo-org/shop" },
    });
    const codehostEvent = (
      body: string,
      base64: boolean,
      delivery: string,
      signature = signCodehost(body, TEST_WEBHOOK_SECRETS.codehost),
    ) =>
      apiGatewayEvent({
        method: "POST",
        path: "/api/signals/codehost",
        headers: {
          "content-type": "application/json",
          "x-codehost-event": "issues",
          "x-codehost-delivery": delivery,
          "x-codehost-signature-256": signature,
        },
        body,
        base64,
      });

    it("verify and store deliveries whose body the gateway base64-encoded, multi-byte text included", async () => {
      const handler = await loadHandler("webhooks", { ...env, ...secrets });
      const created = await invoke(handler, codehostEvent(issueBody, true, "lambda-1"));
      expect(created.statusCode).toBe(201);
      expect(created.json.data).toMatchObject({
        duplicate: false,
        signal: { title: "Paiement échoué 💳 支付失败", action: "opened" },
        issue: { title: "Paiement échoué 💳 支付失败" },
      });
      const again = await invoke(handler, codehostEvent(issueBody, false, "lambda-1"));
      expect(again.statusCode).toBe(200);
      expect(again.json.data).toMatchObject({ duplicate: true });
      const tampered = await invoke(
        handler,
        codehostEvent(
          issueBody.replace("31", "32"),
          true,
          "lambda-2",
          signCodehost(issueBody, TEST_WEBHOOK_SECRETS.codehost),
        ),
      );
      expect(tampered.statusCode).toBe(401);
      expect(tampered.json).toEqual({ error: "Invalid webhook signature" });
    });

    it("take GitHub's and Sentry's own headers, lowercased as the gateway passes them", async () => {
      const handler = await loadHandler("webhooks", { ...env, ...secrets });
      const githubBody = issueBody.replace('"number":31', '"number":33');
      const github = await invoke(
        handler,
        apiGatewayEvent({
          method: "POST",
          path: "/api/signals/codehost",
          headers: {
            "content-type": "application/json",
            "x-github-event": "issues",
            "x-github-delivery": "github-lambda-1",
            "x-github-hook-id": "292430182",
            "x-hub-signature-256": signCodehost(githubBody, TEST_WEBHOOK_SECRETS.codehost),
          },
          body: githubBody,
          base64: true,
        }),
      );
      expect(github.statusCode).toBe(201);
      expect(github.json.data).toMatchObject({
        signal: {
          type: "issues.opened",
          deliveryId: "github-lambda-1",
          headers: { "X-Codehost-Event": "issues", "X-Codehost-Delivery": "github-lambda-1" },
        },
      });
      const sentryBody = JSON.stringify({ action: "created", data: { issue: { id: "4712", level: "fatal" } } });
      const sentry = await invoke(
        handler,
        apiGatewayEvent({
          method: "POST",
          path: "/api/signals/errortracker",
          headers: {
            "content-type": "application/json",
            "sentry-hook-resource": "issue",
            "sentry-hook-timestamp": "1764000000",
            "request-id": "sentry-lambda-1",
            "sentry-hook-signature": signErrortracker(sentryBody, TEST_WEBHOOK_SECRETS.errortracker),
          },
          body: sentryBody,
        }),
      );
      expect(sentry.statusCode).toBe(201);
      expect(sentry.json.data).toMatchObject({
        signal: {
          type: "issue.created",
          fingerprint: "errortracker:issue:4712",
          severity: "critical",
          headers: { "X-Errortracker-Hook-Resource": "issue", "X-Errortracker-Hook-Timestamp": "1764000000" },
        },
      });
    });

    it("verify the error tracker's re-serialised JSON and the analytics secret", async () => {
      const handler = await loadHandler("webhooks", { ...env, ...secrets });
      const text =
        '{ "action": "created", "data": { "issue": { "id": "4711", "title": "ZeroDivisionError", "level": "error" } } }';
      const tracker = await invoke(
        handler,
        apiGatewayEvent({
          method: "POST",
          path: "/api/signals/errortracker",
          headers: {
            "content-type": "application/json",
            "x-errortracker-hook-resource": "issue",
            "request-id": "tracker-lambda-1",
            "x-errortracker-hook-signature": signErrortracker(
              JSON.stringify(JSON.parse(text)),
              TEST_WEBHOOK_SECRETS.errortracker,
            ),
          },
          body: text,
          base64: true,
        }),
      );
      expect(tracker.statusCode).toBe(201);
      expect(tracker.json.data).toMatchObject({ signal: { fingerprint: "errortracker:issue:4711", severity: "high" } });
      const analytics = await invoke(
        handler,
        apiGatewayEvent({
          method: "POST",
          path: "/api/signals/analytics",
          headers: { "content-type": "application/json", "x-analytics-secret": TEST_WEBHOOK_SECRETS.analytics },
          body: JSON.stringify({
            event: { uuid: "u-1", event: "checkout_failed", properties: { change_percent: -60 } },
          }),
        }),
      );
      expect(analytics.statusCode).toBe(201);
      expect(analytics.json.data).toMatchObject({ signal: { type: "checkout_failed", severity: "critical" } });
    });

    it("answer 500 naming the missing secret", async () => {
      const handler = await loadHandler("webhooks", env);
      const result = await invoke(handler, codehostEvent(issueBody, true, "lambda-3"));
      expect(result.statusCode).toBe(500);
      expect(result.json).toEqual({ error: "CODEHOST_WEBHOOK_SECRET is not configured" });
    });
  });

  it("signals: reads what the receivers stored", async () => {
    const handler = await loadHandler("signals", env);
    const auth = { authorization: `Bearer ${TEST_API_KEY}` };
    const listed = await invoke(
      handler,
      apiGatewayEvent({ method: "GET", path: "/api/signals", query: "source=codehost", headers: auth }),
    );
    expect(listed.statusCode).toBe(200);
    const first = (listed.json.data as { id: string; issueId: string; deliveryId: string }[]).find(
      (signal) => signal.deliveryId === "lambda-1",
    );
    expect(first).toBeDefined();
    const one = await invoke(
      handler,
      apiGatewayEvent({ method: "GET", path: `/api/signals/${first?.id}`, headers: auth }),
    );
    expect(one.json.data).toMatchObject({ payload: { issue: { number: 31 } } });
    const ofIssue = await invoke(
      handler,
      apiGatewayEvent({ method: "GET", path: `/api/issues/${first?.issueId}/signals`, headers: auth }),
    );
    expect(ofIssue.json.total).toBe(1);
  });

  it("issues: PATCH with If-Match, relations, comments, Idempotency-Key and DELETE through the bundle", async () => {
    const handler = await loadHandler("issues", env);
    const headers = { authorization: `Bearer ${TEST_API_KEY}`, "content-type": "application/json" };
    const post = (path: string, body: unknown, extra: Record<string, string> = {}) =>
      invoke(
        handler,
        apiGatewayEvent({
          method: "POST",
          path,
          headers: { ...headers, ...extra },
          body: JSON.stringify(body),
          base64: true,
        }),
      );
    const keyed = { "idempotency-key": "lambda-key-1" };
    const first = await post("/api/issues", { title: "Blocker", type: "task" }, keyed);
    const replay = await post("/api/issues", { title: "Blocker", type: "task" }, keyed);
    expect(first.statusCode).toBe(201);
    expect(replay.statusCode).toBe(201);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(replay.json).toEqual(first.json);
    const blocker = first.json.data as { id: string };
    const blocked = (await post("/api/issues", { title: "Blocked", type: "task" })).json.data as { id: string };
    const relation = await post(`/api/issues/${blocker.id}/relations`, { type: "blocks", relatedIssueId: blocked.id });
    expect(relation.statusCode).toBe(201);
    const comment = await post(`/api/issues/${blocked.id}/comments`, {
      body: "Waiting",
      authorName: "agent-7",
      authorType: "agent",
    });
    expect(comment.statusCode).toBe(201);

    const stale = await invoke(
      handler,
      apiGatewayEvent({
        method: "PATCH",
        path: `/api/issues/${blocker.id}`,
        headers: { ...headers, "if-match": '"9"' },
        body: '{"status":"done"}',
      }),
    );
    expect(stale.statusCode).toBe(412);
    const done = await invoke(
      handler,
      apiGatewayEvent({
        method: "PATCH",
        path: `/api/issues/${blocker.id}`,
        headers: { ...headers, "if-match": '"2"' },
        body: '{"status":"done"}',
      }),
    );
    expect(done.statusCode).toBe(200);
    expect(done.headers.etag).toBe('"3"');
    const detail = await invoke(
      handler,
      apiGatewayEvent({ method: "GET", path: `/api/issues/${blocked.id}`, headers }),
    );
    expect(detail.json.data).toMatchObject({
      blockedBy: [],
      relations: [{ type: "blocked_by", relatedIssueId: blocker.id }],
    });
    const comments = await invoke(
      handler,
      apiGatewayEvent({ method: "GET", path: `/api/issues/${blocked.id}/comments`, headers }),
    );
    expect(comments.json).toMatchObject({ total: 1, data: [{ body: "Waiting", authorType: "agent" }] });
    const removed = await invoke(
      handler,
      apiGatewayEvent({ method: "DELETE", path: `/api/issues/${blocked.id}`, headers }),
    );
    expect(removed.statusCode).toBe(204);
    const gone = await invoke(
      handler,
      apiGatewayEvent({ method: "DELETE", path: `/api/issues/${blocked.id}`, headers }),
    );
    expect(gone.statusCode).toBe(404);
  });
});
