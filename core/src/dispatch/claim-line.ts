/**
 * @module dispatch/claim-line — the claim protocol (docs/api.md#dispatch): claimers that arrive at
 * once line up in their queue listing and each goes for the issue its place names, one transaction
 * per claim taking the issue, the dispatch, its lease and its prompt; projects' limits hold issues
 * back. Time comes from an injected clock.
 */
import { type Clock, machineClock, type SteadyClock, steadyClock } from "../clock.js";
import { ConditionFailedError, type Db, type Item, type TransactItem } from "../db/db.js";
import { retryConflicts } from "../db/retry.js";
import { ConflictError, TooManyRequestsError, UnavailableError } from "../errors.js";
import { isQueued, type QueueFilters, type QueueHeadEntry, queueListingOf } from "../issues/dispatch-queue.js";
import type { ClaimPrompts } from "../prompts/claim-prompts.js";
import { DAILY_COST_BUDGET_STOP, REVIEW_CAPACITY_STOP } from "../routes.js";
import type { Dispatches } from "./dispatch-store.js";
import type { DispatchedIssues } from "./dispatched-issues.js";
import { newClaimerId, newDispatchId } from "./keys.js";
import type { ProjectHolds, ProjectStop } from "./project-holds.js";
import { type ClaimInput, type ClaimResult, DEFAULT_LEASE_SECONDS, type Dispatch } from "./schemas.js";
import { newDispatchToken } from "./token.js";

/**
 * A claim that has looked for an issue this long answers 503 with `Retry-After` (docs/api.md#dispatch). Its
 * transactions' own time does not count: a database taking a burst's transactions in turn is not
 * a claim going round in circles.
 */
const CLAIM_DEADLINE_MS = 5_000;
/** A claim still under way this long after its first look answers 503 however its time went: it never hangs. */
const CLAIM_LIMIT_MS = 15_000;
/**
 * How long after it began a claimer counts for those behind it: past its deadline and one last
 * transaction, so one that died (a function that timed out) holds nobody back for longer.
 */
const CLAIMER_COUNTS_MS = 10_000;
/**
 * How long a claimer with more claimers ahead of it than issues left waits for one of them to
 * leave an issue before it answers that nothing is eligible (204).
 */
const AHEAD_WAIT_MS = 1_000;
/** How long a claimer with nothing left for it first waits for those ahead, doubling up to the most. */
const WAIT_START_MS = 25;
const WAIT_MAX_MS = 200;
/** Queue entries a claim reads with the count of claimers ahead of it (more when more are ahead). */
const HEAD_LOOKAHEAD = 64;
/** A claim, and the API key of its own that made it, if one did: the dispatch is that key's to work on. */
/** A claim as its caller asks it: the key that makes it (null: the root key), and the projects that key is narrowed to. */
export type ClaimerInput = ClaimInput & {
  keyId?: string | undefined;
  projectIds?: readonly string[] | undefined;
  /**
   * Writes of the caller's own that go in the claim's transaction for dispatch `dispatchId` (a
   * hosted runner's hand-off, docs/api.md#hosted-runners): when one of their conditions fails, nothing is
   * claimed and the claim throws {@link ClaimConditionError}.
   */
  alongside?: ((dispatchId: string, now: Date) => TransactItem[]) | undefined;
};

/** A claim's `alongside` writes found their conditions failed: nothing was claimed. */
export class ClaimConditionError extends ConflictError {
  constructor() {
    super("The claim's own conditions do not hold");
  }
}

/**
 * `Retry-After` of a claim refused for the agent's limit in a project (429): a dispatch ends when
 * its agent reports, so asking again every half minute finds the place freed soon enough.
 */
export const AGENT_LIMIT_RETRY_SECONDS = 30;

/**
 * A claim that took nothing because the projects of the issues it could take stop their claims now:
 * their reviews are full, or they spent their daily cost budget.
 */
export interface ClaimStopped {
  stopped: ProjectStop;
}

/** Why this claim passes over a project's issues: the agent's limit in it, or a stop of the project's claims. */
type Hold =
  | { hold: "agent-limit"; projectId: string; limit: number; active: number }
  | { hold: ProjectStop; projectId: string };

export class ClaimLine {
  /** What the claims' deadlines and waits run on: `now`, when it can wait (core/src/clock.ts). */
  private readonly steady: SteadyClock;

  constructor(
    private readonly db: Db,
    private readonly dispatches: Dispatches,
    private readonly issues: DispatchedIssues,
    private readonly prompts: Pick<ClaimPrompts, "ready" | "preparePrompt">,
    /** Whether a project's limits stop its claims now, as the queue's preview reads them too. */
    private readonly holds: Pick<ProjectHolds, "stopOf" | "named">,
    private readonly now: Clock = machineClock,
  ) {
    this.steady = steadyClock(now);
  }

