/**
 * @module tests/unit/issues/moves — IssueMoves (core/src/issues/issue-moves.ts) without a database: it
 * takes issues as read and returns the writes of a move, so these tests build issues with the real
 * IssueStore and check the writes it computes (docs/api.md#states-and-transitions): the issue at its
 * version, its queue entries and counts, the end of its dispatch, the `blockedBy` of the issues it
 * blocks, and refusals as ConflictError. The store's one read (dependents) and the dispatch ending
 * are small in-memory stand-ins; the Db behind the store throws if anything reaches it.
 */
import { describe, expect, it } from "vitest";
import type { Db, TransactItem } from "../../../core/src/db/db.js";
import { listingEntryKey } from "../../../core/src/db/listing-index.js";
import { dispatchKey } from "../../../core/src/dispatch/keys.js";
import { ConflictError } from "../../../core/src/errors.js";
import { DispatchQueue, queueListings } from "../../../core/src/issues/dispatch-queue.js";
import {
  type IssueInternals,
  type NewIssue,
  newIssue,
  newIssueId,
  type StoredIssue,
} from "../../../core/src/issues/issue-item.js";
import type { DispatchEnd, DispatchEnding, IssueMove } from "../../../core/src/issues/issue-moves.js";
import { IssueMoves } from "../../../core/src/issues/issue-moves.js";
import { IssueStore } from "../../../core/src/issues/issue-store.js";
import { issueKey, padNumber, verifyWatchKey } from "../../../core/src/issues/keys.js";
import type { OutcomeMark } from "../../../core/src/issues/outcomes.js";
import type { IssueStatus, Verification } from "../../../core/src/issues/schemas.js";
import { queueSortKey } from "../../../core/src/issues/scoring.js";
import { countChange, durationBucket, STATS_PARTITION } from "../../../core/src/stats/counts.js";

const CREATED = new Date("2026-03-02T08:00:00.000Z");
const NOW = new Date("2026-03-02T10:00:00.000Z");

/** The table no move may reach: every write is computed from the issues as read. */
const unreachable = new Proxy(
  {},
  {
    get(_, name) {
      throw new Error(`the move reached the database (${String(name)})`);
    },
  },
) as Db;

/** The real issue store (its keys, items and listings), reading the issues a move blocks from memory. */
class IssuesInMemory extends IssueStore {
  readonly issues = new Map<string, StoredIssue>();
  readonly reads: string[][] = [];

  constructor() {
    super(unreachable, new DispatchQueue(unreachable));
  }

  override async getMany(ids: string[]): Promise<StoredIssue[]> {
    this.reads.push(ids);
    return ids.flatMap((id) => this.issues.get(id) ?? []);
  }
}

/** Active dispatches in memory: ending one writes its item once, as the dispatch store would. */
class DispatchesInMemory implements DispatchEnding {
  readonly active = new Set<string>();
  readonly ended: { id: string; end: DispatchEnd; at: Date }[] = [];
  readonly marked: { id: string; mark: OutcomeMark }[] = [];

  async prepareEnd(id: string, end: DispatchEnd, at: Date): Promise<TransactItem[]> {
    if (!this.active.has(id)) return [];
    this.ended.push({ id, end, at });
    return [dispatchEndWrite(id, end.status)];
  }

  async prepareMarkOf(id: string, mark: OutcomeMark): Promise<TransactItem[]> {
    if (this.active.has(id)) return [];
    this.marked.push({ id, mark });
    return [dispatchEndWrite(id, `marked ${mark.kind}`)];
  }
}

function dispatchEndWrite(id: string, status: string): TransactItem {
  return {
    Update: {
      Key: dispatchKey(id),
      UpdateExpression: "SET #status = :status",
      ExpressionAttributeNames: { "#status": "status" },
      ExpressionAttributeValues: { ":status": status },
    },
  };
}

