/**
 * The workflow `kaizen connect --github-actions` writes: valid YAML, valid by a schema of GitHub's
 * workflow syntax (SchemaStore's, as action-validator embeds it), answering the runner's event with
 * `kaizen run --dispatch`, and keeping the dispatch token out of every step's environment; its first
 * step run by bash against an event file as GitHub would.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { validateWorkflow } from "@action-validator/core";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { kaizenPackageOf } from "../../../client/connect/connect.js";
import {
  AGENT_PRESETS,
  choiceProblem,
  githubWorkflow,
  WORKFLOW_MARKER,
  type WorkflowChoice,
  workflowAfter,
} from "../../../client/connect/workflow.js";

const root = mkdtempSync(join(tmpdir(), "kaizen-workflow-unit-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const choice = (agentCommand: string, eventType = "kaizen-dispatch"): WorkflowChoice => ({
  agentCommand,
  kaizenPackage: "github:acme/kaizen",
  eventType,
});

interface Step {
  name?: string;
  run?: string;
  uses?: string;
  env?: Record<string, string>;
}
interface Workflow {
  on: { repository_dispatch: { types: string[] } };
  jobs: { work: { steps: Step[]; env?: Record<string, string> } };
}

const parsed = (text: string) => parse(text) as Workflow;
/** A GitHub Actions expression, `${{ … }}`, as the workflow holds it. */
const expression = (inner: string) => ["$", "{{ ", inner, " }}"].join("");

describe("githubWorkflow", () => {
  const cases = [...Object.keys(AGENT_PRESETS), "./scripts/agent.sh --fast"];

  it.each(cases)("for %s: YAML that GitHub's workflow schema accepts", (agent) => {
    const text = githubWorkflow(choice(agent, "fix-it.now"));
    expect(validateWorkflow(text).errors).toEqual([]);
    const workflow = parsed(text);
    expect(workflow.on.repository_dispatch.types).toEqual(["fix-it.now"]);
    const run = workflow.jobs.work.steps.at(-1);
    const command = AGENT_PRESETS[agent]?.command ?? agent;
    expect(run?.run).toBe(`kaizen run --dispatch "$KAIZEN_DISPATCH_ID" -- ${command}`);
    expect(text.startsWith(`${WORKFLOW_MARKER}\n`)).toBe(true);
  });

  it("the schema check can fail: a job without runs-on is refused", () => {
    const broken = githubWorkflow(choice("codex")).replace("    runs-on: ubuntu-latest\n", "");
    expect(validateWorkflow(broken).errors).not.toEqual([]);
  });

  it("installs the preset's agent and passes only its own secret; a command of the user's installs nothing", () => {
    const claude = parsed(githubWorkflow(choice("claude-code"))).jobs.work.steps;
    expect(claude.find((s) => s.name === "Install the agent")?.run).toBe(AGENT_PRESETS["claude-code"]?.install);
    expect(claude.at(-1)?.env).toEqual({
      GH_TOKEN: expression("github.token"),
      ANTHROPIC_API_KEY: expression("secrets.ANTHROPIC_API_KEY"),
    });
    const own = parsed(githubWorkflow(choice("make agent"))).jobs.work.steps;
    expect(own.some((s) => s.name === "Install the agent")).toBe(false);
    expect(own.at(-1)?.env).toEqual({ GH_TOKEN: expression("github.token") });
    expect(own.find((s) => s.name === "Install the kaizen CLI")?.env).toEqual({ KAIZEN_CLI: "github:acme/kaizen" });
  });

  it("never puts the payload's token in an env: block, which GitHub prints in the step's log", () => {
    const workflow = parsed(githubWorkflow(choice("claude-code")));
    const envs = [workflow.jobs.work.env ?? {}, ...workflow.jobs.work.steps.map((s) => s.env ?? {})];
    for (const env of envs) for (const value of Object.values(env)) expect(value).not.toContain("client_payload");
  });

  it("its first step masks the token, then hands the dispatch to later steps; a foreign event stops the job", () => {
    const script = parsed(githubWorkflow(choice("codex"))).jobs.work.steps[0]?.run ?? "";
    const runStep = (payload: unknown) => {
      const event = join(root, "event.json");
      const githubEnv = join(root, `env-${Math.random()}`);
      writeFileSync(event, JSON.stringify({ action: "kaizen-dispatch", client_payload: payload }));
      writeFileSync(githubEnv, "");
      const out = spawnSync("bash", ["-e", "-c", script], {
        encoding: "utf8",
        env: { PATH: process.env.PATH, GITHUB_EVENT_PATH: event, GITHUB_ENV: githubEnv },
      });
      return { status: out.status, stdout: out.stdout, env: readFileSync(githubEnv, "utf8") };
    };
    const token = `dsptok_${"ab".repeat(20)}`;
    const ok = runStep({ dispatchId: "dsp_01JABC", issue: "KZN-7", token, kaizenUrl: "https://kaizen.example.com" });
    expect(ok.status).toBe(0);
    expect(ok.stdout).toBe(`::add-mask::${token}\n`);
    expect(ok.env).toBe(
      `KAIZEN_DISPATCH_TOKEN=${token}\nKAIZEN_DISPATCH_ID=dsp_01JABC\nKAIZEN_URL=https://kaizen.example.com\n`,
    );
    const injected = runStep({ dispatchId: "dsp_1; curl evil", token, kaizenUrl: "https://kaizen.example.com" });
    expect(injected.status).toBe(1);
    expect(injected.stdout).toContain("Not a Kaizen dispatch event");
    expect(injected.env).toBe("");
    expect(runStep({ dispatchId: "dsp_1", kaizenUrl: "https://kaizen.example.com" }).status).toBe(1);
  });
});

