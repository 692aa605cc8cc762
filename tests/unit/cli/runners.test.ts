/**
 * `kaizen runners`: where the GitHub token comes from (a named variable or stdin, never a flag's
 * value), how runners are listed and shown (pure functions), and the requests the commands send,
 * to a stub that records them (in process, no server).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { filtersText, formatRunner, formatRunnerList, githubTokenOf } from "../../../client/cli/commands/runners.js";
import { UsageError } from "../../../client/cli/runtime.js";
import type { Schema } from "../../../client/client.js";
import { inProcessKaizen, stdinOf, withStub } from "../../helpers/cli-stub.js";
import { RUNNER_ID, runnerFixture } from "../../helpers/runner-fixture.js";

type Runner = Schema<"Runner">;

const NOW = new Date("2026-11-25T09:00:00.000Z");
const GITHUB_TOKEN = "ghp_cliTestToken0123456789abcdef";
const RUN_ID = RUNNER_ID;

/** The runner the stub API answers: one dispatch running. */
function runner(fields: Partial<Runner> = {}): Runner {
  return runnerFixture({ activeDispatches: 1, ...fields });
}

describe("githubTokenOf", () => {
  it("reads the variable --github-token-env names, or stdin's first line with --github-token-stdin", async () => {
    const io = { env: { MY_TOKEN: ` ${GITHUB_TOKEN}\n` }, stdin: stdinOf("") };
    expect(await githubTokenOf({ githubTokenEnv: "MY_TOKEN" }, io)).toBe(GITHUB_TOKEN);
    expect(
      await githubTokenOf({ githubTokenStdin: true }, { env: {}, stdin: stdinOf(`${GITHUB_TOKEN}\nrest\n`) }),
    ).toBe(GITHUB_TOKEN);
    expect(await githubTokenOf({}, io)).toBeUndefined();
  });

  it.each([
    [{ githubTokenEnv: "MISSING" }, "", "--github-token-env: MISSING is not set or empty"],
    [{ githubTokenStdin: true }, "\n", "--github-token-stdin: stdin held no token"],
    [
      { githubTokenEnv: "MY_TOKEN", githubTokenStdin: true },
      "",
      "Give the GitHub token one way: --github-token-env NAME or --github-token-stdin",
    ],
  ])("refuses %j as a usage error", async (flags, stdin, message) => {
    const io = { env: { MY_TOKEN: GITHUB_TOKEN }, stdin: stdinOf(stdin) };
    await expect(githubTokenOf(flags, io)).rejects.toEqual(new UsageError(message));
  });
});

describe("formatting", () => {
  it("lists runners with their state, dispatches running, refusals and last error", () => {
    const text = formatRunnerList(
      [
        runner(),
        runner({
          id: "run_2",
          active: false,
          disabledReason: "Switched off",
          failures: 10,
          lastError: "HTTP 401: Bad credentials",
        }),
        runner({ id: "run_3", retryAfter: "2026-11-25T09:05:00.000Z", failures: 1 }),
      ],
      false,
      NOW,
    );
    const lines = text.split("\n");
    expect(lines[0]).toMatch(/^ID\s+NAME\s+REPOSITORY\s+STATE\s+RUNNING\s+FAILURES\s+LAST ERROR$/);
    expect(lines[1]).toMatch(/on\s+1\/2\s+0\s+-$/);
    expect(lines[2]).toMatch(/switched off\s+1\/2\s+10\s+HTTP 401: Bad credentials$/);
    expect(lines[3]).toContain("backing off");
  });

  it("shows a runner's fields, its token only as configured", () => {
    const text = formatRunner(runner({ filters: { projectId: "prj_1", types: ["task", "plan"] } }), false, NOW);
    expect(text).toContain("takes         project prj_1; types task, plan");
    expect(text).toContain("github token  configured");
    expect(filtersText({ projectId: null, types: null })).toBe("every issue");
  });
});