function setup() {
  const store = new IssuesInMemory();
  const dispatches = new DispatchesInMemory();
  let number = 0;
  /** An issue as the store creates it, kept where the moves read dependents from. */
  const issue = (fields: Partial<NewIssue> = {}, internals: Partial<IssueInternals> = {}): StoredIssue => {
    number += 1;
    const { stored } = store.prepareCreate(
      { ...BLANK, ...fields },
      { value: number, at: CREATED.toISOString() },
      newIssueId(),
      internals,
    );
    store.issues.set(stored.issue.id, stored);
    return stored;
  };
  return { store, dispatches, moves: new IssueMoves(store, dispatches), issue };
}

const BLANK: NewIssue = newIssue({ title: "Checkout times out", type: "task", priority: 2 });

/** The dashboard count changes among `writes`, by counter (merged: one item per counter). */
function counts(writes: TransactItem[]): Record<string, number> {
  const found: Record<string, number> = {};
  for (const write of writes) {
    const add = write.SpreadAdd;
    if (!add || add.Key.pk !== STATS_PARTITION) continue;
    expect(found[add.Key.sk], `${add.Key.sk} counted once`).toBeUndefined();
    found[add.Key.sk] = add.delta;
  }
  return found;
}

/** The queue listings `stored` joins (Put of its entry) and leaves (Delete of its entry) among `writes`. */
function queueEntries(writes: TransactItem[], stored: StoredIssue) {
  const key = (listing: string) => listingEntryKey("queue", listing, queueSortKey(stored.issue, stored.goalActive));
  const listings = queueListings(stored.issue);
  return {
    joined: listings.filter((listing) => writes.some((write) => sameKey(write.Put?.Item, key(listing)))),
    left: listings.filter((listing) => writes.some((write) => sameKey(write.Delete?.Key, key(listing)))),
  };
}

function sameKey(item: Record<string, unknown> | undefined, key: { pk: string; sk: string }): boolean {
  return item?.pk === key.pk && item?.sk === key.sk;
}

/** The Put of the issue item itself among `writes`. */
function issuePut(writes: TransactItem[], id: string) {
  const puts = writes.filter((write) => sameKey(write.Put?.Item, issueKey(id)));
  expect(puts).toHaveLength(1);
  return puts[0]?.Put;
}

/** The relation change written to a dependent (an Update of its item that sets `blockedBy`). */
function blockedByWrite(writes: TransactItem[], id: string): unknown {
  const updates = writes.filter(
    (write) => sameKey(write.Update?.Key, issueKey(id)) && write.Update?.UpdateExpression?.includes("#blockedBy"),
  );
  expect(updates.length).toBeLessThanOrEqual(1);
  return updates[0]?.Update?.ExpressionAttributeValues?.[":blockedBy"];
}

