/**
 * @module client/runner/claude-stream — Claude Code's `--output-format stream-json` lines as
 * activities: the session's start, what the assistant says (`response`) and thinks (`thought`), the
 * tools it uses and their results (`action`, or `error` for a failed one), and the final `result`
 * with the session's cost and usage.
 */
import {
  type ActivityDraft,
  clip,
  type RunningUsage,
  raiseUsage,
  record,
  type StreamStep,
  text,
  tokenCount,
} from "./agent-output.js";

const CLAUDE_TYPES = new Set(["system", "assistant", "user", "result", "stream_event"]);
/** How much of a tool's input or result an activity shows: enough to follow, not the whole file. */
const TOOL_TEXT = 1_000;

/**
 * The activities and usage of one parsed line when it is Claude Code's (a `type` of system,
 * assistant, user, result or stream_event with a `session_id`), else undefined. `usage` is raised to
 * the running totals: the sum over assistant messages as they stream (each message counted once,
 * however many parts repeat its usage), then the `result`'s own totals and `total_cost_usd`.
 * @example readClaudeLine({ type: "result", subtype: "success", result: "Fixed", total_cost_usd: 0.4, session_id: "s" }, usage, new Map())
 */
export function readClaudeLine(
  line: Record<string, unknown>,
  usage: RunningUsage,
  messages: Map<string, { input: number; output: number }>,
): StreamStep | undefined {
  const type = text(line.type);
  if (!CLAUDE_TYPES.has(type) || typeof line.session_id !== "string") return undefined;
  if (type === "system") return systemLine(line, usage);
  if (type === "assistant") return { drafts: assistantLine(record(line.message), usage, messages) };
  if (type === "user") return { drafts: toolResults(record(line.message)) };
  if (type === "result") return resultLine(line, usage);
  // Partial messages (--include-partial-messages) repeat what the whole message says.
  return { drafts: [] };
}

function draft(type: ActivityDraft["type"], body: string): ActivityDraft {
  return { type, body, source: "claude" };
}

function systemLine(line: Record<string, unknown>, usage: RunningUsage): StreamStep {
  if (line.subtype !== "init") return { drafts: [] };
  const model = text(line.model);
  if (model) raiseUsage(usage, { model });
  const tools = Array.isArray(line.tools) ? `, ${line.tools.length} tools` : "";
  const where = text(line.cwd) ? ` in ${text(line.cwd)}` : "";
  return { drafts: [draft("action", `Claude Code started (${model || "model not named"}${tools})${where}`)] };
}

function assistantLine(
  message: Record<string, unknown>,
  usage: RunningUsage,
  messages: Map<string, { input: number; output: number }>,
): ActivityDraft[] {
  const reported = record(message.usage);
  const id = text(message.id);
  if (id && Object.keys(reported).length > 0) {
    const input =
      (tokenCount(reported.input_tokens) ?? 0) +
      (tokenCount(reported.cache_creation_input_tokens) ?? 0) +
      (tokenCount(reported.cache_read_input_tokens) ?? 0);
    messages.set(id, { input, output: tokenCount(reported.output_tokens) ?? 0 });
    let inputTokens = 0;
    let outputTokens = 0;
    for (const counted of messages.values()) {
      inputTokens += counted.input;
      outputTokens += counted.output;
    }
    raiseUsage(usage, { inputTokens: tokenCount(inputTokens), outputTokens: tokenCount(outputTokens) });
  }
  if (text(message.model)) raiseUsage(usage, { model: text(message.model) });
  const drafts: ActivityDraft[] = [];
  for (const block of Array.isArray(message.content) ? message.content : []) {
    const part = record(block);
    if (part.type === "text") drafts.push(draft("response", text(part.text)));
    else if (part.type === "thinking") drafts.push(draft("thought", text(part.thinking)));
    else if (part.type === "tool_use") drafts.push(draft("action", toolUse(part)));
  }
  return drafts;
}

/** A tool call in a line: `Bash: npm test`, `Edit: src/pay.ts`, or the tool's input as JSON. */
function toolUse(part: Record<string, unknown>): string {
  const name = text(part.name) || "tool";
  const input = record(part.input);
  const brief =
    text(input.command) || text(input.file_path) || text(input.path) || text(input.pattern) || text(input.url);
  return `${name}: ${clip(brief || JSON.stringify(input), TOOL_TEXT)}`;
}

function toolResults(message: Record<string, unknown>): ActivityDraft[] {
  const drafts: ActivityDraft[] = [];
  for (const block of Array.isArray(message.content) ? message.content : []) {
    const part = record(block);
    if (part.type !== "tool_result") continue;
    const content = Array.isArray(part.content)
      ? part.content.map((piece) => text(record(piece).text)).join("\n")
      : text(part.content);
    const body = clip(content.trim() || "(no output)", TOOL_TEXT);
    drafts.push(part.is_error === true ? draft("error", `Tool failed: ${body}`) : draft("action", `Result: ${body}`));
  }
  return drafts;
}

function resultLine(line: Record<string, unknown>, usage: RunningUsage): StreamStep {
  const reported = record(line.usage);
  const input =
    (tokenCount(reported.input_tokens) ?? 0) +
    (tokenCount(reported.cache_creation_input_tokens) ?? 0) +
    (tokenCount(reported.cache_read_input_tokens) ?? 0);
  const cost = line.total_cost_usd;
  raiseUsage(usage, {
    ...(Object.keys(reported).length > 0
      ? { inputTokens: tokenCount(input), outputTokens: tokenCount(reported.output_tokens) }
      : {}),
    ...(typeof cost === "number" && Number.isFinite(cost) && cost >= 0 ? { costUsd: Math.min(10_000, cost) } : {}),
  });
  const answer = text(line.result);
  const failed = line.is_error === true || (typeof line.subtype === "string" && line.subtype !== "success");
  if (failed) {
    const why = answer || text(line.subtype) || "error";
    return {
      drafts: [draft("error", `Claude Code ended with an error: ${why}`)],
      ...(answer ? { response: answer } : {}),
    };
  }
  // The answer repeats the assistant's last text, already posted as a response.
  return { drafts: [], ...(answer ? { response: answer } : {}) };
}
