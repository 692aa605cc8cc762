/**
 * @module dispatch/dispatch-service — hand-offs of issues to agents (docs/api.md#dispatch): a claim takes the head of
 * the queue with its prompt in one transaction, leases run out and put issues back, and an agent
 * ends its dispatch once (done, failed, released). Time comes from an injected clock.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { ConditionFailedError, type Db, type Item, type TransactItem, TransactionConflictError } from "../db/db.js";
import { retryConflicts, retryRaces } from "../db/retry.js";
import { ConflictError, NotFoundError, TooManyRequestsError, UnavailableError } from "../errors.js";
import { defaultLogger, loggedError } from "../http/logger.js";
import { pageOffset } from "../http/pagination.js";
import {
  type DispatchQueue,
  isQueued,
  type QueueFilters,
  type QueueHeadEntry,
  queueListingOf,
  queuePlacement,
} from "../issues/dispatch-queue.js";
import type { StoredIssue } from "../issues/issue-item.js";
import type { IssueMoves } from "../issues/issue-moves.js";
import type { IssueStore } from "../issues/issue-store.js";
import type { Issue } from "../issues/schemas.js";
import { scoreOf } from "../issues/scoring.js";
import type { PromptService } from "../prompts/prompt-service.js";
import { DAILY_COST_BUDGET_STOP } from "../routes.js";
import { type UsageStats, usageDay } from "../stats/usage-stats.js";
import type { ExperimentEndings } from "../templates/experiment-endings.js";
import type { DispatchStore, StoredDispatch } from "./dispatch-store.js";
import { DISPATCH_ID, newClaimerId, newDispatchId } from "./keys.js";
import {
  type ClaimInput,
  type ClaimResult,
  type CompleteInput,
  DEFAULT_LEASE_SECONDS,
  type Dispatch,
  type ListDispatchesQuery,
  type QueueItem,
  type QueueQuery,
} from "./schemas.js";
import { newDispatchToken } from "./token.js";

/** Failed attempts after which an issue is canceled instead of queued again. */
export const MAX_FAILED_ATTEMPTS = 3;
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
/** Leases a claim expires before choosing (more wait for the next claim). */
const EXPIRIES_PER_CLAIM = 25;
/**
 * `Retry-After` of a claim refused for the agent's limit in a project (429): a dispatch ends when
 * its agent reports, so asking again every half minute finds the place freed soon enough.
 */
export const AGENT_LIMIT_RETRY_SECONDS = 30;

/** A claim that took nothing because the projects of the issues it could take spent their daily cost budget. */
export interface ClaimStopped {
  stopped: typeof DAILY_COST_BUDGET_STOP;
}

/** Why this claim passes over a project's issues. */
type Hold =
  | { hold: "agent-limit"; projectId: string; limit: number; active: number }
  | { hold: "daily-cost-budget"; projectId: string };

export type { ClaimResult, QueueItem };

