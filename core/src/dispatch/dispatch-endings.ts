/**
 * @module dispatch/dispatch-endings — how dispatches end (docs/api.md#dispatch): an agent completes, fails
 * or releases its dispatch once, a person or its budget stops it, and leases that ran out expire;
 * each end moves the issue (IssueMoves) in the dispatch's own transaction, and settles an
 * experiment whose arm it ran. What happens while a dispatch is open (activities, heartbeats,
 * messages, plan decisions) is ./dispatch-progress.ts, which asks here whether it is still open and
 * within its budget. Time comes from an injected clock.
 */
import type { Db } from "../db/db.js";
import { retryRaces } from "../db/retry.js";
import { ConflictError, NotFoundError } from "../errors.js";
import { defaultLogger, loggedError } from "../http/logger.js";
import type { StoredIssue } from "../issues/issue-item.js";
import { type PullRequestRef, repositoryOf } from "../issues/pull-request-index.js";
import type { Issue, PullRequest } from "../issues/schemas.js";
import type { ExperimentEndings } from "../templates/experiment-endings.js";
import { isOpen, type StopActor, type StoredDispatch, type VersionedDispatch } from "./dispatch-item.js";
import { budgetStopReason, PLAN_APPROVAL_REQUIRED, runningUsage, stoppedMessage } from "./dispatch-steps.js";
import type { Dispatches, DispatchStore } from "./dispatch-store.js";
import type { DispatchedIssues } from "./dispatched-issues.js";
import { DISPATCH_ID } from "./keys.js";
import type { CompleteInput, DispatchUsage, StopInput, UsageInput } from "./schemas.js";

/** Failed attempts after which an issue is canceled instead of queued again. */
export const MAX_FAILED_ATTEMPTS = 3;
/** The author name of what Kaizen itself writes on an issue (a budget stop's comment). */
export const KAIZEN_AUTHOR = "kaizen";
/** Leases a claim expires before choosing (more wait for the next claim). */
export const EXPIRIES_PER_CLAIM = 25;
/** A dispatch as it ended, its version, and its issue as the end left it (null: none, or no longer its). */
export type EndedDispatch = VersionedDispatch & { issue: Issue | null };

/** Dispatch `id`, or a 404. */
export async function requireDispatch(store: DispatchStore, id: string): Promise<StoredDispatch> {
  const found = DISPATCH_ID.test(id) ? await store.get(id) : undefined;
  if (!found) throw new NotFoundError(`Dispatch ${id} not found`);
  return found;
}

