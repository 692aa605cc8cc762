/**
 * The `kaizen` CLI as a subprocess (`node bin/kaizen.js`, not a TTY) against a real local server:
 * an agent's whole loop (signal → triage → todo → next → heartbeat → comment → complete → review),
 * with stdout, stderr and exit statuses checked, and `--json` compared with the API's own answer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliRunner, apiData as fetchData } from "../helpers/cli.js";
import { TEST_API_KEY } from "../helpers/db.js";
import { startTestServer, type TestServer } from "../helpers/local-server.js";

let server: TestServer;
let baseUrl: string;
let kaizen: ReturnType<typeof cliRunner>;

beforeAll(async () => {
  server = await startTestServer("cli");
  baseUrl = server.url;
  kaizen = cliRunner(server);
});

afterAll(() => server?.stop());

const withKey = { KAIZEN_API_KEY: TEST_API_KEY, KAIZEN_AGENT: "cli-test-agent" };

/** The API's `data` for a GET, fetched directly, to compare with `--json`. */
const apiData = (path: string) => fetchData(server, path);

describe("kaizen CLI over a real local server", () => {
  it("works an issue from signal to review, each step's output and exit status checked", async () => {
    // A manual signal opens an issue in triage.
    const sent = await kaizen(
      [
        "signals",
        "send",
        "--source",
        "ci",
        "--type",
        "build.failed",
        "--title",
        "Checkout build fails on main",
        "--severity",
        "high",
        "--payload",
        '{"job": 4312, "step": "test"}',
        "--json",
      ],
      withKey,
    );
    expect(sent.stderr).toBe("");
    expect(sent.status).toBe(0);
    const ingest = JSON.parse(sent.stdout) as {
      signal: { id: string; action: string };
      issue: { id: string; identifier: string; status: string };
    };
    expect(ingest.signal.action).toBe("opened");
    expect(ingest.issue.status).toBe("triage");
    const ref = ingest.issue.identifier;
    expect(ingest).toEqual(await fetchIngest(ingest.signal.id, ingest.issue.id));

    // Triage → todo.
    const updated = await kaizen(["issues", "update", ref, "--status", "todo"], withKey);
    expect(updated).toMatchObject({ status: 0, stderr: "" });
    expect(updated.stdout).toBe(`Updated ${ref}: todo, high, "Checkout build fails on main"\n`);

    // The queue shows it first; the claim takes it.
    const queue = await kaizen(["queue"], withKey);
    expect(queue.status).toBe(0);
    expect(queue.stdout.split("\n")[0]).toMatch(
      /^#\s+SCORE\s+ISSUE\s+TYPE\s+PRIORITY\s+TITLE\s+PRIORITY\+TYPE\+GOAL\+AGE\+IMPACT$/,
    );
    expect(queue.stdout).toMatch(
      new RegExp(
        `^1\\s+\\d+\\.\\d\\s+${ref}\\s+signal\\s+high\\s+Checkout build fails.*\\s75\\+50\\+0\\+\\d+\\.\\d\\+0$`,
        "m",
      ),
    );
    expect(queue.stdout).not.toContain("\u001b[");

    const next = await kaizen(["next", "--json", "--lease", "600"], withKey);
    expect(next).toMatchObject({ status: 0, stderr: "" });
    const claim = JSON.parse(next.stdout) as {
      dispatch: { id: string; token: string; agent: string; leaseSeconds: number; status: string };
      issue: { identifier: string; status: string };
      prompt: { id: string; text: string };
    };
    expect(claim.issue).toMatchObject({ identifier: ref, status: "in_progress" });
    expect(claim.dispatch).toMatchObject({ agent: "cli-test-agent", leaseSeconds: 600, status: "active" });
    expect(claim.dispatch.token).toMatch(/^kzd_/);
    expect(claim.prompt.text).toContain(ref);

    // Nothing else is eligible: exit 3, said on stdout.
    const empty = await kaizen(["next"], withKey);
    expect(empty).toEqual({
      status: 3,
      stdout: "Nothing to claim: no issue in todo is eligible right now.\n",
      stderr: "",
    });

    // The agent works with its dispatch token alone: no key in its environment.
    const asAgent = { KAIZEN_DISPATCH_TOKEN: claim.dispatch.token, KAIZEN_AGENT: "cli-test-agent" };
    const beat = await kaizen(["heartbeat", claim.dispatch.id], asAgent);
    expect(beat).toMatchObject({ status: 0, stderr: "" });
    expect(beat.stdout).toMatch(new RegExp(`^Lease of ${claim.dispatch.id} extended until \\d{4}-\\d\\d-\\d\\dT`));

    const said = await kaizen(["activity", claim.dispatch.id, "Ran the payment tests", "--type", "action"], asAgent);
    expect(said).toMatchObject({
      status: 0,
      stderr: "",
      stdout: `Activity 1 of ${claim.dispatch.id} recorded (action)\n`,
    });

    const comment = await kaizen(["comment", ref, "The test step times out on the payment stub"], asAgent);
    expect(comment).toMatchObject({ status: 0, stderr: "" });
    expect(comment.stdout).toMatch(/^Comment cmt_\w+ added by cli-test-agent \(agent\)\n$/);

    const completed = await kaizen(
      [
        "complete",
        claim.dispatch.id,
        "--result",
        "done",
        "--summary",
        "Raised the stub's timeout; the suite passes",
        "--commit",
        "4f2a9c1 Raise the payment stub timeout",
        "--pr",
        "https://code.example/acme/shop/pull/42 Raise the stub timeout",
        "--output-tokens",
        "7300",
        "--cost-usd",
        "0.31",
        "--model",
        "cli-model",
      ],
      asAgent,
    );
    expect(completed).toMatchObject({ status: 0, stderr: "" });
    expect(completed.stdout).toBe(`Completed ${claim.dispatch.id} (completed); ${ref} is in_review\n`);
    const stored = (await (
      await fetch(`${baseUrl}/api/dispatch/${claim.dispatch.id}`, {
        headers: { Authorization: `Bearer ${TEST_API_KEY}` },
      })
    ).json()) as { data: { usage: unknown } };
    expect(stored.data.usage).toEqual({ inputTokens: null, outputTokens: 7300, costUsd: 0.31, model: "cli-model" });

    // The token died with the dispatch: the review goes with the key.
    const refused = await kaizen(["heartbeat", claim.dispatch.id], asAgent);
    expect(refused.status).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toContain("kaizen: 401");
    expect(refused.stderr).toContain("KAIZEN_DISPATCH_TOKEN");

    const review = await kaizen(
      [
        "review",
        claim.prompt.id,
        "--clarity",
        "5",
        "--completeness",
        "4",
        "--relevance",
        "5",
        "--author-type",
        "agent",
      ],
      withKey,
    );
    expect(review).toMatchObject({ status: 0, stderr: "" });
    expect(review.stdout).toMatch(/^Review rev_\w+ recorded: 4\.67 for version 1 of tpl_\w+\n$/);

    // The issue waits in review (its pull request is open), with what the agent reported (two reads, side by side).
    const [shown, json] = await Promise.all([
      kaizen(["issues", "show", ref], withKey),
      kaizen(["issues", "show", ref, "--json"], withKey),
    ]);
    expect(shown).toMatchObject({ status: 0, stderr: "" });
    expect(shown.stdout).toMatch(/^status\s+in_review$/m);
    expect(shown.stdout).toContain("Raised the stub's timeout; the suite passes");
    expect(shown.stdout).toMatch(/^4f2a9c1\s+Raise the payment stub timeout$/m);
    expect(shown.stdout).toContain("acme/shop#42  Raise the stub timeout  https://code.example/acme/shop/pull/42");

    expect(json.status).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(await apiData(`/api/issues/${ref}`));
    expect(json.stdout).toBe(`${JSON.stringify(JSON.parse(json.stdout), null, 2)}\n`);

    const comments = (await apiData(`/api/issues/${ref}/comments`)) as { body: string; authorType: string }[];
    expect(comments).toMatchObject([{ body: "The test step times out on the payment stub", authorType: "agent" }]);
  });

  it("next says why nothing was claimed under a project's limits; stats shows today's usage per agent", async () => {
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${baseUrl}${path}`, {
        method: "POST",
        headers: { Authorization: `Bearer ${TEST_API_KEY}`, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(response.status, path).toBeLessThan(300);
      return ((await response.json()) as { data: { id: string } }).data;
    };
    const limited = await post("/api/projects", { name: "cli limited", limits: { maxActivePerAgent: 1 } });
    for (const title of ["first", "second"])
      await post("/api/issues", { title, type: "task", status: "todo", projectId: limited.id });
    const asAgent = { ...withKey, KAIZEN_AGENT: "cli-limited" };
    const first = await kaizen(["next", "--project", limited.id, "--json"], asAgent);
    expect(first).toMatchObject({ status: 0, stderr: "" });
    const refused = await kaizen(["next", "--project", limited.id], asAgent);
    expect(refused.status).toBe(4);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toMatch(
      new RegExp(
        `^kaizen: 429 Agent cli-limited holds 1 active dispatch of project ${limited.id} \\(limits\\.maxActivePerAgent is 1\\)\n {2}try again in 30 s\n`,
      ),
    );

    // The agent completes with a cost past the budget of another project: claims of its issues stop.
    const budgeted = await post("/api/projects", { name: "cli budget", limits: { dailyCostBudgetUsd: 0.05 } });
    for (const title of ["paid", "unpaid"])
      await post("/api/issues", { title, type: "task", status: "todo", projectId: budgeted.id });
    const payer = { ...withKey, KAIZEN_AGENT: "cli-payer" };
    const paid = JSON.parse((await kaizen(["next", "--project", budgeted.id, "--json"], payer)).stdout) as {
      dispatch: { id: string; token: string };
    };
    const completed = await kaizen(
      [
        "complete",
        paid.dispatch.id,
        "--result",
        "done",
        "--summary",
        "done",
        "--input-tokens",
        "1200",
        "--cost-usd",
        "0.0625",
      ],
      { KAIZEN_DISPATCH_TOKEN: paid.dispatch.token },
    );
    expect(completed.status).toBe(0);
    const stopped = await kaizen(["next", "--project", budgeted.id], payer);
    expect(stopped).toEqual({
      status: 3,
      stdout:
        "Nothing to claim: the issues left are in projects whose agents spent today's cost budget (limits.dailyCostBudgetUsd; daily-cost-budget). Claims of them resume the next day (UTC).\n",
      stderr: "",
    });
    const stoppedJson = await kaizen(["next", "--project", budgeted.id, "--json"], payer);
    expect(stoppedJson.status).toBe(3);
    expect(stoppedJson.stdout).toBe("null\n");
    expect(stoppedJson.stderr).toContain("today's cost budget");

    // stats: the figures as before, today's usage with a row per agent, then each agent's claims and outcomes.
    const [stats, statsJson, agentsOverHttp] = await Promise.all([
      kaizen(["stats"], withKey),
      kaizen(["stats", "--json", "--days", "1"], withKey),
      apiData("/api/dashboard/agents?days=1&limit=100"),
    ]);
    expect(stats).toMatchObject({ status: 0, stderr: "" });
    expect(stats.stdout).toMatch(/^issues\s+\d+: /);
    expect(stats.stdout).toMatch(/^todo → done\s+median /m);
    const today = new Date().toISOString().slice(0, 10);
    expect(stats.stdout).toContain(`Usage today (${today}, UTC)`);
    expect(stats.stdout).toMatch(/^AGENT\s+REPORTS\s+IN\s+OUT\s+COST$/m);
    expect(stats.stdout).toMatch(/^cli-payer\s+1\s+1200\s+0\s+\$0\.0625$/m);
    expect(stats.stdout).toContain("\nAgents, the last 7 days (UTC, today included)\n");
    expect(stats.stdout).toMatch(
      /^AGENT\s+CLAIMS\s+COMPLETED\s+FAILED\s+EXPIRED\s+MERGED\s+REWORKED\s+REGRESSED\s+VERIFIED\s+VERIFIED RATE\s+COST$/m,
    );
    // One claim, completed; nothing merged yet, so no verified rate.
    expect(stats.stdout).toMatch(/^cli-payer(\s+1){2}(\s+0){6}\s+—\s+\$0\.0625$/m);
    expect(stats.stdout).toMatch(/^cli-limited\s+1(\s+0){7}\s+—\s+\$0\.0000$/m);
    const json = JSON.parse(statsJson.stdout) as {
      issues: unknown;
      usage: { date: string; agents: { agent: string; costUsd: number }[] };
      agents: unknown[];
    };
    expect(json.issues).toBeDefined();
    expect(json.usage.date).toBe(today);
    expect(json.usage.agents.find((row) => row.agent === "cli-payer")?.costUsd).toBe(0.0625);
    expect(json.agents).toEqual(agentsOverHttp);
    expect(json.agents).toContainEqual(
      expect.objectContaining({ agent: "cli-payer", claims: 1, completed: 1, merged: 0, verifiedRate: null }),
    );
  });

  it("gives a project its sources, shows them, and merges a duplicate into the issue that stays", async () => {
    const created = await kaizen(["projects", "sources", "add", "nope", "acme/x"], withKey);
    expect(created).toMatchObject({ status: 2, stdout: "" });
    expect(created.stderr).toContain('No project is named "nope"');
    const project = (await (
      await fetch(`${baseUrl}/api/projects`, {
        method: "POST",
        headers: { Authorization: `Bearer ${TEST_API_KEY}`, "Content-Type": "application/json" },
        body: JSON.stringify({ name: "Storefront" }),
      })
    ).json()) as { data: { id: string } };
    const added = await kaizen(["projects", "sources", "add", "Storefront", "acme/store", "acme/cart"], withKey);
    expect(added).toMatchObject({ status: 0, stdout: "Storefront owns codehost: acme/store, acme/cart\n" });
    const tracker = await kaizen(
      ["projects", "sources", "add", project.data.id, "store-web", "--kind", "errortracker"],
      withKey,
    );
    expect(tracker.stdout).toBe("Storefront owns errortracker: store-web\n");
    const removed = await kaizen(["projects", "sources", "remove", "Storefront", "ACME/CART"], withKey);
    expect(removed.stdout).toBe("Storefront owns codehost: acme/store\n");
    const show = await kaizen(["projects", "show", "Storefront"], withKey);
    expect(show.stdout).toMatch(/^codehost\s+acme\/store$/m);
    expect(show.stdout).toMatch(/^errortracker\s+store-web$/m);
    const json = await kaizen(["projects", "show", "Storefront", "--json"], withKey);
    expect(JSON.parse(json.stdout)).toEqual(await apiData(`/api/projects/${project.data.id}`));

    const signal = (title: string, fingerprint: string) =>
      kaizen(
        [
          "signals",
          "send",
          "--source",
          "ops",
          "--type",
          "alert",
          "--title",
          title,
          "--severity",
          "high",
          "--fingerprint",
          fingerprint,
          "--json",
        ],
        withKey,
      );
    const first = JSON.parse((await signal("Checkout slow", "ops:slow")).stdout) as { issue: { identifier: string } };
    const second = JSON.parse((await signal("Checkout timeouts", "ops:timeouts")).stdout) as {
      issue: { identifier: string };
    };
    const merged = await kaizen(
      ["issues", "merge", first.issue.identifier, "--into", second.issue.identifier],
      withKey,
    );
    expect(merged).toMatchObject({
      status: 0,
      stdout: `Merged ${first.issue.identifier} into ${second.issue.identifier}: 2 signals, fingerprints ops:timeouts, ops:slow\n`,
    });
    const again = await kaizen(["issues", "merge", first.issue.identifier, "--into", second.issue.identifier], withKey);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain(`${first.issue.identifier} is already canceled`);
  });

  it("lists as aligned tables, and --json is exactly the API's data", async () => {
    const [table, json] = await Promise.all([
      kaizen(["templates", "list", "--limit", "3"], withKey),
      kaizen(["templates", "list", "--limit", "3", "--json"], withKey),
    ]);
    expect(table.status).toBe(0);
    const lines = table.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^SLUG\s+NAME\s+CONDITIONS\s+SPECIFICITY\s+ACTIVE VERSION$/);
    expect(lines.at(-1)).toBe("1–3 of 5 templates (--page 2 for more)");
    // Aligned: every row's CONDITIONS starts where the header's does.
    const column = lines[0]?.indexOf("CONDITIONS") ?? -1;
    for (const row of lines.slice(1, -1)) expect(row.slice(column)).toMatch(/^type=\w+/);
    expect(JSON.parse(json.stdout)).toEqual(await apiData("/api/templates?limit=3"));
  });

  it("exit 1 with the API's message on stderr; exit 2 for usage errors and a missing key", async () => {
    const [missing, unknownFlag, noKey, health] = await Promise.all([
      kaizen(["issues", "show", "KZN-99999"], withKey),
      kaizen(["issues", "list", "--colour"], withKey),
      kaizen(["issues", "list"], { KAIZEN_URL: baseUrl }),
      kaizen(["health"]),
    ]);
    expect(missing.status).toBe(1);
    expect(missing.stdout).toBe("");
    expect(missing.stderr).toMatch(/^kaizen: 404 Issue KZN-99999 not found\n {2}\(request [\w-]+\)\n$/);

    expect(unknownFlag).toMatchObject({ status: 2, stdout: "" });
    expect(unknownFlag.stderr).toBe("kaizen: Unknown argument: colour\nRun kaizen issues list --help for the flags.\n");

    expect(noKey).toMatchObject({ status: 2, stdout: "" });
    expect(noKey.stderr).toContain("KAIZEN_API_KEY");
    expect(noKey.stderr).toContain(".data/api-key");

    expect(health).toMatchObject({ status: 0, stderr: "" });
    expect(health.stdout).toMatch(/^ok {2}http:\/\/127\.0\.0\.1:\d+ \(version [\d.]+\)/);
  });

  it("--help lists every flag of a command", async () => {
    const help = await kaizen(["complete", "--help"]);
    expect(help.status).toBe(0);
    for (const flag of ["--result", "--summary", "--commit", "--pr", "--json", "--help"])
      expect(help.stdout).toContain(flag);
    expect(help.stdout).toContain("KAIZEN_DISPATCH_TOKEN");
  });
});

/** The signal and issue as the API shows them now, in the shape `signals send` printed. */
async function fetchIngest(signalId: string, issueId: string) {
  const signal = (await apiData(`/api/signals/${signalId}`)) as Record<string, unknown>;
  const { payload: _payload, ...listed } = signal;
  const issue = (await apiData(`/api/issues/${issueId}`)) as Record<string, unknown>;
  const { parent: _p, children: _c, relations: _r, signals: _s, ...summary } = issue;
  return { signal: { ...listed, payloadBytes: expect.any(Number) }, issue: summary, duplicate: false };
}