export class DispatchService {
  constructor(
    private readonly db: Db,
    private readonly store: DispatchStore,
    private readonly issues: IssueStore,
    private readonly queueIndex: DispatchQueue,
    private readonly moves: IssueMoves,
    private readonly prompts: PromptService,
    /** What projects' dispatches reported they cost today, held against their daily budgets. */
    private readonly usage: Pick<UsageStats, "projectDay">,
    /** Decides an experiment once one of its dispatches ended (docs/api.md#experiments). */
    private readonly experiments: Pick<ExperimentEndings, "settle">,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Takes the highest-scoring eligible issue for `input.agent`: the issue to `in_progress`, the
   * dispatch, its lease and its prompt in one transaction; null when nothing is eligible. Leases
   * that ran out are expired first, so their issues compete again.
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
   * `limits.maxActivePerAgent` of its dispatches, or its agents reported `limits.dailyCostBudgetUsd`
   * today. A claim filtered by that project answers at once (429, or {@link ClaimStopped}); another
   * passes over the project's issues for the rest of the queue, and answers so only when nothing
   * else was left, the agent's limit first.
   */
  async claim(input: ClaimInput): Promise<ClaimResult | ClaimStopped | null> {
    await this.expireEnded(this.now());
    const started = Date.now();
    const listing = queueListingOf(input);
    const claimerId = newClaimerId(started);
    await this.store.enterClaimer(listing, claimerId, new Date(started));
    let entered = true;
    // The first look always happens, however slow the way here was (a busy process, expiries);
    // looking again has a deadline, counted from the first look without the transactions' time.
    const looking = Date.now();
    const transactions = { ms: 0 };
    try {
      const skipped = new Set<string>();
      /** Projects whose issues this claim passes over, and why. */
      const held = new Map<string, Hold>();
      let waitingSince: number | undefined;
      for (let wait = WAIT_START_MS, round = 0; ; round++) {
        const elapsed = Date.now() - looking;
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
        if (open.length === 0 && head.length < wanted) return nothingClaimed(input, held);
        const issueId = open[ahead]?.issueId;
        if (issueId === undefined) {
          // More claimers ahead than issues left for them: one of them may still leave one, or the
          // count was read as one of them finished. Past a short while, the issues are theirs.
          waitingSince ??= Date.now();
          if (Date.now() - waitingSince >= AHEAD_WAIT_MS) return nothingClaimed(input, held);
          await sleep(wait);
          wait = Math.min(wait * 2, WAIT_MAX_MS);
          continue;
        }
        // AWS refuses a transaction at once while another holds one of its items: send it again.
        const claimerEnd = this.store.claimerEnd(listing, claimerId);
        const outcome = await retryConflicts(() => this.tryClaim(issueId, input, claimerEnd, transactions, held));
        if (outcome === "gone") {
          skipped.add(issueId);
        } else if ("hold" in outcome) {
          // Filtered by the project, nothing else could be claimed: answer now.
          if (input.projectId) return nothingClaimed(input, new Map([[outcome.projectId, outcome]]));
          held.set(outcome.projectId, outcome);
          skipped.add(issueId);
        } else {
          entered = false;
          return outcome;
        }
      }
    } finally {
      if (entered) await this.store.leaveClaimers(listing, claimerId);
    }
  }

  /** The queue in claim order, a page at a time, with each issue's score now; reads only. */
  async queue(query: QueueQuery): Promise<{ items: QueueItem[]; total: number }> {
    const now = this.now();
    const request = { offset: pageOffset(query), limit: query.limit };
    const ended = await this.endedLeaseIssues(now, query);
    // Issues whose lease ran out rejoin at their place when the next claim expires them: merged
    // here so the preview is the order claims will take. Without any, a page is three reads.
    const { entries, total } = await this.queueIndex.entries(
      query,
      ended.length === 0 ? request : { offset: 0, limit: request.offset + request.limit },
    );
    const merged = [...entries, ...ended]
      .sort((a, b) => (a.sk < b.sk ? -1 : a.sk > b.sk ? 1 : 0))
      .slice(ended.length === 0 ? 0 : request.offset, ended.length === 0 ? undefined : request.offset + request.limit);
    const stored = await this.issues.getMany(merged.map(({ issueId }) => issueId));
    const byId = new Map(stored.map((issue) => [issue.issue.id, issue]));
    const items = merged.flatMap(({ issueId, goal }) => {
      const found = byId.get(issueId);
      return found ? [{ issue: found.issue, ...scoreOf(found.issue, goal, now) }] : [];
    });
    return { items, total: total + ended.length };
  }

  async getDispatch(id: string): Promise<StoredDispatch> {
    const found = DISPATCH_ID.test(id) ? await this.store.get(id) : undefined;
    if (!found) throw new NotFoundError(`Dispatch ${id} not found`);
    return found;
  }

  async listDispatches(query: ListDispatchesQuery) {
    const { page: _page, limit, ...filters } = query;
    return this.store.list(filters, { offset: pageOffset(query), limit });
  }

  /** Extends an active lease by its length from now; 409 once the dispatch ended or its lease ran out. */
  async heartbeat(id: string): Promise<Dispatch> {
    return retryRaces(async () => {
      const now = this.now();
      const current = await this.activeDispatch(id, now);
      const until = new Date(now.getTime() + current.dispatch.leaseSeconds * 1000).toISOString();
      const { dispatch, writes } = this.store.prepareHeartbeat(current, now.toISOString(), until);
      await this.db.transactWrite(writes);
      return dispatch;
    });
  }

  /**
   * Ends the dispatch with the agent's outcome. `done`: the issue is done, with the summary,
   * commits and pull requests. `failed`: the issue goes back to `todo` (canceled at the third
   * failed attempt), and the summary reaches the next attempt's prompt.
   */
  async complete(id: string, input: CompleteInput): Promise<{ dispatch: Dispatch; issue: Issue | null }> {
    return retryRaces(async () => {
      const now = this.now();
      const current = await this.activeDispatch(id, now);
      const outcome = { summary: input.summary, commits: input.commits ?? [], pullRequests: input.pullRequests ?? [] };
      const status = input.result === "done" ? "completed" : "failed";
      const usage = input.usage
        ? {
            inputTokens: input.usage.inputTokens ?? null,
            outputTokens: input.usage.outputTokens ?? null,
            costUsd: input.usage.costUsd ?? null,
            model: input.usage.model ?? null,
          }
        : null;
      const finished = this.store.prepareFinish(current, status, now.toISOString(), outcome, usage);
      const issue = await this.workedIssue(current);
      if (!issue) {
        await this.db.transactWrite(finished.writes);
        return { dispatch: finished.dispatch, issue: null };
      }
      const failed = issue.failedDispatches + (status === "failed" ? 1 : 0);
      const changes: Partial<Issue> =
        status === "completed"
          ? {
              status: "done",
              agentSummary: input.summary,
              commits: appendNew(issue.issue.commits, outcome.commits, (commit) => commit.sha),
              pullRequests: appendNew(issue.issue.pullRequests, outcome.pullRequests, (pr) => String(pr.number)),
            }
          : { status: failed >= MAX_FAILED_ATTEMPTS ? "canceled" : "todo", agentSummary: input.summary };
      const { stored, writes } = await this.moves.prepare(
        {
          current: issue,
          changes,
          by: "dispatch",
          internals: { failedDispatches: failed },
          dispatchEnd: { prepared: finished.writes },
        },
        now,
      );
      await this.db.transactWrite(writes);
      await this.settleExperiment(current);
      return { dispatch: finished.dispatch, issue: stored?.issue ?? null };
    });
  }

  /** Gives the issue back untouched: it returns to `todo`, the dispatch is `released`. */
  async release(id: string): Promise<{ dispatch: Dispatch; issue: Issue | null }> {
    return retryRaces(async () => {
      const now = this.now();
      const current = await this.activeDispatch(id, now);
      return this.endAndRequeue(current, "released", now);
    });
  }

  /** Expires up to a batch of dispatches whose lease ended before `now`, putting their issues back. */
  async expireEnded(now: Date): Promise<number> {
    const ids = await this.store.leasesEndedBy(now.toISOString(), EXPIRIES_PER_CLAIM);
    let expired = 0;
    for (const id of ids) {
      try {
        await retryRaces(async () => {
          const current = await this.store.get(id);
          if (current?.dispatch.status !== "active") return;
          await this.endAndRequeue(current, "expired", now);
          expired += 1;
        });
      } catch (error) {
        // Someone ended it meanwhile (a completion, another claim's expiry): nothing left to do.
        if (!(error instanceof ConflictError)) throw error;
      }
    }
    return expired;
  }

  /** The dispatch if it is active with its lease running; an ended lease is expired on the spot (then 409). */
  private async activeDispatch(id: string, now: Date): Promise<StoredDispatch> {
    const current = await this.getDispatch(id);
    if (current.dispatch.status === "active" && current.dispatch.leaseExpiresAt <= now.toISOString()) {
      await this.endAndRequeue(current, "expired", now);
      throw new ConflictError(`Dispatch ${id} is expired`);
    }
    if (current.dispatch.status !== "active") throw new ConflictError(`Dispatch ${id} is ${current.dispatch.status}`);
    return current;
  }

  /** Ends `current` and, if its issue is still the one it works, puts the issue back in `todo`. */
  private async endAndRequeue(current: StoredDispatch, status: "released" | "expired", now: Date) {
    const finished = this.store.prepareFinish(current, status, now.toISOString(), null);
    const issue = await this.workedIssue(current);
    const moved = issue
      ? await this.moves.prepare(
          { current: issue, changes: { status: "todo" }, by: "dispatch", dispatchEnd: { prepared: finished.writes } },
          now,
        )
      : { stored: null, writes: finished.writes };
    await this.db.transactWrite(moved.writes);
    await this.settleExperiment(current);
    return { dispatch: finished.dispatch, issue: moved.stored?.issue ?? null };
  }

  /**
   * After a dispatch of an experiment's arm ended: the experiment's rule applied to its counts now.
   * The end is stored whatever happens here; a decision that could not be taken now is taken at
   * the experiment's next finish or review.
   */
  private async settleExperiment(ended: StoredDispatch): Promise<void> {
    const version = ended.promptVersion;
    if (!version?.experiment) return;
    try {
      await this.experiments.settle(version.templateId, version.experiment.id);
    } catch (error) {
      defaultLogger.warn("experiment decision deferred", {
        experimentId: version.experiment.id,
        error: loggedError(error),
      });
    }
  }

  /** The dispatch's issue while the dispatch still holds it (a person may have moved it meanwhile). */
  private async workedIssue(current: StoredDispatch): Promise<StoredIssue | undefined> {
    const issue = await this.issues.get(current.dispatch.issueId);
    return issue && issue.activeDispatchId === current.dispatch.id && issue.issue.status === "in_progress"
      ? issue
      : undefined;
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
    if (!this.queueIndex.headIsOneQuery(filters)) {
      const ahead = await this.store.claimersAhead(listing, claimerId, since);
      return { ahead, head: await this.queueIndex.head(filters, ahead + skipped + 1) };
    }
    const depth = skipped + HEAD_LOOKAHEAD;
    const [ahead, head] = await Promise.all([
      this.store.claimersAhead(listing, claimerId, since),
      this.queueIndex.head(filters, depth),
    ]);
    const wanted = ahead + skipped + 1;
    // More claimers ahead than the look read past: read on.
    if (wanted > depth && head.length === depth) return { ahead, head: await this.queueIndex.head(filters, wanted) };
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
    input: ClaimInput,
    claimerEnd: TransactItem,
    transactions: { ms: number },
    held: ReadonlyMap<string, Hold>,
  ): Promise<ClaimResult | Hold | "gone"> {
    // The issue's whole partition in one read: the claim's condition and the prompt's context both use it.
    const aggregate = await this.issues.getAggregate(issueId);
    const stored = aggregate?.stored;
    if (!aggregate || !stored || !isQueued(stored.issue)) return "gone";
    const projectId = stored.issue.projectId;
    const known = projectId ? held.get(projectId) : undefined;
    if (known) return known;
    // The clock read after the issue was seen free: a claim never starts before the previous dispatch ended.
    const now = this.now();
    const { id, claimedAt } = newDispatchId(now.getTime());
    const leaseSeconds = input.leaseSeconds ?? DEFAULT_LEASE_SECONDS;
    const leaseExpiresAt = new Date(now.getTime() + leaseSeconds * 1000).toISOString();
    const { token, hash } = newDispatchToken(id);
    const previous = stored.dispatchAttempts > 0 ? await this.store.ofIssue(issueId) : [];
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
        })),
      },
      stored.failedDispatches,
    );
    // The project as the prompt's context read it: its limits cost no read of their own.
    const limits = projectId ? prepared.project?.limits : undefined;
    const budget = limits?.dailyCostBudgetUsd ?? null;
    if (projectId && budget !== null) {
      const today = await this.usage.projectDay(projectId, usageDay(now));
      if (today.costUsd >= budget) return { hold: "daily-cost-budget", projectId };
    }
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
    };
    const moved = await this.moves.prepare(
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
    const load = projectId ? this.store.prepareAgentLoad(projectId, input.agent, maxActive) : undefined;
    const writes = [
      ...moved.writes,
      ...this.store.prepareCreate(
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
      ),
      ...(load ? [load] : []),
      ...prepared.writes,
      claimerEnd,
    ];
    const sent = Date.now();
    try {
      await this.db.transactWrite(writes);
    } catch (error) {
      if (error instanceof ConditionFailedError) {
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
      transactions.ms += Date.now() - sent;
    }
    return { dispatch: { ...dispatch, token }, issue: moved.stored.issue, prompt: prepared.prompt };
  }

  /** Queue positions of the issues whose lease ran out (their dispatches are not expired yet). */
  private async endedLeaseIssues(now: Date, filters: QueueFilters) {
    const ids = await this.store.leasesEndedBy(now.toISOString(), EXPIRIES_PER_CLAIM);
    if (ids.length === 0) return [];
    const dispatches = await this.store.getMany(ids);
    const issues = await this.issues.getMany(dispatches.map(({ dispatch }) => dispatch.issueId));
    return issues
      .filter((stored) => stored.issue.status === "in_progress" && stored.issue.blockedBy.length === 0)
      .filter((stored) => matches(stored.issue, filters))
      .map((stored) => {
        const requeued = { ...stored.issue, status: "todo" as const };
        return {
          sk: queuePlacement(requeued, stored.goalActive).sk,
          issueId: stored.issue.id,
          goal: stored.goalActive,
        };
      });
  }
}

