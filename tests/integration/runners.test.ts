/**
 * Hosted runners (docs/api.md#hosted-runners) on DynamoDB Local against a stand-in GitHub that checks each
 * repository dispatch exactly: the resource and its write-only token, hand-offs on a sweep and on
 * eligibility, refusals (401, 422, no answer) with their backoff and switch-off, the concurrency held
 * by hand-offs from many instances at once, and places freed however a dispatch ends.
 */
import { Logger, type LogItem } from "@aws-lambda-powertools/logger";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ALL_FAMILIES } from "../../client/mcp/all-families.js";
import type { ChangeRecord } from "../../core/src/db/changes.js";
import type { Db, Key } from "../../core/src/db/db.js";
import { dispatchKey } from "../../core/src/dispatch/keys.js";
import { createApp, createDb } from "../../core/src/index.js";
import { issueKey } from "../../core/src/issues/keys.js";
import { OPEN_GUARD, publicOnlyGuard } from "../../core/src/outbound-guard.js";
import { runnerKey } from "../../core/src/runners/keys.js";
import { NO_RUNNERS_KEPT_MS } from "../../core/src/runners/runner-handoffs.js";
import { runnerHandoffs } from "../../core/src/services.js";
import { AUTH, dataOf, jsonPost } from "../helpers/app.js";
import { testClock } from "../helpers/clock.js";
import { CONFLICT_MODES, freshTable, testConfig } from "../helpers/db.js";
import { type GitHubScript, type GitHubStandIn, startGitHubStandIn } from "../helpers/github-stand-in.js";

const GITHUB_TOKEN = "ghp_runnerTestToken0123456789abcdefABCDEF";
const REPOSITORY = "acme/app";
const KAIZEN_URL = "https://kaizen.example.com";
const EXPECTED = { repository: REPOSITORY, githubToken: GITHUB_TOKEN, eventType: "kaizen-dispatch" };

interface Runner {
  id: string;
  active: boolean;
  failures: number;
  lastError: string | null;
  lastErrorAt: string | null;
  retryAfter: string | null;
  disabledReason: string | null;
  activeDispatches: number;
  [field: string]: unknown;
}
interface Dispatch {
  id: string;
  status: string;
  agent: string;
  issueId: string;
}

/** A Powertools logger that keeps the JSON text of every line it would print. */
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
}

const open: GitHubStandIn[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((github) => github.close()));
});

/** A table, an app over it, a stand-in GitHub and the hand-offs, all on one test clock. */
async function world(options: { script?: GitHubScript; emulateConflicts?: boolean; logger?: Logger } = {}) {
  const github = await startGitHubStandIn(EXPECTED, options.script);
  open.push(github);
  const { db, tableName, endpoint } = await freshTable({ emulateConflicts: options.emulateConflicts ?? true });
  const clock = testClock();
  const config = testConfig({ tableName, endpoint, githubApiUrl: github.url, publicBaseUrl: KAIZEN_URL });
  const deps = { config, db, clock, outboundGuard: OPEN_GUARD };
  const app = createApp(ALL_FAMILIES, { ...deps, ...(options.logger ? { logger: options.logger } : {}) });
  const handoffs = runnerHandoffs(deps, { timeoutMs: 300 });
  const request = (path: string, init: RequestInit = {}) =>
    app.request(path, { ...init, headers: { ...AUTH, ...(init.headers as Record<string, string> | undefined) } });
  const runner = async (id: string) => dataOf<Runner>(request(`/api/runners/${id}`));
  const makeRunner = (fields: Record<string, unknown> = {}) =>
    dataOf<Runner>(
      app.request(
        "/api/runners",
        jsonPost({ name: "ci", kind: "github_actions", repository: REPOSITORY, githubToken: GITHUB_TOKEN, ...fields }),
      ),
      201,
    );
  const makeIssues = async (count: number, status = "todo") => {
    const made: { id: string; identifier: string }[] = [];
    for (let i = 0; i < count; i++) {
      made.push(await dataOf(app.request("/api/issues", jsonPost({ title: `Issue ${i}`, type: "task", status })), 201));
    }
    return made;
  };
  const dispatches = async (agent = "ci"): Promise<Dispatch[]> =>
    dataOf<Dispatch[]>(request(`/api/dispatch?agent=${agent}&limit=100`)).then((all) =>
      all.filter((dispatch) => dispatch.status === "active"),
    );
  return {
    github,
    db,
    tableName,
    endpoint,
    clock,
    config,
    app,
    handoffs,
    request,
    runner,
    makeRunner,
    makeIssues,
    dispatches,
  };
}

