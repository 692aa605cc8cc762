/**
 * @module client/cli/options — flags several commands share (pages, projects, issue types, usage)
 * and the parsers behind them: integers in a range, JSON from an argument or a file, commits and
 * pull requests as `complete` takes them, running usage as `heartbeat`, `activity` and `complete`
 * report it, projects by id or by name, instants as durations, days or times (`--since`, `--expires`).
 */
import { readFileSync } from "node:fs";
import type { Argv } from "yargs";
import type { KaizenClient, paths, Schema } from "../client.js";
import { UsageError } from "./runtime.js";

/**
 * A yargs `coerce` that accepts whole numbers from `min` to `max` and names the flag otherwise.
 * @example y.option("limit", { type: "number", coerce: integerIn("limit", 1, 100) })
 */
export function integerIn(flag: string, min: number, max: number): (value: unknown) => number {
  // yargs coerces only flags that were given (or have a default), so `value` is never undefined.
  return (value) => {
    const number = Number(value);
    if (!Number.isInteger(number) || number < min || number > max) {
      throw new UsageError(`--${flag} must be a whole number from ${min} to ${max} (got ${String(value)})`);
    }
    return number;
  };
}

/** `--page` and `--limit`, as every list takes them. */
export function withPaging<T>(y: Argv<T>) {
  return y
    .option("page", {
      type: "number",
      describe: "Page number, from 1",
      default: 1,
      coerce: integerIn("page", 1, 10_000),
    })
    .option("limit", {
      type: "number",
      describe: "Items per page (1..100)",
      default: 20,
      coerce: integerIn("limit", 1, 100),
    });
}

/**
 * JSON given as text, `@path` (a file) or `-` (stdin's text, passed in as `stdinText`), which must be an object.
 * @example readJsonObject('{"route": "/checkout"}', "payload") // { route: "/checkout" }
 */