describe("IssueMoves: one issue's status", () => {
  it("writes the issue at the version read, its listings following its status, and the counts by status", async () => {
    const { moves, issue } = setup();
    const current = issue({ status: "todo" });
    const { stored, writes } = await moves.prepare({ current, by: "patch", changes: { status: "backlog" } }, NOW);

    expect(stored?.issue).toMatchObject({ status: "backlog", updatedAt: NOW.toISOString(), completedAt: null });
    expect(stored?.version).toBe(current.version + 1);
    const put = issuePut(writes, current.issue.id);
    expect(put?.Item).toMatchObject({ status: "backlog", version: current.version + 1 });
    expect(put?.ConditionExpression).toBe("#version = :expectedVersion");
    expect(put?.ExpressionAttributeValues).toEqual({ ":expectedVersion": current.version });
    const entry = (listing: string) => listingEntryKey("issue", listing, padNumber(current.issue.number));
    expect(writes).toContainEqual({ Delete: { Key: entry("status=todo") } });
    expect(writes.some((write) => sameKey(write.Put?.Item, entry("status=backlog")))).toBe(true);
    expect(counts(writes)).toEqual({ "issue.status#todo": -1, "issue.status#backlog": 1, "queue.depth": -1 });
  });

  it("takes an issue out of the queue when it leaves todo, and puts it in when it enters todo", async () => {
    const { moves, issue } = setup();
    const queued = issue({ status: "todo" });
    const leaving = await moves.prepare({ current: queued, by: "patch", changes: { status: "canceled" } }, NOW);
    expect(queueEntries(leaving.writes, queued)).toEqual({ joined: [], left: queueListings(queued.issue) });

    const backlog = issue({ status: "backlog" });
    const entering = await moves.prepare({ current: backlog, by: "patch", changes: { status: "todo" } }, NOW);
    const stored = entering.stored as StoredIssue;
    expect(queueEntries(entering.writes, stored)).toEqual({ joined: queueListings(stored.issue), left: [] });
    expect(counts(entering.writes)["queue.depth"]).toBe(1);
    // Its todo-to-done time starts now.
    expect(stored.todoAt).toBe(NOW.toISOString());
  });

  it("stamps completedAt on finishing and clears it on reopening, whatever the caller passed", async () => {
    const { moves, issue } = setup();
    const open = issue({ status: "triage" });
    const done = await moves.prepare(
      { current: open, by: "patch", changes: { status: "done", completedAt: "2020-01-01T00:00:00.000Z" } },
      NOW,
    );
    expect(done.stored?.issue.completedAt).toBe(NOW.toISOString());

    const finished = issue({ status: "done", completedAt: CREATED.toISOString() });
    const reopened = await moves.prepare({ current: finished, by: "patch", changes: { status: "todo" } }, NOW);
    expect(reopened.stored?.issue.completedAt).toBeNull();

    const retitled = await moves.prepare(
      { current: finished, by: "patch", changes: { title: "Renamed", completedAt: NOW.toISOString() } },
      NOW,
    );
    expect(retitled.stored?.issue).toMatchObject({ title: "Renamed", completedAt: CREATED.toISOString() });
    // No status change: no count by status moves, and the issue stays out of the queue.
    expect(counts(retitled.writes)).toEqual({});
  });

  it("adds an issue's todo-to-done time to the histogram when it reaches done", async () => {
    const { moves, issue } = setup();
    const current = issue({ status: "in_progress" }, { todoAt: CREATED.toISOString() });
    const { stored, writes } = await moves.prepare({ current, by: "patch", changes: { status: "done" } }, NOW);
    const seconds = (NOW.getTime() - CREATED.getTime()) / 1000;
    expect(counts(writes)).toEqual({
      "issue.status#in_progress": -1,
      "issue.status#done": 1,
      [`todo-to-done#${durationBucket(seconds)}`]: 1,
    });
    expect(stored?.todoAt).toBeNull();
  });

  it("keeps the todo-to-done start when work comes back from a claim or a review, and starts it anew otherwise", async () => {
    const { moves, issue } = setup();
    const started = CREATED.toISOString();
    for (const from of ["in_progress", "in_review"] as const) {
      const current = issue({ status: from }, { todoAt: started });
      const by = from === "in_progress" ? "dispatch" : "signal";
      const { stored } = await moves.prepare({ current, by, changes: { status: "todo" } }, NOW);
      expect(stored?.todoAt, from).toBe(started);
    }
    const held = issue({ status: "backlog" }, { todoAt: null });
    const { stored } = await moves.prepare({ current: held, by: "patch", changes: { status: "todo" } }, NOW);
    expect(stored?.todoAt).toBe(NOW.toISOString());
  });

  it("counts a change of type out of the old type and into the new one", async () => {
    const { moves, issue } = setup();
    const current = issue({ status: "backlog", type: "task" });
    const { writes } = await moves.prepare({ current, by: "patch", changes: { type: "plan" } }, NOW);
    expect(counts(writes)).toEqual({ "issue.type#task": -1, "issue.type#plan": 1 });
  });
});

