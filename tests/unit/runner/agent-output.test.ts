/** The stream parsers of `kaizen run`: recorded Claude Code and Codex lines become typed activities with the running usage. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type ActivityDraft, AgentOutput } from "../../../client/runner/agent-output.js";

const FIXTURES = join(import.meta.dirname, "..", "..", "fixtures", "agents");

function replay(file: string): { output: AgentOutput; drafts: ActivityDraft[] } {
  const output = new AgentOutput();
  const drafts = readFileSync(join(FIXTURES, file), "utf8")
    .split("\n")
    .flatMap((line) => output.read(line, "stdout"));
  return { output, drafts };
}

describe("Claude Code stream-json", () => {
  it("types each line's parts and sums the usage per message, then takes the result's totals and cost", () => {
    const { output, drafts } = replay("claude-stream.jsonl");
    expect(drafts.map((d) => [d.type, d.body])).toEqual([
      ["action", "Claude Code started (claude-sonnet-4-5, 4 tools) in /srv/shop"],
      ["response", "I will reproduce the checkout timeout first."],
      ["action", "Bash: npm test -- checkout"],
      ["action", "Result: 1 failing: checkout times out after 2000 ms"],
      ["thought", "The client's default timeout is shorter than the provider's p99."],
      ["action", "Edit: src/payments/client.ts"],
      ["error", "Tool failed: String to replace not found in file."],
      ["response", "Raised the payment client's timeout to 10 s and added a retry; the checkout tests pass."],
    ]);
    expect(drafts.every((d) => d.source === "claude")).toBe(true);
    expect(output.usage).toEqual({ inputTokens: 9800, outputTokens: 270, costUsd: 0.0734, model: "claude-sonnet-4-5" });
    expect(output.response).toBe(
      "Raised the payment client's timeout to 10 s and added a retry; the checkout tests pass.",
    );
    expect(output.lastLines()).toEqual([]);
  });

  it("counts a message streamed in parts once, with its latest usage", () => {
    const output = new AgentOutput();
    const part = (outputTokens: number) =>
      JSON.stringify({
        type: "assistant",
        session_id: "s",
        message: { id: "msg_1", content: [], usage: { input_tokens: 100, output_tokens: outputTokens } },
      });
    output.read(part(10), "stdout");
    output.read(part(25), "stdout");
    expect(output.usage).toEqual({ inputTokens: 100, outputTokens: 25 });
  });

  it("reports a result that is an error as an error activity, keeping its cost", () => {
    const output = new AgentOutput();
    const drafts = output.read(
      JSON.stringify({
        type: "result",
        subtype: "error_max_turns",
        is_error: true,
        session_id: "s",
        total_cost_usd: 1.5,
      }),
      "stdout",
    );
    expect(drafts).toEqual([
      { type: "error", body: "Claude Code ended with an error: error_max_turns", source: "claude" },
    ]);
    expect(output.usage.costUsd).toBe(1.5);
  });
});

describe("Codex exec --json", () => {
  it("types items by kind, adds each turn's tokens, and keeps the last agent message", () => {
    const { output, drafts } = replay("codex-exec.jsonl");
    expect(drafts.map((d) => [d.type, d.body])).toEqual([
      ["thought", "**Looking for the timeout in the payment client**"],
      ["action", "$ bash -lc 'rg -n timeout src/payments'"],
      ["action", "$ bash -lc 'rg -n timeout src/payments' (exit 0)\nsrc/payments/client.ts:12:  timeout: 2000,"],
      ["thought", "[x] Raise the timeout\n[ ] Run the checkout tests"],
      ["action", "Changed: update src/payments/client.ts"],
      ["action", "MCP docs.search"],
      ["error", "MCP docs.search failed: server not running"],
      ["action", "Web search: payment provider p99 latency"],
      ["response", "Raised the payment client's timeout to 10 s; the checkout tests pass."],
      ["error", "stream disconnected before completion"],
      ["error", "Turn failed: stream disconnected before completion"],
    ]);
    expect(drafts.every((d) => d.source === "codex")).toBe(true);
    expect(output.usage).toEqual({ inputTokens: 24763, outputTokens: 122 });
    expect(output.response).toBe("Raised the payment client's timeout to 10 s; the checkout tests pass.");
  });

  it("sums the tokens of several turns", () => {
    const output = new AgentOutput();
    const turn = JSON.stringify({
      type: "turn.completed",
      usage: { input_tokens: 10, cached_input_tokens: 4, output_tokens: 3 },
    });
    output.read(turn, "stdout");
    output.read(turn, "stdout");
    expect(output.usage).toEqual({ inputTokens: 20, outputTokens: 6 });
  });
});

describe("plain output", () => {
  it("is an action per line, keeps the last lines, and never reads stderr or other JSON as an agent's", () => {
    const output = new AgentOutput();
    expect(output.read("Running the tests", "stdout")).toEqual([
      { type: "action", body: "Running the tests", source: "stdout" },
    ]);
    expect(output.read('{"type":"result","session_id":"s","total_cost_usd":3}', "stderr")).toEqual([
      { type: "action", body: '{"type":"result","session_id":"s","total_cost_usd":3}', source: "stderr" },
    ]);
    expect(output.read('{"level":"info","msg":"listening"}', "stdout")[0]?.source).toBe("stdout");
    expect(output.read("   ", "stdout")).toEqual([]);
    expect(output.usage).toEqual({});
    expect(output.lastLines()).toEqual([
      "Running the tests",
      '{"type":"result","session_id":"s","total_cost_usd":3}',
      '{"level":"info","msg":"listening"}',
    ]);
  });

  it("cuts a line longer than an activity's body to the limit", () => {
    const [draft] = new AgentOutput().read("x".repeat(25_000), "stdout");
    expect(draft?.body).toHaveLength(20_000);
    expect(draft?.body.endsWith("…")).toBe(true);
  });
});
