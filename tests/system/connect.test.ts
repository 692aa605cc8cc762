/**
 * `kaizen connect` as a subprocess against a real local server, run twice in a temporary git
 * repository set up for Claude Code and Cursor: the files it writes, the key only in the ignored
 * file, pointers once, one project, and a second run that changes nothing.
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConnectError, connectRepository } from "../../client/connect/connect.js";
import { TEST_API_KEY } from "../helpers/db.js";
import { startTestServer, type TestServer } from "../helpers/local-server.js";

const ROOT = resolve(import.meta.dirname, "..", "..");
const BIN = join(ROOT, "bin", "kaizen.js");

let server: TestServer;
let dataDir: string;
let repo: string;
let baseUrl: string;

beforeAll(async () => {
  server = await startTestServer("connect");
  dataDir = server.dir;
  baseUrl = server.url;

  // A repository set up for Claude Code (another MCP server, CLAUDE.md) and Cursor (rules).
  repo = join(dataDir, "shop-web");
  mkdirSync(join(repo, ".cursor", "rules"), { recursive: true });
  writeFileSync(
    join(repo, ".mcp.json"),
    `${JSON.stringify({ mcpServers: { postgres: { command: "pg-mcp", args: ["--read-only"] } } }, null, 2)}\n`,
  );
  writeFileSync(join(repo, "CLAUDE.md"), "# Shop web\n\nRun `npm test` before committing.\n");
  writeFileSync(join(repo, ".cursor", "rules", "style.mdc"), "---\nalwaysApply: true\n---\nTabs, not spaces.\n");
  const git = (...args: string[]) => execFileSync("git", ["-C", repo, ...args], { stdio: "pipe" }).toString();
  git("init", "-q");
  git("remote", "add", "origin", "git@github.com:acme/shop-web.git");
  git("add", "-A");
  git("-c", "user.name=Test", "-c", "user.email=test@example.com", "commit", "-qm", "initial");
});

afterAll(() => server?.stop());

interface Run {
  status: number;
  stdout: string;
  stderr: string;
}

/** `kaizen …` in the repository, as a child process (the server answers from this one). */
function kaizen(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { cwd: repo, env: { PATH: process.env.PATH ?? "", HOME: dataDir, ...env }, timeout: 30_000 },
      (error, stdout, stderr) => {
        done({ status: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr });
      },
    );
  });
}

/** Every file under the repository but .git, by relative path, with its text. */
function snapshot(): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (name === ".git") continue;
      if (statSync(path).isDirectory()) walk(path);
      else files.set(relative(repo, path), readFileSync(path, "utf8"));
    }
  };
  walk(repo);
  return files;
}

function occurrences(text: string, part: string): number {
  return text.split(part).length - 1;
}

const env = () => ({ KAIZEN_URL: baseUrl, KAIZEN_API_KEY: TEST_API_KEY });