describe("IssueMoves: refusals", () => {
  const refused: [IssueStatus, IssueStatus, IssueMove["by"]][] = [
    ["todo", "in_progress", "patch"],
    ["backlog", "done", "patch"],
    ["todo", "done", "patch"],
    ["canceled", "todo", "patch"],
    ["done", "in_progress", "dispatch"],
    ["done", "canceled", "signal"],
  ];

  it.each(refused)("refuse %s → %s by %s with a ConflictError, asking nothing of anyone", async (from, to, by) => {
    const { moves, issue, store, dispatches } = setup();
    const current = issue({ status: from }, { blocking: [issue({ status: "todo" }).issue.id] });
    const move = moves.prepare({ current, by, changes: { status: to } }, NOW);
    await expect(move).rejects.toThrow(ConflictError);
    await expect(move).rejects.toThrow(`Cannot move issue from ${from} to ${to}`);
    expect(store.reads).toEqual([]);
    expect(dispatches.ended).toEqual([]);
  });

  it("refuse a batch as a whole when one of its moves is refused", async () => {
    const { moves, issue } = setup();
    const fine = issue({ status: "triage" });
    const wrong = issue({ status: "backlog" });
    await expect(
      moves.prepareAll(
        [
          { current: fine, by: "patch", changes: { status: "done" } },
          { current: wrong, by: "patch", changes: { status: "done" } },
        ],
        NOW,
      ),
    ).rejects.toThrow(ConflictError);
  });

  it("let a signal finish any open issue, and a dispatch start a todo one", async () => {
    const { moves, issue } = setup();
    const backlog = issue({ status: "backlog" });
    const bySignal = await moves.prepare({ current: backlog, by: "signal", changes: { status: "done" } }, NOW);
    expect(bySignal.stored?.issue.status).toBe("done");
    const todo = issue({ status: "todo" });
    const claimed = await moves.prepare({ current: todo, by: "dispatch", changes: { status: "in_progress" } }, NOW);
    expect(claimed.stored?.issue.status).toBe("in_progress");
    expect(queueEntries(claimed.writes, todo).left).toEqual(queueListings(todo.issue));
  });
});

describe("IssueMoves: the active dispatch", () => {
  function working() {
    const context = setup();
    context.dispatches.active.add("dsp_1");
    const current = context.issue(
      { status: "in_progress" },
      { activeDispatchId: "dsp_1", lastDispatchId: "dsp_1", dispatchAttempts: 1, todoAt: CREATED.toISOString() },
    );
    return { ...context, current };
  }

  it("is released when the issue leaves in_progress and no end is given, and the issue forgets it", async () => {
    const { moves, dispatches, current } = working();
    const { stored, writes } = await moves.prepare({ current, by: "patch", changes: { status: "todo" } }, NOW);
    expect(dispatches.ended).toEqual([{ id: "dsp_1", end: { status: "released", outcome: null }, at: NOW }]);
    expect(writes).toContainEqual(dispatchEndWrite("dsp_1", "released"));
    expect(stored).toMatchObject({ activeDispatchId: null, lastDispatchId: "dsp_1", dispatchAttempts: 1 });
    expect(issuePut(writes, current.issue.id)?.Item).toMatchObject({ activeDispatchId: null });
    // A claim given back keeps when its todo-to-done time started.
    expect(stored?.todoAt).toBe(CREATED.toISOString());
  });

  it("ends as the caller asks, or with the writes the dispatch domain already prepared", async () => {
    const asked = working();
    const end: DispatchEnd = {
      status: "completed",
      outcome: { summary: "fixed", commits: [], pullRequests: [] },
    };
    const completed = await asked.moves.prepare(
      { current: asked.current, by: "dispatch", changes: { status: "done" }, dispatchEnd: end },
      NOW,
    );
    expect(asked.dispatches.ended).toEqual([{ id: "dsp_1", end, at: NOW }]);
    expect(completed.writes).toContainEqual(dispatchEndWrite("dsp_1", "completed"));

    const prepared = working();
    const own = dispatchEndWrite("dsp_1", "failed");
    const failed = await prepared.moves.prepare(
      { current: prepared.current, by: "dispatch", changes: { status: "todo" }, dispatchEnd: { prepared: [own] } },
      NOW,
    );
    expect(prepared.dispatches.ended).toEqual([]);
    expect(failed.writes.filter((write) => sameKey(write.Update?.Key, dispatchKey("dsp_1")))).toEqual([own]);
  });

  it("is untouched while the issue stays in_progress", async () => {
    const { moves, dispatches, current } = working();
    const { stored, writes } = await moves.prepare({ current, by: "patch", changes: { priority: 0 } }, NOW);
    expect(dispatches.ended).toEqual([]);
    expect(writes.some((write) => sameKey(write.Update?.Key, dispatchKey("dsp_1")))).toBe(false);
    expect(stored?.activeDispatchId).toBe("dsp_1");
  });

  it("is released when the issue is deleted while in progress", async () => {
    const { moves, dispatches, current } = working();
    const { stored, writes } = await moves.prepare({ current, by: "delete" }, NOW);
    expect(stored).toBeNull();
    expect(dispatches.ended.map(({ end }) => end.status)).toEqual(["released"]);
    expect(writes).toContainEqual(dispatchEndWrite("dsp_1", "released"));
  });
});

