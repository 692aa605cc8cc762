/**
 * `kaizen connect`'s pure parts: the file merges (each idempotent), agent detection, the plan, and
 * the MCP entry's launcher.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseEnvFile } from "../../../client/config.js";
import { mcpEntry } from "../../../client/connect/connect.js";
import { describeAgents, detectAgents } from "../../../client/connect/detect.js";
import {
  appendOnce,
  ConnectFileError,
  ensureIgnored,
  mergeEnvFile,
  mergeMcpConfig,
} from "../../../client/connect/files.js";
import { GUIDE_PATH, MICROAGENT_PATH, pointerBlock, SKILL_PATH } from "../../../client/connect/guide.js";
import { type FileChange, planConnect } from "../../../client/connect/plan.js";
import { WORKFLOW_PATH } from "../../../client/connect/workflow.js";

const root = mkdtempSync(join(tmpdir(), "kaizen-connect-unit-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const entry = { command: "node", args: ["/opt/kaizen/bin/kaizen.js", "mcp"] };

describe("mergeMcpConfig", () => {
  it("creates the file when there is none", () => {
    expect(JSON.parse(mergeMcpConfig(undefined, "kaizen", entry))).toEqual({ mcpServers: { kaizen: entry } });
  });

  it("keeps every other server and key, in place, and the file's indentation", () => {
    const existing = `{\n    "mcpServers": {\n        "db": { "command": "db-mcp", "args": ["--ro"] }\n    },\n    "other": true\n}\n`;
    const merged = mergeMcpConfig(existing, "kaizen", entry);
    expect(JSON.parse(merged)).toEqual({
      mcpServers: { db: { command: "db-mcp", args: ["--ro"] }, kaizen: entry },
      other: true,
    });
    expect(merged).toMatch(/^\{\n {4}"mcpServers"/);
    expect(Object.keys(JSON.parse(merged))).toEqual(["mcpServers", "other"]);
  });

  it("is idempotent, leaving the user's text untouched when the entry is already right", () => {
    const once = mergeMcpConfig('{"mcpServers": {"db": {"command": "db-mcp"}}}', "kaizen", entry);
    expect(mergeMcpConfig(once, "kaizen", entry)).toBe(once);
    const handWritten = `{"mcpServers":{"kaizen":{"command":"node","args":["/opt/kaizen/bin/kaizen.js","mcp"]}}}`;
    expect(mergeMcpConfig(handWritten, "kaizen", entry)).toBe(handWritten);
  });

  it("replaces an outdated kaizen entry", () => {
    const old = JSON.stringify({ mcpServers: { kaizen: { command: "npx", args: ["kaizen", "mcp"] } } });
    expect(JSON.parse(mergeMcpConfig(old, "kaizen", entry)).mcpServers.kaizen).toEqual(entry);
  });

  it("refuses to overwrite a file that is not a JSON object", () => {
    expect(() => mergeMcpConfig("{ broken", "kaizen", entry)).toThrow(ConnectFileError);
    expect(() => mergeMcpConfig("[]", "kaizen", entry)).toThrow("is not a JSON object");
    expect(() => mergeMcpConfig('{"mcpServers": []}', "kaizen", entry)).toThrow(/not an object/);
  });
});

describe("appendOnce", () => {
  it("appends after a blank line, once", () => {
    const block = pointerBlock();
    const once = appendOnce("# Notes\nBe kind.", block, GUIDE_PATH);
    expect(once).toBe(`# Notes\nBe kind.\n\n${block}`);
    expect(appendOnce(once, block, GUIDE_PATH)).toBe(once);
    expect(appendOnce("# Notes\n", block, GUIDE_PATH)).toBe(`# Notes\n\n${block}`);
    expect(appendOnce(undefined, block, GUIDE_PATH)).toBe(block);
  });

  it("leaves a file that already points at the guide in the user's own words", () => {
    const mine = `Agents: see ${GUIDE_PATH} first.\n`;
    expect(appendOnce(mine, pointerBlock(), GUIDE_PATH)).toBe(mine);
  });
});

describe("mergeEnvFile", () => {
  it("writes a header and the values into a new file, readable by the config parser", () => {
    const text = mergeEnvFile(undefined, { KAIZEN_URL: "http://k", KAIZEN_API_KEY: "kaizen_x" }, "# secret");
    expect(text).toBe("# secret\nKAIZEN_URL=http://k\nKAIZEN_API_KEY=kaizen_x\n");
    expect(parseEnvFile(text)).toEqual({ KAIZEN_URL: "http://k", KAIZEN_API_KEY: "kaizen_x" });
  });

  it("replaces lines in place, keeps the user's, appends the missing, and is idempotent", () => {
    const existing = "# mine\nexport KAIZEN_URL=http://old\nOTHER=1\n";
    const merged = mergeEnvFile(existing, { KAIZEN_URL: "http://new", KAIZEN_PROJECT: "prj_1" });
    expect(merged).toBe("# mine\nKAIZEN_URL=http://new\nOTHER=1\nKAIZEN_PROJECT=prj_1\n");
    expect(mergeEnvFile(merged, { KAIZEN_URL: "http://new", KAIZEN_PROJECT: "prj_1" })).toBe(merged);
  });
});

describe("ensureIgnored", () => {
  it("adds the pattern once", () => {
    const text = ensureIgnored(undefined, "env", "the key");
    expect(text).toBe("# the key\nenv\n");
    expect(ensureIgnored(text, "env", "the key")).toBe(text);
    expect(ensureIgnored("*.log", "env")).toBe("*.log\nenv\n");
  });
});

describe("detectAgents", () => {
  it("finds each agent by its files, and nothing in an empty repository", () => {
    const empty = join(root, "empty");
    mkdirSync(empty);
    expect(describeAgents(detectAgents(empty))).toEqual([]);

    const full = join(root, "full");
    mkdirSync(join(full, ".cursor", "rules"), { recursive: true });
    writeFileSync(join(full, ".mcp.json"), "{}");
    writeFileSync(join(full, "CLAUDE.md"), "# c");
    writeFileSync(join(full, "AGENTS.md"), "# a");
    expect(detectAgents(full)).toEqual({
      mcpJson: true,
      claudeMd: true,
      agentsMd: true,
      cursorRules: true,
      cursorMcp: false,
    });
    expect(describeAgents(detectAgents(full))).toEqual([
      "Claude Code (.mcp.json, CLAUDE.md)",
      "Codex and other AGENTS.md readers (AGENTS.md)",
      `Cursor (${join(".cursor", "rules")})`,
    ]);
  });

  it("does not take a folder named like a file, or a file named like the rules folder", () => {
    const odd = join(root, "odd");
    mkdirSync(join(odd, "CLAUDE.md"), { recursive: true });
    mkdirSync(join(odd, ".cursor"), { recursive: true });
    writeFileSync(join(odd, ".cursor", "rules"), "");
    expect(detectAgents(odd)).toMatchObject({ claudeMd: false, cursorRules: false });
  });
});

describe("planConnect", () => {
  const base = {
    url: "http://localhost:4242",
    apiKey: `kaizen_${"cd".repeat(32)}`,
    project: { id: "prj_01JTEST", name: "shop" },
    mcpEntry: entry,
  };
  const none = { mcpJson: false, claudeMd: false, agentsMd: false, cursorRules: false, cursorMcp: false };

  /** Applies a plan to an in-memory repository. */
  const apply = (files: Map<string, string>, plan: FileChange[]) => {
    for (const change of plan) files.set(change.path, change.after);
  };

  it("in a bare repository: ignore rule first, then the key, guide, .mcp.json and a new AGENTS.md", () => {
    const plan = planConnect({ ...base, setup: none, read: () => undefined });
    expect(plan.map((c) => c.path)).toEqual([
      join(".kaizen", ".gitignore"),
      join(".kaizen", "env"),
      GUIDE_PATH,
      ".mcp.json",
      SKILL_PATH,
      MICROAGENT_PATH,
      "AGENTS.md",
    ]);
    expect(plan.filter((c) => c.secret).map((c) => c.path)).toEqual([join(".kaizen", "env")]);
  });

  it("puts the key in .kaizen/env only, and a second plan over its own result changes nothing", () => {
    const files = new Map<string, string>([
      [".mcp.json", '{"mcpServers": {"db": {"command": "db-mcp"}}}\n'],
      ["CLAUDE.md", "# Claude\n"],
    ]);
    const setup = { ...none, mcpJson: true, claudeMd: true, cursorRules: true };
    const first = planConnect({ ...base, setup, read: (path) => files.get(path) });
    expect(first.map((c) => c.path)).toContain(join(".cursor", "mcp.json"));
    expect(first.map((c) => c.path)).toContain(join(".cursor", "rules", "kaizen.mdc"));
    expect(first.map((c) => c.path)).not.toContain("AGENTS.md");
    apply(files, first);
    for (const [path, text] of files) {
      if (path === join(".kaizen", "env")) expect(text).toContain(base.apiKey);
      else expect(text, path).not.toContain(base.apiKey);
    }
    const second = planConnect({ ...base, setup: { ...setup, cursorMcp: true }, read: (path) => files.get(path) });
    expect(second.filter((c) => c.before !== c.after)).toEqual([]);
    const githubActions = { agentCommand: "codex", kaizenPackage: "github:acme/kaizen", eventType: "kaizen-dispatch" };
    const withWorkflow = planConnect({ ...base, setup, read: (path) => files.get(path), githubActions });
    expect(withWorkflow.filter((c) => c.before !== c.after).map((c) => c.path)).toEqual([WORKFLOW_PATH]);
    apply(files, withWorkflow);
    const third = planConnect({ ...base, setup, read: (path) => files.get(path), githubActions });
    expect(third.filter((c) => c.before !== c.after)).toEqual([]);
  });
});

describe("mcpEntry", () => {
  it("runs this checkout's launcher with node, or the installed package with npx (never npx -y)", () => {
    expect(mcpEntry("auto", "/src/kaizen")).toEqual({ command: "node", args: ["/src/kaizen/bin/kaizen.js", "mcp"] });
    expect(mcpEntry("auto", "/app/node_modules/kaizen")).toEqual({ command: "npx", args: ["--no", "kaizen", "mcp"] });
    expect(mcpEntry("npx", "/src/kaizen").args).not.toContain("-y");
    expect(mcpEntry("node", "/app/node_modules/kaizen").command).toBe("node");
  });
});
