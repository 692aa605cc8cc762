/** The embedded local default: `npm start`'s program, run as a user would. */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { API_KEY_PATTERN, loadConfig } from "../../core/src/index.js";
import { freePort } from "../../infra/local/dynamodb.js";
import { startLocalStack } from "../../infra/local/stack.js";
import { dynamodbEndpoint, TEST_API_KEY } from "../helpers/db.js";

const temps: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "kaizen-local-"));
  temps.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

async function reachable(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(2000) });
    return true;
  } catch {
    return false;
  }
}

describe("local stack", () => {
  it("generates a key on first start, keeps data and key across a restart", async () => {
    const dataDir = tempDir();
    const config = { ...loadConfig({ env: {} }), port: await freePort() };
    const first = await startLocalStack({ config, dataDir, hostname: "127.0.0.1" });
    expect(first.apiKeySource).toBe("generated");
    expect(first.apiKey).toMatch(API_KEY_PATTERN);
    expect(readFileSync(join(dataDir, "api-key"), "utf8").trim()).toBe(first.apiKey);
    expect(statSync(join(dataDir, "api-key")).mode & 0o777).toBe(0o600);
    const headers = { Authorization: `Bearer ${first.apiKey}`, "Content-Type": "application/json" };
    const created = await fetch(`${first.url}/api/issues`, {
      method: "POST",
      headers,
      body: JSON.stringify({ title: "Survives restarts", type: "task" }),
    });
    expect(created.status).toBe(201);
    expect(first.seededTemplates.sort()).toEqual([
      "hypothesis-planning",
      "monitor-check",
      "plan-decomposition",
      "signal-triage",
      "task-execution",
    ]);
    // A user's edit of a default survives every later start.
    const edited = await fetch(`${first.url}/api/templates/task-execution`, {
      method: "PATCH",
      headers,
      body: JSON.stringify({ name: "Our way of working tasks" }),
    });
    expect(edited.status).toBe(200);
    await first.stop();
    expect(await reachable(first.endpoint)).toBe(false);

    const second = await startLocalStack({ config, dataDir, hostname: "127.0.0.1" });
    try {
      expect(second.apiKeySource).toBe("stored");
      expect(second.apiKey).toBe(first.apiKey);
      const listed = await fetch(`${second.url}/api/issues`, { headers });
      expect(await listed.json()).toMatchObject({ total: 1, data: [{ title: "Survives restarts", number: 1 }] });
      expect(second.seededTemplates).toEqual([]);
      const templates = await fetch(`${second.url}/api/templates`, { headers });
      const body = (await templates.json()) as { data: { slug: string; name: string }[]; total: number };
      expect(body.total).toBe(5);
      expect(body.data.find(({ slug }) => slug === "task-execution")?.name).toBe("Our way of working tasks");
    } finally {
      await second.stop();
    }
  });

  it("answers what Node's HTTP parser refuses (a 100 KB query string, huge headers) with the JSON envelope", async () => {
    const config = {
      ...loadConfig({
        env: { DYNAMODB_ENDPOINT: dynamodbEndpoint(), TABLE_NAME: `kaizen_early_${Date.now()}` },
      }),
      serviceApiKey: TEST_API_KEY,
      port: await freePort(),
    };
    const stack = await startLocalStack({ config, dataDir: tempDir(), hostname: "127.0.0.1" });
    try {
      const base = `http://127.0.0.1:${config.port}`;
      const longQuery = await fetch(`${base}/api/issues?q=${"a".repeat(100_000)}`, {
        headers: { Authorization: `Bearer ${TEST_API_KEY}` },
      });
      expect(longQuery.status).toBe(431);
      expect(longQuery.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(await longQuery.json()).toEqual({ error: "Request header fields too large" });
      const hugeHeader = await fetch(`${base}/health`, { headers: { "X-Filler": "b".repeat(40_000) } });
      expect(hugeHeader.status).toBe(431);
      expect(await hugeHeader.json()).toEqual({ error: "Request header fields too large" });
      // The server keeps serving after refusing them.
      expect((await fetch(`${base}/health`)).status).toBe(200);
    } finally {
      await stack.stop();
    }
  });

  it("uses an existing endpoint from DYNAMODB_ENDPOINT and the configured key", async () => {
    const endpoint = dynamodbEndpoint();
    const config = {
      ...loadConfig({ env: { DYNAMODB_ENDPOINT: endpoint, TABLE_NAME: `kaizen_local_${Date.now()}` } }),
      serviceApiKey: TEST_API_KEY,
      port: await freePort(),
    };
    const stack = await startLocalStack({ config, dataDir: tempDir(), hostname: "127.0.0.1" });
    try {
      expect(stack.endpoint).toBe(endpoint);
      expect(stack.apiKeySource).toBe("environment");
      const response = await fetch(`${stack.url}/api/issues`, { headers: { Authorization: `Bearer ${TEST_API_KEY}` } });
      expect(response.status).toBe(200);
    } finally {
      await stack.stop();
    }
    expect(await reachable(endpoint)).toBe(true);
  });
});

/** Runs `infra/local/start.ts` as `npm start` does and collects its output. */
function startProgram(args: string[], env: Record<string, string | undefined>) {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "infra/local/start.ts", ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk) => {
    stdout += String(chunk);
  });
  child.stderr?.on("data", (chunk) => {
    stderr += String(chunk);
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, exited, output: () => ({ stdout, stderr }) };
}

