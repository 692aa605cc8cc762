/**
 * The issue lifecycle under random commands: whatever order creates, relations, status changes,
 * claims, completions, releases, lease expiries, merged pull requests, provider close and reopen
 * events and deletes come in, no answer is a 5xx and after every step `blockedBy`, the queue, the
 * active dispatches and every count agree with what the relations and statuses say they must be.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AUTH, dataOf, jsonPost, type TestApp, testApp } from "../../helpers/app.js";
import { CONFLICT_MODES } from "../../helpers/db.js";
import { codehostDelivery, issueEvent, mergedPullRequest } from "../../helpers/deliveries.js";
import { PATCH_MOVES } from "../../helpers/issue-states.js";
import { countMismatches, everyPage, queuedIssueIds } from "../../helpers/moves.js";

const STATUSES = ["triage", "backlog", "todo", "in_progress", "done", "canceled"] as const;
type Status = (typeof STATUSES)[number];
type Issue = { id: string; number: number; status: Status; blockedBy: string[] };
type Relation = { type: string; issueId: string; relatedIssueId: string };
type Dispatch = { id: string; issueId: string; status: string; leaseExpiresAt: string };

/** Runs per conflict mode, and the longest command sequence: about a minute for both modes on two cores. */
const RUNS = 15;
const MAX_STEPS = 25;
/** Claims take the shortest lease, so an expiry step (past it) ends every lease then active. */
const LEASE_SECONDS = 60;
/**
 * The property's time: a failing one stops shrinking there and reports the smallest sequence found
 * so far; on a slow machine a passing one makes fewer runs.
 */
const TIME_BUDGET_MS = 90_000;

const isOpen = (status: Status) => status !== "done" && status !== "canceled";

/** A command's fields, as a plain object (a counterexample then prints as JSON to paste back). */
function fields<T>(model: { [K in keyof T]: fc.Arbitrary<T[K]> }): fc.Arbitrary<T> {
  return fc.record(model, { noNullPrototype: true }) as fc.Arbitrary<T>;
}

/** Which of a list a command means (modulo its length); an even pick prefers issues that block a live one. */
const pick = fc.nat({ max: 1000 });
/** A new issue, often made waiting on one that exists, so moves have dependents to carry along. */
const create = fields({
  kind: fc.constant("create" as const),
  status: fc.constantFrom("todo", "todo", "todo", "triage", "backlog", "done", "canceled"),
  blockedBy: fc.option(pick, { freq: 4 }),
});
const command = fc.oneof(
  { weight: 6, arbitrary: create },
  { weight: 2, arbitrary: fields({ kind: fc.constant("open" as const) }) },
  {
    weight: 3,
    arbitrary: fields({
      kind: fc.constant("relate" as const),
      from: pick,
      to: pick,
      type: fc.constantFrom("blocks", "blocked_by"),
    }),
  },
  {
    // Mostly a move the state machine allows from where the issue is; else any status (409 when refused).
    weight: 6,
    arbitrary: fields({
      kind: fc.constant("patch" as const),
      pick,
      choice: fc.nat({ max: 11 }),
      allowed: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    }),
  },
  { weight: 4, arbitrary: fields({ kind: fc.constant("claim" as const), via: fc.constantFrom("claim", "next") }) },
  {
    weight: 3,
    arbitrary: fields({ kind: fc.constant("complete" as const), pick, result: fc.constantFrom("done", "failed") }),
  },
  { weight: 1, arbitrary: fields({ kind: fc.constant("release" as const), pick }) },
  {
    weight: 1,
    arbitrary: fields({ kind: fc.constant("expire" as const), trigger: fc.constantFrom("claim", "next", "none") }),
  },
  { weight: 1, arbitrary: fields({ kind: fc.constant("merge" as const), pick }) },
  {
    weight: 2,
    arbitrary: fields({
      kind: fc.constant("lifecycle" as const),
      pick,
      action: fc.constantFrom("closed", "reopened"),
    }),
  },
  { weight: 1, arbitrary: fields({ kind: fc.constant("delete" as const), pick }) },
);
type Command = typeof command extends fc.Arbitrary<infer C> ? C : never;
/** A few issues first, then anything: at most MAX_STEPS commands. */
const commands = fc
  .tuple(fc.array(create, { maxLength: 6 }), fc.array(command, { minLength: 1, maxLength: MAX_STEPS - 6, size: "max" }))
  .map(([first, then]): Command[] => [...first, ...then]);

