/**
 * @module signals/closed-loop — rule 1 of docs/api.md#what-a-signal-does: a merged pull request
 * naming Kaizen issues (`KZN-<n>` or a `kaizen/<n>` branch) closes the loop on those that exist,
 * as the writes of the signal's own transaction.
 */
import type { TransactItem } from "../db/db.js";
import type { StoredIssue } from "../issues/issue-item.js";
import type { IssueMoves } from "../issues/issue-moves.js";
import type { IssueStore } from "../issues/issue-store.js";
import type { Issue, PullRequest } from "../issues/schemas.js";
import type { RoutedSignal, Routing } from "./routing.js";
import { mergedPullRequest } from "./rules.js";

/** Issues one merged pull request can close at once (the first it names, by number). */
const MAX_CLOSED_ISSUES = 10;

/** The payload as JSON, or null when it is not (only JSON webhook deliveries can close the loop). */
function parsedPayload(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * The routing and the issues of a merged pull request that names existing Kaizen issues; null
 * when the signal is no such webhook delivery or names none of them.
 */
export async function closedLoop(
  draft: Pick<RoutedSignal, "source" | "type"> & { payloadText: string },
  receivedAt: string,
  store: Pick<IssueStore, "getByNumber">,
): Promise<{ routing: Routing & { action: "closed_loop" }; issues: StoredIssue[] } | null> {
  if (draft.source !== "codehost" || draft.type !== "pull_request.closed") return null;
  const merged = mergedPullRequest(draft, parsedPayload(draft.payloadText));
  if (!merged || merged.references.length === 0) return null;
  const found = await Promise.all(
    merged.references.slice(0, MAX_CLOSED_ISSUES).map((number) => store.getByNumber(number)),
  );
  const issues = found.filter((issue): issue is StoredIssue => issue !== undefined);
  if (issues.length === 0) return null;
  const pullRequest: PullRequest = {
    number: merged.number,
    title: merged.title,
    url: merged.url,
    state: "merged",
    mergedAt: merged.mergedAt ?? receivedAt,
  };
  return { routing: { action: "closed_loop", pullRequest }, issues };
}

/**
 * The writes that close the loop on each named issue: the pull request joins its
 * `pullRequests`, and an open issue moves to `done` (from any open status: the fix is merged),
 * completing the dispatch working it with the pull request as its outcome. One move for all of
 * them, so an issue two of them block is written once.
 */
export async function closeLoop(
  issues: StoredIssue[],
  pullRequest: PullRequest,
  receivedAt: string,
  moves: IssueMoves,
): Promise<{ issue: Issue | null; writes: TransactItem[] }> {
  const outcome = {
    summary: `Merged pull request #${pullRequest.number}: ${pullRequest.title}`,
    commits: [],
    pullRequests: [pullRequest],
  };
  const { moved, writes } = await moves.prepareAll(
    issues.map((current) => {
      const known = current.issue.pullRequests.some((pr) => pr.number === pullRequest.number);
      const open = current.issue.status !== "done" && current.issue.status !== "canceled";
      return {
        current,
        by: "signal" as const,
        changes: {
          ...(known ? {} : { pullRequests: [...current.issue.pullRequests, pullRequest] }),
          ...(open ? { status: "done" as const } : {}),
        },
        dispatchEnd: { status: "completed" as const, outcome },
      };
    }),
    new Date(receivedAt),
  );
  return { issue: moved[0]?.issue ?? null, writes };
}