let sequence = 0;
/** The change `act` makes to the item at `key`, as the table's stream reports it. */
async function changeOf(db: Db, key: Key, act: () => unknown): Promise<ChangeRecord> {
  const before = await db.get(key, { consistent: true });
  await act();
  const after = await db.get(key, { consistent: true });
  sequence += 1;
  return {
    id: `test-change-${sequence}`,
    kind: before ? "MODIFY" : "INSERT",
    sequenceNumber: String(sequence),
    keys: key,
    ...(before ? { oldImage: before } : {}),
    ...(after ? { newImage: after } : {}),
    at: Date.now(),
  };
}

describe("hosted runners: the resource", () => {
  it("is made, read, listed, changed and deleted, and never shows its GitHub token, not even in the logs", async () => {
    const logger = new CapturingLogger();
    const w = await world({ logger });
    const written = logger.printed;
    const made = await w.app.request(
      "/api/runners",
      jsonPost({ name: "ci-agents", kind: "github_actions", repository: REPOSITORY, githubToken: GITHUB_TOKEN }),
    );
    expect(made.status).toBe(201);
    const created = ((await made.json()) as { data: Runner }).data;
    expect(created).toEqual({
      id: expect.stringMatching(/^run_[0-9A-HJKMNP-TV-Z]{26}$/),
      name: "ci-agents",
      kind: "github_actions",
      repository: REPOSITORY,
      eventType: "kaizen-dispatch",
      concurrency: 1,
      filters: { projectId: null, types: null },
      agent: "ci-agents",
      active: true,
      githubTokenConfigured: true,
      lastError: null,
      lastErrorAt: null,
      failures: 0,
      retryAfter: null,
      disabledReason: null,
      activeDispatches: 0,
      createdAt: expect.any(String),
      updatedAt: created.createdAt,
    });
    expect(made.headers.get("Location")).toBe(`/api/runners/${created.id}`);
    expect(made.headers.get("ETag")).toBe('"1"');

    // A get by id costs one call, a list page two (docs/contributing.md#budgets).
    let calls = w.db.usage().calls;
    const read = await w.request(`/api/runners/${created.id}`);
    expect(read.status).toBe(200);
    expect(w.db.usage().calls - calls).toBe(1);
    calls = w.db.usage().calls;
    const listed = await w.request("/api/runners");
    expect(w.db.usage().calls - calls).toBe(2);
    const patched = await w.app.request(`/api/runners/${created.id}`, {
      method: "PATCH",
      headers: { ...AUTH, "Content-Type": "application/json", "If-Match": '"1"' },
      body: JSON.stringify({ concurrency: 3, githubToken: `${GITHUB_TOKEN}new`, filters: { types: ["task"] } }),
    });
    expect(patched.status).toBe(200);
    const changed = ((await patched.clone().json()) as { data: Runner }).data;
    expect(changed).toMatchObject({
      concurrency: 3,
      filters: { projectId: null, types: ["task"] },
      agent: "ci-agents",
    });
    const stale = await w.app.request(`/api/runners/${created.id}`, {
      method: "PATCH",
      headers: { ...AUTH, "Content-Type": "application/json", "If-Match": '"1"' },
      body: JSON.stringify({ name: "late" }),
    });
    expect(stale.status).toBe(412);
    const audit = await w.request("/api/audit?limit=100");
    const texts = [await read.text(), await listed.text(), await patched.text(), await audit.text()];
    expect(JSON.parse(texts[1] ?? "{}")).toMatchObject({ total: 1, data: [{ id: created.id }] });
    expect(JSON.parse(texts[3] ?? "{}").data.map((record: { path: string }) => record.path)).toEqual(
      expect.arrayContaining(["/api/runners", `/api/runners/${created.id}`]),
    );
    for (const text of [...texts, ...written]) {
      expect(text).not.toContain("ghp_runnerTestToken");
      expect(text).not.toContain('githubToken"');
    }
    expect(written.join("")).toContain("/api/runners");

    const deleted = await w.app.request(`/api/runners/${created.id}`, { method: "DELETE", headers: AUTH });
    expect(deleted.status).toBe(204);
    expect((await w.request(`/api/runners/${created.id}`)).status).toBe(404);
  });

  it.each([
    [{ repository: "acme" }, "repository: must be owner/name of a GitHub repository"],
    [{ repository: "acme/.." }, "repository: must be owner/name of a GitHub repository"],
    [{ concurrency: 0 }, "concurrency: must be between 1 and 20"],
    [{ concurrency: 21 }, "concurrency: must be between 1 and 20"],
    [{ kind: "gitlab_ci" }, "kind:"],
    [{ githubToken: "with space" }, "githubToken: must be a token without spaces or control characters"],
    [{ githubToken: undefined }, "githubToken:"],
    [{ githubToken: `${GITHUB_TOKEN}${"x".repeat(500)}` }, "githubToken: must be 1..500 characters"],
    [{ githubToken: `${GITHUB_TOKEN}\n` }, "githubToken: must be a token without spaces or control characters"],
    [{ filters: { types: ["task", "task"] } }, "filters.types: must name each type at most once"],
    [
      { filters: { projectId: "prj_01ARZ3NDEKTSV4RRFFQ69G5FAV" } },
      "filters.projectId: project prj_01ARZ3NDEKTSV4RRFFQ69G5FAV does not exist",
    ],
    [{ colour: "blue" }, "colour"],
  ])("refuses %j with a 400 naming the field", async (fields, message) => {
    const w = await world();
    const response = await w.app.request(
      "/api/runners",
      jsonPost({ name: "ci", kind: "github_actions", repository: REPOSITORY, githubToken: GITHUB_TOKEN, ...fields }),
    );
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string };
    expect(body.error).toContain(message);
    expect(JSON.stringify(body)).not.toContain(GITHUB_TOKEN);
  });

  it("refuses a runner while GITHUB_API_URL points inside the network on a deployed stage", async () => {
    const w = await world();
    const guarded = createApp(ALL_FAMILIES, {
      config: w.config,
      db: w.db,
      outboundGuard: publicOnlyGuard(async () => ["127.0.0.1"]),
    });
    const response = await guarded.request(
      "/api/runners",
      jsonPost({ name: "ci", kind: "github_actions", repository: REPOSITORY, githubToken: GITHUB_TOKEN }),
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe(
      "repository: GITHUB_API_URL must not resolve to a loopback, private, link-local or unique-local address",
    );
  });

  it("refuses a runner, and each hand-off of one made before, when no guard is named, as a deployed function names none", async () => {
    // The stand-in GitHub listens on loopback: the local server's open guard lets a runner be made.
    const w = await world();
    const [issue] = await w.makeIssues(1);
    const made = await w.makeRunner();
    const unguarded = createApp(ALL_FAMILIES, { config: w.config, db: w.db });
    const response = await unguarded.request(
      "/api/runners",
      jsonPost({ name: "ci", kind: "github_actions", repository: REPOSITORY, githubToken: GITHUB_TOKEN }),
    );
    expect(response.status).toBe(400);
    expect(await runnerHandoffs({ config: w.config, db: w.db, clock: w.clock }, { timeoutMs: 300 }).sweep()).toBe(0);
    expect(w.github.received).toHaveLength(0);
    expect(await w.runner(made.id)).toMatchObject({ lastError: "blocked address", failures: 1 });
    expect(await dataOf<{ status: string }>(w.request(`/api/issues/${issue?.id}`))).toMatchObject({ status: "todo" });
  });
});

