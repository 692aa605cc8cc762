import { type Clock, machineClock, type SteadyClock, steadyClock } from "../clock.js";
import { ConditionFailedError, type TransactItem, TransactionConflictError } from "../db/db.js";
import { raceBackoff, retryConflicts } from "../db/retry.js";
import { NotFoundError, UnavailableError } from "../errors.js";
import { defaultLogger, loggedError } from "../http/logger.js";
import { armReviewAdditions } from "../templates/experiment-counts.js";
import type { ExperimentEndings } from "../templates/experiment-endings.js";
import type { VersionReviews } from "../templates/template-item.js";
import type { TemplateStore } from "../templates/template-store.js";
import type { ImprovementDraft, ImprovementTasks, VersionRef } from "./improvement-tasks.js";
import { newReviewId } from "./keys.js";
import type { PromptService } from "./prompt-service.js";
import type { PromptStore } from "./prompt-store.js";
import { type ReviewSlot, type ReviewStore, SLOT_INDEX } from "./review-store.js";
import type { CreateReviewBody, RatedReview } from "./schemas.js";
import { compositeScore, foldComposites, type ReviewTally } from "./scoring.js";

/** How long reviews wait on each other; tests pass shorter ones. */
export interface ReviewTimings {
  /**
   * A review number still unwritten when the slot after it is this old is given up (voided), so
   * that the reviews after it are folded: its review took too long and takes another number.
   */
  gapTimeoutMs: number;
  /** How long a stored review waits to be folded into its version before it answers anyway. */
  foldWaitMs: number;
}

export const REVIEW_TIMINGS: ReviewTimings = { gapTimeoutMs: 5_000, foldWaitMs: 6_000 };

/**
 * Review slots one fold takes at most: with one update per prompt and an improvement task's
 * writes (about 25), one transaction stays under DynamoDB's 100 items.
 */
const FOLD_LIMIT = 50;
/** Slots one read returns at most: more than a fold takes, so that a review sees the folds ahead of its own. */
const SLOTS_READ = 2 * FOLD_LIMIT;
/** Numbers a review takes before it gives up: each after the last one was voided under it. */
const NUMBER_ATTEMPTS = 3;
/**
 * How long a review leaves the run it saw to the review at its end (which folds it) before it
 * folds it itself, should that review have died; and its waits between reads of the version
 * meanwhile (doubling from the first up to the cap, for 2 × as long with jitter). Both grow, within
 * bounds, when the store is slow.
 */
const FOLD_DEFER_MS = 1_000;
const FOLD_POLL_MS = 25;
const FOLD_POLL_CAP_MS = 250;
/** Index of the version's update in a fold's transaction: its failed condition is a lost race. */
const FOLD_VERSION_INDEX = 0;

/** The prompts reviews are of: read through their service, their review counts written by their store. */
export interface ReviewedPrompts {
  service: PromptService;
  store: PromptStore;
}

export class ReviewService {
  private readonly timings: ReviewTimings;
  /** What the folds' deadlines and waits run on: `now`, when it can wait (core/src/clock.ts). */
  private readonly clock: SteadyClock;

  constructor(
    private readonly store: ReviewStore,
    private readonly prompts: ReviewedPrompts,
    private readonly templates: TemplateStore,
    /** Opens a version's improvement task (./improvement-tasks.ts). */
    private readonly improvements: ImprovementTasks,
    /** Decides an experiment once one of its prompts was reviewed (docs/api.md#experiments). */
    private readonly experiments: Pick<ExperimentEndings, "settle">,
    private readonly now: Clock = machineClock,
    timings: Partial<ReviewTimings> = {},
  ) {
    this.timings = { ...REVIEW_TIMINGS, ...timings };
    this.clock = steadyClock(now);
  }

  /**
   * Stores a review and folds it into its version. The review takes the next number of its
   * version (one atomic update, never in a transaction) and is written with its slot and listing
   * entries (items of its own: nothing that other reviews write). Then the version is brought up
   * to date, "fold-behind": its stored slots after the position it was folded through, in number
   * order, move its count and score in one transaction written at the position read, with each
   * folded review counted on its prompt; the review that first makes the version need improvement
   * opens its task in that transaction. A fold takes every slot stored by then (up to
   * {@link FOLD_LIMIT}), and a review whose run of slots ends at a later review leaves the fold to
   * that one, reading the version meanwhile: N reviews at once make a few folds, not N turns, and
   * do not race for the version item. A review is done once its number is folded, by itself or
   * another; a lost race reads again. A number taken and never written (its review failed, or
   * died) holds the folds after it until the slot after it is `gapTimeoutMs` old; then it is
   * voided: folds count it for the position, not as a review.
   */
  async review(promptId: string, input: CreateReviewBody): Promise<RatedReview> {
    const prompt = await this.prompts.service.getPrompt(promptId);
    const read = await this.templates.reviewsOf(prompt.templateId, prompt.versionNumber);
    if (!read) throw new NotFoundError(`Version ${prompt.versionId} not found`);
    if (!read.positionRecorded && read.reviewCount > 0) {
      await this.store.startReviewNumbersAfter(prompt.versionId, read.reviewCount);
    }
    const { id, createdAt } = newReviewId(this.now().getTime());
    // A review of a prompt rendered in an experiment counts toward its arm, in the review's own write.
    const armCounts = prompt.experiment
      ? armReviewAdditions(
          { templateId: prompt.templateId, experimentId: prompt.experiment.id, arm: prompt.experiment.arm },
          input,
        )
      : [];
    const { review, writeMs } = await this.storeReview(prompt.versionId, createdAt, armCounts, (sequence) => ({
      id,
      promptId: prompt.id,
      templateId: prompt.templateId,
      versionId: prompt.versionId,
      versionNumber: prompt.versionNumber,
      source: "api",
      state: null,
      sequence,
      clarity: input.clarity,
      completeness: input.completeness,
      relevance: input.relevance,
      composite: compositeScore(input),
      feedback: input.feedback ?? null,
      authorType: input.authorType,
      authorName: input.authorName ?? null,
      createdAt,
    }));
    await this.foldThrough(prompt, review.sequence, read, writeMs);
    if (prompt.experiment) await this.settleExperiment(prompt.templateId, prompt.experiment.id);
    return review;
  }