describe("workflowAfter", () => {
  it("writes a missing file, rewrites its own, is idempotent, and keeps one the user made theirs", () => {
    const first = workflowAfter(undefined, choice("claude-code"));
    expect(workflowAfter(first, choice("claude-code"))).toBe(first);
    expect(workflowAfter(first, choice("codex"))).toBe(githubWorkflow(choice("codex")));
    const theirs = first.replace(`${WORKFLOW_MARKER}\n`, "# ours now\n");
    expect(workflowAfter(theirs, choice("codex"))).toBe(theirs);
  });
});

describe("choiceProblem", () => {
  it("says what cannot be written", () => {
    expect(choiceProblem(choice("claude-code"))).toBeUndefined();
    expect(choiceProblem(choice("  "))).toBe("--agent-command is empty");
    expect(choiceProblem(choice("a\nb"))).toBe("--agent-command must be one line");
    expect(choiceProblem({ ...choice("codex"), kaizenPackage: "a b" })).toMatch(/^--kaizen-package must be one npm/);
    expect(choiceProblem(choice("codex", "bad type"))).toMatch(/^--event-type may hold only/);
  });
});

describe("kaizenPackageOf", () => {
  const repoWithOrigin = (url: string) => {
    const dir = mkdtempSync(join(root, "kaizen-"));
    execFileSync("git", ["-C", dir, "init", "-q"]);
    execFileSync("git", ["-C", dir, "remote", "add", "origin", url]);
    return dir;
  };

  it("takes a GitHub origin as github:owner/name, and nothing from another host or no origin", () => {
    expect(kaizenPackageOf(repoWithOrigin("git@github.com:acme/kaizen.git"))).toBe("github:acme/kaizen");
    expect(kaizenPackageOf(repoWithOrigin("https://github.com/acme/kaizen"))).toBe("github:acme/kaizen");
    expect(kaizenPackageOf(repoWithOrigin("https://gitlab.com/acme/kaizen.git"))).toBeUndefined();
    expect(kaizenPackageOf(mkdtempSync(join(root, "bare-")))).toBeUndefined();
  });
});
