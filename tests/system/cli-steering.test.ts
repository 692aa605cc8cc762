/**
 * A person steering an agent with the `kaizen` CLI (subprocesses, `node bin/kaizen.js`) against a
 * real local server: the agent, holding only its dispatch token, asks a question and reports its
 * running usage; a person follows the dispatch with `kaizen watch` (a subprocess read line by line as
 * it prints) and answers; on a project with plan approval the agent's plan is sent back, posted again
 * and approved (the agent waiting with `watch --until-answer`), then the person stops the dispatch:
 * the watch ends saying so, and the agent's token answers 409 with the reason. A cost past the
 * project's budget per dispatch stops another dispatch on the call that reports it. The person's
 * commands run with the dispatch token set beside the key, to show they send the key.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliRun, cliRunner, apiData as fetchData, spawnCli, stopCliProcesses } from "../helpers/cli.js";
import { TEST_API_KEY } from "../helpers/db.js";
import { startTestServer, type TestServer } from "../helpers/local-server.js";

let server: TestServer;
let kaizen: ReturnType<typeof cliRunner>;

beforeAll(async () => {
  server = await startTestServer("cli_steering");
  kaizen = cliRunner(server);
});

afterAll(async () => {
  stopCliProcesses();
  await server?.stop();
});

const withKey = { KAIZEN_API_KEY: TEST_API_KEY, KAIZEN_AGENT: "steered-agent" };
const apiData = <T>(path: string) => fetchData<T>(server, path);

function ok(run: CliRun): string {
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  return run.stdout;
}

async function post(path: string, body: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${TEST_API_KEY}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.status, path).toBe(201);
  return ((await response.json()) as { data: { id: string } }).data;
}

/** A todo task in a new project with these fields, claimed with `kaizen next`. */
async function claimIn(project: Record<string, unknown>) {
  const { id: projectId } = await post("/api/projects", project);
  await post("/api/issues", { title: `Work of ${String(project.name)}`, type: "task", status: "todo", projectId });
  const claim = JSON.parse(ok(await kaizen(["next", "--project", projectId, "--json"], withKey))) as {
    dispatch: { id: string; token: string };
    issue: { identifier: string };
  };
  return { dispatch: claim.dispatch.id, identifier: claim.issue.identifier, token: claim.dispatch.token };
}