/** What the run knows from the answers it got (relations only from the answers that made them). */
interface Model {
  t: TestApp;
  now(): Date;
  advance(seconds: number): void;
  /** Every issue made, deleted ones too; `ref` is its repository issue number when a delivery opened it. */
  issues: { id: string; number: number; ref: number | null }[];
  deleted: Set<string>;
  /** Each `blocks` fact a relation answer created: `blocker` blocks `blocked`. */
  blocks: { blocker: string; blocked: string }[];
  dispatches: string[];
  /** Each live issue's status as the last check read it (PATCH picks its move from there). */
  statuses: Map<string, Status>;
  /** The active dispatches as the last check read them (complete and release pick from these first). */
  active: string[];
  refs: number;
}

const live = (m: Model) => m.issues.filter((issue) => !m.deleted.has(issue.id));
const chosen = <T>(list: T[], index: number): T | undefined => list[index % Math.max(list.length, 1)];
const sorted = (ids: Iterable<string>) => [...ids].sort();

/** A live issue; an even pick takes one that blocks a live issue, when there is one (the moves that matter most). */
function target(m: Model, index: number) {
  const issues = live(m);
  const blocking = issues.filter((issue) =>
    m.blocks.some((fact) => fact.blocker === issue.id && !m.deleted.has(fact.blocked)),
  );
  return chosen(index % 2 === 0 && blocking.length > 0 ? blocking : issues, Math.floor(index / 2));
}

/** Fails the step on a 5xx (or any status outside `allowed`), naming the command and the body. */
async function answered(response: Response, allowed: number[], what: string): Promise<unknown> {
  const text = await response.text();
  expect(response.status, `${what} answered ${response.status}: ${text.slice(0, 300)}`).toBeLessThan(500);
  expect(allowed, `${what} answered ${response.status}: ${text.slice(0, 300)}`).toContain(response.status);
  return text ? (JSON.parse(text) as { data?: unknown }).data : undefined;
}

/** Notes an issue a delivery opened (a reopen of a canceled issue opens a new one for the same fingerprint). */
function noteIssue(m: Model, issue: { id: string; number: number } | null | undefined, ref: number | null) {
  if (issue && !m.issues.some((known) => known.id === issue.id))
    m.issues.push({ id: issue.id, number: issue.number, ref });
}

async function claim(m: Model, via: "claim" | "next", what: string) {
  const response =
    via === "claim"
      ? await m.t.app.request("/api/dispatch/claim", jsonPost({ agent: "prop", leaseSeconds: LEASE_SECONDS }))
      : await m.t.app.request(`/api/dispatch/next?agent=prop&leaseSeconds=${LEASE_SECONDS}`, { headers: AUTH });
  const data = (await answered(response, [via === "claim" ? 201 : 200, 204], what)) as
    | { dispatch: Dispatch }
    | undefined;
  if (data) {
    expect(
      m.issues.map((issue) => issue.id),
      `${what} took an issue the run never made`,
    ).toContain(data.dispatch.issueId);
    m.dispatches.push(data.dispatch.id);
  }
}

