/**
 * `kaizen run` against a real local server, as a user's shell runs it (node bin/kaizen.js in a child
 * process), with fake agent commands (tests/fixtures/agents/fake-agent.mjs) that replay recorded
 * Claude Code and Codex output, write a result file, exit 0 or 1, ask a person, hang, start a
 * grandchild or ignore TERM. Each test works in a project of its own and claims with --project.
 * The runner's timings are shortened through its variables (a call every 200 ms, activities every
 * 100 ms), so no test waits the seconds the defaults would.
 */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliRunner, spawnCli, stopCliProcesses } from "../helpers/cli.js";
import { TEST_API_KEY } from "../helpers/db.js";
import { startTestServer, type TestServer } from "../helpers/local-server.js";

const AGENTS = join(import.meta.dirname, "..", "fixtures", "agents");
const FAKE = join(AGENTS, "fake-agent.mjs");

let server: TestServer;
let kaizen: ReturnType<typeof cliRunner>;
/** The fake agents' pids read from their files (each leads its group). */
const agentPids: number[] = [];
const work = mkdtempSync(join(tmpdir(), "kaizen-run-test-"));

beforeAll(async () => {
  server = await startTestServer("cli_run");
  kaizen = cliRunner(server);
});

afterAll(async () => {
  stopCliProcesses();
  // A failed test may leave a fake agent's group behind: end it too.
  for (const pid of agentPids) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // Already gone, as it should be.
    }
  }
  await server?.stop();
});

/** The runner's environment: the key, an agent name and short timings. */
const RUNNER_ENV = {
  KAIZEN_API_KEY: TEST_API_KEY,
  KAIZEN_AGENT: "runner-agent",
  KAIZEN_RUN_CHECK_MS: "200",
  KAIZEN_RUN_BATCH_MS: "100",
  KAIZEN_RUN_POLL_MS: "100",
};