/**
 * A claim's answer when it took nothing: 429 when an agent's limit held back a project's issues
 * (before the budget: waiting a while frees the agent's place, and tells it why); the budget's
 * stop when only budgets did; else null (nothing eligible).
 */
function nothingClaimed(input: ClaimInput, held: ReadonlyMap<string, Hold>): ClaimStopped | null {
  const holds = [...held.values()];
  const limited = holds.find((hold) => hold.hold === "agent-limit");
  if (limited) {
    throw new TooManyRequestsError(
      `Agent ${input.agent} holds ${limited.active} active dispatch${limited.active === 1 ? "" : "es"} of project ${limited.projectId} (limits.maxActivePerAgent is ${limited.limit})`,
      { retryAfterSeconds: AGENT_LIMIT_RETRY_SECONDS },
    );
  }
  return holds.length > 0 ? { stopped: DAILY_COST_BUDGET_STOP } : null;
}

function matches(issue: Issue, filters: QueueFilters): boolean {
  return (
    (!filters.projectId || issue.projectId === filters.projectId) &&
    (!filters.types || filters.types.length === 0 || filters.types.includes(issue.type))
  );
}

/** `existing` with the entries of `added` it does not hold yet (by key), in order. */
function appendNew<T>(existing: T[], added: T[], keyOf: (entry: T) => string): T[] {
  const seen = new Set(existing.map(keyOf));
  return [...existing, ...added.filter((entry) => !seen.has(keyOf(entry)))];
}
