/** The `kaizen` CLI as a subprocess against a test server, as a user's shell runs it. */
import { execFile } from "node:child_process";
import { join } from "node:path";
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
    const base: Record<string, string> = { PATH: process.env.PATH ?? "", HOME: server.dir, KAIZEN_URL: url };
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        [BIN, ...args],
        { cwd: server.dir, env: { ...base, ...env }, timeout: 30_000 },
        (error, stdout, stderr) => {
          const status = error ? (typeof error.code === "number" ? error.code : -1) : 0;
          resolve({ status, stdout, stderr });
        },
      );
    });
  };
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
