/**
 * @module client/runner/result-file — what a finished command reports: the JSON it may write to
 * `KAIZEN_RESULT_FILE` (`{summary, commits, pullRequests}`, as the completion takes them), else a
 * summary from its last answer or its last lines of output.
 */
import { readFileSync } from "node:fs";
import type { paths } from "../client.js";
import { clip, record, text } from "./agent-output.js";

/** A completion's body: its commits' and pull requests' optional fields may be left out (they are then null). */
type CompleteBody = NonNullable<
  paths["/api/dispatch/{id}/complete"]["post"]["requestBody"]
>["content"]["application/json"];
type Commit = NonNullable<CompleteBody["commits"]>[number];
type PullRequest = NonNullable<CompleteBody["pullRequests"]>[number];

/** What the runner completes a dispatch with. */
export interface CommandReport {
  summary: string;
  commits?: Commit[];
  pullRequests?: PullRequest[];
  /** What was wrong with the result file, when the command wrote one the runner could not use. */
  problem?: string;
}

/** The most a completion's summary holds (docs/api.md#dispatch). */
export const SUMMARY_LIMIT = 50_000;
/** How many of the last output lines make a summary when nothing better was said. */
const SUMMARY_LINES = 20;

/**
 * The result file at `path` when the command wrote one: its summary, commits and pull requests
 * (each an array of at most 100 objects; a commit needs its `sha`, a pull request its `number`);
 * undefined when there is no file; `problem` says why a file that is there was not used.
 * @example readResultFile(process.env.KAIZEN_RESULT_FILE ?? "result.json") // { summary: "Retry payments", pullRequests: [{ number: 42, … }] }
 */
export function readResultFile(path: string): Partial<CommandReport> | undefined {
  let raw: string;
  try {
    raw = readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    return { problem: `KAIZEN_RESULT_FILE is not JSON (${(error as Error).message})` };
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return { problem: "KAIZEN_RESULT_FILE is not a JSON object" };
  }
  const file = parsed as Record<string, unknown>;
  const report: Partial<CommandReport> = {};
  if (typeof file.summary === "string" && file.summary.trim()) report.summary = clip(file.summary, SUMMARY_LIMIT);
  const commits = listOf(file.commits, "commits", (entry) =>
    typeof entry.sha === "string" ? { ...entry, sha: entry.sha, message: text(entry.message) } : undefined,
  );
  const pullRequests = listOf(file.pullRequests, "pullRequests", (entry) =>
    typeof entry.number === "number" ? { ...entry, number: entry.number, title: text(entry.title) } : undefined,
  );
  if (typeof commits === "string" || typeof pullRequests === "string") {
    report.problem = [commits, pullRequests].filter((p) => typeof p === "string").join("; ");
  }
  if (Array.isArray(commits)) report.commits = commits as Commit[];
  if (Array.isArray(pullRequests)) report.pullRequests = pullRequests as PullRequest[];
  return report;
}

/** `value` as a list of entries `shape` accepts; a string saying what is wrong; undefined when absent. */
function listOf<T>(
  value: unknown,
  field: string,
  shape: (entry: Record<string, unknown>) => T | undefined,
): T[] | string | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.length > 100) return `${field} must be an array of at most 100 entries`;
  const entries: T[] = [];
  for (const item of value) {
    const entry = shape(record(item));
    if (entry === undefined) return `${field} has an entry without its ${field === "commits" ? "sha" : "number"}`;
    entries.push(entry);
  }
  return entries;
}

/**
 * The summary of a command that wrote none: the agent's last answer, else its last lines of output,
 * else what its exit says.
 * @example fallbackSummary(undefined, ["tests pass"], "exited with status 0") // "tests pass"
 */
export function fallbackSummary(response: string | undefined, lastLines: string[], exit: string): string {
  if (response?.trim()) return clip(response.trim(), SUMMARY_LIMIT);
  const lines = lastLines.slice(-SUMMARY_LINES).join("\n").trim();
  if (lines) return clip(lines, SUMMARY_LIMIT);
  return `The command ${exit} without a summary.`;
}