async function api<T>(
  method: string,
  path: string,
  body?: unknown,
  status = method === "POST" ? 201 : 200,
): Promise<T> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${TEST_API_KEY}`, "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.status, `${method} ${path}`).toBe(status);
  return ((await response.json()) as { data: T }).data;
}

interface Dispatch {
  id: string;
  agent: string;
  status: string;
  waitingFor: string | null;
  stopReason: string | null;
  usage: { inputTokens?: number; outputTokens?: number; costUsd?: number; model?: string } | null;
  outcome: { summary: string; pullRequests: { number: number }[]; commits: { sha: string }[] } | null;
}
interface Activity {
  sequence: number;
  type: string;
  body: string;
  data: { source?: string } | null;
}

/** A project with `issues` todo tasks (and `fields`, e.g. limits). */
async function projectWith(name: string, issues = 1, fields: Record<string, unknown> = {}) {
  const { id } = await api<{ id: string }>("POST", "/api/projects", { name, ...fields });
  const identifiers: string[] = [];
  for (let i = 0; i < issues; i++) {
    const issue = await api<{ identifier: string }>("POST", "/api/issues", {
      title: `${name} ${i + 1}`,
      description: `Fix ${name}`,
      type: "task",
      status: "todo",
      projectId: id,
    });
    identifiers.push(issue.identifier);
  }
  return { projectId: id, identifiers };
}

const dispatchesOf = (identifier: string) => api<Dispatch[]>("GET", `/api/dispatch?issueId=${identifier}`);
const activitiesOf = (dispatch: string) => api<Activity[]>("GET", `/api/dispatch/${dispatch}/activities?limit=100`);

/** Polls `check` until it returns a value that is not undefined (15 s at most). */
async function eventually<T>(check: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** The first dispatch of `identifier` once it is in `status`. */
function dispatchIn(identifier: string, status: string): Promise<Dispatch> {
  return eventually(
    async () => (await dispatchesOf(identifier)).find((d) => d.status === status),
    `${identifier} ${status}`,
  );
}

/** Whether process `pid` still runs (a zombie left for its parent to reap does not). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/** The pids a fake agent wrote to `file`, once it has. */
async function pidsIn(file: string): Promise<number[]> {
  const pids = await eventually(
    async () => (existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean).map(Number) : undefined),
    `pids in ${file}`,
  );
  if ((pids[0] ?? 0) > 0) agentPids.push(pids[0] ?? 0);
  return pids;
}

/** `kaizen run …` in a child process, read as it prints. */
function startRunner(args: string[], env: Record<string, string> = {}) {
  return spawnCli(server, ["run", ...args], { ...RUNNER_ENV, ...env });
}

describe("kaizen run", () => {
  it("works an issue to done with a Claude Code agent: prompt and environment in, typed activities, usage and the result file out", async () => {
    const { projectId, identifiers } = await projectWith("run done");
    const record = join(work, "done-record.json");
    const result = JSON.stringify({
      summary: "Raised the payment timeout; tests pass",
      commits: [{ sha: "4f2a9c1", message: "Raise the payment timeout" }],
      pullRequests: [
        {
          number: 42,
          title: "Raise the payment timeout",
          url: "https://code.example/acme/shop/pull/42",
          state: "merged",
          mergedAt: "2026-11-20T10:00:00Z",
        },
      ],
    });
    const runner = startRunner([
      "--once",
      "--project",
      projectId,
      "--",
      process.execPath,
      FAKE,
      "--record",
      record,
      "--replay",
      join(AGENTS, "claude-stream.jsonl"),
      "--result",
      result,
    ]);
    const run = await runner.exited;
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const identifier = identifiers[0] ?? "";
    expect(run.stdout).toContain(`Claimed ${identifier}: run done 1`);
    expect(run.stdout).toContain(`[${identifier}] completed done; ${identifier} is done`);
    expect(run.stdout).toContain("Nothing left to claim.");

    const [dispatch] = await dispatchesOf(identifier);
    expect(dispatch?.status).toBe("completed");
    expect(dispatch?.agent).toBe("runner-agent");
    expect(dispatch?.outcome?.summary).toBe("Raised the payment timeout; tests pass");
    expect(dispatch?.outcome?.pullRequests.map((pr) => pr.number)).toEqual([42]);
    expect(dispatch?.outcome?.commits.map((c) => c.sha)).toEqual(["4f2a9c1"]);
    expect(dispatch?.usage).toEqual({
      inputTokens: 9800,
      outputTokens: 270,
      costUsd: 0.0734,
      model: "claude-sonnet-4-5",
    });

    // What the command was given: the prompt on stdin and in the prompt file, the dispatch in its environment, never the key.
    const given = JSON.parse(readFileSync(record, "utf8")) as {
      stdin: string;
      env: Record<string, string>;
      promptFile: string;
    };
    const prompt = await api<{ text: string }>("GET", `/api/dispatch/${dispatch?.id}`).then((d) =>
      api<{ text: string }>("GET", `/api/prompts/${(d as unknown as { promptId: string }).promptId}`),
    );
    // The prompt as Kaizen keeps it shows the token as "[dispatch token]"; the command gets it whole.
    const sent = prompt.text.replaceAll("[dispatch token]", given.env.KAIZEN_DISPATCH_TOKEN ?? "");
    expect(given.stdin).toBe(sent);
    expect(given.promptFile).toBe(sent);
    expect(given.env.KAIZEN_ISSUE).toBe(identifier);
    expect(given.env.KAIZEN_DISPATCH_ID).toBe(dispatch?.id);
    expect(given.env.KAIZEN_DISPATCH_TOKEN).toMatch(/^kzd_/);
    expect(given.env.KAIZEN_URL).toBe(server.url);
    expect(given.env.KAIZEN_RESULT_FILE).toMatch(/result\.json$/);
    expect(given.env.KAIZEN_API_KEY).toBeUndefined();
    expect(existsSync(given.env.KAIZEN_PROMPT_FILE ?? "")).toBe(false);

    // The output became typed activities, merged by type, each part of Claude's stream.
    const activities = await activitiesOf(dispatch?.id ?? "");
    const types = new Set(activities.map((a) => a.type));
    expect([...types].sort()).toEqual(["action", "error", "response", "thought"]);
    expect(activities.every((a) => a.data?.source === "claude")).toBe(true);
    const bodies = activities.map((a) => a.body).join("\n");
    expect(bodies).toContain("Bash: npm test -- checkout");
    expect(bodies).toContain("Tool failed: String to replace not found in file.");
  });

  it("completes failed when the command exits 1, with the Codex agent's last message as the summary", async () => {
    const { projectId, identifiers } = await projectWith("run failed");
    const run = await startRunner([
      "--once",
      "--project",
      projectId,
      "--types",
      "task,plan",
      "--agent",
      "codex-runner",
      "--",
      process.execPath,
      FAKE,
      "--replay",
      join(AGENTS, "codex-exec.jsonl"),
      "--exit",
      "1",
    ]).exited;
    expect(run.status).toBe(0);
    const identifier = identifiers[0] ?? "";
    expect(run.stdout).toContain(`[${identifier}] completed failed; ${identifier} is todo`);
    const [dispatch] = await dispatchesOf(identifier);
    expect(dispatch?.status).toBe("failed");
    expect(dispatch?.agent).toBe("codex-runner");
    expect(dispatch?.outcome?.summary).toBe("Raised the payment client's timeout to 10 s; the checkout tests pass.");
    expect(dispatch?.usage).toEqual({ inputTokens: 24763, outputTokens: 122, costUsd: null, model: null });
    const activities = await activitiesOf(dispatch?.id ?? "");
    expect(new Set(activities.map((a) => a.type))).toEqual(new Set(["thought", "action", "error", "response"]));
  });

  it("with plain output, summarises from the last lines", async () => {
    const { projectId, identifiers } = await projectWith("run plain");
    const run = await startRunner([
      "--once",
      "--project",
      projectId,
      "--",
      process.execPath,
      FAKE,
      "--print",
      "All 12 tests pass",
    ]).exited;
    expect(run.status).toBe(0);
    const [dispatch] = await dispatchesOf(identifiers[0] ?? "");
    expect(dispatch?.status).toBe("completed");
    expect(dispatch?.outcome?.summary).toBe("All 12 tests pass");
    expect((await activitiesOf(dispatch?.id ?? "")).map((a) => [a.type, a.body, a.data?.source])).toEqual([
      ["action", "All 12 tests pass", "stdout"],
    ]);
  });

  it("completes again without the result file's commits when the API refuses them, saying so", async () => {
    const { projectId, identifiers } = await projectWith("run refused commits");
    const result = JSON.stringify({ summary: "Cleaned up", commits: [{ sha: "not-a-sha", message: "x" }] });
    const run = await startRunner(["--once", "--project", projectId, "--", process.execPath, FAKE, "--result", result])
      .exited;
    expect(run.status).toBe(0);
    const identifier = identifiers[0] ?? "";
    expect(run.stdout).toContain(
      `[${identifier}] the result file's commits or pull requests were refused (commits.0.sha: must be a hex commit sha): completing without them`,
    );
    const [dispatch] = await dispatchesOf(identifier);
    expect(dispatch?.status).toBe("completed");
    expect(dispatch?.outcome?.commits).toEqual([]);
    expect(dispatch?.outcome?.summary).toBe(
      "Cleaned up\n\n(The result file's commits and pull requests were refused: commits.0.sha: must be a hex commit sha)",
    );
  });

  it("completes failed a command that exits 0 before its plan was approved, saying so", async () => {
    const { projectId, identifiers } = await projectWith("run unapproved", 1, { autonomy: { planApproval: true } });
    const run = await startRunner([
      "--once",
      "--project",
      projectId,
      "--",
      process.execPath,
      FAKE,
      "--print",
      "Done without a plan",
    ]).exited;
    expect(run.status).toBe(0);
    const identifier = identifiers[0] ?? "";
    expect(run.stdout).toContain(
      `[${identifier}] Plan approval required: post a plan activity and wait for approval: completing failed`,
    );
    const [dispatch] = await dispatchesOf(identifier);
    expect(dispatch?.status).toBe("failed");
    expect(dispatch?.outcome?.summary).toBe(
      "Done without a plan\n\n(The command finished before its plan was approved.)",
    );
  });

  it("ends the command's whole process group when a person stops the dispatch, and goes on claiming", async () => {
    const { projectId, identifiers } = await projectWith("run stop");
    const pids = join(work, "stop-pids");
    const runner = startRunner([
      "--once",
      "--project",
      projectId,
      "--",
      process.execPath,
      FAKE,
      "--grandchild",
      "--pids",
      pids,
      "--hang",
    ]);
    const [agent, grandchild] = await pidsIn(pids);
    const identifier = identifiers[0] ?? "";
    const active = await dispatchIn(identifier, "active");
    expect(alive(agent ?? 0) && alive(grandchild ?? 0)).toBe(true);
    const stoppedAt = Date.now();
    // biome-ignore lint/suspicious/noThenProperty: the API names the field `then` (docs/api.md#stopping-a-dispatch).
    await api("POST", `/api/dispatch/${active.id}/stop`, { reason: "Wrong approach", then: "backlog" }, 200);
    const run = await runner.exited;
    expect(Date.now() - stoppedAt).toBeLessThan(15_000);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(
      `[${identifier}] Dispatch was stopped: Wrong approach: ending the command (TERM, then KILL after 10 s)`,
    );
    expect(alive(agent ?? 0)).toBe(false);
    expect(alive(grandchild ?? 0)).toBe(false);
    expect((await dispatchesOf(identifier))[0]?.status).toBe("stopped");
  });

  it("KILLs a group that ignores TERM once the grace period is over", async () => {
    const { projectId, identifiers } = await projectWith("run kill");
    const pids = join(work, "kill-pids");
    const runner = startRunner(
      [
        "--once",
        "--project",
        projectId,
        "--",
        process.execPath,
        FAKE,
        "--grandchild",
        "--ignore-term",
        "--pids",
        pids,
        "--hang",
      ],
      { KAIZEN_RUN_KILL_GRACE_MS: "400" },
    );
    const [agent, grandchild] = await pidsIn(pids);
    const active = await dispatchIn(identifiers[0] ?? "", "active");
    // biome-ignore lint/suspicious/noThenProperty: the API names the field `then` (docs/api.md#stopping-a-dispatch).
    await api("POST", `/api/dispatch/${active.id}/stop`, { reason: "Stubborn", then: "canceled" }, 200);
    const run = await runner.exited;
    expect(run.stdout).toContain("Dispatch was stopped: Stubborn: ending the command (TERM, then KILL after 0.4 s)");
    expect(readFileSync(`${pids}.term`, "utf8").trim()).toBe(String(agent));
    expect(alive(agent ?? 0)).toBe(false);
    expect(alive(grandchild ?? 0)).toBe(false);
  });

  it("ends the command when its reported cost passes the dispatch's budget", async () => {
    const { projectId, identifiers } = await projectWith("run budget", 1, { limits: { maxCostPerDispatchUsd: 1 } });
    const pids = join(work, "budget-pids");
    const costly = JSON.stringify({
      type: "result",
      subtype: "success",
      is_error: false,
      session_id: "s1",
      result: "Turn one",
      total_cost_usd: 2.5,
    });
    const run = await startRunner([
      "--once",
      "--project",
      projectId,
      "--",
      process.execPath,
      FAKE,
      "--pids",
      pids,
      "--print",
      costly,
      "--hang",
    ]).exited;
    const [agent] = await pidsIn(pids);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/Dispatch was stopped: Cost budget passed: \$2\.5 reported/);
    expect(alive(agent ?? 0)).toBe(false);
    const [dispatch] = await dispatchesOf(identifiers[0] ?? "");
    expect(dispatch?.status).toBe("stopped");
    expect(dispatch?.usage?.costUsd).toBe(2.5);
    expect((await api<{ status: string }>("GET", `/api/issues/${identifiers[0]}`)).status).toBe("backlog");
  });

  it("keeps the command running while the dispatch waits for a person, then completes once it has its answer", async () => {
    const { projectId, identifiers } = await projectWith("run waiting");
    const runner = startRunner([
      "--once",
      "--project",
      projectId,
      "--",
      process.execPath,
      FAKE,
      "--ask",
      "Keep the v1 endpoint?",
    ]);
    const identifier = identifiers[0] ?? "";
    const waiting = await dispatchIn(identifier, "waiting");
    expect(waiting.waitingFor).toBe("input");
    // Several of the runner's calls go by (one each 200 ms): the dispatch still waits and the runner says so.
    await eventually(
      async () => (runner.stdout().includes(`[${identifier}] waits for a person's answer`) ? true : undefined),
      "the waiting line",
    );
    await sleep(1_000);
    expect((await dispatchesOf(identifier))[0]?.status).toBe("waiting");
    expect(runner.child.exitCode).toBeNull();
    await api("POST", `/api/dispatch/${waiting.id}/messages`, { body: "Yes, until March." });
    const run = await runner.exited;
    expect(run.status).toBe(0);
    const [dispatch] = await dispatchesOf(identifier);
    expect(dispatch?.status).toBe("completed");
    expect(dispatch?.outcome?.summary).toContain("answered: Yes, until March.");
  });

  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)("on %s ends its commands, releases its dispatches and exits %i", async (signal, status) => {
    const { projectId, identifiers } = await projectWith(`run ${signal}`, 2);
    const dir = join(work, signal);
    const pidFiles = [join(work, `${signal}-pids-a`), join(work, `${signal}-pids-b`)];
    // Each command names its own pid file after the mark it leaves: one runner, two commands.
    const runner = startRunner([
      "--concurrency",
      "2",
      "--project",
      projectId,
      "--",
      "sh",
      "-c",
      `if mkdir ${dir}-a 2>/dev/null; then p=${pidFiles[0]}; else p=${pidFiles[1]}; fi; exec "${process.execPath}" "${FAKE}" --grandchild --pids "$p" --hang`,
    ]);
    const groups = [...(await pidsIn(pidFiles[0] ?? "")), ...(await pidsIn(pidFiles[1] ?? ""))];
    for (const identifier of identifiers) await dispatchIn(identifier, "active");
    runner.child.kill(signal);
    const run = await runner.exited;
    expect(run.status).toBe(status);
    expect(run.stderr).toContain(`kaizen run: ${signal}: ending the commands and releasing their dispatches`);
    for (const pid of groups) expect(alive(pid)).toBe(false);
    for (const identifier of identifiers) {
      expect((await dispatchesOf(identifier))[0]?.status).toBe("released");
      expect((await api<{ status: string }>("GET", `/api/issues/${identifier}`)).status).toBe("todo");
    }
  });

  it("--concurrency 2 works two dispatches at once", async () => {
    const { projectId, identifiers } = await projectWith("run concurrency", 2);
    const meet = join(work, "meet");
    const run = await startRunner([
      "--concurrency",
      "2",
      "--once",
      "--project",
      projectId,
      "--",
      process.execPath,
      FAKE,
      "--meet",
      meet,
      "2",
    ]).exited;
    expect(run.status).toBe(0);
    for (const identifier of identifiers) expect((await dispatchesOf(identifier))[0]?.status).toBe("completed");
    expect(run.stdout.match(/Nothing left to claim\./g)).toHaveLength(1);
  });

  it("--once exits 0 at once when nothing is eligible; a command line without a command is a usage error", async () => {
    const { projectId } = await projectWith("run empty", 0);
    const run = await kaizen(["run", "--once", "--project", projectId, "--", "true"], RUNNER_ENV);
    expect(run).toEqual({ status: 0, stdout: "Nothing left to claim.\n", stderr: "" });
    const bare = await kaizen(["run", "--once"], RUNNER_ENV);
    expect(bare.status).toBe(2);
    expect(bare.stderr).toContain("Which command? Give it after --");
  });

  it("on a server without the activities route, works with heartbeats only", async () => {
    const { projectId, identifiers } = await projectWith("run older server");
    // A server from before activities: the route answers 404; every other request reaches the real one.
    const older: Server = createServer(async (request, response) => {
      if (request.method === "POST" && /\/activities$/.test(request.url ?? "")) {
        response.writeHead(404, { "Content-Type": "application/json" }).end('{"error":"Not found"}');
        return;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const answer = await fetch(`${server.url}${request.url}`, {
        method: request.method,
        headers: request.headers as Record<string, string>,
        ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
      });
      response
        .writeHead(answer.status, Object.fromEntries(answer.headers))
        .end(Buffer.from(await answer.arrayBuffer()));
    });
    await new Promise<void>((resolve) => older.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(older.address() as AddressInfo).port}`;
      const run = await startRunner(
        [
          "--once",
          "--project",
          projectId,
          "--",
          process.execPath,
          FAKE,
          "--replay",
          join(AGENTS, "claude-stream.jsonl"),
        ],
        { KAIZEN_URL: url },
      ).exited;
      expect(run.status).toBe(0);
      const identifier = identifiers[0] ?? "";
      expect(run.stdout).toContain(`[${identifier}] this server takes no activities (404): heartbeats only`);
      const [dispatch] = await dispatchesOf(identifier);
      expect(dispatch?.status).toBe("completed");
      expect(dispatch?.outcome?.summary).toBe(
        "Raised the payment client's timeout to 10 s and added a retry; the checkout tests pass.",
      );
      expect(dispatch?.usage?.costUsd).toBe(0.0734);
      expect(await activitiesOf(dispatch?.id ?? "")).toEqual([]);
    } finally {
      await new Promise((resolve) => older.close(resolve));
    }
  });

  it("releases the dispatch and exits 1 when the command cannot be started, failing nothing", async () => {
    const { projectId, identifiers } = await projectWith("run missing command");
    const missing = join(work, "no-such-agent");
    const run = await kaizen(["run", "--once", "--project", projectId, "--", missing, "-p"], RUNNER_ENV);
    expect(run.status).toBe(1);
    const [dispatch] = await dispatchesOf(identifiers[0] ?? "");
    expect(run.stderr).toBe(
      `kaizen: cannot start ${missing}: spawn ${missing} ENOENT (${dispatch?.id} was released)\n`,
    );
    expect(dispatch?.status).toBe("released");
    expect((await api<{ status: string }>("GET", `/api/issues/${identifiers[0]}`)).status).toBe("todo");
  });

  it("--dispatch works a dispatch claimed elsewhere with its token, with a key beside it or with the token alone", async () => {
    const { projectId, identifiers } = await projectWith("run given", 2);
    const claim = () =>
      api<{ dispatch: { id: string; token: string }; issue: { identifier: string } }>("POST", "/api/dispatch/claim", {
        agent: "hosted",
        projectId,
      });
    const first = await claim();
    const record = join(work, "given-record.json");
    const run = await kaizen(
      ["run", "--dispatch", first.dispatch.id, "--", process.execPath, FAKE, "--record", record, "--print", "Fixed"],
      { ...RUNNER_ENV, KAIZEN_DISPATCH_TOKEN: first.dispatch.token, KAIZEN_ISSUE: first.issue.identifier },
    );
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`Working ${first.issue.identifier} (${first.dispatch.id})`);
    expect((await dispatchesOf(first.issue.identifier))[0]?.status).toBe("completed");
    const given = JSON.parse(readFileSync(record, "utf8")) as { stdin: string; env: Record<string, string> };
    expect(given.stdin.length).toBeGreaterThan(0);
    expect(given.env.KAIZEN_DISPATCH_TOKEN).toBe(first.dispatch.token);

    // The token alone is enough, as a hosted runner's hand-off gives it: it reads its own prompt.
    const second = await claim();
    const aloneRecord = join(work, "given-alone-record.json");
    const alone = await kaizen(
      [
        "run",
        "--dispatch",
        second.dispatch.id,
        "--",
        process.execPath,
        FAKE,
        "--record",
        aloneRecord,
        "--print",
        "Fixed",
      ],
      { KAIZEN_DISPATCH_TOKEN: second.dispatch.token, KAIZEN_AGENT: "hosted" },
    );
    expect(alone.stderr).toBe("");
    expect(alone.status).toBe(0);
    const [secondDispatch] = await dispatchesOf(second.issue.identifier);
    expect(secondDispatch?.status).toBe("completed");
    const prompt = await api<{ text: string }>(
      "GET",
      `/api/prompts/${(secondDispatch as unknown as { promptId: string }).promptId}`,
    );
    const aloneGiven = JSON.parse(readFileSync(aloneRecord, "utf8")) as { stdin: string; env: Record<string, string> };
    // The recorded prompt stands [dispatch token] for the token; the command gets the token itself.
    expect(prompt.text).toContain("[dispatch token]");
    expect(aloneGiven.stdin).toBe(prompt.text.replaceAll("[dispatch token]", second.dispatch.token));
    expect(aloneGiven.env.KAIZEN_ISSUE).toBe(second.issue.identifier);
    expect(identifiers).toContain(second.issue.identifier);
  });
});
