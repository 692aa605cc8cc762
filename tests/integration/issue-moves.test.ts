/**
 * The walk: every move the issue state machine allows (docs/api.md#states-and-transitions), through every path that makes
 * it, with a dependent issue that waits on the moved one and, while it is in progress, its dispatch.
 */
import { beforeAll, describe, expect, it, vi } from "vitest";
import { AUTH, dataOf, jsonPost, type TestApp, testApp } from "../helpers/app.js";
import { CONFLICT_MODES } from "../helpers/db.js";
import { codehostDelivery, errortrackerDelivery, issueEvent, mergedPullRequest } from "../helpers/deliveries.js";
import { countDrift, countMismatches, everyPage, queuedIssueIds } from "../helpers/moves.js";

const STATUSES = ["triage", "backlog", "todo", "in_progress", "done", "canceled"] as const;
type Status = (typeof STATUSES)[number];
type Issue = { id: string; number: number; status: Status; completedAt: string | null; blockedBy: string[] };
type Dispatch = { id: string; issueId: string; status: string };

/** How the moved issue came to be: through the API, or opened by a provider's delivery. */
type Origin = "api" | "codehost" | "errortracker";

/** A lease the expiry paths let run out; every other claim keeps the default 30 minutes. */
const SHORT_LEASE_SECONDS = 60;

const isOpen = (status: Status) => status !== "done" && status !== "canceled";

/** One conflict mode's table, and the clock its app runs on (moved forward to end leases). */
interface Walk {
  t: TestApp;
  advance(seconds: number): void;
  /** A project without issues: a claim there only expires the leases that ran out. */
  nowhere: string;
}

/**
 * One case's issues: A, the one moved (alone in its project when a claim is to take it), and B,
 * `todo` and `blocked_by` A. `ref` is A's issue number at the provider when a delivery opened it.
 */
interface Subject {
  a: Issue;
  b: Issue;
  projectId: string | null;
  dispatchId: string | null;
  origin: Origin;
  ref: number;
}

let refs = 0;
const nextRef = () => {
  refs += 1;
  return 7000 + refs;
};

const trackerIssue = (action: string, ref: number) => ({
  action,
  data: { issue: { id: String(ref), level: "error", title: `Tracker issue ${ref}` } },
});

const send = (w: Walk, delivery: { path: string; init: RequestInit }) => w.t.app.request(delivery.path, delivery.init);
const patch = (w: Walk, id: string, body: unknown) =>
  w.t.app.request(`/api/issues/${id}`, { ...jsonPost(body), method: "PATCH" });
const read = (w: Walk, id: string) => w.t.app.request(`/api/issues/${id}`, { headers: AUTH });

async function claimFor(w: Walk, s: Subject, leaseSeconds?: number): Promise<string> {
  if (!s.projectId) throw new Error("setup: A has no project of its own to be claimed from");
  const body = { agent: "walker", projectId: s.projectId, ...(leaseSeconds ? { leaseSeconds } : {}) };
  const claim = await dataOf<{ dispatch: Dispatch }>(w.t.app.request("/api/dispatch/claim", jsonPost(body)), 201);
  if (claim.dispatch.issueId !== s.a.id) throw new Error(`setup: the claim took ${claim.dispatch.issueId}, not A`);
  return claim.dispatch.id;
}

/**
 * A in `start` with B waiting on it: A is made (by `origin`), B is related while A is open, then A
 * is brought to `start` through the paths that work (claims; PATCH from triage to done/canceled),
 * after `failedBefore` failed dispatches.
 */