// The commands in process, against a stub recording each request.

const cwd = mkdtempSync(join(tmpdir(), "kaizen-cli-runners-"));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

const kaizen = inProcessKaizen(cwd);

describe("kaizen runners", () => {
  it("create sends the runner with the token from the named variable or stdin, and never prints it", async () => {
    await withStub(
      () => ({ status: 201, json: { data: runner() } }),
      async (url, seen) => {
        const env = { KAIZEN_URL: url, KAIZEN_API_KEY: "kaizen_admin", KAIZEN_GITHUB_TOKEN: GITHUB_TOKEN };
        const run = await kaizen(
          [
            "runners",
            "create",
            "ci",
            "--repository",
            "acme/app",
            "--concurrency",
            "2",
            "--types",
            "task",
            "--github-token-env",
            "KAIZEN_GITHUB_TOKEN",
          ],
          env,
        );
        expect(run.stderr).toBe("");
        expect(run.status).toBe(0);
        expect(run.stdout).toBe(`Created runner ${RUN_ID} (ci): acme/app, up to 2 at once, takes every issue.\n`);
        expect(seen).toMatchObject([{ method: "POST", url: "/api/runners", authorization: "Bearer kaizen_admin" }]);
        expect(JSON.parse(seen[0]?.body ?? "")).toEqual({
          name: "ci",
          kind: "github_actions",
          repository: "acme/app",
          githubToken: GITHUB_TOKEN,
          concurrency: 2,
          filters: { types: ["task"] },
        });
        const piped = await kaizen(
          ["runners", "create", "ci", "--repository", "acme/app", "--github-token-stdin"],
          { KAIZEN_URL: url, KAIZEN_API_KEY: "kaizen_admin" },
          `${GITHUB_TOKEN}\n`,
        );
        expect(piped.status).toBe(0);
        expect(JSON.parse(seen[1]?.body ?? "").githubToken).toBe(GITHUB_TOKEN);
        expect(run.stdout + piped.stdout).not.toContain(GITHUB_TOKEN);
      },
    );
  });

  it("create without a token, or with the token as a flag's value, is a usage error before any request", async () => {
    await withStub(
      () => ({ status: 201, json: { data: runner() } }),
      async (url, seen) => {
        const env = { KAIZEN_URL: url, KAIZEN_API_KEY: "kaizen_admin" };
        const none = await kaizen(["runners", "create", "ci", "--repository", "acme/app"], env);
        expect(none.status).toBe(2);
        expect(none.stderr).toContain("A GitHub token is required: --github-token-env NAME or --github-token-stdin");
        const flag = await kaizen(
          ["runners", "create", "ci", "--repository", "acme/app", "--github-token", GITHUB_TOKEN],
          env,
        );
        expect(flag.status).toBe(2);
        expect(seen).toEqual([]);
      },
    );
  });

  it("update sends only what changed; delete answers 204", async () => {
    await withStub(
      (request) => (request.method === "DELETE" ? { status: 204 } : { status: 200, json: { data: runner() } }),
      async (url, seen) => {
        const env = { KAIZEN_URL: url, KAIZEN_API_KEY: "kaizen_admin" };
        const on = await kaizen(["runners", "update", RUN_ID, "--active", "--concurrency", "3"], env);
        expect(on.status).toBe(0);
        expect(seen[0]).toMatchObject({ method: "PATCH", url: `/api/runners/${RUN_ID}` });
        expect(JSON.parse(seen[0]?.body ?? "")).toEqual({ active: true, concurrency: 3 });
        const gone = await kaizen(["runners", "delete", RUN_ID], env);
        expect(gone.status).toBe(0);
        expect(gone.stdout).toBe(`Deleted runner ${RUN_ID} and its GitHub token.\n`);
        expect(seen[1]).toMatchObject({ method: "DELETE", url: `/api/runners/${RUN_ID}` });
      },
    );
  });
});
