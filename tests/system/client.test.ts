/**
 * The typed client (client/) against the real local server: a call through every family, errors as
 * one KaizenApiError with the envelope's fields, and retries only where repeating is safe.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimStopped, createKaizenClient, KaizenApiError, type KaizenClient } from "../../client/index.js";
import { freePort } from "../../infra/local/dynamodb.js";
import { CLIENT_TYPES_FILE, clientTypesText } from "../../scripts/openapi.js";
import { TEST_API_KEY, TEST_WEBHOOK_SECRETS } from "../helpers/db.js";
import { startTestServer, type TestServer } from "../helpers/local-server.js";

let server: TestServer;
let baseUrl: string;
let kaizen: KaizenClient;

beforeAll(async () => {
  server = await startTestServer("client");
  baseUrl = server.url;
  kaizen = createKaizenClient({ baseUrl, token: TEST_API_KEY });
});

afterAll(() => server?.stop());

/** A fetch that answers the first `failures` requests itself with `status`, then sends the rest; it records them all. */
function flakyFetch(failures: number, status = 503) {
  const sent: { method: string; path: string; idempotencyKey: string | null }[] = [];
  let left = failures;
  const fetch = async (request: Request) => {
    sent.push({
      method: request.method,
      path: new URL(request.url).pathname,
      idempotencyKey: request.headers.get("Idempotency-Key"),
    });
    if (left-- > 0) {
      // As a server that applied the write and then failed to answer would look: send it, then say 503.
      if (status === 503) await globalThis.fetch(request.clone());
      return new Response(JSON.stringify({ error: "Database unavailable" }), {
        status,
        headers: { "Content-Type": "application/json", "Retry-After": "0" },
      });
    }
    return globalThis.fetch(request);
  };
  return { fetch, sent };
}

describe("the typed client's types", () => {
  it("are what openapi-typescript makes of the current document (run `npm run openapi` after changing it)", async () => {
    expect(readFileSync(CLIENT_TYPES_FILE, "utf8"), "client/api-types.ts is out of date: run `npm run openapi`").toBe(
      await clientTypesText(),
    );
  });
});