async function arrange(
  w: Walk,
  start: Status,
  options: { origin?: Origin; failedBefore?: number; leaseSeconds?: number } = {},
): Promise<Subject> {
  const origin = options.origin ?? "api";
  const ref = nextRef();
  // Only an issue a claim will take needs a project of its own.
  const projectId =
    start === "todo" || start === "in_progress"
      ? (await dataOf<{ id: string }>(w.t.app.request("/api/projects", jsonPost({ name: `Walk ${ref}` })), 201)).id
      : null;
  const made = async (): Promise<Issue> => {
    if (origin === "api") {
      const initial = start === "backlog" ? "backlog" : start === "todo" || start === "in_progress" ? "todo" : "triage";
      return dataOf<Issue>(
        w.t.app.request("/api/issues", jsonPost({ title: `A ${ref}`, type: "task", status: initial, projectId })),
        201,
      );
    }
    const delivery =
      origin === "codehost"
        ? codehostDelivery("issues", issueEvent("opened", ref, `A ${ref}`))
        : errortrackerDelivery("issue", trackerIssue("created", ref));
    const opened = await dataOf<{ issue: Issue | null }>(send(w, delivery), 201);
    if (!opened.issue) throw new Error(`setup: the ${origin} delivery opened no issue`);
    return opened.issue;
  };
  // A and B are made side by side: nothing claims before B waits on A.
  const [a, b] = await Promise.all([
    made(),
    dataOf<Issue>(w.t.app.request("/api/issues", jsonPost({ title: `B ${ref}`, type: "task", status: "todo" })), 201),
  ]);
  await dataOf(
    w.t.app.request(`/api/issues/${b.id}/relations`, jsonPost({ type: "blocked_by", relatedIssueId: a.id })),
    201,
  );
  const s: Subject = { a, b, projectId, dispatchId: null, origin, ref };
  if (a.status !== start && (start === "backlog" || start === "done" || start === "canceled")) {
    await dataOf(patch(w, a.id, { status: start }));
  }
  if (start === "in_progress") {
    for (let failed = 0; failed < (options.failedBefore ?? 0); failed++) {
      const dispatchId = await claimFor(w, s);
      await dataOf(
        w.t.app.request(`/api/dispatch/${dispatchId}/complete`, jsonPost({ result: "failed", summary: "no" })),
      );
    }
    s.dispatchId = await claimFor(w, s, options.leaseSeconds);
  }
  const [arrivedA, arrivedB] = await Promise.all([dataOf<Issue>(read(w, a.id)), dataOf<Issue>(read(w, b.id))]);
  if (arrivedA.status !== start) throw new Error(`setup: A is ${arrivedA.status}, not ${start}`);
  if (arrivedB.blockedBy.includes(a.id) !== isOpen(start)) {
    throw new Error(`setup: B's blockedBy is ${JSON.stringify(arrivedB.blockedBy)} with A ${start}`);
  }
  return { ...s, a: arrivedA };
}

/**
 * What every move must leave: A `to` (404 once deleted) with `completedAt` set exactly when it is
 * finished; B still `todo`, blocked by A exactly while A is open and live; the queue holding A
 * exactly when it is `todo` and B exactly when A no longer blocks it; one active dispatch for A
 * exactly while it is in progress (the one the case knows), the earlier one ended (`dispatchAfter`
 * when docs/api.md names its end); and the counts as far from a recount as before the move.
 */
async function expectLeft(
  w: Walk,
  s: Subject,
  to: Status | "deleted",
  drift: Record<string, number>,
  dispatchAfter?: string,
): Promise<void> {
  // Reads only: side by side.
  const [readA, b, queue, active, dispatch, mismatches] = await Promise.all([
    read(w, s.a.id),
    dataOf<Issue>(read(w, s.b.id)),
    queuedIssueIds(w.t.app),
    everyPage<Dispatch>(w.t.app, `/api/dispatch?issueId=${s.a.id}&status=active`),
    s.dispatchId && to !== "in_progress"
      ? dataOf<Dispatch>(w.t.app.request(`/api/dispatch/${s.dispatchId}`, { headers: AUTH }))
      : undefined,
    countMismatches(w.t),
  ]);
  if (to === "deleted") {
    expect(readA.status, "A reads as gone").toBe(404);
  } else {
    const a = await dataOf<Issue>(readA);
    expect(a.status, "A's status").toBe(to);
    if (isOpen(to)) expect(a.completedAt, "A's completedAt").toBeNull();
    else expect(a.completedAt, "A's completedAt").toEqual(expect.any(String));
  }
  const aBlocks = to !== "deleted" && isOpen(to);
  expect(b.status, "B's status").toBe("todo");
  expect(b.blockedBy, "B's blockedBy").toEqual(aBlocks ? [s.a.id] : []);
  expect(queue.includes(s.a.id), "A is in the queue").toBe(to === "todo");
  expect(queue.includes(s.b.id), "B is in the queue").toBe(!aBlocks);
  expect(
    active.map((dispatch) => dispatch.id),
    "A's active dispatches",
  ).toEqual(to === "in_progress" && s.dispatchId ? [s.dispatchId] : []);
  if (dispatch) {
    expect(dispatch.status, "A's dispatch once A left in_progress").not.toBe("active");
    if (dispatchAfter) expect(dispatch.status, "A's dispatch").toBe(dispatchAfter);
  }
  expect(countDrift(mismatches), "counts against a recount, next to before the move").toEqual(drift);
}

interface Move {
  name: string;
  from: Status;
  to: Status | "deleted";
  origin?: Origin;
  failedBefore?: number;
  leaseSeconds?: number;
  /** The answer docs/api.md gives the request that makes the move. */
  answer: number;
  /** What A's dispatch becomes, where docs/api.md says. */
  dispatchAfter?: string;
  act(w: Walk, s: Subject): Response | Promise<Response>;
}

