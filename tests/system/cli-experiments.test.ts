/**
 * `kaizen experiments start|list|show|stop` as a subprocess (`node bin/kaizen.js`) against a real
 * local server: an experiment started with a version number, watched while it runs, decided by the
 * rule as agents finish its claims over HTTP, listed; a stop; and each API refusal (400, 404, 409)
 * with the API's message on stderr and exit status 1.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Schema } from "../../client/client.js";
import { cliRunner, apiData as fetchData } from "../helpers/cli.js";
import { TEST_API_KEY } from "../helpers/db.js";
import { startTestServer, type TestServer } from "../helpers/local-server.js";

type Experiment = Schema<"Experiment">;

let server: TestServer;
let kaizen: ReturnType<typeof cliRunner>;

beforeAll(async () => {
  server = await startTestServer("cli_experiments");
  kaizen = cliRunner(server);
});

afterAll(() => server?.stop());

const withKey = { KAIZEN_API_KEY: TEST_API_KEY };

/** A plain HTTP request with the key, as any client makes it; throws unless it answered `expected`. */
async function http<T>(method: string, path: string, body?: unknown, expected = 200, token = TEST_API_KEY) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (response.status !== expected) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return (JSON.parse(text) as { data: T }).data;
}

/** A template taking every task (above the defaults) with version 1 active and a draft version 2. */
async function experimentTemplate(slug: string) {
  const template = await http<{ id: string; activeVersionId: string }>(
    "POST",
    "/api/templates",
    { slug, name: slug, conditions: { type: "task" }, specificity: 900, content: "CONTROL {{issue.title}}" },
    201,
  );
  const draft = await http<{ id: string }>(
    "POST",
    `/api/templates/${slug}/versions`,
    { content: "CANDIDATE {{issue.title}}" },
    201,
  );
  return { template, draft };
}

type Claim = { dispatch: { id: string; token: string }; prompt: { experiment: { arm: string } | null } | null };

/** Claims a new task and finishes it: done in the candidate arm, failed in the control arm. */
async function claimAndFinish(n: number): Promise<void> {
  await http("POST", "/api/issues", { title: `task ${n}`, type: "task", status: "todo" }, 201);
  const claim = await http<Claim>("POST", "/api/dispatch/claim", { agent: "cli-exp-agent" }, 201);
  const result = claim.prompt?.experiment?.arm === "candidate" ? "done" : "failed";
  await http(
    "POST",
    `/api/dispatch/${claim.dispatch.id}/complete`,
    { result, summary: result, usage: { costUsd: result === "done" ? 0.2 : 0.1 } },
    200,
    claim.dispatch.token,
  );
}