  /** Milliseconds on the clock the deadlines run on. */
  private elapsed(): number {
    return this.steady().getTime();
  }

  /**
   * Takes the highest-scoring eligible issue for `input.agent`: the issue to `in_progress`, the
   * dispatch, its lease and its prompt in one transaction; null when nothing is eligible. (The service
   * expires leases that ran out first, so their issues compete again.)
   *
   * Claims made at once do not take turns (on Lambda they share no process) and do not all go for
   * the head: each enters itself among the claimers of its queue listing, counts the `r` that began
   * before it and are still under way, and goes for the queue's `r`-th issue, which those ahead of
   * it leave to it. So K claims at once take K different issues from the first K or so (docs/api.md#dispatch:
   * within the first 2K), each at the cost of one claim; alone, a claimer takes the head. An issue
   * that is gone when its transaction is sent (another claimer saw the claimers differently, or a
   * person moved it) is skipped and the count taken again. With fewer issues than claimers ahead,
   * a claimer waits a moment for those ahead (one may leave an issue) before it answers 204.
   *
   * A project's limits hold its issues back (docs/api.md#dispatch): when the agent holds
   * `limits.maxActivePerAgent` of its dispatches, its agents reported `limits.dailyCostBudgetUsd`
   * today, or `limits.maxInReview` of its issues wait in review (docs/api.md#review-capacity). A claim filtered by that project answers at once (429, or {@link ClaimStopped}); another
   * passes over the project's issues for the rest of the queue, and answers so only when nothing
   * else was left, the agent's limit first.
   *
   * A claim filtered by a project that does not exist is a 400 (docs/api.md#status-codes), found when
   * it would answer that nothing is eligible: a claim that takes an issue, or is held, read the
   * project with the issue's prompt, so naming it costs such a claim no read.
   */
  async claim(input: ClaimerInput): Promise<ClaimResult | ClaimStopped | null> {
    // The defaults are seeded before the claimer takes its place in line, never while it holds it.
    await this.prompts.ready();
    const started = Date.now();
    const listing = queueListingOf(input);
    const claimerId = newClaimerId(started);
    await this.dispatches.claimers.enterClaimer(listing, claimerId, new Date(started));
    let entered = true;
    // The first look always happens, however slow the way here was (a busy process, expiries);
    // looking again has a deadline, counted from the first look without the transactions' time.
    const looking = this.elapsed();
    const transactions = { ms: 0 };
    try {
      const skipped = new Set<string>();
      /** Projects whose issues this claim passes over, and why. */
      const held = new Map<string, Hold>();
      let waitingSince: number | undefined;
      for (let wait = WAIT_START_MS, round = 0; ; round++) {
        const elapsed = this.elapsed() - looking;
        if (round > 0 && (elapsed - transactions.ms >= CLAIM_DEADLINE_MS || elapsed >= CLAIM_LIMIT_MS)) {
          throw new UnavailableError("Too many concurrent claims; retry shortly");
        }
        const { ahead, head } = await this.look(input, listing, claimerId, skipped.size);
        // A held project's issues are passed over unread; with some newly passed over, look deeper.
        const passed = skipped.size;
        for (const entry of head) if (entry.projectId && held.has(entry.projectId)) skipped.add(entry.issueId);
        if (skipped.size > passed) continue;
        const wanted = ahead + skipped.size + 1;
        const open = head.filter((entry) => !skipped.has(entry.issueId));
        if (open.length === 0 && head.length < wanted) return await this.nothingClaimed(input, held);
        const issueId = open[ahead]?.issueId;
        if (issueId === undefined) {
          // More claimers ahead than issues left for them: one of them may still leave one, or the
          // count was read as one of them finished. Past a short while, the issues are theirs.
          waitingSince ??= this.elapsed();
          if (this.elapsed() - waitingSince >= AHEAD_WAIT_MS) return await this.nothingClaimed(input, held);
          await this.steady.wait(wait);
          wait = Math.min(wait * 2, WAIT_MAX_MS);
          continue;
        }
        // AWS refuses a transaction at once while another holds one of its items: send it again.
        const claimerEnd = this.dispatches.claimers.claimerEnd(listing, claimerId);
        const outcome = await retryConflicts(() => this.tryClaim(issueId, input, claimerEnd, transactions, held));
        if (outcome === "gone") {
          skipped.add(issueId);
        } else if ("hold" in outcome) {
          // Filtered by the project, nothing else could be claimed: answer now.
          if (input.projectId) return await this.nothingClaimed(input, new Map([[outcome.projectId, outcome]]));
          held.set(outcome.projectId, outcome);
          skipped.add(issueId);
        } else {
          entered = false;
          return outcome;
        }
      }
    } finally {
      if (entered) await this.dispatches.claimers.leaveClaimers(listing, claimerId);
    }
  }
  /**
   * What a claim that took nothing answers ({@link stoppedBy}). When nothing held anything back and
   * the claim named a project, the project is read: a 400 when there is none. Callers await it where
   * they return it, so its refusal is caught before their `finally` leaves the line.
   */
  private async nothingClaimed(input: ClaimerInput, held: ReadonlyMap<string, Hold>): Promise<ClaimStopped | null> {
    const stopped = stoppedBy(input, held);
    if (stopped === null && input.projectId) await this.holds.named(input.projectId);
    return stopped;
  }