describe("IssueMoves: deleting", () => {
  it("marks the issue deleted at its version, takes it out of every listing, the queue and the counts", async () => {
    const { moves, issue } = setup();
    const current = issue({ status: "todo", type: "monitor" });
    const { stored, writes } = await moves.prepare({ current, by: "delete", changes: { status: "done" } }, NOW);
    expect(stored).toBeNull();
    const put = issuePut(writes, current.issue.id);
    expect(put?.Item).toMatchObject({ deletedAt: NOW.toISOString(), status: "todo" });
    expect(put?.ExpressionAttributeValues).toEqual({ ":expectedVersion": current.version });
    expect(queueEntries(writes, current)).toEqual({ joined: [], left: queueListings(current.issue) });
    expect(writes).toContainEqual({
      Delete: { Key: listingEntryKey("issue", "all", padNumber(current.issue.number)) },
    });
    expect(counts(writes)).toEqual({ "issue.status#todo": -1, "issue.type#monitor": -1, "queue.depth": -1 });
  });
});

describe("IssueMoves: the issues a moving issue blocks", () => {
  function blocked(blockerStatus: IssueStatus, dependentBlockedBy: "blocked" | "free") {
    const context = setup();
    const blockerId = newIssueId();
    const dependent = context.issue({
      status: "todo",
      blockedBy: dependentBlockedBy === "blocked" ? [blockerId] : [],
    });
    const blocker = context.issue({ status: blockerStatus }, { blocking: [dependent.issue.id] });
    // The blocker under the id its dependent names.
    const current: StoredIssue = { ...blocker, issue: { ...blocker.issue, id: blockerId } };
    context.store.issues.set(blockerId, current);
    return { ...context, current, dependent };
  }

  it("frees a dependent when its blocker finishes: it loses the blocker and joins the queue", async () => {
    const { moves, store, current, dependent } = blocked("triage", "blocked");
    const { writes } = await moves.prepare({ current, by: "patch", changes: { status: "canceled" } }, NOW);
    expect(store.reads).toEqual([[dependent.issue.id]]);
    expect(blockedByWrite(writes, dependent.issue.id)).toEqual([]);
    const freed = { ...dependent, issue: { ...dependent.issue, blockedBy: [] } };
    expect(queueEntries(writes, freed)).toEqual({ joined: queueListings(freed.issue), left: [] });
    expect(counts(writes)).toMatchObject({ "queue.depth": 1 });
    // The dependent's relation change is conditioned on the version it was read at.
    const update = writes.find((write) => sameKey(write.Update?.Key, issueKey(dependent.issue.id)))?.Update;
    expect(update?.ExpressionAttributeValues).toMatchObject({
      ":expectedVersion": dependent.version,
      ":nextVersion": dependent.version + 1,
    });
  });

  it("frees a dependent when its blocker is deleted", async () => {
    const { moves, current, dependent } = blocked("backlog", "blocked");
    const { writes } = await moves.prepare({ current, by: "delete" }, NOW);
    expect(blockedByWrite(writes, dependent.issue.id)).toEqual([]);
  });

  it("blocks a dependent again when its blocker reopens: it gains the blocker and leaves the queue", async () => {
    const { moves, current, dependent } = blocked("canceled", "free");
    const { writes } = await moves.prepare({ current, by: "patch", changes: { status: "triage" } }, NOW);
    expect(blockedByWrite(writes, current.issue.id)).toBeUndefined();
    expect(blockedByWrite(writes, dependent.issue.id)).toEqual([current.issue.id]);
    expect(queueEntries(writes, dependent)).toEqual({ joined: [], left: queueListings(dependent.issue) });
    expect(counts(writes)).toEqual({ "issue.status#canceled": -1, "issue.status#triage": 1, "queue.depth": -1 });
  });

  it("leaves dependents unread while the blocker stays open or stays finished", async () => {
    const open = blocked("triage", "blocked");
    await open.moves.prepare({ current: open.current, by: "patch", changes: { status: "backlog" } }, NOW);
    expect(open.store.reads).toEqual([]);
    const finished = blocked("done", "free");
    await finished.moves.prepare({ current: finished.current, by: "patch", changes: { status: "triage" } }, NOW);
    expect(finished.store.reads).toEqual([[finished.dependent.issue.id]]);
  });

  it("writes nothing to a dependent that already agrees, or that is gone", async () => {
    const agrees = blocked("triage", "free");
    const first = await agrees.moves.prepare(
      { current: agrees.current, by: "patch", changes: { status: "done" } },
      NOW,
    );
    expect(blockedByWrite(first.writes, agrees.dependent.issue.id)).toBeUndefined();
    expect(first.writes.some((write) => sameKey(write.Update?.Key, issueKey(agrees.dependent.issue.id)))).toBe(false);

    const gone = blocked("triage", "blocked");
    gone.store.issues.delete(gone.dependent.issue.id);
    const second = await gone.moves.prepare({ current: gone.current, by: "patch", changes: { status: "done" } }, NOW);
    expect(gone.store.reads).toEqual([[gone.dependent.issue.id]]);
    expect(second.writes.some((write) => sameKey(write.Update?.Key, issueKey(gone.dependent.issue.id)))).toBe(false);
  });
});