describe("kaizen experiments", () => {
  it("starts with a version number, shows both arms while it runs, and shows the rule's decision", async () => {
    const { template, draft } = await experimentTemplate("exp-cli");
    const started = await kaizen(
      ["experiments", "start", "exp-cli", "--candidate", "2", "--traffic", "50", "--min-samples", "4"],
      withKey,
    );
    expect(started).toMatchObject({ status: 0, stderr: "" });
    const id = /^Started experiment (exp_[0-9A-Z]{26}): /.exec(started.stdout)?.[1] ?? "";
    expect(started.stdout).toBe(
      [
        `Started experiment ${id}: v2 takes 50 % of exp-cli's claims, v1 the rest.`,
        "It decides once each arm has 4 finished dispatches; a winner is promoted.",
        "Watch it: kaizen experiments show exp-cli",
        "",
      ].join("\n"),
    );
    const experiment = await fetchData<Experiment>(server, `/api/templates/exp-cli/experiments/${id}`);
    expect(experiment).toMatchObject({ candidateVersionId: draft.id, controlVersionId: template.activeVersionId });
    expect(experiment).toMatchObject({ trafficPercent: 50, minSamples: 4, autoPromote: true, status: "running" });

    // While it runs: its setting, what the rule says now, and both arms.
    const running = await kaizen(["experiments", "show", "exp-cli"], withKey);
    expect(running).toMatchObject({ status: 0, stderr: "" });
    expect(running.stdout).toMatch(new RegExp(`^Experiment ${id}  running\n`));
    expect(running.stdout).toMatch(new RegExp(`^candidate\\s+v2 \\(${draft.id}\\), 50 % of claims$`, "m"));
    expect(running.stdout).toMatch(/^min samples\s+4 finished dispatches in each arm$/m);
    expect(running.stdout).toMatch(/^auto-promote\s+yes: a winner becomes the active version$/m);
    expect(running.stdout).toMatch(
      /^rule now\s+waiting for 4 finished dispatches in each arm \(candidate 0, control 0\)$/m,
    );
    expect(running.stdout).not.toMatch(/^decision/m);
    expect(running.stdout).toMatch(
      /^ARM\s+VERSION\s+CLAIMS\s+FINISHED\s+DONE\s+COMPLETION RATE\s+REVIEWS\s+REVIEW SCORE\s+MEAN COST$/m,
    );
    expect(running.stdout).toMatch(/^control\s+v1\s+0\s+0\s+0\s+—\s+0\s+—\s+—$/m);
    expect(running.stdout).toMatch(/^candidate\s+v2\s+0\s+0\s+0\s+—\s+0\s+—\s+—$/m);

    // Agents finish its claims: the candidate's complete, the control's fail, until the rule decides.
    let status = "running";
    for (let n = 0; status === "running" && n < 80; n++) {
      await claimAndFinish(n);
      status = (await fetchData<Experiment>(server, `/api/templates/exp-cli/experiments/${id}`)).status;
    }
    expect(status).toBe("promoted");

    const [decided, json, byId, listed, shownTemplate] = await Promise.all([
      kaizen(["experiments", "show", "exp-cli"], withKey),
      kaizen(["experiments", "show", "exp-cli", "--json"], withKey),
      kaizen(["experiments", "show", "exp-cli", id], withKey),
      kaizen(["experiments", "list", "exp-cli"], withKey),
      kaizen(["templates", "show", "exp-cli"], withKey),
    ]);
    expect(decided).toMatchObject({ status: 0, stderr: "" });
    expect(byId.stdout).toBe(decided.stdout);
    const ended = await fetchData<Experiment>(server, `/api/templates/exp-cli/experiments/${id}`);
    expect(JSON.parse(json.stdout)).toEqual(ended);
    expect(decided.stdout).toMatch(new RegExp(`^Experiment ${id}  promoted\n`));
    expect(decided.stdout).toMatch(
      /^decision\s+promoted \(\d{4}-\d\d-\d\d \d\d:\d\d\): candidate better: completion rate better, review score too few data, verified rate too few data$/m,
    );
    expect(decided.stdout).not.toMatch(/^rule now/m);
    // Every finish of the candidate completed, every one of the control failed: 100 % and 0 %, with intervals
    // (one digit or two: how many claims fall in each arm changes from run to run).
    const { control, candidate } = ended.arms;
    expect(decided.stdout).toMatch(
      new RegExp(
        `^control\\s+v1\\s+${control.claims}\\s+${control.finished}\\s+0\\s+0 % \\(0–\\d{1,2} %\\)\\s+0\\s+—\\s+\\$0\\.100 \\(\\$0\\.100–\\$0\\.100\\)$`,
        "m",
      ),
    );
    expect(decided.stdout).toMatch(
      new RegExp(
        `^candidate\\s+v2\\s+${candidate.claims}\\s+${candidate.finished}\\s+${candidate.finished}\\s+100 % \\(\\d{1,2}–100 %\\)\\s+0\\s+—\\s+\\$0\\.200 \\(\\$0\\.200–\\$0\\.200\\)$`,
        "m",
      ),
    );

    // What became of the work: nothing merged, so nothing to verify yet in either arm.
    expect(decided.stdout).toMatch(/\nOutcomes\nARM\s+MERGED\s+REWORKED\s+REGRESSED\s+VERIFIED\s+VERIFIED RATE\n/);
    expect(decided.stdout).toMatch(/^control(\s+0){4}\s+—$/m);
    expect(decided.stdout).toMatch(/^candidate(\s+0){4}\s+—$/m);
    // The promoted version, active now, with its outcomes: every completion of the candidate arm.
    expect(shownTemplate).toMatchObject({ status: 0, stderr: "" });
    expect(shownTemplate.stdout).toMatch(/^active\s+version 2 \(/m);
    expect(shownTemplate.stdout).toMatch(
      new RegExp(
        `^outcomes\\s+completed ${candidate.completions}, merged 0, reworked 0, regressed 0, verified 0$`,
        "m",
      ),
    );
    expect(shownTemplate.stdout).toMatch(/^verified rate\s+—$/m);
    expect(shownTemplate.stdout).toMatch(/^human reviews\s+approved 0, changes requested 0, commented 0$/m);

    expect(listed).toMatchObject({ status: 0, stderr: "" });
    const lines = listed.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ID\s+STATUS\s+CANDIDATE\s+CONTROL\s+TRAFFIC\s+MIN SAMPLES\s+STARTED\s+DECISION$/);
    expect(lines[1]).toMatch(
      new RegExp(
        `^${id}\\s+promoted\\s+v2, ${candidate.finished} finished\\s+v1, ${control.finished} finished\\s+50 %\\s+4\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d\\s+candidate better: `,
      ),
    );
    expect(lines).toHaveLength(2);
  });

  it("stops a running experiment, and says what the API refused with its message and exit status 1", async () => {
    const [{ draft }] = await Promise.all([experimentTemplate("exp-stop"), experimentTemplate("exp-refuse")]);
    const started = await kaizen(
      ["experiments", "start", "exp-stop", "--candidate", draft.id, "--traffic", "10", "--no-auto-promote", "--json"],
      withKey,
    );
    expect(started).toMatchObject({ status: 0, stderr: "" });
    const experiment = JSON.parse(started.stdout) as Experiment;
    expect(experiment).toMatchObject({ candidateVersionId: draft.id, trafficPercent: 10, autoPromote: false });
    expect(experiment.minSamples).toBe(20);

    const [twice, active, tooMuch, noTemplate, noVersion, notAVersion, missing, shown] = await Promise.all([
      kaizen(["experiments", "start", "exp-stop", "--candidate", "v2", "--traffic", "10"], withKey),
      kaizen(["experiments", "start", "exp-refuse", "--candidate", "1", "--traffic", "10"], withKey),
      kaizen(["experiments", "start", "exp-refuse", "--candidate", "2", "--traffic", "60"], withKey),
      kaizen(["experiments", "start", "nope", "--candidate", "2", "--traffic", "10"], withKey),
      kaizen(["experiments", "start", "exp-stop", "--candidate", "9", "--traffic", "10"], withKey),
      kaizen(["experiments", "start", "exp-stop", "--candidate", "latest", "--traffic", "10"], withKey),
      kaizen(["experiments", "show", "exp-stop", "exp_01JAAAAAAAAAAAAAAAAAAAAAAA"], withKey),
      kaizen(["experiments", "show", "exp-stop"], withKey),
    ]);
    const refusal = (run: { status: number; stdout: string; stderr: string }, message: string) => {
      expect(run.status, run.stderr).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.stderr.split("\n")[0]).toBe(`kaizen: ${message}`);
    };
    refusal(twice, `409 Template exp-stop already runs experiment ${experiment.id}; stop it first`);
    refusal(active, "409 Version 1 of template exp-refuse is active; a candidate must be a draft");
    refusal(noTemplate, "404 Template nope not found");
    refusal(missing, "404 Experiment exp_01JAAAAAAAAAAAAAAAAAAAAAAA of template exp-stop not found");
    expect(tooMuch.status).toBe(1);
    expect(tooMuch.stderr).toMatch(/^kaizen: 400 .+\n {2}trafficPercent: must be an integer from 1 to 50\n/);
    expect(noVersion).toMatchObject({ status: 2, stdout: "" });
    expect(noVersion.stderr).toBe("kaizen: Template exp-stop has no version 9 (kaizen templates show exp-stop)\n");
    expect(notAVersion).toMatchObject({ status: 2, stdout: "" });
    expect(notAVersion.stderr).toContain("--candidate must be a version id (ver_…) or a version number (got latest)");

    expect(shown.stdout).toMatch(/^auto-promote\s+no: a winner is marked$/m);

    const stopped = await kaizen(["experiments", "stop", "exp-stop", experiment.id], withKey);
    expect(stopped).toEqual({
      status: 0,
      stdout: `Stopped experiment ${experiment.id}: v1 takes every claim again; v2 stays a draft.\n`,
      stderr: "",
    });
    const after = await fetchData<Experiment>(server, `/api/templates/exp-stop/experiments/${experiment.id}`);
    expect(after).toMatchObject({ status: "stopped", decision: { outcome: "stopped", reason: "stopped on request" } });

    const [again, shownStopped] = await Promise.all([
      kaizen(["experiments", "stop", "exp-stop", experiment.id], withKey),
      kaizen(["experiments", "show", "exp-stop"], withKey),
    ]);
    refusal(again, `409 Experiment ${experiment.id} is stopped`);
    expect(shownStopped.stdout).toMatch(/^decision\s+stopped \(.+\): stopped on request$/m);
  });

  it("says when a template has run no experiment", async () => {
    await experimentTemplate("exp-none");
    const [shown, listed, listedJson] = await Promise.all([
      kaizen(["experiments", "show", "exp-none"], withKey),
      kaizen(["experiments", "list", "exp-none"], withKey),
      kaizen(["experiments", "list", "exp-none", "--json"], withKey),
    ]);
    expect(shown).toMatchObject({ status: 1, stdout: "" });
    expect(shown.stderr).toContain("kaizen: template exp-none has run no experiment");
    expect(listed).toEqual({ status: 0, stdout: "Template exp-none has run no experiment.\n", stderr: "" });
    expect(JSON.parse(listedJson.stdout)).toEqual([]);
  });
});
