/** The activity batcher of `kaizen run` on an injected clock: at most one call per interval, drafts merged. */
import { describe, expect, it } from "vitest";
import { ActivityBatcher, BACKLOG_RUNS } from "../../../client/runner/activity-batcher.js";
import type { ActivityDraft } from "../../../client/runner/agent-output.js";

const draft = (
  type: ActivityDraft["type"],
  body: string,
  source: ActivityDraft["source"] = "claude",
): ActivityDraft => ({
  type,
  body,
  source,
});

function batcherAt() {
  let now = 0;
  const batcher = new ActivityBatcher(1000, () => now);
  return { batcher, move: (ms: number) => (now += ms) };
}

describe("ActivityBatcher", () => {
  it("answers one activity per interval: the leading drafts of one type and source, merged", () => {
    const { batcher, move } = batcherAt();
    expect(batcher.take()).toBeUndefined();
    batcher.add(draft("action", "Bash: npm test"));
    batcher.add(draft("action", "Result: 3 passing"));
    batcher.add(draft("response", "Done."));
    expect(batcher.take()).toEqual({
      type: "action",
      body: "Bash: npm test\nResult: 3 passing",
      data: { source: "claude", parts: 2 },
    });
    move(999);
    expect(batcher.take()).toBeUndefined();
    move(1);
    expect(batcher.take()).toEqual({ type: "response", body: "Done.", data: { source: "claude", parts: 1 } });
    move(5000);
    expect(batcher.take()).toBeUndefined();
    expect(batcher.pending).toBe(0);
  });

  it("keeps drafts of other sources apart", () => {
    const { batcher, move } = batcherAt();
    batcher.add(draft("action", "compiling", "stdout"));
    batcher.add(draft("action", "warning: x", "stderr"));
    expect(batcher.take()?.data).toEqual({ source: "stdout", parts: 1 });
    move(1000);
    expect(batcher.take()?.data).toEqual({ source: "stderr", parts: 1 });
  });

  it("keeps types apart up to thirty runs waiting; past that it sends everything at once as one action", () => {
    const { batcher, move } = batcherAt();
    for (let i = 0; i < BACKLOG_RUNS / 2; i++) {
      batcher.add(draft("thought", `t${i}`));
      batcher.add(draft("action", `a${i}`));
    }
    expect(batcher.take()).toEqual({ type: "thought", body: "t0", data: { source: "claude", parts: 1 } });
    batcher.add(draft("thought", "t-late"));
    batcher.add(draft("response", "r"));
    move(1000);
    const all = batcher.take();
    expect(all?.type).toBe("action");
    expect(all?.data).toEqual({ source: "mixed", parts: BACKLOG_RUNS + 1 });
    expect(all?.body.split("\n").slice(0, 3)).toEqual(["[action] a0", "[thought] t1", "[action] a1"]);
    expect(all?.body.split("\n").at(-1)).toBe("[response] r");
    expect(batcher.pending).toBe(0);
  });

  it("never makes a body past 20,000 characters: the rest waits for the next call", () => {
    const { batcher, move } = batcherAt();
    batcher.add(draft("action", "a".repeat(15_000)));
    batcher.add(draft("action", "b".repeat(15_000)));
    expect(batcher.take()?.body).toBe("a".repeat(15_000));
    expect(batcher.dueAt()).toBe(1000);
    move(1000);
    expect(batcher.take()?.body).toBe("b".repeat(15_000));
  });

  it("leaves the oldest drafts out past 100,000 waiting characters, and says so on the next call", () => {
    const { batcher, move } = batcherAt();
    for (let i = 0; i < 12; i++) batcher.add(draft("action", `${i}`.padEnd(10_000, "."), "stdout"));
    expect(batcher.pending).toBe(11);
    expect(batcher.take()).toEqual({
      type: "action",
      body: "2 earlier pieces of output were left out: they came faster than one activity a call can carry.",
      data: { source: "runner", parts: 2 },
    });
    move(1000);
    const next = batcher.take();
    expect(next?.body.startsWith("2.")).toBe(true);
    expect(next?.data).toEqual({ source: "stdout", parts: 1 });
    expect(batcher.pending).toBe(9);
    for (let i = 0; i < 9; i++) {
      move(1000);
      batcher.take();
    }
    expect(batcher.pending).toBe(0);
    batcher.add(draft("action", "x".repeat(50_000), "stdout"));
    batcher.add(draft("action", "y".repeat(50_000), "stdout"));
    expect(batcher.pending).toBe(2);
  });
});
