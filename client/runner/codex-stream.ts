/**
 * @module client/runner/codex-stream — Codex's `exec --json` lines as activities: agent messages
 * (`response`), reasoning and to-do lists (`thought`), commands, file changes, MCP tool calls and
 * web searches (`action`), failed turns and errors (`error`), and each completed turn's token usage.
 */
import {
  type ActivityDraft,
  type RunningUsage,
  raiseUsage,
  record,
  type StreamStep,
  text,
  tokenCount,
} from "./agent-output.js";

const CODEX_TYPES = new Set([
  "thread.started",
  "turn.started",
  "turn.completed",
  "turn.failed",
  "item.started",
  "item.updated",
  "item.completed",
  "error",
]);
/** How much of a command's output an activity shows. */
const OUTPUT_TAIL = 1_000;

/**
 * The activities and usage of one parsed line when it is Codex's (one of its event types), else
 * undefined. Each `turn.completed` adds its turn's tokens to `usage` (Codex reports no cost).
 * @example readCodexLine({ type: "item.completed", item: { id: "item_3", type: "agent_message", text: "Done." } }, usage)
 */
export function readCodexLine(line: Record<string, unknown>, usage: RunningUsage): StreamStep | undefined {
  const type = text(line.type);
  if (!CODEX_TYPES.has(type)) return undefined;
  if (type === "error") {
    if (typeof line.message !== "string") return undefined;
    return { drafts: [draft("error", line.message)] };
  }
  if (type === "turn.completed") {
    const turn = record(line.usage);
    raiseUsage(usage, {
      inputTokens: tokenCount((usage.inputTokens ?? 0) + (tokenCount(turn.input_tokens) ?? 0)),
      outputTokens: tokenCount((usage.outputTokens ?? 0) + (tokenCount(turn.output_tokens) ?? 0)),
    });
    return { drafts: [] };
  }
  if (type === "turn.failed") {
    return { drafts: [draft("error", `Turn failed: ${text(record(line.error).message) || "no reason given"}`)] };
  }
  if (type.startsWith("item.")) return itemLine(type, record(line.item));
  return { drafts: [] };
}

function draft(type: ActivityDraft["type"], body: string): ActivityDraft {
  return { type, body, source: "codex" };
}

function itemLine(event: string, item: Record<string, unknown>): StreamStep {
  const kind = text(item.type);
  const started = event === "item.started";
  const completed = event === "item.completed";
  switch (kind) {
    case "agent_message":
      return completed ? { drafts: [draft("response", text(item.text))], response: text(item.text) } : none();
    case "reasoning":
      return completed ? { drafts: [draft("thought", text(item.text))] } : none();
    case "command_execution":
      if (started) return { drafts: [draft("action", `$ ${text(item.command)}`)] };
      return completed ? { drafts: [draft("action", commandDone(item))] } : none();
    case "file_change": {
      if (!completed) return none();
      const changes = (Array.isArray(item.changes) ? item.changes : []).map((change) => {
        const { kind: how, path } = record(change);
        return `${text(how) || "change"} ${text(path)}`;
      });
      const failed = item.status === "failed";
      return {
        drafts: [
          draft(failed ? "error" : "action", `${failed ? "File change failed" : "Changed"}: ${changes.join(", ")}`),
        ],
      };
    }
    case "mcp_tool_call": {
      const call = `${text(item.server)}.${text(item.tool)}`;
      if (started) return { drafts: [draft("action", `MCP ${call}`)] };
      if (!completed) return none();
      return item.status === "failed"
        ? { drafts: [draft("error", `MCP ${call} failed${errorOf(item)}`)] }
        : { drafts: [draft("action", `MCP ${call} done`)] };
    }
    case "web_search":
      return completed ? { drafts: [draft("action", `Web search: ${text(item.query)}`)] } : none();
    case "todo_list":
      return started ? none() : { drafts: [draft("thought", todoList(item))] };
    case "error":
      return completed ? { drafts: [draft("error", text(item.message))] } : none();
    default:
      return none();
  }
}

function none(): StreamStep {
  return { drafts: [] };
}

function commandDone(item: Record<string, unknown>): string {
  const exit = typeof item.exit_code === "number" ? `exit ${item.exit_code}` : text(item.status) || "done";
  const output = text(item.aggregated_output).trimEnd();
  const tail = output.length > OUTPUT_TAIL ? `…${output.slice(-OUTPUT_TAIL)}` : output;
  return `$ ${text(item.command)} (${exit})${tail ? `\n${tail}` : ""}`;
}

function errorOf(item: Record<string, unknown>): string {
  const message = text(record(item.error).message);
  return message ? `: ${message}` : "";
}

function todoList(item: Record<string, unknown>): string {
  const items = Array.isArray(item.items) ? item.items : [];
  return items
    .map((entry) => {
      const { text: label, completed } = record(entry);
      return `[${completed === true ? "x" : " "}] ${text(label)}`;
    })
    .join("\n");
}