  /** The experiment's rule applied after one of its prompts was reviewed; the review is stored whatever happens here. */
  private async settleExperiment(templateId: string, experimentId: string): Promise<void> {
    try {
      await this.experiments.settle(templateId, experimentId);
    } catch (error) {
      defaultLogger.warn("experiment decision deferred", { experimentId, error: loggedError(error) });
    }
  }

  /**
   * Writes the review under the next number of its version, and says how long the write took. A
   * number voided before the write (the review was too slow) makes it take another; a write that
   * fails for good voids its number, so that folds need not wait for it.
   */
  private async storeReview(
    versionId: string,
    createdAt: string,
    alsoWrites: TransactItem[],
    numbered: (sequence: number) => RatedReview,
  ): Promise<{ review: RatedReview; writeMs: number }> {
    for (let attempt = 1; ; attempt++) {
      const taken = await this.store.takeReviewNumber(versionId, createdAt);
      const review = numbered(taken.value);
      try {
        const started = this.clock().getTime();
        await retryConflicts(() => this.store.transact([...this.store.prepareReview(review, taken.at), ...alsoWrites]));
        return { review, writeMs: this.clock().getTime() - started };
      } catch (error) {
        const voided = error instanceof ConditionFailedError && error.reasons[SLOT_INDEX] === "ConditionalCheckFailed";
        if (voided && attempt < NUMBER_ATTEMPTS) continue;
        if (voided) throw new UnavailableError("Reviews of this version are held up; retry shortly", { cause: error });
        await this.store.voidReviewNumber(versionId, review.sequence, this.now().toISOString()).catch(() => false);
        throw error;
      }
    }
  }

  /**
   * Folds the version's stored reviews into it until number `sequence` is in, or `foldWaitMs` has
   * passed (module header). `read`: the version as read before the number was taken; `writeMs`:
   * how long the review's own write took.
   */
  private async foldThrough(
    version: VersionRef,
    sequence: number,
    read: VersionReviews,
    writeMs: number,
  ): Promise<void> {
    const deadline = this.clock().getTime() + this.timings.foldWaitMs;
    // Waits sized by how long the review's own write took (the store's pace right now), within bounds.
    const pollMs = Math.min(Math.max(FOLD_POLL_MS, writeMs), FOLD_POLL_CAP_MS);
    const deferMs = Math.min(Math.max(FOLD_DEFER_MS, 4 * writeMs), this.timings.foldWaitMs / 2);
    const draft: ImprovementDraft = {};
    // `read` may be behind already; a fold from it then fails on its condition and reads again.
    let known: VersionReviews | undefined = read;
    // Slots read so far, in number order: written once, they are read again only for a number
    // that was missing (it may be written now).
    let seen: ReviewSlot[] = [];
    const slotsAfter = async (position: number) => {
      const after = seen.filter((slot) => slot.sequence > position);
      if (after[0]?.sequence === position + 1) return after;
      seen = await this.store.reviewSlotsAfter(version.versionId, position, SLOTS_READ);
      return seen;
    };
    // While another review folds from a position: that position, and until when this one waits.
    let deferring: { from: number; until: number; polls: number } | undefined;
    const deferTo = (from: number) => {
      deferring = { from, until: this.clock().getTime() + deferMs, polls: 0 };
    };
    for (let waits = 0; this.clock().getTime() < deadline; ) {
      try {
        known ??= await this.reviewsOf(version);
        if (sequence <= known.foldedThrough) return;
        if (deferring?.from === known.foldedThrough && this.clock().getTime() < deferring.until) {
          known = undefined;
          await pause(this.clock, Math.min(pollMs * 2 ** deferring.polls++, FOLD_POLL_CAP_MS));
          continue;
        }
        const slots = await slotsAfter(known.foldedThrough);
        const run = contiguousRun(slots, known.foldedThrough).slice(0, FOLD_LIMIT);
        const last = run[run.length - 1]?.sequence;
        if (last !== undefined && last !== sequence && deferring?.from !== known.foldedThrough) {
          // The run ends at another review, which folds it (each review reads the slots after
          // writing its own): racing it for the version would only lose. It is given a while.
          deferTo(known.foldedThrough);
          continue;
        }
        if (run.length > 0) {
          known = await this.fold(version, known, run, draft);
          if (known) waits = 0;
          else await raceBackoff(++waits, this.clock);
          continue;
        }
        // The number after the position is taken and not written yet: wait for it, or give it up.
        const next = slots[0];
        if (next && this.now().getTime() - Date.parse(next.at) >= this.timings.gapTimeoutMs) {
          await this.voidNumbers(version.versionId, known.foldedThrough + 1, next.sequence - 1);
        } else {
          await raceBackoff(++waits, this.clock);
        }
      } catch (error) {
        // The review is stored: a passing failure only delays its fold. A conflict means another
        // fold is in flight: this one waits for it as for the review at the end of its run.
        if (error instanceof TransactionConflictError && known) {
          deferTo(known.foldedThrough);
          continue;
        }
        if (!(error instanceof UnavailableError || error instanceof TransactionConflictError)) throw error;
        known = undefined;
        await raceBackoff(++waits, this.clock);
      }
    }
  }