/** The PATCH moves of docs/api.md#states-and-transitions (into `in_progress` only a claim moves). */
const PATCH_MOVES: [Status, Status][] = [
  ["triage", "backlog"],
  ["triage", "todo"],
  ["triage", "canceled"],
  ["triage", "done"],
  ["backlog", "todo"],
  ["backlog", "triage"],
  ["backlog", "canceled"],
  ["todo", "backlog"],
  ["todo", "canceled"],
  ["in_progress", "done"],
  ["in_progress", "canceled"],
  ["in_progress", "todo"],
  ["done", "triage"],
  ["done", "todo"],
  ["canceled", "triage"],
  ["canceled", "backlog"],
];

const complete = (result: "done" | "failed") => (w: Walk, s: Subject) =>
  w.t.app.request(`/api/dispatch/${s.dispatchId}/complete`, jsonPost({ result, summary: `Walked: ${result}` }));

/** Lets A's lease run out, checks the preview shows A again at once, then lets `trigger` expire it. */
const expireThen = (trigger: (w: Walk) => Response | Promise<Response>) => async (w: Walk, s: Subject) => {
  expect(await queuedIssueIds(w.t.app), "queue while the lease runs").not.toContain(s.a.id);
  w.advance(SHORT_LEASE_SECONDS + 1);
  expect(await queuedIssueIds(w.t.app), "queue preview once the lease ran out").toContain(s.a.id);
  return trigger(w);
};

const mergedNaming = (w: Walk, s: Subject) =>
  send(w, codehostDelivery("pull_request", mergedPullRequest(s.ref, { title: `Fix it (KZN-${s.a.number})` })));

const lifecycleEvent = (codehostAction: string, trackerAction: string) => (w: Walk, s: Subject) =>
  send(
    w,
    s.origin === "codehost"
      ? codehostDelivery("issues", issueEvent(codehostAction, s.ref, `A ${s.ref}`))
      : errortrackerDelivery("issue", trackerIssue(trackerAction, s.ref)),
  );

const MOVES: Move[] = [
  ...PATCH_MOVES.map(
    ([from, to]): Move => ({
      name: `${from} → ${to} by PATCH`,
      from,
      to,
      answer: 200,
      act: (w, s) => patch(w, s.a.id, { status: to }),
    }),
  ),
  ...STATUSES.map(
    (from): Move => ({
      name: `${from} → deleted by DELETE`,
      from,
      to: "deleted",
      answer: 204,
      act: (w, s) => w.t.app.request(`/api/issues/${s.a.id}`, { method: "DELETE", headers: AUTH }),
    }),
  ),
  {
    name: "todo → in_progress by POST /api/dispatch/claim",
    from: "todo",
    to: "in_progress",
    answer: 201,
    act: (w, s) => w.t.app.request("/api/dispatch/claim", jsonPost({ agent: "walker", projectId: s.projectId })),
  },
  {
    name: "todo → in_progress by GET /api/dispatch/next",
    from: "todo",
    to: "in_progress",
    answer: 200,
    act: (w, s) => w.t.app.request(`/api/dispatch/next?agent=walker&projectId=${s.projectId}`, { headers: AUTH }),
  },
  {
    name: "in_progress → done by complete done",
    from: "in_progress",
    to: "done",
    answer: 200,
    dispatchAfter: "completed",
    act: complete("done"),
  },
  {
    name: "in_progress → todo by complete failed (first failure)",
    from: "in_progress",
    to: "todo",
    answer: 200,
    dispatchAfter: "failed",
    act: complete("failed"),
  },
  {
    name: "in_progress → canceled by complete failed (third failure)",
    from: "in_progress",
    to: "canceled",
    failedBefore: 2,
    answer: 200,
    dispatchAfter: "failed",
    act: complete("failed"),
  },
  {
    name: "in_progress → todo by release",
    from: "in_progress",
    to: "todo",
    answer: 200,
    dispatchAfter: "released",
    act: (w, s) => w.t.app.request(`/api/dispatch/${s.dispatchId}/release`, jsonPost({})),
  },
  {
    name: "in_progress → todo by lease expiry, expired by a claim",
    from: "in_progress",
    to: "todo",
    leaseSeconds: SHORT_LEASE_SECONDS,
    answer: 204,
    dispatchAfter: "expired",
    act: expireThen((w) =>
      w.t.app.request("/api/dispatch/claim", jsonPost({ agent: "sweeper", projectId: w.nowhere })),
    ),
  },
  {
    name: "in_progress → todo by lease expiry, expired by GET /api/dispatch/next",
    from: "in_progress",
    to: "todo",
    leaseSeconds: SHORT_LEASE_SECONDS,
    answer: 204,
    dispatchAfter: "expired",
    act: expireThen((w) =>
      w.t.app.request(`/api/dispatch/next?agent=sweeper&projectId=${w.nowhere}`, { headers: AUTH }),
    ),
  },
  // docs/api.md#what-a-signal-does moves an issue to done from states the table of docs/api.md#states-and-transitions has no such move for (a merged
  // fix from backlog or todo, a provider's close from backlog): on those paths its rules are followed.
  ...(["triage", "backlog", "todo", "in_progress"] as const).map(
    (from): Move => ({
      name: `${from} → done by a merged pull request naming KZN-n`,
      from,
      to: "done",
      answer: 201,
      ...(from === "in_progress" ? { dispatchAfter: "completed" } : {}),
      act: mergedNaming,
    }),
  ),
  ...(["codehost", "errortracker"] as const).flatMap((origin) =>
    (["triage", "backlog"] as const).map(
      (from): Move => ({
        name: `${from} → done by ${origin === "codehost" ? "codehost issues.closed" : "errortracker issue.resolved"}`,
        from,
        to: "done",
        origin,
        answer: 201,
        act: lifecycleEvent("closed", "resolved"),
      }),
    ),
  ),
  ...(["codehost", "errortracker"] as const).map(
    (origin): Move => ({
      name: `done → triage by ${origin === "codehost" ? "codehost issues.reopened" : "errortracker issue.unresolved"}`,
      from: "done",
      to: "triage",
      origin,
      answer: 201,
      act: lifecycleEvent("reopened", "unresolved"),
    }),
  ),
];