describe("kaizen connect", () => {
  it("connects a repository once, and a second run changes nothing", async () => {
    const first = await kaizen(["connect", "--yes", "--create-project"], env());
    expect(first.stderr).toContain(`Kaizen at ${baseUrl} accepted the key from KAIZEN_API_KEY.`);
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/^project\s+shop-web \(prj_\w+\), created$/m);
    expect(first.stdout).toMatch(/^agents\s+Claude Code \(\.mcp\.json, CLAUDE\.md\); Cursor \(\.cursor\/rules\)$/m);
    expect(first.stdout).toMatch(/^\.kaizen\/env\s+ignored by git, not tracked$/m);
    expect(first.stdout).toMatch(/^source\s+acme\/shop-web: its signals belong to the project$/m);
    expect(first.stdout).toMatch(/^updated\s+\.mcp\.json\s/m);
    expect(first.stdout).toMatch(/^created\s+\.kaizen\/env\s/m);
    expect(first.stdout).toContain("Connected.");
    const after = snapshot();

    // The MCP entry, beside the server that was there; no key in it.
    const mcp = JSON.parse(after.get(".mcp.json") ?? "{}");
    expect(mcp.mcpServers).toEqual({
      postgres: { command: "pg-mcp", args: ["--read-only"] },
      kaizen: { command: "node", args: [BIN, "mcp"] },
    });
    expect(JSON.parse(after.get(join(".cursor", "mcp.json")) ?? "{}").mcpServers.kaizen).toEqual(mcp.mcpServers.kaizen);

    // The key is in .kaizen/env only (mode 600), which git ignores and does not track.
    const projects = (await (
      await fetch(`${baseUrl}/api/projects?limit=100`, { headers: { Authorization: `Bearer ${TEST_API_KEY}` } })
    ).json()) as { data: { id: string; name: string }[] };
    const created = projects.data.filter((p) => p.name === basename(repo));
    expect(created).toHaveLength(1);
    // Its origin is the project's code-host source: the repository's webhooks now reach the project.
    const owning = (await (
      await fetch(`${baseUrl}/api/projects/${created[0]?.id}`, { headers: { Authorization: `Bearer ${TEST_API_KEY}` } })
    ).json()) as { data: { sources: { codehost: string[] } } };
    expect(owning.data.sources.codehost).toEqual(["acme/shop-web"]);
    expect(after.get(join(".kaizen", "env"))).toBe(
      [
        "# Kaizen connection for this repository (kaizen connect). Secret: git-ignored, never commit it.",
        `KAIZEN_URL=${baseUrl}`,
        `KAIZEN_API_KEY=${TEST_API_KEY}`,
        `KAIZEN_PROJECT=${created[0]?.id}`,
        "",
      ].join("\n"),
    );
    expect(statSync(join(repo, ".kaizen", "env")).mode & 0o777).toBe(0o600);
    for (const [path, text] of after) {
      if (path !== join(".kaizen", "env")) expect(text, path).not.toContain(TEST_API_KEY);
    }
    const git = (...args: string[]) => execFileSync("git", ["-C", repo, ...args], { stdio: "pipe" }).toString();
    expect(git("check-ignore", ".kaizen/env").trim()).toBe(".kaizen/env");
    git("add", "-A");
    const staged = git("ls-files").split("\n");
    expect(staged).toContain(".kaizen/AGENTS.md");
    expect(staged).toContain(".kaizen/.gitignore");
    expect(staged).not.toContain(".kaizen/env");

    // The guide, and one pointer to it where the agents read.
    expect(after.get(join(".kaizen", "AGENTS.md"))).toContain(`project "shop-web" (\`${created[0]?.id}\`)`);
    expect(after.get("CLAUDE.md")).toMatch(/^# Shop web\n\nRun `npm test` before committing\.\n\n## Kaizen\n/);
    expect(occurrences(after.get("CLAUDE.md") ?? "", ".kaizen/AGENTS.md")).toBe(1);
    expect(after.has("AGENTS.md")).toBe(false);
    expect(after.get(join(".cursor", "rules", "kaizen.mdc"))).toContain(".kaizen/AGENTS.md");
    expect(after.get(join(".cursor", "rules", "style.mdc"))).toBe("---\nalwaysApply: true\n---\nTabs, not spaces.\n");
    // The same guide as a Claude Code skill and an OpenHands microagent, each under its own front matter.
    const guide = after.get(join(".kaizen", "AGENTS.md")) ?? "";
    expect(after.get(join(".claude", "skills", "kaizen", "SKILL.md"))).toMatch(
      /^---\nname: kaizen\ndescription: .+\n---\n\n/,
    );
    expect(after.get(join(".claude", "skills", "kaizen", "SKILL.md"))?.endsWith(guide)).toBe(true);
    expect(after.get(join(".openhands", "microagents", "kaizen.md"))).toMatch(/^---\nname: kaizen\ntype: knowledge\n/);
    expect(after.get(join(".openhands", "microagents", "kaizen.md"))?.endsWith(guide)).toBe(true);
    expect(after.has(join(".github", "workflows", "kaizen.yml"))).toBe(false);

    // Again: same files, no new project, and it says so.
    const second = await kaizen(["connect", "--yes", "--create-project", "--json"], env());
    expect(second.status).toBe(0);
    const report = JSON.parse(second.stdout) as {
      changed: boolean;
      project: { id: string; created: boolean };
      files: { path: string; action: string }[];
      envFile: { ignored: boolean; tracked: boolean };
      source: { repository: string; outcome: string };
    };
    expect(report.changed).toBe(false);
    expect(report.source).toEqual({ repository: "acme/shop-web", outcome: "listed" });
    expect(report.project).toMatchObject({ id: created[0]?.id, created: false });
    expect(report.files.map((f) => f.action)).toEqual(report.files.map(() => "unchanged"));
    expect(report.envFile).toEqual({ ignored: true, tracked: false });
    expect(snapshot()).toEqual(after);
    const again = (await (
      await fetch(`${baseUrl}/api/projects?limit=100`, { headers: { Authorization: `Bearer ${TEST_API_KEY}` } })
    ).json()) as { data: { name: string }[] };
    expect(again.data.filter((p) => p.name === basename(repo))).toHaveLength(1);

    // In the connected repository the CLI needs no variables: .kaizen/env has the URL, key and project;
    // beside it, a third run in human form says nothing changed.
    const [fromFile, third] = await Promise.all([kaizen(["queue", "--json"], {}), kaizen(["connect", "--yes"], env())]);
    expect(fromFile).toMatchObject({ status: 0, stderr: "", stdout: "[]\n" });
    expect(third.status).toBe(0);
    expect(third.stdout).toContain("Nothing changed: this repository was already connected.");
    expect(third.stdout).not.toMatch(/^(created|updated)\s/m);
  });

  it("--github-actions adds the workflow for the chosen agent, once; a workflow made the user's own is kept", async () => {
    const workflow = join(".github", "workflows", "kaizen.yml");
    const before = snapshot();
    const flags = [
      "connect",
      "--yes",
      "--github-actions",
      "--agent-command",
      "codex",
      "--kaizen-package",
      "github:acme/kaizen",
    ];
    const first = await kaizen([...flags, "--json"], env());
    expect(first.status).toBe(0);
    const report = JSON.parse(first.stdout) as { files: { path: string; action: string }[] };
    expect(report.files.filter((f) => f.action !== "unchanged")).toEqual([
      expect.objectContaining({ path: workflow, action: "created" }),
    ]);
    const written = snapshot();
    expect(new Map([...written].filter(([path]) => path !== workflow))).toEqual(before);
    expect(written.get(workflow)).toContain(
      'run: kaizen run --dispatch "$KAIZEN_DISPATCH_ID" -- codex exec --json --dangerously-bypass-approvals-and-sandbox -',
    );
    expect(written.get(workflow)).toContain('KAIZEN_CLI: "github:acme/kaizen"');

    const again = await kaizen(flags, env());
    expect(again.stdout).toContain("Nothing changed: this repository was already connected.");
    expect(snapshot()).toEqual(written);

    // The user's edit without the first line makes it theirs: another agent choice leaves it alone.
    const theirs = (written.get(workflow) ?? "").split("\n").slice(1).join("\n");
    writeFileSync(join(repo, workflow), theirs);
    const kept = await kaizen(
      [...flags.slice(0, -4), "--agent-command", "claude-code", "--kaizen-package", "github:acme/kaizen"],
      env(),
    );
    expect(kept.status).toBe(0);
    expect(readFileSync(join(repo, workflow), "utf8")).toBe(theirs);

    const refused = await kaizen(
      ["connect", "--yes", "--github-actions", "--kaizen-package", "github:acme/kaizen", "--agent-command", " "],
      env(),
    );
    expect(refused).toMatchObject({ status: 2, stdout: "" });
    expect(refused.stderr).toContain("--agent-command is empty");
  });

  it("a refused key is exit 1 with where the key came from, and nothing is written", async () => {
    const before = snapshot();
    const refused = await kaizen(["connect", "--yes", "--create-project"], {
      KAIZEN_URL: baseUrl,
      KAIZEN_API_KEY: `kaizen_${"0".repeat(64)}`,
    });
    expect(refused.status).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toBe(
      `kaizen: ${baseUrl} refused the API key from KAIZEN_API_KEY (401): check KAIZEN_API_KEY and KAIZEN_URL.\n`,
    );
    expect(snapshot()).toEqual(before);
  });
});