/** Relates two issues and notes the `blocks` fact a 201 creates; the two issues must then show what the run noted. */
async function relate(m: Model, from: string, type: "blocks" | "blocked_by", to: string, what: string) {
  const response = await m.t.app.request(`/api/issues/${from}/relations`, jsonPost({ type, relatedIssueId: to }));
  // 400: an issue related to itself; 409: a cycle of blocks, or the fact exists already.
  const relation = (await answered(response, [201, 400, 409], what)) as Relation | undefined;
  if (response.status === 201 && relation) {
    m.blocks.push(
      relation.type === "blocks"
        ? { blocker: relation.issueId, blocked: relation.relatedIssueId }
        : { blocker: relation.relatedIssueId, blocked: relation.issueId },
    );
  }
  await expectRelationsAsModelled(m, [from, to]);
}

/** Sends one command; its answers must be the ones docs/api.md gives (409 for a refused move or cycle is one). */
async function run(m: Model, c: Command, what: string): Promise<"sent" | "skipped"> {
  const app = m.t.app;
  switch (c.kind) {
    case "create": {
      const blocker = c.blockedBy === null ? undefined : chosen(live(m), c.blockedBy);
      const issue = await dataOf<Issue>(
        app.request("/api/issues", jsonPost({ title: `Issue ${m.issues.length + 1}`, type: "task", status: c.status })),
        201,
      );
      noteIssue(m, issue, null);
      if (blocker) await relate(m, issue.id, "blocked_by", blocker.id, what);
      return "sent";
    }
    case "open": {
      m.refs += 1;
      const delivery = codehostDelivery("issues", issueEvent("opened", m.refs));
      const data = (await answered(await app.request(delivery.path, delivery.init), [201], what)) as {
        issue: Issue | null;
      };
      noteIssue(m, data.issue, m.refs);
      return "sent";
    }
    case "relate": {
      const [from, to] = [chosen(live(m), c.from), chosen(live(m), c.to)];
      if (!from || !to) return "skipped";
      await relate(m, from.id, c.type, to.id, what);
      return "sent";
    }
    case "patch": {
      const issue = target(m, c.pick);
      if (!issue) return "skipped";
      const allowed = PATCH_MOVES[m.statuses.get(issue.id) ?? "triage"];
      const to = c.allowed ? allowed[c.choice % allowed.length] : STATUSES[c.choice % STATUSES.length];
      await answered(
        await app.request(`/api/issues/${issue.id}`, { ...jsonPost({ status: to }), method: "PATCH" }),
        [200, 409],
        what,
      );
      return "sent";
    }
    case "claim":
      await claim(m, c.via, what);
      return "sent";
    case "complete":
    case "release": {
      const dispatchId = chosen(m.active.length > 0 ? m.active : m.dispatches, c.pick);
      if (!dispatchId) return "skipped";
      const response =
        c.kind === "complete"
          ? await app.request(`/api/dispatch/${dispatchId}/complete`, jsonPost({ result: c.result, summary: "step" }))
          : await app.request(`/api/dispatch/${dispatchId}/release`, jsonPost({}));
      await answered(response, [200, 409], what);
      return "sent";
    }
    case "expire":
      m.advance(LEASE_SECONDS + 1);
      // The preview must show the issues whose lease ran out before anything expires them.
      await expectWorldConsistent(m, `${what}, before anything expired the leases`);
      if (c.trigger !== "none") await claim(m, c.trigger, what);
      return "sent";
    case "merge": {
      const issue = target(m, c.pick);
      if (!issue) return "skipped";
      m.refs += 1;
      const delivery = codehostDelivery(
        "pull_request",
        mergedPullRequest(m.refs, { title: `Fix KZN-${issue.number}` }),
      );
      await answered(await app.request(delivery.path, delivery.init), [201], what);
      return "sent";
    }
    case "lifecycle": {
      const issue = chosen(
        m.issues.filter((known) => known.ref !== null),
        c.pick,
      );
      if (!issue || issue.ref === null) return "skipped";
      const delivery = codehostDelivery("issues", issueEvent(c.action, issue.ref));
      const data = (await answered(await app.request(delivery.path, delivery.init), [201], what)) as {
        issue: Issue | null;
      };
      noteIssue(m, data.issue, issue.ref);
      return "sent";
    }
    case "delete": {
      const issue = target(m, c.pick);
      if (!issue) return "skipped";
      await answered(await app.request(`/api/issues/${issue.id}`, { method: "DELETE", headers: AUTH }), [204], what);
      m.deleted.add(issue.id);
      return "sent";
    }
  }
}