/** A `kaizen …` subprocess read as it prints: `next(pattern)` waits for a line of stdout matching it. */
function follow(args: string[], env: Record<string, string>) {
  const cli = spawnCli(server, args, env);
  // Lines already matched: each is matched once, in whatever order polls printed them.
  const taken = new Set<number>();
  const waiters: (() => void)[] = [];
  cli.onOutput(() => {
    for (const waiter of waiters.splice(0)) waiter();
  });
  return {
    exited: cli.exited,
    /** The first line not matched before that matches `pattern`, once printed; throws if the process ends first. */
    async next(pattern: RegExp): Promise<string> {
      for (;;) {
        // Only whole lines: the last part may be half a line.
        const lines = cli.stdout().split("\n").slice(0, -1);
        const found = lines.findIndex((line, i) => !taken.has(i) && pattern.test(line));
        if (found >= 0) {
          taken.add(found);
          return lines[found] ?? "";
        }
        if (cli.child.exitCode !== null) {
          throw new Error(`kaizen ${args.join(" ")} exited before ${pattern}: ${cli.stderr()}`);
        }
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
  };
}

describe("a person steering an agent with the CLI", () => {
  it("watches, answers, sends a plan back, approves the next one and stops the dispatch", async () => {
    const { dispatch, identifier, token } = await claimIn({
      name: "cli steering",
      autonomy: { planApproval: true },
      limits: { maxCostPerDispatchUsd: 2 },
    });
    const asAgent = { KAIZEN_DISPATCH_TOKEN: token };
    // A person whose shell also holds the agent's token: their commands still send the key.
    const asPerson = { KAIZEN_API_KEY: TEST_API_KEY, KAIZEN_DISPATCH_TOKEN: token };

    const watch = follow(["watch", dispatch, "--interval", "1"], { KAIZEN_API_KEY: TEST_API_KEY });
    expect(await watch.next(/^Watching /)).toMatch(
      new RegExp(`^Watching ${dispatch} \\(issue iss_\\w+, agent steered-agent\\)`),
    );
    expect(await watch.next(/ is active .*no cost/)).toMatch(
      new RegExp(
        `^\\d\\d:\\d\\d:\\d\\d  ${dispatch} is active \\(agent steered-agent, plan not approved\\); no cost reported yet, budget \\$2$`,
      ),
    );

    // The agent asks; the watch sees the question and the dispatch waiting.
    const asked = await kaizen(["activity", dispatch, "Keep the v1 endpoint?", "--type", "elicitation"], asAgent);
    expect(ok(asked)).toBe(
      `Activity 1 of ${dispatch} recorded (elicitation): the dispatch waits for a person's answer; kaizen watch ${dispatch} --after 1 --until-answer waits for it\n`,
    );
    expect(await watch.next(/waits for input/)).toContain(`kaizen answer ${dispatch} "…" answers it`);
    expect(await watch.next(/#1 /)).toMatch(/^\d\d:\d\d:\d\d #1 elicitation {2}steered-agent: Keep the v1 endpoint\?$/);
    const waiting = await kaizen(["heartbeat", dispatch], asAgent);
    expect(ok(waiting)).toMatch(new RegExp(`^${dispatch} waits for a person's answer: its lease stays paused`));

    // The person answers with the key, though their shell holds the token too; the agent works again.
    expect(ok(await kaizen(["answer", dispatch, "Yes, keep it"], asPerson))).toBe(
      `Sent message 2 to ${dispatch}: its agent reads it with its activities\n`,
    );
    expect(await watch.next(/#2 /)).toMatch(/#2 message {2}a person: Yes, keep it$/);
    const heard = JSON.parse(
      ok(await kaizen(["watch", dispatch, "--after", "1", "--until-answer", "--json"], asAgent)),
    );
    expect(heard).toMatchObject({ kind: "activity", activity: { sequence: 2, type: "message", authorType: "human" } });

    // Running usage on a heartbeat: the watch shows it against the budget.
    const beat = await kaizen(
      ["heartbeat", dispatch, "--cost-usd", "0.25", "--input-tokens", "1200", "--model", "m1"],
      asAgent,
    );
    expect(ok(beat)).toMatch(new RegExp(`^Lease of ${dispatch} extended until `));
    expect(await watch.next(/\$0\.25/)).toContain(
      `${dispatch} is active (agent steered-agent, plan not approved); $0.25 of its $2 budget, 1200 tokens in, model m1`,
    );

    // A plan waits for approval; done before it is approved is refused.
    const plan = "1. Retry the payment call\n2. Test against the sandbox";
    expect(
      ok(await kaizen(["activity", dispatch, plan, "--type", "plan", "--output-tokens", "300"], asAgent)),
    ).toContain("(plan): on a project with plan approval the dispatch waits for a person's approval");
    expect(await watch.next(/waits for approval/)).toContain(
      `kaizen approve ${dispatch}, or kaizen reject ${dispatch}`,
    );
    expect(await watch.next(/#3 /)).toMatch(/#3 plan {2}steered-agent: 1\. Retry the payment call$/);
    expect(await watch.next(/^ {4}2\. /)).toBe("    2. Test against the sandbox");
    const early = await kaizen(["complete", dispatch, "--result", "done", "--summary", "Done"], asAgent);
    expect(early.status).toBe(1);
    expect(early.stderr).toContain("kaizen: 409 Plan approval required: post a plan activity and wait for approval");

    // Sent back with feedback; a second rejection finds nothing waiting.
    expect(ok(await kaizen(["reject", dispatch, "Test against the sandbox first"], asPerson))).toBe(
      `Sent the plan of ${dispatch} back (message 4): it works again, and posts a new plan before it may complete\n`,
    );
    expect(await watch.next(/#4 /)).toMatch(/#4 message \(rejected\) {2}a person: Test against the sandbox first$/);
    const again = await kaizen(["reject", dispatch, "Again"], asPerson);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain(`kaizen: 409 Dispatch ${dispatch} is not waiting for approval`);

    // The next plan: the agent waits for the answer with its token, the person approves.
    ok(
      await kaizen(["activity", dispatch, "1. Test against the sandbox\n2. Retry the call", "--type", "plan"], asAgent),
    );
    const agentWaits = follow(["watch", dispatch, "--after", "5", "--until-answer", "--interval", "1"], asAgent);
    expect(await agentWaits.next(/^Watching the activities of /)).toContain("a dispatch token reads them");
    expect(ok(await kaizen(["approve", dispatch, "--comment", "Go ahead"], asPerson))).toBe(
      `Approved the plan of ${dispatch} (message 6): it works again, and may complete once done\n`,
    );
    const answered = await agentWaits.exited;
    expect(answered).toMatchObject({ status: 0, stderr: "" });
    expect(answered.stdout.trimEnd().split("\n").at(-1)).toMatch(/#6 message \(approved\) {2}a person: Go ahead$/);
    expect(await watch.next(/plan approved/)).toContain(`${dispatch} is active (agent steered-agent, plan approved)`);

    // The person stops it: the watch says how it ended and exits 0; the agent's token hears the reason.
    expect(ok(await kaizen(["stop", dispatch, "Enough for today", "--then", "backlog"], asPerson))).toBe(
      `Stopped ${dispatch} (Enough for today); ${identifier} is backlog\n`,
    );
    expect(await watch.next(/was stopped/)).toMatch(
      new RegExp(
        `  ${dispatch} was stopped: Enough for today; \\$0\\.25 of its \\$2 budget, 1200 tokens in, 300 out, model m1$`,
      ),
    );
    expect(await watch.exited).toMatchObject({ status: 0, stderr: "" });
    const late = await kaizen(["heartbeat", dispatch], asAgent);
    expect(late).toMatchObject({ status: 1, stdout: "" });
    expect(late.stderr).toContain("kaizen: 409 Dispatch was stopped: Enough for today");
    const stopAgain = await kaizen(["stop", dispatch, "Twice"], asPerson);
    expect(stopAgain.status).toBe(1);

    // After the end, watch --json prints everything at once, the API's own data, and exits.
    const replay = ok(await kaizen(["watch", dispatch, "--json"], withKey))
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { kind: string; dispatch?: unknown; activity?: unknown });
    expect(replay[0]).toEqual({ kind: "dispatch", dispatch: await apiData(`/api/dispatch/${dispatch}`) });
    expect(replay.slice(1)).toEqual(
      (await apiData<unknown[]>(`/api/dispatch/${dispatch}/activities?limit=100`)).map((activity) => ({
        kind: "activity",
        activity,
      })),
    );
    expect(replay).toHaveLength(7);
  });

  it("a cost past the project's budget per dispatch stops the dispatch on the call that reports it", async () => {
    const { dispatch, identifier, token } = await claimIn({
      name: "cli budget per dispatch",
      limits: { maxCostPerDispatchUsd: 1 },
    });
    const asAgent = { KAIZEN_DISPATCH_TOKEN: token };
    ok(await kaizen(["activity", dispatch, "Ran the suite", "--cost-usd", "0.5"], asAgent));
    const over = await kaizen(["activity", dispatch, "Ran it again", "--cost-usd", "1.25", "--model", "m2"], asAgent);
    expect(over).toMatchObject({ status: 1, stdout: "" });
    expect(over.stderr).toContain("kaizen: 409 Dispatch was stopped: Cost budget passed: $1.25 reported");
    const watched = ok(await kaizen(["watch", dispatch], withKey));
    expect(watched).toContain("#1 action  steered-agent: Ran the suite");
    expect(watched).not.toContain("Ran it again");
    expect(watched.trimEnd().split("\n").at(-1)).toMatch(
      new RegExp(`${dispatch} was stopped: Cost budget passed: .*; \\$1\\.25 of its \\$1 budget, model m2$`),
    );
    const issue = await apiData<{ status: string }>(`/api/issues/${identifier}`);
    expect(issue.status).toBe("backlog");
  });

  it("refuses a person's action with only the dispatch token, before any request", async () => {
    const run = await kaizen(["answer", "dsp_01J2ZQ5K8Y3M4N6P7R9S0T1V2W", "Yes"], {
      KAIZEN_URL: "https://kaizen.example.com",
      KAIZEN_DISPATCH_TOKEN: `kzd_01J2ZQ5K8Y3M4N6P7R9S0T1V2W_${"0".repeat(64)}`,
    });
    expect(run).toMatchObject({ status: 2, stdout: "" });
    expect(run.stderr).toContain("never KAIZEN_DISPATCH_TOKEN");
  });
});