describe("the typed client through every family", () => {
  it("service, catalog, issues, comments, signals, templates, dispatch, prompts and dashboard", async () => {
    const health = await kaizen.GET("/health");
    expect(health.data).toMatchObject({ status: "ok" });
    const document = await kaizen.GET("/api/openapi.json");
    expect(document.data).toMatchObject({ openapi: "3.1.0" });

    const project = (await kaizen.POST("/api/projects", { body: { name: "Typed client" } })).data?.data;
    expect(project?.name).toBe("Typed client");
    const label = (await kaizen.POST("/api/labels", { body: { name: "client", color: "#336699" } })).data?.data;
    expect(label?.name).toBe("client");

    const created = await kaizen.POST("/api/issues", {
      body: { title: "Typed create", type: "task", projectId: project?.id, labels: ["client"] },
    });
    expect(created.response.status).toBe(201);
    const issue = created.data?.data;
    expect(issue).toMatchObject({ title: "Typed create", status: "triage", labels: ["client"] });
    if (!issue) throw new Error("no issue");

    const listed = await kaizen.GET("/api/issues", { params: { query: { projectId: project?.id, limit: 5 } } });
    expect(listed.data?.total).toBe(1);
    expect(listed.data?.data[0]?.id).toBe(issue.id);

    const moved = await kaizen.PATCH("/api/issues/{id}", {
      params: { path: { id: issue.identifier } },
      body: { status: "todo", priority: 2 },
    });
    expect(moved.data?.data).toMatchObject({ status: "todo", priority: 2 });

    const comment = await kaizen.POST("/api/issues/{id}/comments", {
      params: { path: { id: issue.id } },
      body: { body: "From the client", authorName: "tests", authorType: "human" },
    });
    expect(comment.data?.data.body).toBe("From the client");

    const signal = await kaizen.POST("/api/signals", {
      body: { source: "pager", type: "alert", title: "Client signal", severity: "low" },
    });
    expect(signal.response.status).toBe(201);
    const signals = await kaizen.GET("/api/signals", { params: { query: { source: "pager" } } });
    expect(signals.data?.total).toBe(1);
    // A provider's delivery through the same client: the secret in its header, no key needed.
    const delivery = await createKaizenClient({ baseUrl }).POST("/api/signals/analytics", {
      body: { event: "checkout_failed" },
      headers: { "X-Analytics-Secret": TEST_WEBHOOK_SECRETS.analytics },
    } as never);
    expect(delivery.response.status).toBe(201);
    const received = await kaizen.GET("/api/signals/{id}", {
      params: { path: { id: (delivery.data as unknown as { data: { signal: { id: string } } }).data.signal.id } },
    });
    expect(received.data?.data.source).toBe("analytics");

    const templates = await kaizen.GET("/api/templates");
    expect(templates.data?.total).toBeGreaterThanOrEqual(5);
    const preview = await kaizen.GET("/api/templates/preview/{issueId}", { params: { path: { issueId: issue.id } } });
    expect(preview.data?.data.text).toContain("Typed create");

    const queue = await kaizen.GET("/api/dispatch/queue");
    expect(queue.data?.data.map((entry) => entry.issue.id)).toContain(issue.id);
    const claim = await kaizen.POST("/api/dispatch/claim", { body: { agent: "typed-client" } });
    expect(claim.response.status).toBe(201);
    const claimed = claim.data?.data;
    expect(claimed?.issue.id).toBe(issue.id);
    if (!claimed?.prompt) throw new Error("no claim, or no prompt rendered for it");
    const promptId = claimed.prompt.id;

    // The agent's side: its own client with the dispatch token.
    const agent = createKaizenClient({ baseUrl, token: claimed.dispatch.token });
    const beat = await agent.POST("/api/dispatch/{id}/heartbeat", { params: { path: { id: claimed.dispatch.id } } });
    expect(beat.data?.data.status).toBe("active");
    // The review first: the token expires with the dispatch (docs/api.md#dispatch).
    const review = await agent.POST("/api/prompts/{id}/reviews", {
      params: { path: { id: promptId } },
      body: { clarity: 5, completeness: 4, relevance: 5, authorType: "agent" },
    });
    expect(review.response.status).toBe(201);
    const done = await agent.POST("/api/dispatch/{id}/complete", {
      params: { path: { id: claimed.dispatch.id } },
      body: { result: "done", summary: "Done through the typed client" },
    });
    expect(done.data?.data.issue?.status).toBe("done");
    const prompt = await kaizen.GET("/api/prompts/{id}", { params: { path: { id: promptId } } });
    expect(prompt.data?.data.issueId).toBe(issue.id);

    const stats = await kaizen.GET("/api/dashboard/stats");
    expect(stats.data?.data.issues.byStatus.done).toBe(1);
    const activity = await kaizen.GET("/api/dashboard/activity");
    expect(activity.data?.data.map((row) => row.signal.source).sort()).toEqual(["analytics", "pager"]);
    const prompts = await kaizen.GET("/api/dashboard/prompts");
    expect(prompts.data?.data.some((row) => row.activeVersion?.reviewCount === 1)).toBe(true);
    const usage = await kaizen.GET("/api/dashboard/usage", { params: { query: { days: "2" } } });
    expect(usage.data?.data.days).toHaveLength(2);

    const deleted = await kaizen
      .DELETE("/api/relations/{id}", { params: { path: { id: "rel_missing" } } })
      .catch((error: unknown) => error);
    expect(deleted).toBeInstanceOf(KaizenApiError);
  });
});

