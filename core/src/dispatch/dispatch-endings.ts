/**
 * @module dispatch/dispatch-endings — how dispatches end (docs/api.md#dispatch): heartbeats extend a
 * lease, an agent completes, fails or releases its dispatch once, and leases that ran out expire;
 * each end moves the issue (IssueMoves) in the dispatch's own transaction, and settles an
 * experiment whose arm it ran. Time comes from an injected clock.
 */
import type { Db } from "../db/db.js";
import { retryRaces } from "../db/retry.js";
import { ConflictError, NotFoundError } from "../errors.js";
import { defaultLogger, loggedError } from "../http/logger.js";
import type { StoredIssue } from "../issues/issue-item.js";
import { type PullRequestRef, repositoryOf } from "../issues/pull-request-index.js";
import type { Issue, PullRequest } from "../issues/schemas.js";
import type { ExperimentEndings } from "../templates/experiment-endings.js";
import type { DispatchStore, StoredDispatch } from "./dispatch-store.js";
import type { DispatchedIssues } from "./dispatched-issues.js";
import { DISPATCH_ID, newActivityId } from "./keys.js";
import type { Activity, ActivityInput, CompleteInput, Dispatch, StopInput } from "./schemas.js";

/** Failed attempts after which an issue is canceled instead of queued again. */
export const MAX_FAILED_ATTEMPTS = 3;
/** Leases a claim expires before choosing (more wait for the next claim). */
export const EXPIRIES_PER_CLAIM = 25;
/** Dispatch `id`, or a 404. */
export async function requireDispatch(store: DispatchStore, id: string): Promise<StoredDispatch> {
  const found = DISPATCH_ID.test(id) ? await store.get(id) : undefined;
  if (!found) throw new NotFoundError(`Dispatch ${id} not found`);
  return found;
}

export class DispatchEndings {
  constructor(
    private readonly db: Db,
    private readonly store: DispatchStore,
    private readonly issues: DispatchedIssues,
    /** Decides an experiment once one of its dispatches ended (docs/api.md#experiments). */
    private readonly experiments: Pick<ExperimentEndings, "settle">,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Appends an activity of its agent to an active dispatch (docs/api.md#activities), as its next
   * sequence, and extends its lease by its length from now as a heartbeat does, in one transaction
   * at the version read: activities posted at once take turns (a lost race reads again), so their
   * sequences have no gaps or repeats. 409 once the dispatch ended or its lease ran out.
   */
  async activity(id: string, input: ActivityInput): Promise<Activity> {
    return retryRaces(async () => {
      const now = this.now();
      const current = await this.activeDispatch(id, now);
      const createdAt = now.toISOString();
      const activity: Activity = {
        id: newActivityId(now.getTime()),
        dispatchId: current.dispatch.id,
        issueId: current.dispatch.issueId,
        sequence: current.activityCount + 1,
        type: input.type,
        body: input.body,
        data: input.data ?? null,
        authorType: "agent",
        authorName: current.dispatch.agent,
        createdAt,
      };
      const until = new Date(now.getTime() + current.dispatch.leaseSeconds * 1000).toISOString();
      const { writes } = this.store.prepareActivity(current, activity, until);
      await this.db.transactWrite(writes);
      return activity;
    });
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
   * commits and pull requests — or `in_review` when one of the pull requests is still open
   * (docs/api.md#review), each pull request then pointing at the issue for the code host's review
   * events. `failed`: the issue goes back to `todo` (canceled at the third failed attempt), and the
   * summary reaches the next attempt's prompt.
   */
  async complete(id: string, input: CompleteInput): Promise<{ dispatch: Dispatch; issue: Issue | null }> {
    return retryRaces(async () => {
      const now = this.now();
      const current = await this.activeDispatch(id, now);
      const pullRequests = (input.pullRequests ?? []).map((pr) => ({ ...pr, repository: repositoryOf(pr) }));
      const outcome = { summary: input.summary, commits: input.commits ?? [], pullRequests };
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
      return { dispatch: finished.dispatch, issue: stored?.issue ?? null };
    });
  }
  /**
   * A person stops an active dispatch (docs/api.md#stopping-a-dispatch): it ends `stopped` with the
   * reason, and its issue moves to `then` (todo, backlog or canceled), in one transaction held to
   * the dispatch's version, so a stop and a completion racing each other end it once: the loser
   * reads again and answers 409. Every later call with its token is a 409 naming the reason.
   */
  async stop(id: string, input: StopInput): Promise<{ dispatch: Dispatch; issue: Issue | null }> {
    return retryRaces(async () => {
      const now = this.now();
      const current = await this.activeDispatch(id, now);
      const finished = this.store.prepareFinish(
        current,
        "stopped",
        now.toISOString(),
        null,
        null,
        undefined,
        input.reason,
      );
      const issue = await this.workedIssue(current);
      const moved = issue
        ? await this.issues.moves.prepare(
            {
              current: issue,
              changes: { status: input.then },
              by: "dispatch",
              dispatchEnd: { prepared: finished.writes },
            },
            now,
          )
        : { stored: null, writes: finished.writes };
      await this.db.transactWrite(moved.writes);
      await this.settleExperiment(current);
      return { dispatch: finished.dispatch, issue: moved.stored?.issue ?? null };
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
    const current = await requireDispatch(this.store, id);
    if (current.dispatch.status === "active" && current.dispatch.leaseExpiresAt <= now.toISOString()) {
      await this.endAndRequeue(current, "expired", now);
      throw new ConflictError(`Dispatch ${id} is expired`);
    }
    if (current.dispatch.status === "stopped") {
      throw new ConflictError(`Dispatch was stopped: ${current.dispatch.stopReason ?? "no reason given"}`);
    }
    if (current.dispatch.status !== "active") throw new ConflictError(`Dispatch ${id} is ${current.dispatch.status}`);
    return current;
  }
  /** Ends `current` and, if its issue is still the one it works, puts the issue back in `todo`. */
  private async endAndRequeue(current: StoredDispatch, status: "released" | "expired", now: Date) {
    const finished = this.store.prepareFinish(current, status, now.toISOString(), null);
    const issue = await this.workedIssue(current);
    const moved = issue
      ? await this.issues.moves.prepare(
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
