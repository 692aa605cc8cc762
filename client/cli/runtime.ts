/**
 * @module client/cli/runtime — what every command shares: the process's streams and environment,
 * the connection settings, a client holding the right credential, and the errors that decide the
 * exit status (a usage error is 2, an API error 1).
 */
import { hostname, userInfo } from "node:os";
import { createKaizenClient, type KaizenClient } from "../client.js";
import { type Connection, resolveConnection } from "../config.js";
import { createOutput, type Output, type TextSink } from "./output.js";

/** Exit statuses, as `kaizen --help` documents them. */
export const EXIT = {
  ok: 0,
  /** The API answered with an error, or could not be reached. */
  apiError: 1,
  /** The command line was wrong, or a credential is missing. */
  usage: 2,
  /** `kaizen next`: nothing is eligible to claim (the API's 204). */
  nothingToClaim: 3,
  /** The API asked to try again later (429): `kaizen next` while the agent is at a project's limit. */
  tryLater: 4,
} as const;

/** A mistake on the command line (or a missing credential): exit status 2, message on stderr. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** The process as the CLI sees it; tests pass buffers and their own environment. */
export interface CliIo {
  stdout: TextSink;
  stderr: TextSink;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean | undefined };
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/**
 * Which credential a command sends: `key` the API key; `agent` the dispatch token when
 * `KAIZEN_DISPATCH_TOKEN` is set, else the key; `none` nothing (public routes).
 */
export type Credential = "key" | "agent" | "none";

/** What a command handler gets: output, connection and a client. */
export interface CommandContext {
  io: CliIo;
  output: Output;
  connection: Connection;
  /** A client sending `credential`; a {@link UsageError} when that credential is missing. */
  client(credential: Credential): KaizenClient;
  /** Whether {@link client}`("agent")` sends the dispatch token (so the author is an agent). */
  usesDispatchToken: boolean;
  /** Where the credential in use came from, for a 401's hint. */
  credentialSource(credential: Credential): string | undefined;
}

/** The message of a missing key: names every place a key is looked for. */
export function missingKeyMessage(url: string): string {
  return [
    `No API key for ${url}.`,
    "Set KAIZEN_API_KEY, run `kaizen connect` in this repository (it saves the key in .kaizen/env),",
    "or, for the local server, start it with `npm start`, which writes .data/api-key.",
  ].join("\n");
}

/**
 * The context of one command run, from the process and the parsed global flags.
 * @example const context = createContext(io, { json: true });
 */
export function createContext(io: CliIo, flags: { json?: boolean | undefined }): CommandContext {
  const connection = resolveConnection(io.env, io.cwd);
  const output = createOutput({ stdout: io.stdout, stderr: io.stderr, env: io.env, json: flags.json === true });
  const usesDispatchToken = connection.dispatchToken !== undefined;
  const token = (credential: Credential): string | undefined => {
    if (credential === "none") return undefined;
    if (credential === "agent" && connection.dispatchToken) return connection.dispatchToken;
    if (connection.apiKey) return connection.apiKey;
    throw new UsageError(
      credential === "agent"
        ? `${missingKeyMessage(connection.url)}\nAn agent working a dispatch sets KAIZEN_DISPATCH_TOKEN instead.`
        : missingKeyMessage(connection.url),
    );
  };
  return {
    io,
    output,
    connection,
    usesDispatchToken,
    client: (credential) => createKaizenClient({ baseUrl: connection.url, token: token(credential) }),
    credentialSource: (credential) =>
      credential === "agent" && usesDispatchToken ? "KAIZEN_DISPATCH_TOKEN" : connection.apiKeySource,
  };
}

/**
 * The name an agent claims under: `KAIZEN_AGENT`, else `user@host`.
 * @example defaultAgentName({}) // "ada@build-7"
 */
export function defaultAgentName(env: NodeJS.ProcessEnv): string {
  const named = env.KAIZEN_AGENT?.trim();
  if (named) return named.slice(0, 100);
  let user = "agent";
  try {
    user = userInfo().username;
  } catch {
    // No passwd entry (some containers): the host alone still tells agents apart.
  }
  return `${user}@${hostname()}`.slice(0, 100);
}