describe("npm start", () => {
  it("serves on PORT, prints the key and a curl line, and Ctrl-C stops it and DynamoDB Local", async () => {
    const port = await freePort();
    const program = startProgram(["--memory"], {
      PORT: String(port),
      SERVICE_API_KEY: TEST_API_KEY,
      DYNAMODB_ENDPOINT: "",
    });
    const deadline = Date.now() + 60_000;
    while (!program.output().stdout.includes("Press Ctrl-C") && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const { stdout } = program.output();
    expect(stdout).toContain(`Kaizen is listening on http://localhost:${port}`);
    expect(stdout).toContain(`curl -H "Authorization: Bearer ${TEST_API_KEY}" http://localhost:${port}/api/issues`);
    const endpoint = /DynamoDB at (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1] ?? "";
    expect(endpoint).not.toBe("");

    const health = await fetch(`http://127.0.0.1:${port}/health`);
    expect(await health.json()).toMatchObject({ status: "ok" });

    program.child.kill("SIGINT");
    expect(await program.exited).toBe(0);
    expect(await reachable(`http://127.0.0.1:${port}/health`)).toBe(false);
    expect(await reachable(endpoint)).toBe(false);
  });

  it("says in one line how to install Java when there is none", async () => {
    const bin = tempDir();
    symlinkSync(process.execPath, join(bin, "node"));
    const program = startProgram(["--memory"], { PATH: bin, PORT: String(await freePort()), DYNAMODB_ENDPOINT: "" });
    expect(await program.exited).toBe(1);
    const lines = program.output().stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^kaizen: DynamoDB Local needs Java 17 or newer.*apt-get install -y openjdk-17-jre-headless/,
    );
  });

  it("refuses a malformed configured key before starting anything", async () => {
    const program = startProgram(["--memory"], { SERVICE_API_KEY: "kaizen_123", PORT: String(await freePort()) });
    expect(await program.exited).toBe(1);
    expect(program.output().stderr.trim()).toBe(
      "kaizen: SERVICE_API_KEY is malformed: expected kaizen_ followed by 64 lowercase hex characters (run `npm run keygen` for a fresh one)",
    );
  });

  it("refuses unknown options", async () => {
    const program = startProgram(["--memroy"], {});
    expect(await program.exited).toBe(1);
    expect(program.output().stderr).toContain("Unknown option --memroy");
  });
});

describe("npm run keygen", () => {
  it("prints one fresh key of the documented format per run", async () => {
    const run = () =>
      new Promise<string>((resolve, reject) =>
        execFile(process.execPath, ["--import", "tsx", "scripts/keygen.ts"], { encoding: "utf8" }, (error, stdout) =>
          error ? reject(error) : resolve(stdout.trim()),
        ),
      );
    // Two runs side by side: neither waits for the other.
    const [first, second] = await Promise.all([run(), run()]);
    expect(first).toMatch(API_KEY_PATTERN);
    expect(second).toMatch(API_KEY_PATTERN);
    expect(first).not.toBe(second);
  });
});