  /**
   * How many claimers are ahead of this one, and the head of the queue deep enough for it (the
   * `ahead + skipped + 1` first issues, or all there are). Where the head is one query (no entry
   * filters), both are read at once: claims that end between two reads would otherwise leave the
   * count and the queue out of step (the count still holding claimers whose issues have left the
   * queue), and the claimer would go one place too far, for the issue of the claimer behind it.
   */
  private async look(
    filters: QueueFilters,
    listing: string,
    claimerId: string,
    skipped: number,
  ): Promise<{ ahead: number; head: QueueHeadEntry[] }> {
    const since = new Date(Date.now() - CLAIMER_COUNTS_MS);
    if (!this.issues.queue.headIsOneQuery(filters)) {
      const ahead = await this.dispatches.claimers.claimersAhead(listing, claimerId, since);
      return { ahead, head: await this.issues.queue.head(filters, ahead + skipped + 1) };
    }
    const depth = skipped + HEAD_LOOKAHEAD;
    const [ahead, head] = await Promise.all([
      this.dispatches.claimers.claimersAhead(listing, claimerId, since),
      this.issues.queue.head(filters, depth),
    ]);
    const wanted = ahead + skipped + 1;
    // More claimers ahead than the look read past: read on.
    if (wanted > depth && head.length === depth) return { ahead, head: await this.issues.queue.head(filters, wanted) };
    return { ahead, head };
  }
  /**
   * One attempt at one issue, ending the claimer's entry (`claimerEnd`) in the same transaction:
   * `gone` when it is no longer queued (or changed as the transaction was sent); a {@link Hold} when
   * its project's limits hold it back from this agent now (`held` has the projects found so already).
   * Throws {@link TransactionConflictError} when another transaction held one of its items. The
   * transaction's time is added to `transactions` (the claim's deadline leaves it out).
   */
  private async tryClaim(
    issueId: string,
    input: ClaimerInput,
    claimerEnd: TransactItem,
    transactions: { ms: number },
    held: ReadonlyMap<string, Hold>,
  ): Promise<ClaimResult | Hold | "gone"> {
    // The issue's whole partition in one read: the claim's condition and the prompt's context both use it.
    const aggregate = await this.issues.store.getAggregate(issueId);
    const stored = aggregate?.stored;
    if (!aggregate || !stored || !isQueued(stored.issue)) return "gone";
    const projectId = stored.issue.projectId;
    // The queue's entry said the project; the issue may have moved since.
    if (input.projectIds && (projectId === null || !input.projectIds.includes(projectId))) return "gone";
    const known = projectId ? held.get(projectId) : undefined;
    if (known) return known;
    // The clock read after the issue was seen free: a claim never starts before the previous dispatch ended.
    const now = this.now();
    const { id, claimedAt } = newDispatchId(now.getTime());
    const leaseSeconds = input.leaseSeconds ?? DEFAULT_LEASE_SECONDS;
    const leaseExpiresAt = new Date(now.getTime() + leaseSeconds * 1000).toISOString();
    const { token, hash } = newDispatchToken(id);
    const previous = stored.dispatchAttempts > 0 ? await this.dispatches.queries.ofIssue(issueId) : [];
    // The prompt shows the issue as the claim leaves it.
    const claimedIssue = {
      ...aggregate,
      stored: { ...stored, issue: { ...stored.issue, status: "in_progress" as const } },
    };
    const prepared = await this.prompts.preparePrompt(
      claimedIssue,
      id,
      {
        dispatch: { id, token, leaseExpiresAt },
        previousDispatches: previous.map((earlier) => ({
          id: earlier.id,
          status: earlier.status,
          agent: earlier.agent,
          attempt: earlier.attempt,
          summary: earlier.outcome?.summary ?? null,
          finishedAt: earlier.finishedAt,
          pullRequests: earlier.outcome?.pullRequests ?? [],
        })),
      },
      stored.failedDispatches,
    );
    // The project as the prompt's context read it: its limits cost no read of their own.
    const project = projectId ? prepared.project : null;
    const limits = project?.limits;
    const stop = project ? await this.holds.stopOf(project, now) : null;
    if (projectId && stop) return { hold: stop, projectId };
    const dispatch: Dispatch = {
      id,
      issueId,
      agent: input.agent,
      status: "active",
      promptId: prepared.prompt?.id ?? null,
      attempt: stored.dispatchAttempts + 1,
      leaseSeconds,
      claimedAt,
      heartbeatAt: null,
      leaseExpiresAt,
      finishedAt: null,
      outcome: null,
      usage: null,
      stopReason: null,
      waitingFor: null,
      // What the project asks of this dispatch is kept on it at the claim: its steps read no project.
      planApproved: projectId && prepared.project?.autonomy.planApproval ? false : null,
      costBudgetUsd: limits?.maxCostPerDispatchUsd ?? null,
    };
    const moved = await this.issues.moves.prepare(
      {
        current: stored,
        changes: { status: "in_progress" },
        by: "dispatch",
        internals: { activeDispatchId: id, lastDispatchId: id, dispatchAttempts: dispatch.attempt },
      },
      now,
    );
    if (!moved.stored) throw new Error("A claim never deletes its issue");
    const maxActive = limits?.maxActivePerAgent ?? null;
    const load = projectId ? this.dispatches.store.prepareAgentLoad(projectId, input.agent, maxActive) : undefined;
    // The dispatch first: it is what a claim creates, so the audit record its transaction carries
    // names it (http/audit `createdIn`: the first resource put), as the claim's `Location` does.
    const writes = [
      ...this.dispatches.store.prepareCreate(
        dispatch,
        hash,
        stored.issue.number,
        prepared.prompt
          ? {
              templateId: prepared.prompt.templateId,
              versionNumber: prepared.prompt.versionNumber,
              experiment: prepared.prompt.experiment,
            }
          : null,
        projectId,
        input.keyId ?? null,
      ),
      ...moved.writes,
      ...(load ? [load] : []),
      ...prepared.writes,
      claimerEnd,
    ];
    const alongside = input.alongside?.(id, now) ?? [];
    const ownFrom = writes.length;
    writes.push(...alongside);
    const sent = this.elapsed();
    try {
      await this.db.transactWrite(writes);
    } catch (error) {
      if (error instanceof ConditionFailedError) {
        if (error.reasons.slice(ownFrom).includes("ConditionalCheckFailed")) throw new ClaimConditionError();
        // The agent's count of the project's dispatches was at the limit: its own condition failed.
        const at = load ? writes.indexOf(load) : -1;
        if (projectId && maxActive !== null && at >= 0 && error.reasons[at] === "ConditionalCheckFailed") {
          const count = (error.existing as (Item | undefined)[] | undefined)?.[at]?.active;
          return { hold: "agent-limit", projectId, limit: maxActive, active: Number(count ?? maxActive) };
        }
        // Another claim took it or a person moved it: the caller moves on.
        return "gone";
      }
      throw error;
    } finally {
      transactions.ms += this.elapsed() - sent;
    }
    return { dispatch: { ...dispatch, token }, issue: moved.stored.issue, prompt: prepared.prompt };
  }
}

/**
 * A claim's answer when it took nothing: 429 when an agent's limit held back a project's issues
 * (before the budget: waiting a while frees the agent's place, and tells it why); the review
 * capacity's stop when a project's reviews held some back (reviews ending free it); the budget's
 * stop when only budgets did; else null (nothing eligible).
 */
function stoppedBy(input: ClaimInput, held: ReadonlyMap<string, Hold>): ClaimStopped | null {
  const holds = [...held.values()];
  const limited = holds.find((hold) => hold.hold === "agent-limit");
  if (limited) {
    throw new TooManyRequestsError(
      `Agent ${input.agent} holds ${limited.active} active dispatch${limited.active === 1 ? "" : "es"} of project ${limited.projectId} (limits.maxActivePerAgent is ${limited.limit})`,
      { retryAfterSeconds: AGENT_LIMIT_RETRY_SECONDS },
    );
  }
  if (holds.some((hold) => hold.hold === "review-capacity")) return { stopped: REVIEW_CAPACITY_STOP };
  return holds.length > 0 ? { stopped: DAILY_COST_BUDGET_STOP } : null;
}