/** The `blocks` facts each issue shows (`relations` of `GET /api/issues/:id`) are the ones the answers created. */
async function expectRelationsAsModelled(m: Model, ids: string[]): Promise<void> {
  // Reads only: side by side.
  const details = await Promise.all(
    ids.map((id) => dataOf<Issue & { relations: Relation[] }>(m.t.app.request(`/api/issues/${id}`, { headers: AUTH }))),
  );
  for (const [index, id] of ids.entries()) {
    const detail = details[index] as Issue & { relations: Relation[] };
    // Relations with a deleted issue are left out: docs/api.md says only that they stop blocking.
    const shown = detail.relations
      .filter((relation) => relation.type === "blocks" || relation.type === "blocked_by")
      .filter((relation) => !m.deleted.has(relation.relatedIssueId))
      .map((relation) =>
        relation.type === "blocks"
          ? `${relation.issueId} blocks ${relation.relatedIssueId}`
          : `${relation.relatedIssueId} blocks ${relation.issueId}`,
      );
    const modelled = m.blocks
      .filter(
        (fact) =>
          (fact.blocker === id || fact.blocked === id) && !m.deleted.has(fact.blocker) && !m.deleted.has(fact.blocked),
      )
      .map((fact) => `${fact.blocker} blocks ${fact.blocked}`);
    expect(sorted(shown), `relations of ${id}`).toEqual(sorted(modelled));
  }
}

/**
 * What must hold after every step: the live issues are the ones the run made and did not delete;
 * each one's `blockedBy` is exactly its open, live blockers; the queue is exactly the live issues
 * with no open blocker that are `todo`, or `in_progress` under a lease that ran out; every active
 * dispatch works a live `in_progress` issue and each such issue has exactly one; every count
 * equals a recount of the table.
 */
