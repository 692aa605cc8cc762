/**
 * @module prompts/service — prompts as the record of what agents received, and reviews that teach
 * Kaizen which prompts work: each review moves its version's score (EWMA, API.md 3.5), and a
 * weak or much-reviewed version opens one improvement task.
 */
import type { CatalogService } from "../catalog/service.js";
import { labelExistsCheck } from "../catalog/store.js";
import { ConditionFailedError, type TransactItem } from "../db/client.js";
import { retryRaces } from "../db/retry.js";
import type { Taken } from "../db/sequence.js";
import { TurnsByKey } from "../db/turns.js";
import { ConflictError, NotFoundError } from "../errors.js";
import { pageOffset } from "../http/pagination.js";
import { newIssue } from "../issues/service.js";
import type { IssueAggregate, IssueStore } from "../issues/store.js";
import type { DispatchContext } from "../templates/context.js";
import type { PromptRenderer } from "../templates/prompting.js";
import type { PageQuery } from "../templates/schemas.js";
import type { TemplateStore } from "../templates/store.js";
import { newPromptId, newReviewId, PROMPT_ID } from "./keys.js";
import type { CreateReviewBody, ListPromptsQuery, Prompt, Review } from "./schemas.js";
import { compositeScore, needsImprovement, nextReviewScore } from "./scoring.js";
import { type PromptStore, VERSION_UPDATE_INDEX } from "./store.js";

/** What stands for the dispatch token in a recorded prompt. */
export const REDACTED_TOKEN = "[dispatch token]";

/** The label every improvement task carries (created on first need). */
export const IMPROVEMENT_LABEL = { name: "prompt-improvement", color: "#f59e0b" };

const lostRace = (error: ConditionFailedError) => error.reasons[VERSION_UPDATE_INDEX] === "ConditionalCheckFailed";

export class PromptService {
  /** Reviews of one version take turns in this process, so they never race each other to the database. */
  private readonly turns = new TurnsByKey();

