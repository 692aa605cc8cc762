/**
 * @module dispatch/human-reviews — people's code-host reviews of agents' pull requests, kept as reviews
 * of the prompts behind them (docs/api.md#prompts-and-reviews): a submitted review of a pull request
 * a dispatch reported becomes a review of that dispatch's prompt (`source: codehost`, its verdict as
 * `state`, no ratings: the version's score is left alone), counted on the prompt and on its version
 * by verdict; once at least {@link MIN_HUMAN_REVIEWS} of a version's human reviews are in and half
 * or more asked for changes, its improvement task opens, once. The writes join the review signal's
 * own transaction; the task opens right after it.
 */
import { ConditionFailedError, type Db, type TransactItem } from "../db/db.js";
import type { StoredIssue } from "../issues/issue-item.js";
import type { ImprovementDraft, ImprovementTasks, VersionRef } from "../prompts/improvement-tasks.js";
import { newReviewId } from "../prompts/keys.js";
import type { PromptStore } from "../prompts/prompt-store.js";
import type { ReviewStore } from "../prompts/review-store.js";
import type { HumanReviewState, Review } from "../prompts/schemas.js";
import type { HumanReviewNotes } from "../signals/review-loop.js";
import type { ReviewEvent } from "../signals/rules.js";
import type { TemplateStore } from "../templates/template-store.js";
import { versionHumanReviewAddition } from "../templates/version-counts.js";
import type { ReportedPrompts } from "./reported-prompts.js";

/** Human reviews a version needs before they can open its improvement task. */
export const MIN_HUMAN_REVIEWS = 4;
/** Attempts at opening the task while its label is deleted under it. */
const OPEN_ATTEMPTS = 3;

const STATES: Partial<Record<ReviewEvent["kind"], HumanReviewState>> = {
  approved: "approved",
  changes_requested: "changes_requested",
  commented: "commented",
};

/** Whether a version's human reviews ask for its improvement (docs/api.md#prompts-and-reviews). */
export function humansAskForChanges(counts: {
  approved: number;
  changesRequested: number;
  commented: number;
}): boolean {
  const total = counts.approved + counts.changesRequested + counts.commented;
  return total >= MIN_HUMAN_REVIEWS && 2 * counts.changesRequested >= total;
}

export class HumanReviews implements HumanReviewNotes {
  constructor(
    private readonly db: Db,
    /** The prompt behind a reviewed pull request. */
    private readonly reported: Pick<ReportedPrompts, "of">,
    private readonly prompts: Pick<PromptStore, "reviewCountAdditions">,
    private readonly reviews: Pick<ReviewStore, "prepareHumanReview">,
    private readonly templates: Pick<TemplateStore, "getVersion" | "reviewsOf" | "improvementMark">,
    private readonly improvements: Pick<ImprovementTasks, "prepare">,
  ) {}

  async prepare(
    issue: StoredIssue,
    event: ReviewEvent,
    at: string,
  ): Promise<{ writes: TransactItem[]; after?: () => Promise<void> }> {
    const state = STATES[event.kind];
    const pullRequest = event.pullRequests[0];
    if (!event.submittedReview || !state || !pullRequest) return { writes: [] };
    const prompt = await this.reported.of(issue, event.repository, pullRequest.number);
    if (!prompt) return { writes: [] };
    const { id } = newReviewId(Date.parse(at) || Date.now());
    const review: Review = {
      id,
      promptId: prompt.id,
      templateId: prompt.templateId,
      versionId: prompt.versionId,
      versionNumber: prompt.versionNumber,
      source: "codehost",
      state,
      sequence: null,
      clarity: null,
      completeness: null,
      relevance: null,
      composite: null,
      feedback: event.body || null,
      authorType: "human",
      authorName: event.author,
      createdAt: at,
    };
    return {
      writes: [
        ...this.reviews.prepareHumanReview(review),
        ...this.prompts.reviewCountAdditions([prompt.id]),
        versionHumanReviewAddition(prompt.templateId, prompt.versionNumber, state),
      ],
      // Every review may tip the rule (an approval makes the 4th of them): each looks once it is written,
      // so of reviews written at once the last to land sees them all.
      after: () => this.openImprovementIfAsked(prompt, state === "changes_requested" ? review.feedback : null),
    };
  }

  /** Opens the version's improvement task when its human reviews now ask for it and it has none yet. */
  private async openImprovementIfAsked(version: VersionRef, feedback: string | null): Promise<void> {
    const draft: ImprovementDraft = {};
    for (let attempt = 1; attempt <= OPEN_ATTEMPTS; attempt++) {
      const [stored, reviews] = await Promise.all([
        this.templates.getVersion(version.templateId, version.versionNumber),
        this.templates.reviewsOf(version.templateId, version.versionNumber),
      ]);
      const counts = stored?.version.humanReviews;
      if (!counts || reviews?.improvementIssueId || !humansAskForChanges(counts)) return;
      const total = counts.approved + counts.changesRequested + counts.commented;
      const why = `${counts.changesRequested} of the ${total} reviews people gave its agents' pull requests asked for changes.`;
      const task = await this.improvements.prepare(version, why, feedback, draft);
      try {
        await this.db.transactWrite([
          this.templates.improvementMark(version.templateId, version.versionNumber, task.issueId),
          ...task.writes,
        ]);
        return;
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
        // Another review or fold opened it first (the next read says so), or the label went: made again.
        draft.label = undefined;
      }
    }
  }
}
