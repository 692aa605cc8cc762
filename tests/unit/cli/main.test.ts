/**
 * The CLI's parser in process, no server: every flag in each command's --help, usage errors as exit 2
 * with a pointer to --help, a missing key as exit 2 naming where keys come from, a person's actions
 * sending the key and never a dispatch token (to a stub that records the request), an unreachable
 * service as exit 1, and the completion script.
 */
import { mkdtempSync, rmSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { inProcessKaizen, withStub } from "../../helpers/cli-stub.js";

const cwd = mkdtempSync(join(tmpdir(), "kaizen-cli-main-"));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

/** Runs the CLI in process with buffers for streams; no variable of the test's own environment leaks in. */
const kaizen = inProcessKaizen(cwd);
const run = (args: string[], env: NodeJS.ProcessEnv = {}) => kaizen(args, { KAIZEN_URL: "http://127.0.0.1:9", ...env });

/** The flags a help text's option lines list (`  -y, --yes`, `  -q`), long names where there are both. */
function flagsOf(help: string): string[] {
  const names = help
    .split("\n")
    .map((line) => /^\s+(?:-[a-z], )?--?([a-z][a-z-]*)\s/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined);
  return [...new Set(names)].sort();
}

const COMMON = ["help", "json"];
const EXPECTED_FLAGS: Record<string, string[]> = {
  "issues list": [
    "status",
    "type",
    "priority",
    "project",
    "parent",
    "label",
    "fingerprint",
    "q",
    "sort",
    "page",
    "limit",
  ],
  "issues create": ["title", "type", "status", "description", "priority", "project", "parent", "label"],
  "issues update": [
    "status",
    "title",
    "type",
    "summary",
    "if-match",
    "description",
    "priority",
    "project",
    "parent",
    "label",
  ],
  "signals send": ["source", "type", "title", "severity", "fingerprint", "payload", "project"],
  "signals list": ["source", "type", "severity", "issue", "action", "since", "page", "limit"],
  "providers test": ["secret", "open"],
  next: ["agent", "project", "types", "lease"],
  heartbeat: ["input-tokens", "output-tokens", "cost-usd", "model"],
  activity: ["type", "input-tokens", "output-tokens", "cost-usd", "model"],
  complete: ["result", "summary", "commit", "pr", "input-tokens", "output-tokens", "cost-usd", "model"],
  watch: ["after", "until-answer", "interval"],
  answer: [],
  approve: ["comment"],
  reject: [],
  stop: ["then"],
  run: ["agent", "concurrency", "once", "project", "types", "lease", "dispatch"],
  review: ["clarity", "completeness", "relevance", "feedback", "author", "author-type"],
  comment: ["author", "author-type", "reply-to"],
  "templates preview": ["version-id"],
  "experiments start": ["candidate", "traffic", "min-samples", "auto-promote"],
  "experiments list": ["page", "limit"],
  "experiments show": [],
  "experiments stop": [],
  queue: ["project", "types", "page", "limit"],
  stats: ["days"],
  connect: [
    "project",
    "create-project",
    "url",
    "yes",
    "dry-run",
    "launcher",
    "github-actions",
    "agent-command",
    "kaizen-package",
    "event-type",
  ],
  "events destinations add": ["events", "all-events", "description", "inactive"],
  "events destinations list": ["page", "limit"],
  "events destinations show": [],
  "events destinations update": ["url", "events", "all-events", "description", "active", "inactive", "if-match"],
  "events destinations remove": ["if-match"],
  "events destinations rotate-secret": [],
  "events deliveries": ["page", "limit"],
  "events retry": [],
  "events tail": ["events", "all-events", "port", "host"],
  "keys create": ["scope", "project", "expires"],
  "keys list": ["page", "limit"],
  "keys show": [],
  "keys revoke": [],
  audit: ["actor", "target", "status", "since", "page", "limit"],
};

describe("--help", () => {
  it("lists every command, the configuration and the exit statuses", async () => {
    const { status, stdout } = await run(["--help"]);
    expect(status).toBe(0);
    for (const command of [
      "issues",
      "signals",
      "providers",
      "next",
      "heartbeat",
      "activity",
      "complete",
      "release",
      "review",
      "comment",
      "watch",
      "answer",
      "approve",
      "reject",
      "stop",
      "run",
      "templates",
      "experiments",
      "events",
      "queue",
      "stats",
      "health",
      "connect",
      "mcp",
      "completion",
    ]) {
      expect(stdout).toMatch(new RegExp(`kaizen ${command}\\b`));
    }
    expect(stdout).toContain("KAIZEN_API_KEY");
    expect(stdout).toContain("KAIZEN_DISPATCH_TOKEN");
    expect(stdout).toContain("Exit status: 0 ok, 1 API error (message on stderr), 2 usage error, 3 next");
  });

  it.each(Object.entries(EXPECTED_FLAGS))("kaizen %s --help lists exactly its flags", async (command, flags) => {
    const { status, stdout } = await run([...command.split(" "), "--help"]);
    expect(status).toBe(0);
    const listed = flagsOf(stdout);
    expect(listed).toEqual([...new Set([...flags, ...COMMON, "version"])].sort());
  });

  it("next --help documents exit status 3 for nothing to claim, 4 for a project's limit", async () => {
    const { stdout } = await run(["next", "--help"]);
    expect(stdout).toContain("3 nothing is eligible");
    expect(stdout).toMatch(/4 you hold as many of a project's\s+dispatches as its limits\.maxActivePerAgent allows/);
  });
});

describe("usage errors exit 2", () => {
  it.each([
    [["issues", "list", "--bogus"], "Unknown argument: bogus", "kaizen issues list --help"],
    [["issues", "list", "--status", "nope"], "Invalid values", "kaizen issues list --help"],
    [["complete", "dsp_1", "--summary", "x"], "Missing required argument: result", "kaizen complete --help"],
    [["next", "--lease", "5"], "--lease must be a whole number from 60 to 7200", "kaizen next --help"],
    [["issues"], "Which issues command?", "kaizen issues --help"],
    [["experiments"], "Which experiments command?", "kaizen experiments --help"],
    [
      ["experiments", "start", "exp-task", "--candidate", "2"],
      "Missing required argument: traffic",
      "kaizen experiments start --help",
    ],
    [
      ["experiments", "start", "exp-task", "--candidate", "2", "--traffic", "12.5"],
      "--traffic must be a whole number from 1 to 100",
      "kaizen experiments start --help",
    ],
    [["stats", "--days", "31"], "--days must be a whole number from 1 to 30", "kaizen stats --help"],
    [["events"], "Which events command?", "kaizen events --help"],
    [["events", "destinations"], "Which destinations command?", "kaizen events destinations --help"],
    [
      ["events", "destinations", "add", "https://h.example.com/", "--events", "issue.created,issue.closed"],
      "--events: issue.closed is not an event type; the types are issue.created, issue.status_changed,",
      "kaizen events destinations add --help",
    ],
    [
      ["events", "destinations", "add", "https://h.example.com/"],
      "Which events? Give --events a,b,… or --all-events",
      "kaizen events destinations add --help",
    ],
    [
      ["events", "destinations", "update", "dst_1", "--active", "--inactive"],
      "mutually exclusive",
      "kaizen events destinations update --help",
    ],
    [
      ["events", "tail", "--host", "192.0.2.1"],
      "--host 192.0.2.1: the API takes plain http only",
      "kaizen events tail --help",
    ],
    [
      ["events", "tail", "--port", "70000"],
      "--port must be a whole number from 1 to 65535",
      "kaizen events tail --help",
    ],
    [["events", "retry", "dst_1"], "Not enough non-option arguments", "kaizen events retry --help"],
    [["activity", "dsp_1", "Keep v1?", "--type", "question"], "Invalid values", "kaizen activity --help"],
    [["watch", "dsp_1", "--interval", "0"], "--interval must be a whole number from 1 to 60", "kaizen watch --help"],
    [["watch", "dsp_1", "--after", "-1"], "--after must be a whole number from 0 to 1000000000", "kaizen watch --help"],
    [["reject", "dsp_1"], "Not enough non-option arguments", "kaizen reject --help"],
    [["stop", "dsp_1"], "Not enough non-option arguments", "kaizen stop --help"],
    [["stop", "dsp_1", "Wrong approach", "--then", "done"], "Invalid values", "kaizen stop --help"],
    [
      ["run", "--concurrency", "0", "--", "true"],
      "--concurrency must be a whole number from 1 to 20",
      "kaizen run --help",
    ],
    [["run", "--once", "node", "agent.js"], "Unknown arguments: node, agent.js", "kaizen run --help"],
    [[], "Which command?", "kaizen --help"],
    [["frobnicate"], "Unknown argument: frobnicate", "kaizen frobnicate --help"],
  ])("kaizen %j", async (args, message, hint) => {
    const { status, stdout, stderr } = await run(args);
    expect(status).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toContain(message);
    expect(stderr).toContain(`Run ${hint} for the flags.`);
  });

  it.each([
    [["run", "--once"], {}, "Which command? Give it after --: kaizen run --once -- claude -p"],
    [
      ["run", "--types", "bug", "--", "true"],
      {},
      "--types: bug is not an issue type (signal, hypothesis, plan, task, monitor)",
    ],
    [["run", "--", "true"], { KAIZEN_RUN_CHECK_MS: "0" }, "KAIZEN_RUN_CHECK_MS must be a whole number of milliseconds"],
    [
      ["run", "--dispatch", "dsp_1", "--", "true"],
      {},
      "--dispatch dsp_1 works with the dispatch's token: set KAIZEN_DISPATCH_TOKEN",
    ],
    [
      ["run", "--dispatch", "dsp_1", "--once", "--concurrency", "2", "--", "true"],
      { KAIZEN_DISPATCH_TOKEN: "kzd_x" },
      "--dispatch works the one dispatch it names, claiming nothing: --once, --concurrency do not apply",
    ],
  ])("kaizen %j is a usage error before any request", async (args, env, message) => {
    const { status, stderr } = await run(args, {
      KAIZEN_URL: "http://127.0.0.1:9",
      KAIZEN_API_KEY: "kaizen_x",
      ...env,
    });
    expect(status).toBe(2);
    expect(stderr).toContain(message);
  });

  it("a missing key names KAIZEN_API_KEY and .data/api-key, before any request", async () => {
    const { status, stderr } = await run(["issues", "list"], { KAIZEN_URL: "https://kaizen.example.com" });
    expect(status).toBe(2);
    expect(stderr).toContain("No API key for https://kaizen.example.com");
    expect(stderr).toContain("KAIZEN_API_KEY");
    expect(stderr).toContain(".data/api-key");
  });

  it("events destinations update with nothing to change", async () => {
    const { status, stderr } = await run(["events", "destinations", "update", "dst_1"], { KAIZEN_API_KEY: "kaizen_x" });
    expect(status).toBe(2);
    expect(stderr).toContain("Nothing to update");
  });

  it("issues update with nothing to change", async () => {
    const { status, stderr } = await run(["issues", "update", "KZN-1"], { KAIZEN_API_KEY: "kaizen_x" });
    expect(status).toBe(2);
    expect(stderr).toContain("Nothing to update");
  });
});

describe("a person's actions: answer, approve, reject, stop", () => {
  const TOKEN = `kzd_01J2ZQ5K8Y3M4N6P7R9S0T1V2W_${"0".repeat(64)}`;
  const ACTIONS = [
    ["answer", "dsp_1", "Yes, keep it"],
    ["approve", "dsp_1", "--comment", "Go ahead"],
    ["reject", "dsp_1", "Test the retry first"],
    ["stop", "dsp_1", "Wrong approach", "--then", "backlog"],
  ];

  it.each(ACTIONS)("kaizen %s sends the service key even with KAIZEN_DISPATCH_TOKEN set", async (...args) => {
    // Not the answer's shape: the command only prints it; the request is what is checked.
    const answer = (request: IncomingMessage) => ({
      status: request.url?.endsWith("/messages") ? 201 : 200,
      json: { data: null },
    });
    await withStub(answer, async (url, seen) => {
      const { status, stderr } = await run(args, {
        KAIZEN_URL: url,
        KAIZEN_API_KEY: "kaizen_person",
        KAIZEN_DISPATCH_TOKEN: TOKEN,
      });
      expect(stderr).toBe("");
      expect(status).toBe(0);
      const path = { answer: "messages", approve: "approve", reject: "reject", stop: "stop" }[args[0] as string];
      expect(seen).toMatchObject([
        { method: "POST", url: `/api/dispatch/dsp_1/${path}`, authorization: "Bearer kaizen_person" },
      ]);
      // As JSON text: the stop's body names `then`, which the linter keeps out of object literals.
      expect(seen[0]?.body).toBe(
        {
          answer: '{"body":"Yes, keep it"}',
          approve: '{"comment":"Go ahead"}',
          reject: '{"feedback":"Test the retry first"}',
          stop: '{"reason":"Wrong approach","then":"backlog"}',
        }[args[0] as string],
      );
    });
  });

  it.each(ACTIONS)(
    "kaizen %s with only a dispatch token is exit 2 naming the key, before any request",
    async (...args) => {
      const { status, stdout, stderr } = await run(args, {
        KAIZEN_URL: "https://kaizen.example.com",
        KAIZEN_DISPATCH_TOKEN: TOKEN,
      });
      expect(status).toBe(2);
      expect(stdout).toBe("");
      expect(stderr).toContain("No API key for https://kaizen.example.com");
      expect(stderr).toContain("never KAIZEN_DISPATCH_TOKEN");
    },
  );
});

describe("an unreachable service", () => {
  it("is exit 1 with the reason on stderr", async () => {
    const { status, stdout, stderr } = await run(["issues", "show", "KZN-1"], { KAIZEN_API_KEY: "kaizen_x" });
    expect(status).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toMatch(/^kaizen: cannot reach http:\/\/127\.0\.0\.1:9.*is the Kaizen server running\?/);
  });
});

describe("kaizen completion", () => {
  it("prints a shell completion script that asks kaizen for its completions", async () => {
    const { status, stdout } = await run(["completion"]);
    expect(status).toBe(0);
    expect(stdout).toContain("###-begin-kaizen-completions-###");
    expect(stdout).toContain("--get-yargs-completions");
  });

  it("completes command names", async () => {
    const { stdout } = await run(["--get-yargs-completions", "tem"]);
    expect(stdout.split("\n")).toContain("templates");
  });
});