describe("IssueMoves: several moves in one transaction", () => {
  it("folds a dependent's blockedBy into its own move when it moves too, reading nothing", async () => {
    const { moves, store, issue } = setup();
    const blockerId = newIssueId();
    const dependent = issue({ status: "backlog", blockedBy: [blockerId] });
    const made = issue({ status: "triage" }, { blocking: [dependent.issue.id] });
    const blocker: StoredIssue = { ...made, issue: { ...made.issue, id: blockerId } };
    const { moved, writes } = await moves.prepareAll(
      [
        { current: blocker, by: "patch", changes: { status: "done" } },
        { current: dependent, by: "patch", changes: { status: "todo" } },
      ],
      NOW,
    );
    expect(store.reads).toEqual([]);
    expect(moved.map((stored) => stored?.issue.status)).toEqual(["done", "todo"]);
    expect(moved[1]?.issue.blockedBy).toEqual([]);
    expect(issuePut(writes, dependent.issue.id)?.Item).toMatchObject({ blockedBy: [], status: "todo" });
    expect(blockedByWrite(writes, dependent.issue.id)).toBeUndefined();
    // Unblocked and in todo at once: the dependent joins the queue.
    expect(counts(writes)["queue.depth"]).toBe(1);
  });

  it("merges the count changes of every move: one item per count, and none that sum to zero", async () => {
    const { moves, issue } = setup();
    const first = issue({ status: "todo" });
    const second = issue({ status: "todo" });
    const third = issue({ status: "backlog" });
    const { writes } = await moves.prepareAll(
      [
        { current: first, by: "patch", changes: { status: "backlog" } },
        { current: second, by: "patch", changes: { status: "backlog" } },
        { current: third, by: "patch", changes: { status: "todo" } },
      ],
      NOW,
    );
    expect(counts(writes)).toEqual({ "issue.status#todo": -1, "issue.status#backlog": 1, "queue.depth": -1 });
    expect(writes.filter((write) => write.SpreadAdd?.Key.sk === "queue.depth")).toEqual([
      countChange("queue.depth", -1),
    ]);
  });

  it("refuse to write one item twice (one transaction may not)", async () => {
    const { moves, issue } = setup();
    const current = issue({ status: "triage" });
    await expect(
      moves.prepareAll(
        [
          { current, by: "patch", changes: { status: "backlog" } },
          { current, by: "patch", changes: { priority: 4 } },
        ],
        NOW,
      ),
    ).rejects.toThrow(/writes .* twice/);
  });
});

