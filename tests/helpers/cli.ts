/** The `kaizen` CLI as a subprocess against a test server, as a user's shell runs it. */
import { type ChildProcessByStdio, execFile, spawn } from "node:child_process";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { expect } from "vitest";
import { TEST_API_KEY } from "./db.js";
import type { TestServer } from "./local-server.js";

const BIN = join(import.meta.dirname, "..", "..", "bin", "kaizen.js");

export interface CliRun {
  status: number;
  stdout: string;
  stderr: string;
}

/**
 * A runner of `kaizen …` in a child process (asynchronously: the server answers from this process)
 * with only the variables given, `KAIZEN_URL` pointing at `server` (or `url`), in the server's
 * directory, which has no `.kaizen/env` or `.data/api-key`.
 * @example const kaizen = cliRunner(server); const { status, stdout } = await kaizen(["issues", "list"], withKey);
 */
export function cliRunner(server: TestServer) {
  return (args: string[], env: Record<string, string> = {}, url = server.url): Promise<CliRun> => {
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        [BIN, ...args],
        { cwd: server.dir, env: { ...shellOf(server, url), ...env }, timeout: 30_000 },
        (error, stdout, stderr) => {
          const status = error ? (typeof error.code === "number" ? error.code : -1) : 0;
          resolve({ status, stdout, stderr });
        },
      );
    });
  };
}

/** A user's shell as the CLI sees it in the tests: PATH, a home with no Kaizen files, the server's URL. */
function shellOf(server: TestServer, url = server.url): Record<string, string> {
  return { PATH: process.env.PATH ?? "", HOME: server.dir, KAIZEN_URL: url };
}

/** A `kaizen …` child process that goes on while the test reads what it prints (see {@link spawnCli}). */
export interface CliProcess {
  child: ChildProcessByStdio<null, Readable, Readable>;
  /** Its exit status and everything it printed, once it has exited. */
  exited: Promise<CliRun>;
  /** What it has printed to stdout so far. */
  stdout(): string;
  /** What it has printed to stderr so far. */
  stderr(): string;
  /** Calls `listener` after each chunk of stdout and once more when the process has exited. */
  onOutput(listener: () => void): void;
}

const running = new Set<CliProcess["child"]>();

/**
 * `kaizen …` in a child process that runs on (`kaizen run`, `kaizen watch`) in the same shell as
 * {@link cliRunner}'s, `env` added; {@link stopCliProcesses} ends whichever are still running.
 * @example const watch = spawnCli(server, ["watch", dispatchId], withKey);
 */
export function spawnCli(server: TestServer, args: string[], env: Record<string, string> = {}): CliProcess {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: server.dir,
    env: { ...shellOf(server), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  let stdout = "";
  let stderr = "";
  const listeners: (() => void)[] = [];
  const tell = () => {
    for (const listener of listeners) listener();
  };
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
    tell();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const exited = new Promise<CliRun>((resolve) =>
    child.on("close", (code) => {
      running.delete(child);
      resolve({ status: code ?? -1, stdout, stderr });
      tell();
    }),
  );
  return {
    child,
    exited,
    stdout: () => stdout,
    stderr: () => stderr,
    onOutput: (listener) => listeners.push(listener),
  };
}

/** Kills every {@link spawnCli} process still running: a file's `afterAll`. */
export function stopCliProcesses(): void {
  for (const child of running) child.kill("SIGKILL");
}

/**
 * The API's `data` for a GET with the service key, fetched directly, to compare with what the CLI printed.
 * @example expect(JSON.parse(run.stdout)).toEqual(await apiData(server, "/api/issues"));
 */
export async function apiData<T = unknown>(server: TestServer, path: string): Promise<T> {
  const response = await fetch(`${server.url}${path}`, { headers: { Authorization: `Bearer ${TEST_API_KEY}` } });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: T }).data;
}
