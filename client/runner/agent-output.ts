/**
 * @module client/runner/agent-output — what a command running a dispatch prints, read a line at a
 * time: Claude Code's `stream-json` and Codex's `exec --json` lines become typed activities with the
 * running usage, anything else is plain output (docs/agents.md#running-an-agent-kaizen-run).
 */
import type { ActivityType } from "../../core/src/dispatch/activity-values.js";
import { readClaudeLine } from "./claude-stream.js";
import { readCodexLine } from "./codex-stream.js";

/** Where a line came from, kept as the activity's `data.source`. */
export type LineSource = "claude" | "codex" | "stdout" | "stderr";

/** An activity the runner will post: its type, body and where it came from. */
export interface ActivityDraft {
  type: ActivityType;
  body: string;
  source: LineSource;
}

/** The running usage of a dispatch, as heartbeats, activities and the completion report it. */
export interface RunningUsage {
  inputTokens?: number;
  outputTokens?: number;
  costUsd?: number;
  model?: string;
}

/** What a stream parser makes of one line it recognised. */
export interface StreamStep {
  drafts: ActivityDraft[];
  /** The agent's latest answer, when the line carries one (Claude's `result`, Codex's agent message). */
  response?: string;
}

/** The most an activity's body holds (docs/api.md#activities). */
export const BODY_LIMIT = 20_000;
/** How many of the last plain lines are kept for a summary when the agent gave no answer. */
const KEPT_LINES = 40;

/**
 * `text` cut to `limit` characters, with an ellipsis when cut.
 * @example clip("abcdef", 4) // "abc…"
 */
export function clip(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}

/**
 * The output of one command: feed it lines with {@link read}; it answers the activities each line
 * makes and keeps the running usage, the agent's last answer and the last plain lines.
 * @example const output = new AgentOutput(); output.read('{"type":"turn.completed","usage":{…}}', "stdout"); output.usage
 */
export class AgentOutput {
  /** The running totals seen so far; empty until a line reports some. */
  readonly usage: RunningUsage = {};
  /** The agent's last answer (Claude's `result` text, Codex's last agent message), if any. */
  response: string | undefined;
  private readonly lines: string[] = [];
  /** Claude's usage per assistant message id: a message is streamed in parts that repeat its usage. */
  private readonly claudeMessages = new Map<string, { input: number; output: number }>();

  /** The drafts `line` makes; it updates the usage and the last answer as it goes. */
  read(line: string, stream: "stdout" | "stderr"): ActivityDraft[] {
    const text = line.replace(/\r$/, "");
    if (text.trim() === "") return [];
    const parsed = stream === "stdout" ? jsonObject(text) : undefined;
    const step = parsed
      ? (readClaudeLine(parsed, this.usage, this.claudeMessages) ?? readCodexLine(parsed, this.usage))
      : undefined;
    if (step) {
      if (step.response !== undefined) this.response = step.response;
      return step.drafts
        .filter((draft) => draft.body.trim() !== "")
        .map((d) => ({ ...d, body: clip(d.body, BODY_LIMIT) }));
    }
    this.lines.push(text);
    if (this.lines.length > KEPT_LINES) this.lines.shift();
    return [{ type: "action", body: clip(text, BODY_LIMIT), source: stream }];
  }

  /** The last plain lines the command printed, oldest first. */
  lastLines(): string[] {
    return [...this.lines];
  }
}

/** The object a JSON line holds, or undefined for any other line. */
function jsonObject(line: string): Record<string, unknown> | undefined {
  if (!line.trimStart().startsWith("{")) return undefined;
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A count as the API takes it: a whole number from 0 to 10⁹; undefined for anything else.
 * @example tokenCount(12.7) // 12
 */
export function tokenCount(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0
    ? Math.min(1e9, Math.floor(value))
    : undefined;
}

/** Raises the running `usage` to what a line reports: totals never go down (docs/api.md#budget-per-dispatch). */
export function raiseUsage(usage: RunningUsage, reported: RunningUsage): void {
  for (const field of ["inputTokens", "outputTokens", "costUsd"] as const) {
    const value = reported[field];
    if (value !== undefined && value > (usage[field] ?? -1)) usage[field] = value;
  }
  if (reported.model) usage.model = clip(reported.model, 200);
}

/** `value` when it is an object, else an empty one. */
export function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** `value` when it is a string, else "". */
export function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}
