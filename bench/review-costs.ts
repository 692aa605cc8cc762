/**
 * @module bench/review-costs — what one `POST /api/prompts/:id/reviews` costs, costed like the
 * other single requests (in-process `app.request`, every DynamoDB call traced). Prompts are not
 * created over HTTP yet, so the prompt is recorded in-process as a claim will record it.
 *
 * Three reviews of one fresh prompt of the default `task-execution` version, in order: the first
 * of the version (sets its score), a plain one, and the one that opens the version's improvement
 * task (its third review, with the score below 3.5), which also creates the task's issue. The
 * first task of a table would also create the `prompt-improvement` label; that label is created
 * (and costed) on its own just before, so the row shows what every version's task costs.
 */
import type { Db } from "../core/src/index.js";
import { compositeScore, nextReviewScore } from "../core/src/prompts/scoring.js";
import { IMPROVEMENT_LABEL } from "../core/src/prompts/service.js";
import type { PromptEngine } from "../core/src/templates/engine.js";
import type { CostCase, CostRow, ResponseCheck } from "./costs.js";

/** A review whose three ratings are all `rating`. */
function rated(rating: number) {
  return { clarity: rating, completeness: rating, relevance: rating, authorType: "agent" as const };
}

/** A 201 holding review number `sequence` of the version. */
function reviewIs(sequence: number): ResponseCheck {
  return (status, body) => {
    if (status !== 201) return `answered ${status}, expected 201`;
    const got = (body.data as { sequence?: number } | undefined)?.sequence;
    return got === sequence ? undefined : `review sequence ${got}, expected ${sequence}`;
  };
}

/**
 * Records a prompt for a new task issue (made with `createIssue`, through the API), then costs
 * three reviews of it with `measure`.
 */
export async function measureReviewCosts(options: {
  measure: (item: CostCase) => Promise<CostRow>;
  createIssue: () => Promise<string>;
  engine: PromptEngine;
  db: Db;
}): Promise<CostRow[]> {
  const { measure, engine, db } = options;
  await engine.defaultsReady();
  const issueId = await options.createIssue();
  const prepared = await engine.prompts.preparePrompt(issueId, null, { dispatch: null, previousDispatches: [] });
  if (!prepared) throw new Error(`no template matches the bench's task issue ${issueId}`);
  await db.transactWrite(prepared.writes);
  const { prompt } = prepared;
  const path = `/api/prompts/${prompt.id}/reviews`;
  const { detail } = await engine.templates.templateDetail(prompt.templateId);
  const before = detail.activeVersion?.id === prompt.versionId ? detail.activeVersion.reviewCount : Number.NaN;
  if (before !== 0) {
    throw new Error(`the review costs need an unreviewed active version; ${prompt.versionId} has ${before} reviews`);
  }

  // 5 then 1 then 1: the score goes 5 → 3.8 → 2.96, below 3.5 at the third review, which opens the task.
  const ratings = [5, 1, 1];
  const score = ratings.reduce<number | null>((s, r) => nextReviewScore(s, compositeScore(rated(r))), null);
  const rows: CostRow[] = [];
  const labels = [
    "POST review (first of its version)",
    "POST review",
    `POST review opening its version's improvement task (3rd, score ${score?.toFixed(2)} < 3.5)`,
  ];
  for (const [i, rating] of ratings.entries()) {
    if (i === ratings.length - 1) {
      rows.push(
        await measure({
          key: "review.label",
          label: `POST label ${IMPROVEMENT_LABEL.name} (the table's first improvement task would create it)`,
          kind: "write",
          method: "POST",
          path: "/api/labels",
          body: IMPROVEMENT_LABEL,
          check: (status) => (status === 201 ? undefined : `answered ${status}, expected 201`),
        }),
      );
    }
    rows.push(
      await measure({
        key: `review.${i + 1}`,
        label: labels[i] ?? `POST review ${i + 1}`,
        kind: "write",
        method: "POST",
        path,
        body: rated(rating),
        check: reviewIs(i + 1),
      }),
    );
  }
  return rows;
}
