/**
 * @module signals/review-loop — code-host events about an issue's pull requests
 * (docs/api.md#review, docs/api.md#what-a-signal-does rule 1): the issues a pull request is kept by
 * (its repository and number) or names (`KZN-<n>`, a `kaizen/<n>` branch); a merge closes the loop
 * on them, a review, review comment, failed check or unmerged close is kept as their feedback and
 * sends those in review back to `todo`. All as the writes of the signal's own transaction.
 */

import type { CatalogLookups } from "../catalog/catalog-lookups.js";
import { DEFAULT_VERIFY_HOURS } from "../catalog/schemas.js";
import type { TransactItem } from "../db/db.js";
import type { StoredIssue } from "../issues/issue-item.js";
import type { IssueMove, IssueMoves } from "../issues/issue-moves.js";
import type { IssueStore } from "../issues/issue-store.js";
import type { PullRequestIndex } from "../issues/pull-request-index.js";
import { type Feedback, type Issue, MAX_FEEDBACK, type PullRequest, type Verification } from "../issues/schemas.js";
import { REVIEW_EVENT_TYPES, type ReviewEvent, reviewEvent } from "./rules.js";

const HOUR_MS = 3_600_000;
/** Issues one delivery can act on at once (the first found). */
const MAX_REVIEWED_ISSUES = 10;
/** Longest feedback text kept (a review body may be long; the prompt carries it). */
const FEEDBACK_BODY_MAX = 10_000;

/** What finding an event's issues needs: the issues by number, and the pull requests' pointers. */
export interface ReviewedIssues {
  store: Pick<IssueStore, "getByNumber" | "getMany">;
  pullRequests: Pick<PullRequestIndex, "issuesOf">;
}

/**
 * Where people's code-host reviews of agents' pull requests are kept as reviews of the prompts
 * behind them (docs/api.md#prompts-and-reviews): handed in by the composition root, since the
 * dispatch that reported a pull request and its prompt are other domains' to read.
 */
export interface HumanReviewNotes {
  /**
   * The writes that keep `event` (a submitted review) as a human review of the prompt of the
   * dispatch of `issue` that reported its pull request, and what to do once they are written;
   * nothing when no agent's dispatch reported that pull request.
   */
  prepare(
    issue: StoredIssue,
    event: ReviewEvent,
    at: string,
  ): Promise<{ writes: TransactItem[]; after?: () => Promise<void> }>;
}

/** What the review loop needs: finding the issues, moving them, the projects' watch windows, people's reviews. */
export interface CodeHostReviewDeps extends ReviewedIssues {
  moves: IssueMoves;
  /** A project's `verifyHours`, for the watch of a merged fix. */
  projects: Pick<CatalogLookups, "findProject">;
  humanReviews: HumanReviewNotes;
}

/**
 * The review loop as a signal's ingest runs it: a code-host delivery about pull requests of Kaizen's
 * issues, found, then kept as their writes. Only the webhook receivers take code-host deliveries (a
 * manual signal's source may not be `codehost`), so only their function carries it.
 */
export class CodeHostReviews {
  constructor(private readonly deps: CodeHostReviewDeps) {}

  /** The routing and issues of `draft` when it is a delivery about their pull requests; null otherwise. */
  find(
    draft: { source: string; type: string; payloadText: string },
    receivedAt: string,
  ): Promise<{ routing: ReviewRouting; issues: StoredIssue[] } | null> {
    return reviewLoop(draft, receivedAt, this.deps);
  }

  /** The writes of what `find` gave, for the signal's own transaction, and what follows them. */
  effect(
    routing: ReviewRouting,
    issues: StoredIssue[],
    receivedAt: string,
  ): Promise<{ issue: Issue | null; writes: TransactItem[]; after?: () => Promise<void> }> {
    const { moves, humanReviews } = this.deps;
    return routing.action === "closed_loop"
      ? closeLoop(issues, routing.pullRequest, receivedAt, moves, (projectId) => this.verifyHoursOf(projectId))
      : keepFeedback(issues, routing.event, receivedAt, moves, humanReviews);
  }

  private async verifyHoursOf(projectId: string | null): Promise<number> {
    const project = projectId ? await this.deps.projects.findProject(projectId) : null;
    return project?.verifyHours ?? DEFAULT_VERIFY_HOURS;
  }
}

/** What a review event does: close the loop (a merge), or add feedback. */
export type ReviewRouting =
  | { action: "closed_loop"; pullRequest: PullRequest }
  | { action: "review"; event: ReviewEvent };