describe("errors", () => {
  it("are one KaizenApiError carrying the status and the envelope's error and details", async () => {
    const missing = await kaizen.GET("/api/issues/{id}", { params: { path: { id: "KZN-99999" } } }).catch((e) => e);
    expect(missing).toBeInstanceOf(KaizenApiError);
    expect(missing).toMatchObject({ status: 404, error: "Issue KZN-99999 not found", method: "GET" });
    expect(missing.requestId).toBeTruthy();

    const invalid = await kaizen
      .POST("/api/issues", { body: { title: "", type: "task" } as never })
      .catch((error: unknown) => error);
    expect(invalid).toMatchObject({ status: 400 });
    expect((invalid as KaizenApiError).details?.[0]?.path).toBe("title");

    const anonymous = createKaizenClient({ baseUrl });
    await expect(anonymous.GET("/api/issues")).rejects.toMatchObject({
      status: 401,
      error: "Missing or malformed Authorization header",
    });
  });

  it("status 0 when the service cannot be reached, after the retries a GET may make", async () => {
    const port = await freePort();
    const unreachable = createKaizenClient({ baseUrl: `http://127.0.0.1:${port}`, token: TEST_API_KEY });
    const error = await unreachable.GET("/health").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KaizenApiError);
    expect(error).toMatchObject({ status: 0 });
    expect((error as KaizenApiError).error).toContain(`cannot reach http://127.0.0.1:${port}`);
  });
});