export function readJsonObject(value: string, flag: string, stdinText?: () => string): Record<string, unknown> {
  let text = value;
  if (value === "-") text = stdinText ? stdinText() : readFileSync(0, "utf8");
  else if (value.startsWith("@")) {
    try {
      text = readFileSync(value.slice(1), "utf8");
    } catch (error) {
      throw new UsageError(`--${flag}: cannot read ${value.slice(1)} (${(error as NodeJS.ErrnoException).code})`);
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--${flag} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new UsageError(`--${flag} must be a JSON object`);
  }
  return parsed as Record<string, unknown>;
}

/** The running usage a heartbeat, an activity or a completion reports. */
type Usage = NonNullable<
  NonNullable<paths["/api/dispatch/{id}/heartbeat"]["post"]["requestBody"]>["content"]["application/json"]["usage"]
>;

/**
 * `--input-tokens`, `--output-tokens`, `--cost-usd` and `--model`: the running usage of a dispatch
 * (docs/api.md#budget-per-dispatch), as `heartbeat`, `activity` and `complete` report it.
 */
export function withUsage<T>(y: Argv<T>) {
  return y
    .option("input-tokens", { type: "number", describe: "Usage so far: tokens the model read" })
    .option("output-tokens", { type: "number", describe: "Usage so far: tokens the model wrote" })
    .option("cost-usd", {
      type: "number",
      describe: "Usage so far: what the work cost, in US dollars (past the dispatch's budget, Kaizen stops it)",
    })
    .option("model", { type: "string", describe: "Usage: the model that did the work" });
}

/**
 * The `usage` of a request from {@link withUsage}'s flags: undefined when none was given; a flag that
 * is not a number is a usage error. The API checks the ranges (a value out of range is its 400,
 * naming the field).
 * @example usageOf({ costUsd: 0.42, model: "m" }) // { costUsd: 0.42, model: "m" }
 */
export function usageOf(args: {
  inputTokens?: number | undefined;
  outputTokens?: number | undefined;
  costUsd?: number | undefined;
  model?: string | undefined;
}): Usage | undefined {
  const numbers = { "input-tokens": args.inputTokens, "output-tokens": args.outputTokens, "cost-usd": args.costUsd };
  for (const [flag, value] of Object.entries(numbers)) {
    if (value !== undefined && !Number.isFinite(value)) throw new UsageError(`--${flag} must be a number`);
  }
  const usage: Usage = {
    ...(args.inputTokens === undefined ? {} : { inputTokens: args.inputTokens }),
    ...(args.outputTokens === undefined ? {} : { outputTokens: args.outputTokens }),
    ...(args.costUsd === undefined ? {} : { costUsd: args.costUsd }),
    ...(args.model === undefined ? {} : { model: args.model }),
  };
  return Object.keys(usage).length > 0 ? usage : undefined;
}

/** A completion's body: its commits' and pull requests' optional fields may be left out (they are then null). */
type CompleteBody = NonNullable<
  paths["/api/dispatch/{id}/complete"]["post"]["requestBody"]
>["content"]["application/json"];
type Commit = NonNullable<CompleteBody["commits"]>[number];
type PullRequest = NonNullable<CompleteBody["pullRequests"]>[number];

/**
 * `--commit` as `complete` takes it: a hex sha, optionally followed by a space and its message.
 * @example parseCommit("4f2a9c1 Retry the payment call") // { sha: "4f2a9c1", message: "Retry the payment call" }
 */
export function parseCommit(value: string): Commit {
  const match = /^\s*([0-9a-f]{7,64})(?:\s+(.*))?$/is.exec(value);
  if (!match?.[1])
    throw new UsageError(`--commit must be a commit sha (7..64 hex digits), optionally then its message: ${value}`);
  return { sha: match[1], message: match[2]?.trim() ?? "" };
}

/**
 * `--pr` as `complete` takes it: the pull request's URL, whose last path segment is its number
 * (`…/pull/42`), optionally followed by a space and its title; or just the number.
 * @example parsePullRequest("https://code.example/acme/shop/pull/42 Retry payments") // { number: 42, url: "https://code.example/acme/shop/pull/42", title: "Retry payments" }
 */
export function parsePullRequest(value: string): PullRequest {
  const [reference = "", ...title] = value.trim().split(/\s+/);
  const bare = /^#?([1-9][0-9]*)$/.exec(reference);
  if (bare?.[1]) return { number: Number(bare[1]), title: title.join(" ") };
  let url: URL;
  try {
    url = new URL(reference);
  } catch {
    throw new UsageError(`--pr must be a pull request URL ending in its number, or the number: ${value}`);
  }
  const number = /\/([1-9][0-9]*)\/?$/.exec(url.pathname)?.[1];
  if (!number) throw new UsageError(`--pr: the URL does not end in the pull request's number: ${reference}`);
  return { number: Number(number), url: url.href, title: title.join(" ") };
}

/** Lists `GET /api/projects` to its end (100 a page): connect and `--project <name>` look projects up by name. */
export async function listAllProjects(kaizen: KaizenClient): Promise<Schema<"Project">[]> {
  const projects: Schema<"Project">[] = [];
  for (let page = 1; ; page++) {
    const { data } = await kaizen.GET("/api/projects", { params: { query: { page, limit: 100 } } });
    const items = data?.data ?? [];
    projects.push(...items);
    if (items.length < 100 || projects.length >= (data?.total ?? 0)) return projects;
  }
}

/**
 * A project reference as people type it: a `prj_…` id is used as it is; anything else is the
 * project's name (any case), looked up; a name no project has is a usage error.
 * @example await resolveProjectId(kaizen, "Checkout") // "prj_01J…"
 */
export async function resolveProjectId(kaizen: KaizenClient, reference: string): Promise<string> {
  if (/^prj_/.test(reference)) return reference;
  const wanted = reference.trim().toLowerCase();
  const matches = (await listAllProjects(kaizen)).filter((project) => project.name.toLowerCase() === wanted);
  if (matches.length === 1 && matches[0]) return matches[0].id;
  if (matches.length > 1) {
    throw new UsageError(
      `${matches.length} projects are named "${reference}": pass the id (${matches.map((p) => p.id).join(", ")})`,
    );
  }
  throw new UsageError(`No project is named "${reference}" (kaizen projects are listed by GET /api/projects)`);
}

/** How a duration's units count, in milliseconds: minutes, hours, days, weeks. */
const DURATION_UNITS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

/** How {@link parseInstant} names a flag and shows its forms in a usage error. */
export interface InstantFlag {
  /** `--since`, `--expires`. */
  flag: string;
  /** A duration counts back from now (`past`) or ahead of it (`future`, where 0 is refused). */
  direction: "past" | "future";
  /** The forms as the error shows them: durations, a day, a time. */
  examples: { durations: string; day: string; time: string };
}

/**
 * An instant as people type it: a duration from `now` (`30m`, `2h`, `7d`, `2w`), a day (its start,
 * UTC) or a time with its zone (`…T18:00:00Z`, `…T18:00+01:00`); the API's form, an ISO time in UTC.
 * @example parseInstant("2h", now, { flag: "--since", direction: "past", examples }) // two hours before now
 */
export function parseInstant(value: string, now: Date, { flag, direction, examples }: InstantFlag): string {
  const text = value.trim();
  const duration = /^(\d+)\s*([mhdw])$/i.exec(text);
  if (duration?.[1] && duration[2]) {
    const count = Number(duration[1]);
    if (direction === "future" && count === 0) throw new UsageError(`${flag} must be after now: ${value}`);
    const unit = DURATION_UNITS[duration[2].toLowerCase() as keyof typeof DURATION_UNITS];
    return new Date(now.getTime() + (direction === "past" ? -1 : 1) * count * unit).toISOString();
  }
  const time = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/i.exec(
    text,
  );
  if (!time) {
    throw new UsageError(
      `${flag} must be a duration (${examples.durations}), a day (${examples.day}) or a time with its zone (${examples.time}): ${value}`,
    );
  }
  const [, year, month, day, hour, , , zone] = time;
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (date.getUTCMonth() !== Number(month) - 1 || date.getUTCDate() !== Number(day)) {
    throw new UsageError(`${flag}: ${text.slice(0, 10)} is not a day`);
  }
  if (hour === undefined) return date.toISOString();
  if (zone === undefined) throw new UsageError(`${flag}: give the time's zone (Z for UTC, or +01:00): ${value}`);
  const at = Date.parse(text.toUpperCase());
  if (Number.isNaN(at)) throw new UsageError(`${flag}: ${value} is not a time`);
  return new Date(at).toISOString();
}