/** The payload as JSON, or null when it is not (only JSON webhook deliveries speak of reviews). */
function parsedPayload(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * The routing and the issues of a code-host delivery about the review of pull requests that are
 * kept by or name existing Kaizen issues; null when it is no such delivery or finds none.
 */
export async function reviewLoop(
  draft: { source: string; type: string; payloadText: string },
  receivedAt: string,
  issues: ReviewedIssues,
): Promise<{ routing: ReviewRouting; issues: StoredIssue[] } | null> {
  // Every other delivery is left unparsed here: payloads run to megabytes.
  if (draft.source !== "codehost" || !REVIEW_EVENT_TYPES.has(draft.type)) return null;
  const event = reviewEvent(draft.type, parsedPayload(draft.payloadText));
  if (!event) return null;
  const found = await issuesOf(event, issues);
  if (found.length === 0) return null;
  if (event.kind !== "merged") return { routing: { action: "review", event }, issues: found };
  const [merged] = event.pullRequests;
  if (!merged) return null;
  const pullRequest: PullRequest = {
    number: merged.number,
    title: merged.title ?? `Pull request #${merged.number}`,
    url: merged.url ?? null,
    repository: event.repository,
    state: "merged",
    mergedAt: event.at ?? receivedAt,
  };
  return { routing: { action: "closed_loop", pullRequest }, issues: found };
}

/** The issues the event's pull requests point at, then those they name by number; once each, existing only. */
async function issuesOf(event: ReviewEvent, issues: ReviewedIssues): Promise<StoredIssue[]> {
  const { repository } = event;
  const [pointed, named] = await Promise.all([
    repository
      ? issues.pullRequests.issuesOf(event.pullRequests.map(({ number }) => ({ repository, number })))
      : Promise.resolve([]),
    Promise.all(
      [...new Set(event.pullRequests.flatMap((pr) => pr.references))]
        .slice(0, MAX_REVIEWED_ISSUES)
        .map((number) => issues.store.getByNumber(number)),
    ),
  ]);
  const byPointer = pointed.length > 0 ? await issues.store.getMany(pointed.slice(0, MAX_REVIEWED_ISSUES)) : [];
  const seen = new Set<string>();
  return [...byPointer, ...named.filter((issue): issue is StoredIssue => issue !== undefined)]
    .filter((issue) => !seen.has(issue.issue.id) && seen.add(issue.issue.id))
    .slice(0, MAX_REVIEWED_ISSUES);
}

/**
 * The writes that close the loop on each issue: the pull request joins its `pullRequests`, and an
 * open issue moves to `done` (from any open status: the fix is merged), completing the dispatch
 * working it with the pull request as its outcome, and its fix is watched from the merge for its
 * project's `verifyHours` (docs/api.md#verification). An issue `done` already that keeps the pull
 * request (its agent reported it merged) and was never watched is watched from the code host's
 * merge too: the agent's report was a claim, the merge is the outcome. One move for all of them, so
 * an issue two of them block is written once.
 */
export async function closeLoop(
  issues: StoredIssue[],
  pullRequest: PullRequest,
  receivedAt: string,
  moves: IssueMoves,
  verifyHoursOf: (projectId: string | null) => Promise<number>,
): Promise<{ issue: Issue | null; writes: TransactItem[] }> {
  const mergedAt = pullRequest.mergedAt ?? receivedAt;
  // Each project read once, and only for the issues this merge starts watching.
  const finishing = issues.filter((current) => watchStarts(current.issue, pullRequest));
  const projects = [...new Set(finishing.map(({ issue }) => issue.projectId))];
  const hoursOf = new Map(
    await Promise.all(projects.map(async (projectId) => [projectId, await verifyHoursOf(projectId)] as const)),
  );
  const outcome = {
    summary: `Merged pull request #${pullRequest.number}: ${pullRequest.title}`,
    commits: [],
    pullRequests: [pullRequest],
  };
  const { moved, writes } = await moves.prepareAll(
    issues.map((current) => {
      const known = current.issue.pullRequests.findIndex((pr) => samePullRequest(pr, pullRequest));
      const pullRequests =
        known < 0
          ? [...current.issue.pullRequests, pullRequest]
          : current.issue.pullRequests.map((pr, i) => (i === known ? { ...pr, ...pullRequest, title: pr.title } : pr));
      const open = current.issue.status !== "done" && current.issue.status !== "canceled";
      const watched = watchStarts(current.issue, pullRequest);
      const dispatchId = current.activeDispatchId ?? current.lastDispatchId;
      const verification: Verification = {
        status: "pending",
        mergedAt,
        until: new Date(
          Date.parse(mergedAt) + (hoursOf.get(current.issue.projectId) ?? DEFAULT_VERIFY_HOURS) * HOUR_MS,
        ).toISOString(),
        regressedAt: null,
        signalId: null,
        dispatchId,
      };
      return {
        current,
        by: "signal" as const,
        changes: {
          pullRequests,
          ...(open ? { status: "done" as const } : {}),
          ...(watched ? { verification } : {}),
        },
        dispatchEnd: { status: "completed" as const, outcome },
        // The merge is charged to the dispatch whose work it was (docs/api.md#outcomes).
        ...(watched && dispatchId ? { outcome: { dispatchId, mark: { kind: "merged" as const, verification } } } : {}),
      };
    }),
    new Date(receivedAt),
  );
  return { issue: moved[0]?.issue ?? null, writes };
}

/**
 * Whether a merge of `pullRequest` starts watching `issue`'s fix: it is still open (the merge finishes
 * it), or it is `done` without a watch ever begun and keeps that pull request (its agent completed
 * with it already merged, docs/api.md#verification). A `canceled` issue, one watched already (a
 * redelivered merge) and one the pull request only names are not watched.
 */
function watchStarts(issue: Issue, pullRequest: PullRequest): boolean {
  if (issue.status === "canceled") return false;
  if (issue.status !== "done") return true;
  return issue.verification === null && issue.pullRequests.some((kept) => samePullRequest(kept, pullRequest));
}

/**
 * The writes that keep a review event as each issue's feedback (once: a second delivery of the
 * same review adds nothing), sending those in review back to `todo` with one more review round
 * when the event asks for changes.
 */
export async function keepFeedback(
  issues: StoredIssue[],
  event: ReviewEvent,
  receivedAt: string,
  moves: IssueMoves,
  notes?: HumanReviewNotes,
): Promise<{ issue: Issue | null; writes: TransactItem[]; after?: () => Promise<void> }> {
  const pullRequest = event.pullRequests[0];
  const entry: Feedback = {
    kind: event.kind === "merged" ? "commented" : event.kind,
    author: event.author,
    body: event.body.slice(0, FEEDBACK_BODY_MAX),
    url: event.url,
    at: event.at ?? receivedAt,
    pullRequest: pullRequest ? { repository: event.repository, number: pullRequest.number } : null,
  };
  const planned = issues.flatMap((current): IssueMove[] => {
    const { issue } = current;
    if (issue.feedback.some((kept) => sameFeedback(kept, entry))) return [];
    const sendsBack = event.sendsBack && issue.status === "in_review";
    // Review sent back the work of the dispatch that completed into review (docs/api.md#outcomes).
    const reworked = sendsBack ? current.lastDispatchId : null;
    return [
      {
        current,
        by: "signal",
        changes: {
          feedback: [...issue.feedback, entry].slice(-MAX_FEEDBACK),
          ...(sendsBack ? { status: "todo" as const, reviewRounds: issue.reviewRounds + 1 } : {}),
        },
        ...(reworked ? { outcome: { dispatchId: reworked, mark: { kind: "reworked" as const } } } : {}),
      },
    ];
  });
  if (planned.length === 0) return { issue: issues[0]?.issue ?? null, writes: [] };
  const { moved, writes } = await moves.prepareAll(planned, new Date(receivedAt));
  // A person's review, new to the issue, is kept once as a review of the prompt behind it too.
  const noted =
    notes && event.submittedReview
      ? await Promise.all(planned.map(({ current }) => notes.prepare(current, event, entry.at)))
      : [];
  const afters = noted.flatMap(({ after }) => (after ? [after] : []));
  // The first issue found, as this event leaves it (it may have held the entry already).
  const first = issues[0]?.issue;
  const left = moved.find((stored) => stored?.issue.id === first?.id)?.issue;
  return {
    issue: left ?? first ?? null,
    writes: [...writes, ...noted.flatMap(({ writes: kept }) => kept)],
    ...(afters.length > 0 ? { after: async () => void (await Promise.all(afters.map((after) => after()))) } : {}),
  };
}

function samePullRequest(a: PullRequest, b: PullRequest): boolean {
  return (
    a.number === b.number &&
    (!a.repository || !b.repository || a.repository.toLowerCase() === b.repository.toLowerCase())
  );
}

function sameFeedback(a: Feedback, b: Feedback): boolean {
  return a.kind === b.kind && a.at === b.at && a.url === b.url && a.author === b.author && a.body === b.body;
}