describe("kaizen connect on a terminal (its questions answered in process)", () => {
  /** Answers the questions in order and records them. */
  function scripted(answers: string[]) {
    const asked: string[] = [];
    return {
      asked,
      ask: async (question: string) => {
        asked.push(question);
        return answers.shift() ?? "";
      },
    };
  }

  it("asks for the project and before writing; a bare repository gets AGENTS.md; no is no", async () => {
    const bare = join(dataDir, "bare-repo");
    mkdirSync(bare);
    const options = {
      dir: bare,
      env: { KAIZEN_URL: baseUrl, KAIZEN_API_KEY: TEST_API_KEY },
      createProject: false,
      launcher: "node" as const,
      dryRun: false,
      log: () => {},
    };

    const declined = scripted(["Checkout rewrite", "n"]);
    await expect(connectRepository({ ...options, ask: declined.ask })).rejects.toThrow(ConnectError);
    expect(declined.asked).toEqual([
      expect.stringMatching(/^Project: a number from the list, or a name for a new one \[bare-repo\] $/),
      "Write these files? [Y/n] ",
    ]);
    expect(readdirSync(bare)).toEqual([]);

    // The project made on the first try is in the list now: choose it by its name.
    const accepted = scripted(["checkout REWRITE", ""]);
    const report = await connectRepository({ ...options, ask: accepted.ask });
    expect(report.project).toMatchObject({ name: "Checkout rewrite", created: false });
    expect(report.agents).toEqual([]);
    expect(report.files.map((f) => [f.path, f.action])).toEqual([
      [join(".kaizen", ".gitignore"), "created"],
      [join(".kaizen", "env"), "created"],
      [join(".kaizen", "AGENTS.md"), "created"],
      [".mcp.json", "created"],
      [join(".claude", "skills", "kaizen", "SKILL.md"), "created"],
      [join(".openhands", "microagents", "kaizen.md"), "created"],
      ["AGENTS.md", "created"],
    ]);
    expect(report.envFile).toBeNull();
    expect(readFileSync(join(bare, "AGENTS.md"), "utf8")).toMatch(/^## Kaizen\n/);
    // Not a git repository: there is no origin to record as a source.
    expect(report.source).toBeNull();

    // Connected, it asks nothing more: the project is the saved one and no file changes.
    const quiet = scripted([]);
    const again = await connectRepository({ ...options, ask: quiet.ask });
    expect(quiet.asked).toEqual([]);
    expect(again.changed).toBe(false);
  });
});

describe("kaizen connect and a repository another project owns", () => {
  it("leaves the source with its owner, says so, and connects all the same", async () => {
    const dir = join(dataDir, "owned-repo");
    mkdirSync(dir);
    execFileSync("git", ["-C", dir, "init", "-q"]);
    execFileSync("git", ["-C", dir, "remote", "add", "origin", "https://github.com/acme/owned.git"]);
    const headers = { Authorization: `Bearer ${TEST_API_KEY}`, "Content-Type": "application/json" };
    const owner = (await (
      await fetch(`${baseUrl}/api/projects`, {
        method: "POST",
        headers,
        body: JSON.stringify({ name: "Owner", sources: { codehost: ["Acme/Owned"] } }),
      })
    ).json()) as { data: { id: string } };
    const lines: string[] = [];
    const report = await connectRepository({
      dir,
      env: { KAIZEN_URL: baseUrl, KAIZEN_API_KEY: TEST_API_KEY },
      project: "Newcomer",
      createProject: true,
      launcher: "node",
      dryRun: false,
      log: (line) => lines.push(line),
    });
    expect(report.source).toEqual({ repository: "acme/owned", outcome: "owned" });
    expect(lines).toContain(
      `acme/owned stays where it is: Source codehost "acme/owned" already belongs to project "Owner" (${owner.data.id}).`,
    );
    const newcomer = (await (await fetch(`${baseUrl}/api/projects/${report.project.id}`, { headers })).json()) as {
      data: { sources: { codehost: string[] } };
    };
    expect(newcomer.data.sources.codehost).toEqual([]);
  });
});