describe("retries", () => {
  it("a POST that takes Idempotency-Key gets one, keeps it across retries, and creates once", async () => {
    const { fetch, sent } = flakyFetch(2);
    const client = createKaizenClient({ baseUrl, token: TEST_API_KEY, fetch });
    const title = `Retried create ${Date.now()}`;
    const created = await client.POST("/api/issues", { body: { title, type: "task" } });
    expect(created.response.status).toBe(201);
    expect(created.response.headers.get("idempotent-replayed")).toBe("true");
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map((request) => request.idempotencyKey)).size).toBe(1);
    expect(sent[0]?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    const found = await kaizen.GET("/api/issues", { params: { query: { q: title } } });
    expect(found.data?.total).toBe(1);
  });

  it("a claim gets a key too: its answer lost to a 503, the retry replays it and claims no second issue", async () => {
    for (const title of ["Claimed once", "Left for later"]) {
      await kaizen.POST("/api/issues", { body: { title, type: "task", status: "todo" } });
    }
    const { fetch, sent } = flakyFetch(1, 503);
    const client = createKaizenClient({ baseUrl, token: TEST_API_KEY, fetch });
    const claimed = await client.POST("/api/dispatch/claim", { body: { agent: "retried-claim" } });
    expect(claimed.response.status).toBe(201);
    expect(claimed.response.headers.get("idempotent-replayed")).toBe("true");
    expect(sent).toHaveLength(2);
    expect(sent[0]?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent[1]?.idempotencyKey).toBe(sent[0]?.idempotencyKey);
    const mine = await kaizen.GET("/api/dispatch", { params: { query: { agent: "retried-claim" } } });
    expect(mine.data?.total).toBe(1);
  });

  it("a key's create, which takes no Idempotency-Key, is sent once: a 503 reaches the caller", async () => {
    const { fetch, sent } = flakyFetch(1, 503);
    const client = createKaizenClient({ baseUrl, token: TEST_API_KEY, fetch });
    await expect(client.POST("/api/keys", { body: { name: "sent once", scopes: ["read"] } })).rejects.toMatchObject({
      status: 503,
    });
    expect(sent).toHaveLength(1);
    expect(sent[0]?.idempotencyKey).toBeNull();
  });

  it("GETs are retried on 503 and 429, up to the attempts allowed; 4xx are not retried", async () => {
    const throttled = flakyFetch(1, 429);
    await createKaizenClient({ baseUrl, token: TEST_API_KEY, fetch: throttled.fetch }).GET("/api/issues");
    expect(throttled.sent).toHaveLength(2);

    const down = flakyFetch(5, 503);
    const client = createKaizenClient({ baseUrl, token: TEST_API_KEY, fetch: down.fetch, attempts: 3 });
    await expect(client.GET("/api/issues")).rejects.toMatchObject({ status: 503, error: "Database unavailable" });
    expect(down.sent).toHaveLength(3);

    const notFound = flakyFetch(0);
    const plain = createKaizenClient({ baseUrl, token: TEST_API_KEY, fetch: notFound.fetch });
    await expect(plain.GET("/api/issues/{id}", { params: { path: { id: "KZN-424242" } } })).rejects.toMatchObject({
      status: 404,
    });
    expect(notFound.sent).toHaveLength(1);
  });

  it("a claim refused for the agent's limit (429, Retry-After 30) reaches the caller at once, even a GET", async () => {
    const project = (
      await kaizen.POST("/api/projects", { body: { name: "Client limit", limits: { maxActivePerAgent: 1 } } })
    ).data?.data;
    if (!project) throw new Error("no project");
    for (const title of ["one", "two"])
      await kaizen.POST("/api/issues", { body: { title, type: "task", status: "todo", projectId: project.id } });
    const query = { agent: "client-limited", projectId: project.id };
    const first = await kaizen.GET("/api/dispatch/next", { params: { query } });
    expect(first.response.status).toBe(200);
    const counted = flakyFetch(0);
    const client = createKaizenClient({ baseUrl, token: TEST_API_KEY, fetch: counted.fetch });
    const refused = await client.GET("/api/dispatch/next", { params: { query } }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(KaizenApiError);
    expect(refused).toMatchObject({
      status: 429,
      retryAfterSeconds: 30,
      error: `Agent client-limited holds 1 active dispatch of project ${project.id} (limits.maxActivePerAgent is 1)`,
    });
    expect(counted.sent).toHaveLength(1);
  });

  it("claimStopped tells a claim stopped by a project's daily cost budget from one that found nothing", async () => {
    const project = (
      await kaizen.POST("/api/projects", { body: { name: "Client budget", limits: { dailyCostBudgetUsd: 1 } } })
    ).data?.data;
    if (!project) throw new Error("no project");
    for (const title of ["paid", "unpaid"])
      await kaizen.POST("/api/issues", { body: { title, type: "task", status: "todo", projectId: project.id } });
    const body = { agent: "client-payer", projectId: project.id };
    const paid = (await kaizen.POST("/api/dispatch/claim", { body })).data?.data;
    if (!paid) throw new Error("nothing claimed");
    await createKaizenClient({ baseUrl, token: paid.dispatch.token }).POST("/api/dispatch/{id}/complete", {
      params: { path: { id: paid.dispatch.id } },
      body: { result: "done", summary: "paid", usage: { costUsd: 1 } },
    });
    const stopped = await kaizen.POST("/api/dispatch/claim", { body });
    expect(stopped.response.status).toBe(204);
    expect(claimStopped(stopped.response)).toBe("daily-cost-budget");
    const empty = (await kaizen.POST("/api/projects", { body: { name: "Client empty" } })).data?.data;
    const nothing = await kaizen.POST("/api/dispatch/claim", { body: { agent: "client-payer", projectId: empty?.id } });
    expect(nothing.response.status).toBe(204);
    expect(claimStopped(nothing.response)).toBeNull();
  });

  it("a PATCH is never retried", async () => {
    const issue = (await kaizen.POST("/api/issues", { body: { title: "Patched once", type: "task" } })).data?.data;
    const { fetch, sent } = flakyFetch(1, 503);
    const client = createKaizenClient({ baseUrl, token: TEST_API_KEY, fetch });
    await expect(
      client.PATCH("/api/issues/{id}", { params: { path: { id: issue?.id ?? "" } }, body: { priority: 1 } }),
    ).rejects.toMatchObject({ status: 503 });
    expect(sent).toHaveLength(1);
  });
});