  /** Where the reviews of the version stand. */
  private async reviewsOf(version: VersionRef): Promise<VersionReviews> {
    const reviews = await this.templates.reviewsOf(version.templateId, version.versionNumber);
    if (!reviews) throw new NotFoundError(`Version ${version.versionId} not found`);
    return reviews;
  }

  /** Gives up numbers `from`..`to` of the version's reviews (those whose reviews came meanwhile stay). */
  private async voidNumbers(versionId: string, from: number, to: number): Promise<void> {
    const at = this.now().toISOString();
    await Promise.all(
      Array.from({ length: to - from + 1 }, (_, i) => this.store.voidReviewNumber(versionId, from + i, at)),
    );
  }

  /**
   * Folds `run` (the slots right after `read`'s position, in order) into the version in one
   * transaction; the version as left, or undefined when another fold moved it first.
   */
  private async fold(
    version: VersionRef,
    read: VersionReviews,
    run: ReviewSlot[],
    draft: ImprovementDraft,
  ): Promise<VersionReviews | undefined> {
    const reviews = run.flatMap((slot) => (slot.void ? [] : [slot]));
    const { tally, needing } = foldComposites(
      read,
      reviews.map(({ composite }) => composite),
    );
    const opening = read.improvementIssueId === null ? needing : undefined;
    const improvement = opening
      ? await this.improvementTask(version, opening.tally, reviews[opening.index]?.feedback ?? null, draft)
      : undefined;
    const foldedThrough = run[run.length - 1]?.sequence ?? read.foldedThrough;
    const writes: TransactItem[] = [
      this.templates.reviewFold(version.templateId, version.versionNumber, read, {
        foldedThrough,
        ...tally,
        ...(improvement ? { improvementIssueId: improvement.issueId } : {}),
      }),
      ...this.prompts.store.reviewCountAdditions(reviews.map(({ promptId }) => promptId)),
      ...(improvement?.writes ?? []),
    ];
    try {
      await this.store.transact(writes);
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error;
      // Another fold moved the version first, or the improvement label was deleted since it was
      // read (the next fold makes it again). Anything else is not a race.
      if (error.reasons[FOLD_VERSION_INDEX] === "ConditionalCheckFailed") return undefined;
      if (!improvement) throw error;
      draft.label = undefined;
      return undefined;
    }
    return {
      ...tally,
      foldedThrough,
      positionRecorded: true,
      improvementIssueId: improvement?.issueId ?? read.improvementIssueId,
    };
  }

  /**
   * The writes that open the improvement task of `version`, whose reviews stand at `tally`, quoting
   * the feedback of the review that brought it there.
   */
  private improvementTask(version: VersionRef, tally: ReviewTally, feedback: string | null, draft: ImprovementDraft) {
    const { reviewCount } = tally;
    const why = `its review score is ${(tally.reviewScore ?? 0).toFixed(2)} after ${reviewCount} review${reviewCount === 1 ? "" : "s"}.`;
    return this.improvements.prepare(version, why, feedback, draft);
  }
}

/** Waits `ms` to `2 × ms` on `clock` (jittered, so that waiters do not come back together). */
function pause(clock: SteadyClock, ms: number): Promise<void> {
  return clock.wait(ms * (1 + Math.random()));
}

/** The slots of `slots` (in number order) that follow `position` without a gap. */
function contiguousRun(slots: ReviewSlot[], position: number): ReviewSlot[] {
  const run: ReviewSlot[] = [];
  for (const slot of slots) {
    if (slot.sequence !== position + run.length + 1) break;
    run.push(slot);
  }
  return run;
}