async function expectWorldConsistent(m: Model, what: string): Promise<void> {
  // Reads only, while nothing writes: side by side. A lease that ends while the queue is read may
  // show either way; one that ended before must show.
  const before = m.now().toISOString();
  const [issues, active, queue, mismatches] = await Promise.all([
    everyPage<Issue>(m.t.app, "/api/issues"),
    everyPage<Dispatch>(m.t.app, "/api/dispatch?status=active"),
    queuedIssueIds(m.t.app),
    countMismatches(m.t),
  ]);
  const after = m.now().toISOString();
  expect(sorted(issues.map((issue) => issue.id)), `${what}: the live issues`).toEqual(
    sorted(live(m).map((issue) => issue.id)),
  );
  const byId = new Map(issues.map((issue) => [issue.id, issue]));
  m.statuses = new Map(issues.map((issue) => [issue.id, issue.status]));
  const openBlockers = (id: string) =>
    sorted(
      new Set(
        m.blocks
          .filter((fact) => fact.blocked === id)
          .map((fact) => fact.blocker)
          .filter((blocker) => {
            const found = byId.get(blocker);
            return found !== undefined && isOpen(found.status);
          }),
      ),
    );
  const problems: string[] = [];
  for (const issue of issues) {
    const expected = openBlockers(issue.id);
    if (JSON.stringify(sorted(issue.blockedBy)) !== JSON.stringify(expected)) {
      problems.push(
        `${issue.id} (${issue.status}) blockedBy ${JSON.stringify(issue.blockedBy)}, open blockers ${JSON.stringify(expected)}`,
      );
    }
  }

  m.active = active.map((dispatch) => dispatch.id);
  const activeOf = new Map<string, string[]>();
  for (const dispatch of active)
    activeOf.set(dispatch.issueId, [...(activeOf.get(dispatch.issueId) ?? []), dispatch.id]);
  for (const [issueId, dispatches] of activeOf) {
    const status = byId.get(issueId)?.status ?? "deleted";
    if (status !== "in_progress")
      problems.push(`${issueId} is ${status} with active dispatch ${dispatches.join(", ")}`);
    if (dispatches.length > 1) problems.push(`${issueId} has ${dispatches.length} active dispatches`);
  }
  for (const issue of issues) {
    if (issue.status === "in_progress" && !activeOf.has(issue.id))
      problems.push(`${issue.id} is in_progress with no active dispatch`);
  }

  const leaseEndedBy = (instant: string) =>
    new Set(active.filter((dispatch) => dispatch.leaseExpiresAt <= instant).map((dispatch) => dispatch.issueId));
  const eligibleBy = (instant: string) => {
    const ended = leaseEndedBy(instant);
    return issues
      .filter((issue) => openBlockers(issue.id).length === 0)
      .filter((issue) => issue.status === "todo" || (issue.status === "in_progress" && ended.has(issue.id)))
      .map((issue) => issue.id);
  };
  const [surely, maybe] = [eligibleBy(before), eligibleBy(after)];
  if (new Set(queue).size !== queue.length) problems.push(`the queue lists an issue twice: ${JSON.stringify(queue)}`);
  for (const id of queue.filter((id) => !maybe.includes(id))) {
    problems.push(`${id} (${byId.get(id)?.status ?? "deleted"}) is queued but not eligible`);
  }
  for (const id of surely.filter((id) => !queue.includes(id))) {
    problems.push(`${id} (${byId.get(id)?.status}) is eligible but not queued`);
  }

  problems.push(...mismatches.map((line) => `count ${line}`));
  expect(problems, what).toEqual([]);
}

/**
 * Each run's app, on a new table with a clock of its own; the next run's table is made while a
 * run goes (making one takes DynamoDB Local a while).
 */
function runApps(emulateConflicts: boolean) {
  const make = async (): Promise<Pick<Model, "t" | "now" | "advance">> => {
    let offsetMs = 0;
    const now = () => new Date(Date.now() + offsetMs);
    const advance = (seconds: number) => {
      offsetMs += seconds * 1000;
    };
    return { t: await testApp({ clock: now }, { emulateConflicts }), now, advance };
  };
  let ahead = make();
  // A table made ahead that fails is reported by the run that takes it.
  ahead.catch(() => undefined);
  return {
    next() {
      const taken = ahead;
      ahead = make();
      ahead.catch(() => undefined);
      return taken;
    },
    /** Waits for the table made ahead that no run took. */
    async close() {
      await ahead.catch(() => undefined);
    },
  };
}

// The two modes run side by side, each on tables of its own.
describe.concurrent.each(CONFLICT_MODES)("the issue lifecycle ($mode)", ({ emulateConflicts }) => {
  it(
    "keeps blockedBy, the queue, active dispatches and every count true after each of random commands",
    async () => {
      const apps = runApps(emulateConflicts);
      try {
        await fc.assert(
          fc.asyncProperty(commands, async (steps) => {
            const m: Model = {
              ...(await apps.next()),
              issues: [],
              deleted: new Set(),
              blocks: [],
              dispatches: [],
              statuses: new Map(),
              active: [],
              refs: 0,
            };
            for (const [index, c] of steps.entries()) {
              const what = `step ${index + 1} ${JSON.stringify(c)}`;
              if ((await run(m, c, what)) === "sent") await expectWorldConsistent(m, what);
            }
            await expectRelationsAsModelled(
              m,
              live(m).map((issue) => issue.id),
            );
          }),
          { numRuns: RUNS, plugins: [fc.interruptAfterTimeLimit(TIME_BUDGET_MS)] },
        );
      } finally {
        await apps.close();
      }
    },
    TIME_BUDGET_MS + 60_000,
  );
});