export class DispatchEndings {
  constructor(
    private readonly db: Db,
    private readonly dispatches: Dispatches,
    private readonly issues: DispatchedIssues,
    /** Decides an experiment once one of its dispatches ended (docs/api.md#experiments). */
    private readonly experiments: Pick<ExperimentEndings, "settle">,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Ends the dispatch with the agent's outcome. `done`: the issue is done, with the summary,
   * commits and pull requests — or `in_review` when one of the pull requests is still open
   * (docs/api.md#review), each pull request then pointing at the issue for the code host's review
   * events. `failed`: the issue goes back to `todo` (canceled at the third failed attempt), and the
   * summary reaches the next attempt's prompt. A dispatch whose plan needs approval completes
   * `done` only once its latest plan was approved (409); one whose reported usage passes its
   * budget is stopped instead (409).
   */
  async complete(id: string, input: CompleteInput, read?: StoredDispatch): Promise<EndedDispatch> {
    return retryRaces(async (attempt) => {
      const now = this.now();
      const current = await this.openDispatch(id, now, attempt === 1 ? read : undefined);
      const usage = await this.withinBudget(current, input.usage, now);
      if (input.result === "done" && current.dispatch.planApproved === false) {
        throw new ConflictError(PLAN_APPROVAL_REQUIRED);
      }
      const pullRequests = (input.pullRequests ?? []).map((pr) => ({ ...pr, repository: repositoryOf(pr) }));
      const outcome = { summary: input.summary, commits: input.commits ?? [], pullRequests };
      const status = input.result === "done" ? "completed" : "failed";
      const finished = this.dispatches.store.prepareFinish(current, status, now.toISOString(), {
        reported: outcome,
        usage,
      });
      const issue = await this.workedIssue(current);
      if (!issue) {
        await this.db.transactWrite(finished.writes);
        return { dispatch: finished.dispatch, issue: null, version: finished.version };
      }
      const failed = issue.failedDispatches + (status === "failed" ? 1 : 0);
      const changes: Partial<Issue> =
        status === "completed"
          ? {
              status: pullRequests.some(awaitsReview) ? "in_review" : "done",
              agentSummary: input.summary,
              commits: appendNew(issue.issue.commits, outcome.commits, (commit) => commit.sha),
              pullRequests: appendNew(issue.issue.pullRequests, outcome.pullRequests, (pr) => String(pr.number)),
            }
          : { status: failed >= MAX_FAILED_ATTEMPTS ? "canceled" : "todo", agentSummary: input.summary };
      const { stored, writes } = await this.issues.moves.prepare(
        {
          current: issue,
          changes,
          by: "dispatch",
          internals: { failedDispatches: failed },
          dispatchEnd: { prepared: finished.writes },
        },
        now,
      );
      const pointers =
        status === "completed"
          ? this.issues.pullRequests.preparePoint(keptPullRequests(pullRequests), issue.issue.id, id)
          : [];
      await this.db.transactWrite([...writes, ...pointers]);
      await this.settleExperiment(current);
      return { dispatch: finished.dispatch, issue: stored?.issue ?? null, version: finished.version };
    });
  }
  /**
   * A person stops an open dispatch (docs/api.md#stopping-a-dispatch): it ends `stopped` with the
   * reason, and its issue moves to `then` (todo, backlog or canceled), in one transaction held to
   * the dispatch's version, so a stop and a completion racing each other end it once: the loser
   * reads again and answers 409. Every later call with its token is a 409 naming the reason.
   */
  async stop(id: string, input: StopInput): Promise<EndedDispatch> {
    return retryRaces(async () => {
      const now = this.now();
      const current = await this.openDispatch(id, now);
      return this.stopped(current, now, { reason: input.reason, by: "api" }, input.then);
    });
  }

  /** Gives the issue back untouched: it returns to `todo`, the dispatch is `released`. */
  async release(id: string, read?: StoredDispatch): Promise<EndedDispatch> {
    return retryRaces(async (attempt) => {
      const now = this.now();
      const current = await this.openDispatch(id, now, attempt === 1 ? read : undefined);
      return this.endAndRequeue(current, "released", now);
    });
  }
  /**
   * Expires up to a batch of dispatches whose lease ended before `now` (an active one's lease, or
   * a waiting one's longest wait), putting their issues back.
   */
  async expireEnded(now: Date): Promise<number> {
    const ids = await this.dispatches.queries.leasesEndedBy(now.toISOString(), EXPIRIES_PER_CLAIM);
    let expired = 0;
    for (const id of ids) {
      try {
        await retryRaces(async () => {
          const current = await this.dispatches.store.get(id);
          if (!current || !isOpen(current.dispatch.status)) return;
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
  /**
   * The dispatch if it is open (active or waiting) with its lease running; an ended lease is
   * expired on the spot (then 409). A stopped dispatch's 409 says why it was stopped. `read`: the
   * dispatch as this request's token check read it a moment ago, used instead of reading it again
   * (every write is held to its version, so a change since makes the write fail and the next
   * attempt read afresh).
   */
  async openDispatch(id: string, now: Date, read?: StoredDispatch): Promise<StoredDispatch> {
    const current = read?.dispatch.id === id ? read : await requireDispatch(this.dispatches.store, id);
    if (isOpen(current.dispatch.status) && current.dispatch.leaseExpiresAt <= now.toISOString()) {
      await this.endAndRequeue(current, "expired", now);
      throw new ConflictError(`Dispatch ${id} is expired`);
    }
    if (current.dispatch.status === "stopped") throw new ConflictError(stoppedMessage(current.dispatch.stopReason));
    if (!isOpen(current.dispatch.status)) throw new ConflictError(`Dispatch ${id} is ${current.dispatch.status}`);
    return current;
  }

  /**
   * The usage of `current` once its agent reported `reported` (./dispatch-steps.ts `runningUsage`).
   * When it passes the dispatch's budget, Kaizen stops the dispatch (docs/api.md#budget-per-dispatch):
   * `stopped` with the budget as its reason, its issue to `backlog` with a comment that says why,
   * both as `automation`, keeping the usage; then the reporting call answers the stop's 409.
   */
  async withinBudget(
    current: StoredDispatch,
    reported: UsageInput | undefined,
    now: Date,
  ): Promise<DispatchUsage | null> {
    const usage = runningUsage(current.dispatch.usage, reported);
    const reason = budgetStopReason(current.dispatch, usage);
    if (reason === null) return usage;
    await this.stopped(current, now, { reason, by: "automation" }, "backlog", usage);
    throw new ConflictError(stoppedMessage(reason));
  }

  /**
   * Ends `current` as `stopped` for `stop`, moving its issue (while the dispatch still holds it)
   * to `then`; a stop by Kaizen itself also leaves a comment on the issue saying why.
   */
  private async stopped(
    current: StoredDispatch,
    now: Date,
    stop: { reason: string; by: StopActor },
    then: StopInput["then"],
    usage: DispatchUsage | null = current.dispatch.usage,
  ): Promise<EndedDispatch> {
    const finished = this.dispatches.store.prepareFinish(current, "stopped", now.toISOString(), { usage, stop });
    const issue = await this.workedIssue(current);
    const moved = issue
      ? await this.issues.moves.prepare(
          {
            current: issue,
            changes: { status: then },
            by: stop.by === "automation" ? "automation" : "dispatch",
            dispatchEnd: { prepared: finished.writes },
            ...(stop.by === "automation"
              ? {
                  recordAs: `dispatch.stopped ${current.dispatch.id}: ${stop.reason}; issue.status ${issue.issue.status}→${then}`,
                }
              : {}),
          },
          now,
        )
      : { stored: null, writes: finished.writes };
    const comment =
      issue && stop.by === "automation"
        ? this.issues.comments.prepareCreate(
            {
              issueId: issue.issue.id,
              parentId: null,
              body:
                `Kaizen stopped dispatch ${current.dispatch.id} (agent ${current.dispatch.agent}): ${stop.reason}. ` +
                `The issue went to the backlog; move it to todo when an agent should try again.`,
              authorName: KAIZEN_AUTHOR,
              authorType: "agent",
            },
            now.getTime(),
          ).writes
        : [];
    await this.db.transactWrite([...moved.writes, ...comment]);
    await this.settleExperiment(current);
    return { dispatch: finished.dispatch, issue: moved.stored?.issue ?? null, version: finished.version };
  }

  /** Ends `current` and, if its issue is still the one it works, puts the issue back in `todo`. */
  private async endAndRequeue(
    current: StoredDispatch,
    status: "released" | "expired",
    now: Date,
  ): Promise<EndedDispatch> {
    const finished = this.dispatches.store.prepareFinish(current, status, now.toISOString());
    const issue = await this.workedIssue(current);
    const moved = issue
      ? await this.issues.moves.prepare(
          { current: issue, changes: { status: "todo" }, by: "dispatch", dispatchEnd: { prepared: finished.writes } },
          now,
        )
      : { stored: null, writes: finished.writes };
    await this.db.transactWrite(moved.writes);
    await this.settleExperiment(current);
    return { dispatch: finished.dispatch, issue: moved.stored?.issue ?? null, version: finished.version };
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
    const issue = await this.issues.store.get(current.dispatch.issueId);
    return issue && issue.activeDispatchId === current.dispatch.id && issue.issue.status === "in_progress"
      ? issue
      : undefined;
  }
}

/** A pull request not merged yet: no `mergedAt`, and no state or `open` (docs/api.md#review). */
function awaitsReview(pr: PullRequest): boolean {
  return !pr.mergedAt && (pr.state === undefined || pr.state === null || pr.state.toLowerCase() === "open");
}

/** The pull requests a completion names that code-host events can find: those with a repository, once each. */
function keptPullRequests(pullRequests: PullRequest[]): PullRequestRef[] {
  const refs = new Map<string, PullRequestRef>();
  for (const { repository, number } of pullRequests) {
    if (repository) refs.set(`${repository.toLowerCase()}#${number}`, { repository, number });
  }
  return [...refs.values()];
}

/** `existing` with the entries of `added` it does not hold yet (by key), in order. */
function appendNew<T>(existing: T[], added: T[], keyOf: (entry: T) => string): T[] {
  const seen = new Set(existing.map(keyOf));
  return [...existing, ...added.filter((entry) => !seen.has(keyOf(entry)))];
}