describe("IssueMoves: outcomes and the watch of merged fixes", () => {
  const MERGED_AT = "2026-03-02T09:00:00.000Z";
  const watch = (status: Verification["status"], until = "2026-03-05T09:00:00.000Z"): Verification => ({
    status,
    mergedAt: MERGED_AT,
    until,
    regressedAt: null,
    signalId: null,
    dispatchId: "dsp_01HZZZZZZZZZZZZZZZZZZZZZZZ",
  });

  it("puts a mark on the ended dispatch it names, in the move's writes", async () => {
    const { moves, issue, dispatches } = setup();
    const current = issue({ status: "in_review" }, { lastDispatchId: "dsp_01HAAAAAAAAAAAAAAAAAAAAAAA" });
    const { writes } = await moves.prepare(
      {
        current,
        by: "signal",
        changes: { status: "todo" },
        outcome: { dispatchId: "dsp_01HAAAAAAAAAAAAAAAAAAAAAAA", mark: { kind: "reworked" } },
      },
      NOW,
    );
    expect(dispatches.marked).toEqual([{ id: "dsp_01HAAAAAAAAAAAAAAAAAAAAAAA", mark: { kind: "reworked" } }]);
    expect(writes).toContainEqual(dispatchEndWrite("dsp_01HAAAAAAAAAAAAAAAAAAAAAAA", "marked reworked"));
  });

  it("hands the mark to the end of the active dispatch it names, so that dispatch is written once", async () => {
    const { moves, issue, dispatches } = setup();
    dispatches.active.add("dsp_01HBBBBBBBBBBBBBBBBBBBBBBB");
    const current = issue({ status: "in_progress" }, { activeDispatchId: "dsp_01HBBBBBBBBBBBBBBBBBBBBBBB" });
    const mark: OutcomeMark = { kind: "merged", verification: watch("pending") };
    await moves.prepare(
      {
        current,
        by: "signal",
        changes: { status: "done", verification: watch("pending") },
        dispatchEnd: { status: "completed", outcome: null },
        outcome: { dispatchId: "dsp_01HBBBBBBBBBBBBBBBBBBBBBBB", mark },
      },
      NOW,
    );
    expect(dispatches.marked).toEqual([]);
    expect(dispatches.ended).toEqual([
      { id: "dsp_01HBBBBBBBBBBBBBBBBBBBBBBB", end: { status: "completed", outcome: null, mark }, at: NOW },
    ]);
  });

  it("enters a pending watch by its window's end, and takes it out when the watch ends or the issue goes", async () => {
    const { moves, issue } = setup();
    const current = issue({ status: "in_review" });
    const entered = await moves.prepare(
      { current, by: "signal", changes: { status: "done", verification: watch("pending") } },
      NOW,
    );
    const entry = verifyWatchKey(watch("pending").until, current.issue.id);
    expect(entered.writes).toContainEqual({
      Put: { Item: { ...entry, issueId: current.issue.id, until: watch("pending").until } },
    });
    const done = issue({ status: "done", verification: watch("pending") });
    const doneEntry = verifyWatchKey(watch("pending").until, done.issue.id);
    for (const change of [
      { changes: { verification: watch("verified") }, by: "signal" as const },
      { changes: { status: "todo" as const, verification: watch("regressed") }, by: "signal" as const },
      { by: "delete" as const },
    ]) {
      const { writes } = await moves.prepare({ current: done, ...change }, NOW);
      expect(writes).toContainEqual({ Delete: { Key: doneEntry } });
      expect(writes.some((write) => write.Put?.Item?.pk === doneEntry.pk)).toBe(false);
    }
    // A move that leaves the watch as it was touches no entry.
    const { writes } = await moves.prepare({ current: done, by: "patch", changes: { priority: 1 } }, NOW);
    expect(writes.some((write) => (write.Put?.Item?.pk ?? write.Delete?.Key?.pk) === doneEntry.pk)).toBe(false);
  });
});
