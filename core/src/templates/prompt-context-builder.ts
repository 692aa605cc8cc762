/**
 * @module templates/prompt-context-builder — what a prompt is rendered from (docs/api.md#templates-and-versions): an issue with its
 * family, project, goal, labels, blockers and latest signals. Never the service's own key.
 */
import type { CatalogLookups } from "../catalog/catalog-lookups.js";
import type { Project } from "../catalog/schemas.js";
import { NotFoundError } from "../errors.js";
import type { IssueAggregate, StoredIssue } from "../issues/issue-item.js";
import { summaryItem } from "../issues/issue-item.js";
import type { IssueReads } from "../issues/issue-reads.js";
import { ISSUE_ID } from "../issues/keys.js";
import type { IssueSummary } from "../issues/schemas.js";
import type { SignalReads } from "../signals/signal-reads.js";
import type { PromptContext } from "./render.js";
import type { SelectionFacts } from "./selection.js";

/** Signals a prompt shows, with their payloads (docs/api.md#templates-and-versions: the latest 5). */
export const PROMPT_SIGNALS = 5;

/**
 * Largest payload a prompt carries whole (bytes of its JSON). Payloads may be megabytes
 * (docs/api.md#storage-limits) and a prompt is stored as one item, so a larger one is named instead, with where to read it.
 */
export const PROMPT_PAYLOAD_BYTES = 16 * 1024;

/** The payload as a prompt shows it: whole, or a pointer to it when it is larger than {@link PROMPT_PAYLOAD_BYTES}. */
export function promptPayload(signalId: string, payload: unknown, baseUrl: string): unknown {
  const bytes = Buffer.byteLength(JSON.stringify(payload) ?? "", "utf8");
  if (bytes <= PROMPT_PAYLOAD_BYTES) return payload;
  return { truncated: true, bytes, url: `${baseUrl}/api/signals/${signalId}` };
}

/** What only a claim knows: the dispatch, the prompt's own id, the earlier attempts. */
export interface DispatchContext {
  dispatch: PromptContext["dispatch"];
  prompt: PromptContext["prompt"];
  previousDispatches: PromptContext["previousDispatches"];
}

export const NO_DISPATCH: DispatchContext = { dispatch: null, prompt: null, previousDispatches: [] };

export class PromptContextBuilder {
  constructor(
    private readonly store: IssueReads,
    private readonly signals: SignalReads,
    private readonly catalog: CatalogLookups,
    private readonly baseUrl: string,
  ) {}

  /**
   * The issue (by id or `KZN-<n>`) and everything its prompt may name; reads run side by side. The
   * issue's project is also answered whole (a claim holds it to its limits without reading it again).
   */
  async build(
    ref: string | IssueAggregate,
    extra: DispatchContext = NO_DISPATCH,
  ): Promise<{ context: PromptContext; stored: StoredIssue; project: Project | null }> {
    const aggregate = typeof ref === "string" ? await this.aggregateOf(ref) : ref;
    const { stored, children } = aggregate;
    const { issue } = stored;
    const [parentAggregate, blocking, blockedBy, project, labels, signals] = await Promise.all([
      issue.parentId ? this.store.getAggregate(issue.parentId) : undefined,
      this.summaries(stored.blocking),
      this.summaries(issue.blockedBy),
      issue.projectId ? this.catalog.findProject(issue.projectId) : null,
      this.catalog.labelsNamed(issue.labels),
      Promise.all(stored.recentSignals.slice(0, PROMPT_SIGNALS).map((signal) => this.signals.get(signal.id))),
    ]);
    const goal = project?.goalId ? await this.catalog.findGoal(project.goalId) : null;
    const context: PromptContext = {
      issue,
      parent: parentAggregate ? summaryItem(parentAggregate.stored.issue) : null,
      children,
      siblings: (parentAggregate?.children ?? []).filter((sibling) => sibling.id !== issue.id),
      project,
      goal,
      labels: labels.map(({ name, color }) => ({ name, color })),
      blocking,
      blockedBy,
      previousDispatches: extra.previousDispatches,
      feedback: issue.feedback,
      reviewRounds: issue.reviewRounds,
      signals: signals.flatMap((signal) =>
        signal
          ? [
              {
                id: signal.id,
                source: signal.source,
                type: signal.type,
                severity: signal.severity,
                title: signal.title,
                receivedAt: signal.receivedAt,
                payload: promptPayload(signal.id, signal.payload, this.baseUrl),
              },
            ]
          : [],
      ),
      dispatch: extra.dispatch,
      prompt: extra.prompt,
      api: { baseUrl: this.baseUrl },
    };
    return { context, stored, project };
  }

  /** The issue's partition by `iss_…` id (one read) or `KZN-<n>` (two); 404 when there is none. */
  private async aggregateOf(ref: string): Promise<IssueAggregate> {
    const id = ISSUE_ID.test(ref) ? ref : (await this.store.getByRef(ref))?.issue.id;
    const aggregate = id ? await this.store.getAggregate(id) : undefined;
    if (!aggregate) throw new NotFoundError(`Issue ${ref} not found`);
    return aggregate;
  }

  private async summaries(ids: string[]): Promise<IssueSummary[]> {
    if (ids.length === 0) return [];
    return (await this.store.getMany(ids)).map(({ issue }) => summaryItem(issue));
  }
}

/** What template selection checks of an issue. */
export function selectionFacts(stored: StoredIssue, failedDispatches = 0): SelectionFacts {
  const { issue } = stored;
  return {
    type: issue.type,
    signalSource: issue.signalSource,
    labels: issue.labels,
    projectId: issue.projectId,
    failedDispatches,
    hypothesisConfidence: issue.hypothesis?.confidence ?? null,
  };
}
