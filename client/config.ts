/**
 * @module client/config — where the client finds its service and credentials: `KAIZEN_URL`,
 * `KAIZEN_API_KEY`, `KAIZEN_DISPATCH_TOKEN` and `KAIZEN_PROJECT`, then the untracked `.kaizen/env`
 * that `kaizen connect` writes into a repository, falling back to the local server
 * (`http://localhost:4242`) and the key `npm start` keeps in `.data/api-key`.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const DEFAULT_URL = "http://localhost:4242";
/** Where `kaizen connect` keeps a repository's URL, key and project: ignored by git, never committed. */
export const KAIZEN_ENV_FILE = join(".kaizen", "env");
/** This repository's root: `npm start` keeps its key in `.data/api-key` under it. */
const KAIZEN_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

export interface Connection {
  url: string;
  /** The service key, when one was found. */
  apiKey: string | undefined;
  /** A dispatch token (`kzd_…`): an agent's credential for its own dispatch, issue and prompt. */
  dispatchToken: string | undefined;
  /** Where the key came from, to say so in errors: `KAIZEN_API_KEY`, a file path, or nothing. */
  apiKeySource: string | undefined;
  /** The project this repository works on (`KAIZEN_PROJECT`): the default scope of claims. */
  projectId?: string | undefined;
}

/**
 * The connection settings: each of `KAIZEN_URL`, `KAIZEN_API_KEY`, `KAIZEN_DISPATCH_TOKEN` and
 * `KAIZEN_PROJECT` from `env`, else from the nearest `.kaizen/env` at or above `cwd`; then the local
 * server's defaults: its URL, and the key in `.data/api-key` of `cwd` or, failing that, of this
 * repository (only with the default URL: that key belongs to the local server).
 * @example const { url, apiKey } = resolveConnection(process.env, process.cwd());
 */
export function resolveConnection(env: NodeJS.ProcessEnv, cwd: string): Connection {
  const envFile = findKaizenEnvFile(cwd);
  const saved = envFile ? parseEnvFile(readFileSync(envFile, "utf8")) : {};
  const pick = (name: string) => nonEmpty(env[name]) ?? nonEmpty(saved[name]);
  const url = pick("KAIZEN_URL") ?? DEFAULT_URL;
  const dispatchToken = pick("KAIZEN_DISPATCH_TOKEN");
  const projectId = pick("KAIZEN_PROJECT");
  const base = { url, dispatchToken, projectId };
  const fromEnv = nonEmpty(env.KAIZEN_API_KEY);
  if (fromEnv) return { ...base, apiKey: fromEnv, apiKeySource: "KAIZEN_API_KEY" };
  const fromFile = nonEmpty(saved.KAIZEN_API_KEY);
  if (fromFile && envFile) return { ...base, apiKey: fromFile, apiKeySource: envFile };
  // The local server's key only belongs with the local server.
  if (url === DEFAULT_URL) {
    for (const file of [join(cwd, ".data", "api-key"), join(KAIZEN_ROOT, ".data", "api-key")]) {
      const key = existsSync(file) ? nonEmpty(readFileSync(file, "utf8")) : undefined;
      if (key) return { ...base, apiKey: key, apiKeySource: file };
    }
  }
  return { ...base, apiKey: undefined, apiKeySource: undefined };
}

/**
 * The nearest `.kaizen/env` in `cwd` or one of its parents, as a path; undefined when there is none.
 * @example findKaizenEnvFile("/repo/src") // "/repo/.kaizen/env" after `kaizen connect /repo`
 */
export function findKaizenEnvFile(cwd: string): string | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const file = join(dir, KAIZEN_ENV_FILE);
    if (existsSync(file)) return file;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * `NAME=value` lines as a record: blank lines and `#` comments skipped, one pair of surrounding
 * quotes removed, an `export ` prefix allowed (so the file can be `source`d too).
 * @example parseEnvFile("export KAIZEN_URL=http://localhost:4242\n") // { KAIZEN_URL: "http://localhost:4242" }
 */
export function parseEnvFile(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!match?.[1] || line.trimStart().startsWith("#")) continue;
    const raw = match[2] ?? "";
    values[match[1]] = /^(["']).*\1$/.test(raw) ? raw.slice(1, -1) : raw;
  }
  return values;
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}