/** Every PATCH the state machine refuses: 409, and nothing moves. */
const REFUSED: [string, { from: Status; to: Status }][] = STATUSES.flatMap((from) =>
  STATUSES.filter((to) => to !== from && !PATCH_MOVES.some(([f, t]) => f === from && t === to)).map(
    (to): [string, { from: Status; to: Status }] => [`${from} → ${to} by PATCH`, { from, to }],
  ),
);

/**
 * Tables each mode's walk is spread over: cases take turns on one table and its clock, the tables
 * go side by side. A table holds a fifth of the walk, so its recounts and queue reads stay small.
 */
const TABLES = [1, 2, 3, 4, 5];
const onTable = <T>(cases: T[], table: number) => cases.filter((_, index) => index % TABLES.length === table - 1);

// Three cases at a time: the idle core gets work, and no case is stretched far toward its timeout.
vi.setConfig({ maxConcurrency: 3 });

describe.concurrent.each(CONFLICT_MODES)("issue moves ($mode)", ({ emulateConflicts }) => {
  describe.each(TABLES)("table %i", (table) => {
    const w = {} as Walk;
    beforeAll(async () => {
      let offsetMs = 0;
      w.t = await testApp({ clock: () => new Date(Date.now() + offsetMs) }, { emulateConflicts });
      w.advance = (seconds) => {
        offsetMs += seconds * 1000;
      };
      w.nowhere = (
        await dataOf<{ id: string }>(w.t.app.request("/api/projects", jsonPost({ name: "Nowhere" })), 201)
      ).id;
    });

    // Named by `%s`, not `$name`, which cuts long names short.
    const moves = onTable(MOVES, table).map((move): [string, Move] => [move.name, move]);
    it.sequential.each(moves)("%s", async (_name, move) => {
      const s = await arrange(w, move.from, move);
      const drift = countDrift(await countMismatches(w.t));
      const response = await move.act(w, s);
      const text = await response.text();
      expect(response.status, `${move.name} answered ${response.status}: ${text.slice(0, 300)}`).toBe(move.answer);
      if (move.to === "in_progress") {
        const claimed = (JSON.parse(text) as { data: { dispatch: Dispatch } }).data.dispatch;
        expect(claimed.issueId, "the claim took A").toBe(s.a.id);
        s.dispatchId = claimed.id;
      }
      await expectLeft(w, s, move.to, drift, move.dispatchAfter);
    });

    it.sequential.each(onTable(REFUSED, table))("%s is refused with 409 and moves nothing", async (_name, refused) => {
      const s = await arrange(w, refused.from);
      const drift = countDrift(await countMismatches(w.t));
      const response = await patch(w, s.a.id, { status: refused.to });
      expect(response.status).toBe(409);
      expect(await response.json()).toMatchObject({
        error: `Cannot move issue from ${refused.from} to ${refused.to}`,
      });
      await expectLeft(w, s, refused.from, drift);
    });

    it.sequential("leaves every count equal to a recount of the whole table after the walk", async () => {
      expect(await countMismatches(w.t)).toEqual([]);
    });
  });
});