describe("hosted runners: hand-offs", () => {
  it("on a sweep, claims for the runner's agent and posts GitHub's repository dispatch exactly", async () => {
    const w = await world();
    const [issue] = await w.makeIssues(1);
    const made = await w.makeRunner({ name: "ci" });
    expect(await w.handoffs.sweep()).toBe(1);
    expect(w.github.received).toHaveLength(1);
    const [sent] = w.github.received;
    expect(sent?.problems).toEqual([]);
    const [dispatch] = await w.dispatches();
    expect(sent?.body).toEqual({
      event_type: "kaizen-dispatch",
      client_payload: {
        dispatchId: dispatch?.id,
        issue: issue?.identifier,
        token: expect.any(String),
        kaizenUrl: KAIZEN_URL,
      },
    });
    expect(dispatch).toMatchObject({ agent: "ci", issueId: issue?.id });
    // The token handed over works the dispatch, as the workflow's `kaizen run --dispatch` will.
    const asToken = { Authorization: `Bearer ${sent?.body.client_payload.token}` };
    expect((await w.app.request(`/api/dispatch/${dispatch?.id}/activities`, { headers: asToken })).status).toBe(200);
    expect(await w.runner(made.id)).toMatchObject({ activeDispatches: 1, failures: 0, lastError: null });
    // Full: the next sweep hands nothing more.
    await w.makeIssues(1);
    expect(await w.handoffs.sweep()).toBe(0);
    expect(w.github.received).toHaveLength(1);
    const audit = await dataOf<{ action: string; actor: { kind: string }; targetId: string }[]>(
      w.request(`/api/audit?targetId=${made.id}`),
    );
    expect(audit).toContainEqual(
      expect.objectContaining({
        action: `runner.claimed ${dispatch?.id}`,
        actor: expect.objectContaining({ kind: "automation" }),
      }),
    );
  });

  it("on an issue becoming eligible (the change stream), hands it to the runners whose filters take it", async () => {
    const w = await world();
    const project = await dataOf<{ id: string }>(w.app.request("/api/projects", jsonPost({ name: "web" })), 201);
    const taking = await w.makeRunner({ name: "web-runner", filters: { projectId: project.id } });
    const other = await w.makeRunner({ name: "plans-only", filters: { types: ["plan"] } });
    const issue = await dataOf<{ id: string; identifier: string }>(
      w.app.request("/api/issues", jsonPost({ title: "Fix", type: "task", status: "backlog", projectId: project.id })),
      201,
    );
    // Not eligible yet: nothing is handed over.
    expect(w.github.received).toHaveLength(0);
    const change = await changeOf(w.db, issueKey(issue.id), () =>
      w.app.request(`/api/issues/${issue.id}`, {
        method: "PATCH",
        headers: { ...AUTH, "Content-Type": "application/json" },
        body: JSON.stringify({ status: "todo" }),
      }),
    );
    await w.handoffs.handleChanges([change]);
    expect(w.github.received).toHaveLength(1);
    expect(w.github.received[0]?.body.client_payload.issue).toBe(issue.identifier);
    expect((await w.dispatches("web-runner")).map((dispatch) => dispatch.issueId)).toEqual([issue.id]);
    expect(await w.runner(taking.id)).toMatchObject({ activeDispatches: 1 });
    expect(await w.runner(other.id)).toMatchObject({ activeDispatches: 0 });
  });

  it("with no runner, reads the runners on the stream at most once per 30 s, and hands work at once to one it sees made", async () => {
    const w = await world();
    const issue = await dataOf<{ id: string; identifier: string }>(
      w.app.request("/api/issues", jsonPost({ title: "Fix", type: "task", status: "backlog" })),
      201,
    );
    const eligible = await changeOf(w.db, issueKey(issue.id), () =>
      w.app.request(`/api/issues/${issue.id}`, {
        method: "PATCH",
        headers: { ...AUTH, "Content-Type": "application/json" },
        body: JSON.stringify({ status: "todo" }),
      }),
    );
    const reads = vi.spyOn(w.db, "queryPartition");
    await w.handoffs.handleChanges([eligible]);
    // The runners and their loads, found empty: read once, then not for NO_RUNNERS_KEPT_MS.
    expect(reads).toHaveBeenCalledTimes(2);
    await w.handoffs.handleChanges([eligible]);
    w.clock.advance(NO_RUNNERS_KEPT_MS - 1);
    await w.handoffs.handleChanges([eligible]);
    expect(reads).toHaveBeenCalledTimes(2);
    w.clock.advance(1);
    await w.handoffs.handleChanges([eligible]);
    expect(reads).toHaveBeenCalledTimes(4);

    // Made meanwhile: a batch that does not show it made hands it nothing; one that does, at once.
    const made = await w.makeRunner();
    await w.handoffs.handleChanges([eligible]);
    expect(w.github.received).toHaveLength(0);
    const creation: ChangeRecord = {
      id: "test-runner-made",
      kind: "INSERT",
      sequenceNumber: "1",
      keys: runnerKey(made.id),
      newImage: (await w.db.get(runnerKey(made.id), { consistent: true })) ?? {},
      at: Date.now(),
    };
    await w.handoffs.handleChanges([creation, eligible]);
    expect(w.github.received.map((sent) => sent.body.client_payload.issue)).toEqual([issue.identifier]);
    expect(await w.runner(made.id)).toMatchObject({ activeDispatches: 1 });
  });

  it.each([
    [401, "HTTP 401: Bad credentials"],
    [422, "HTTP 422: Validation Failed"],
    ["hang", "timeout after 0.3 s"],
  ] as const)("on a %s, releases the dispatch, records lastError and backs off", async (answer, lastError) => {
    const w = await world({ script: () => answer });
    const [issue] = await w.makeIssues(1);
    const made = await w.makeRunner();
    expect(await w.handoffs.sweep()).toBe(0);
    expect(w.github.received).toHaveLength(1);
    const refused = await w.runner(made.id);
    expect(refused).toMatchObject({ lastError, failures: 1, activeDispatches: 0, active: true });
    expect(refused.retryAfter).toBe(new Date(w.clock().getTime() + 30_000).toISOString());
    expect(JSON.stringify(refused)).not.toContain(GITHUB_TOKEN);
    // The issue is back in the queue, its dispatch released.
    const back = await dataOf<{ status: string }>(w.request(`/api/issues/${issue?.id}`));
    expect(back.status).toBe("todo");
    const all = await dataOf<Dispatch[]>(w.request("/api/dispatch?agent=ci"));
    expect(all.map((dispatch) => dispatch.status)).toEqual(["released"]);
    // No hand-off before retryAfter, whatever asks for one.
    w.github.answer(() => 204);
    expect(await w.handoffs.sweep()).toBe(0);
    expect(w.github.received).toHaveLength(1);
    w.clock.advance(30_000);
    expect(await w.handoffs.sweep()).toBe(1);
    // A success ends the run of refusals and the backoff; the last error stays for a look.
    expect(await w.runner(made.id)).toMatchObject({ failures: 0, retryAfter: null, lastError, activeDispatches: 1 });
    const audit = await dataOf<{ action: string }[]>(w.request(`/api/audit?targetId=${made.id}&limit=100`));
    expect(audit.map((record) => record.action)).toContainEqual(
      expect.stringMatching(`^runner.handoff_refused dsp_\\w+: ${lastError}$`),
    );
    expect(JSON.stringify(audit)).not.toContain(GITHUB_TOKEN);
  });

  it("refuses a hand-off whose GitHub address the deployed guard blocks, before anything is sent", async () => {
    const w = await world();
    const [issue] = await w.makeIssues(1);
    const made = await w.makeRunner();
    const guarded = runnerHandoffs(
      { config: w.config, db: w.db, clock: w.clock, outboundGuard: publicOnlyGuard(async () => ["10.0.0.12"]) },
      { timeoutMs: 300 },
    );
    expect(await guarded.sweep()).toBe(0);
    expect(w.github.received).toHaveLength(0);
    expect(await w.runner(made.id)).toMatchObject({ lastError: "blocked address", failures: 1, activeDispatches: 0 });
    expect(await dataOf<{ status: string }>(w.request(`/api/issues/${issue?.id}`))).toMatchObject({ status: "todo" });
  });

  it("switches a runner off after 10 refusals in a row and says why; switched on, it starts again from 0", async () => {
    const w = await world({ script: () => 401 });
    await w.makeIssues(1);
    const made = await w.makeRunner();
    for (let refusal = 1; refusal <= 10; refusal++) {
      await w.handoffs.sweep();
      expect(w.github.received).toHaveLength(refusal);
      w.clock.advance(30 * 60_000);
    }
    const off = await w.runner(made.id);
    expect(off).toMatchObject({
      active: false,
      failures: 10,
      disabledReason: "Switched off after 10 refused hand-offs in a row; the last: HTTP 401: Bad credentials",
    });
    await w.handoffs.sweep();
    expect(w.github.received).toHaveLength(10);
    const audit = await dataOf<{ action: string }[]>(w.request(`/api/audit?targetId=${made.id}&limit=100`));
    expect(audit.map((record) => record.action)).toContain(`runner.disabled: ${off.disabledReason}`);
    const on = await dataOf<Runner>(
      w.app.request(`/api/runners/${made.id}`, {
        method: "PATCH",
        headers: { ...AUTH, "Content-Type": "application/json" },
        body: JSON.stringify({ active: true }),
      }),
    );
    expect(on).toMatchObject({ active: true, failures: 0, retryAfter: null, disabledReason: null });
    w.github.answer(() => 204);
    expect(await w.handoffs.sweep()).toBe(1);
  });

  for (const { mode, emulateConflicts } of CONFLICT_MODES) {
    it(`never holds more than concurrency dispatches, with sweeps and a stream batch from many instances at once (${mode})`, async () => {
      const w = await world({ emulateConflicts });
      const issues = await w.makeIssues(8);
      const made = await w.makeRunner({ concurrency: 3 });
      // Each hand-off as another Lambda instance would make it: its own client, its own services.
      const instance = () => {
        const db = createDb({ tableName: w.tableName, region: "us-east-1", endpoint: w.endpoint, emulateConflicts });
        return runnerHandoffs(
          { config: w.config, db, clock: w.clock, outboundGuard: OPEN_GUARD },
          { timeoutMs: 2_000 },
        );
      };
      const eligible: ChangeRecord[] = issues.map((issue, i) => ({
        id: `eligible-${i}`,
        kind: "INSERT",
        sequenceNumber: String(i + 1),
        keys: issueKey(issue.id),
        newImage: { entity: "issue", id: issue.id, status: "todo", blockedBy: [], type: "task", projectId: null },
        at: Date.now(),
      }));
      await Promise.all([
        ...Array.from({ length: 6 }, () => instance().sweep()),
        instance().handleChanges(eligible),
        instance().handleChanges(eligible.slice(0, 3)),
      ]);
      expect(w.github.received.filter((sent) => sent.answered === 204)).toHaveLength(3);
      expect(w.github.received.every((sent) => sent.problems.length === 0)).toBe(true);
      expect(await w.dispatches()).toHaveLength(3);
      expect(await w.runner(made.id)).toMatchObject({ activeDispatches: 3 });
    });
  }

  it("frees a place when its dispatch completes, is released, stopped or expires, and hands the next", async () => {
    const w = await world();
    await w.makeIssues(6);
    const made = await w.makeRunner();
    const handed = () => w.github.received.at(-1)?.body.client_payload ?? { dispatchId: "", token: "" };
    const asToken = (token: string) => ({ Authorization: `Bearer ${token}`, "Content-Type": "application/json" });
    expect(await w.handoffs.sweep()).toBe(1);

    // Completed, seen on the change stream: the place is freed and the next issue handed at once.
    let current = handed();
    const completed = await changeOf(w.db, dispatchKey(current.dispatchId), () =>
      w.app.request(`/api/dispatch/${current.dispatchId}/complete`, {
        method: "POST",
        headers: asToken(current.token),
        body: JSON.stringify({ result: "done", summary: "Fixed" }),
      }),
    );
    await w.handoffs.handleChanges([completed]);
    expect(w.github.received).toHaveLength(2);
    expect(await w.runner(made.id)).toMatchObject({ activeDispatches: 1 });

    // Released, missed by the stream: the sweep frees it.
    current = handed();
    expect(
      (
        await w.app.request(`/api/dispatch/${current.dispatchId}/release`, {
          method: "POST",
          headers: asToken(current.token),
        })
      ).status,
    ).toBe(200);
    expect(await w.handoffs.sweep()).toBe(1);
    expect(w.github.received).toHaveLength(3);

    // Stopped by a person, seen on the stream.
    current = handed();
    const stopped = await changeOf(w.db, dispatchKey(current.dispatchId), () =>
      w.app.request(`/api/dispatch/${current.dispatchId}/stop`, jsonPost({ reason: "Not now" })),
    );
    await w.handoffs.handleChanges([stopped]);
    expect(w.github.received).toHaveLength(4);

    // Its lease ran out: the sweep expires it and frees the place.
    current = handed();
    w.clock.advance(1_801_000);
    expect(await w.handoffs.sweep()).toBe(1);
    expect(w.github.received).toHaveLength(5);
    const expired = await dataOf<Dispatch>(w.request(`/api/dispatch/${current.dispatchId}`));
    expect(expired.status).toBe("expired");
    expect(await w.runner(made.id)).toMatchObject({ activeDispatches: 1 });
  });

  it("releases a dispatch whose hand-off died between the claim and GitHub, a minute on", async () => {
    const w = await world();
    await w.makeIssues(1);
    const made = await w.makeRunner();
    // A hand-off whose instance stops answering after the claim (GitHub is never told).
    let posting: () => void = () => undefined;
    const claimedOnce = new Promise<void>((resolve) => {
      posting = resolve;
    });
    const dying = runnerHandoffs(
      { config: w.config, db: w.db, clock: w.clock, outboundGuard: OPEN_GUARD },
      {
        send: () => {
          posting();
          return new Promise(() => undefined);
        },
      },
    );
    void dying.sweep();
    await claimedOnce;
    expect(await w.runner(made.id)).toMatchObject({ activeDispatches: 1 });
    const [claimed] = await w.dispatches();
    // Within the minute the claim is left to its hand-off.
    expect(await w.handoffs.sweep()).toBe(0);
    expect(w.github.received).toHaveLength(0);
    w.clock.advance(61_000);
    expect(await w.handoffs.sweep()).toBe(1);
    const left = await dataOf<Dispatch>(w.request(`/api/dispatch/${claimed?.id}`));
    expect(left.status).toBe("released");
    expect(w.github.received).toHaveLength(1);
    expect(await w.runner(made.id)).toMatchObject({ activeDispatches: 1 });
  });
});