  constructor(
    private readonly store: PromptStore,
    private readonly templates: TemplateStore,
    private readonly renderer: PromptRenderer,
    private readonly issues: IssueStore,
    private readonly catalog: CatalogService,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async getPrompt(id: string): Promise<Prompt> {
    const found = PROMPT_ID.test(id) ? await this.store.get(id) : undefined;
    if (!found) throw new NotFoundError(`Prompt ${id} not found`);
    return found;
  }

  async listPrompts(query: ListPromptsQuery) {
    const { page: _page, limit, ...filters } = query;
    return this.store.list(filters, { offset: pageOffset(query), limit });
  }

  /**
   * Renders the prompt an issue gets now and the writes that record it, for the caller's own
   * transaction (a claim); null when no template matches the issue. The prompt returned is the
   * text the agent receives; the one recorded has the dispatch token replaced by {@link REDACTED_TOKEN}.
   */
  async preparePrompt(
    issueRef: string | IssueAggregate,
    dispatchId: string | null,
    extra: Omit<DispatchContext, "prompt">,
    failedDispatches = 0,
  ): Promise<{ prompt: Prompt; writes: TransactItem[] } | null> {
    const { id, createdAt } = newPromptId(this.now().getTime());
    const { issueId, source } = await this.renderer.renderChosen(
      issueRef,
      { ...extra, prompt: { id } },
      failedDispatches,
    );
    if (!source) return null;
    const prompt: Prompt = { id, issueId, dispatchId, ...source, createdAt, reviewCount: 0 };
    // The dispatch token is stored only as a hash: the kept text names it without giving it away.
    const token = extra.dispatch?.token;
    const kept = token ? { ...prompt, text: prompt.text.replaceAll(token, REDACTED_TOKEN) } : prompt;
    return { prompt, writes: this.store.prepareCreate(kept) };
  }

  /**
   * Applies a review to its prompt's version: `reviewCount` + 1 and the EWMA of the composite,
   * written at the count read, so concurrent reviews end as if sent one after another in the
   * order they were stored. The review that first makes the version need improvement also opens
   * its task in the same transaction (once per version, whatever the concurrency).
   */
  async review(promptId: string, input: CreateReviewBody): Promise<Review> {
    const prompt = await this.getPrompt(promptId);
    const composite = compositeScore(input);
    const { id, createdAt } = newReviewId(this.now().getTime());
    let taken: Taken | undefined;
    return this.turns.run(prompt.versionId, () =>
      retryRaces(
        async () => {
          const stored = await this.templates.getVersion(prompt.templateId, prompt.versionNumber);
          if (!stored) throw new NotFoundError(`Version ${prompt.versionId} not found`);
          const { version } = stored;
          const review: Review = {
            id,
            promptId: prompt.id,
            templateId: prompt.templateId,
            versionId: prompt.versionId,
            versionNumber: prompt.versionNumber,
            sequence: version.reviewCount + 1,
            clarity: input.clarity,
            completeness: input.completeness,
            relevance: input.relevance,
            composite,
            feedback: input.feedback ?? null,
            authorType: input.authorType,
            authorName: input.authorName ?? null,
            createdAt,
          };
          const reviewScore = nextReviewScore(version.reviewScore, composite);
          const opens =
            stored.improvementIssueId === null && needsImprovement({ reviewCount: review.sequence, reviewScore });
          const task = opens
            ? await this.improvementTask(review, reviewScore, input.feedback ?? null, taken)
            : undefined;
          taken = task?.taken;
          const writes = [
            ...this.store.prepareReview(review, {
              readCount: version.reviewCount,
              reviewScore,
              ...(task ? { improvementIssueId: task.issueId } : {}),
            }),
            ...(task?.writes ?? []),
          ];
          try {
            await this.store.transact(writes);
          } catch (error) {
            if (error instanceof ConditionFailedError && !lostRace(error) && task) {
              throw new ConflictError("The prompt-improvement label was just deleted; retry", { cause: error });
            }
            throw error;
          }
          return review;
        },
        { isRace: lostRace },
      ),
    );
  }

  async listPromptReviews(promptId: string, query: PageQuery) {
    const prompt = await this.getPrompt(promptId);
    return this.store.listReviews(`prompt=${prompt.id}`, { offset: pageOffset(query), limit: query.limit });
  }

  /** Reviews of every version of a template, newest first. */
  async listTemplateReviews(templateRef: string, query: PageQuery) {
    const found = await this.templates.resolve(templateRef);
    if (!found) throw new NotFoundError(`Template ${templateRef} not found`);
    const { template } = found;
    return this.store.listReviews(`template=${template.id}`, { offset: pageOffset(query), limit: query.limit });
  }

  /**
   * The writes that open "Improve prompt template: <slug>" (a `task` in `todo`, labelled
   * `prompt-improvement`), with the issue number taken once even if the review is retried.
   */
  private async improvementTask(review: Review, score: number, feedback: string | null, taken?: Taken) {
    const template = await this.templates.get(review.templateId);
    const slug = template?.template.slug ?? review.templateId;
    const label = await this.improvementLabel();
    const number = taken ?? (await this.issues.takeNumber(this.now()));
    const fields = newIssue({
      title: `Improve prompt template: ${slug}`,
      type: "task",
      status: "todo",
      priority: 3,
      labels: [label],
      description: [
        `Version ${review.versionNumber} (${review.versionId}) of template \`${slug}\` (${review.templateId}) needs work:`,
        `its review score is ${score.toFixed(2)} after ${review.sequence} review${review.sequence === 1 ? "" : "s"}.`,
        "",
        `Read its reviews at \`GET /api/templates/${review.templateId}/reviews\`, write a better version`,
        `with \`POST /api/templates/${review.templateId}/versions\`, and promote it when it reads well.`,
        ...(feedback ? ["", "Latest feedback:", "", `> ${feedback.replaceAll("\n", "\n> ")}`] : []),
      ].join("\n"),
    });
    const { stored, writes } = this.issues.prepareCreate(fields, number);
    return { issueId: stored.issue.id, taken: number, writes: [...writes, labelExistsCheck(label, this.now())] };
  }

  /** The improvement label's name as stored, creating the label when it does not exist yet. */
  private async improvementLabel(): Promise<string> {
    const { found } = await this.catalog.resolveLabels([IMPROVEMENT_LABEL.name]);
    if (found[0]) return found[0];
    try {
      return (await this.catalog.createLabel(IMPROVEMENT_LABEL)).record.name;
    } catch (error) {
      if (error instanceof ConflictError) return IMPROVEMENT_LABEL.name;
      throw error;
    }
  }
}
