/**
 * Reviews of one template version as deployed (docs/api.md#prompts-and-reviews): a burst through a fleet of one-request
 * instances (Lambda), with AWS's transaction conflicts emulated and not. Every review answers 201
 * and is counted once on its version and its prompt; the version's score is the reviews' composites
 * folded in the order of their `sequence`; the version opens one improvement task; each review
 * stays a few DynamoDB calls, with no review retried once per other review. Fails on reviews that
 * are applied to the version item one at a time: through a fleet their turns in a process never
 * meet, and they race for the version's count. Then a review number taken and never written: it
 * holds the reviews after it only until it is old enough to be given up.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ReviewService, type ReviewTimings } from "../../core/src/prompts/review-service.js";
import { ReviewStore } from "../../core/src/prompts/review-store.js";
import type { Prompt, RatedReview as Review } from "../../core/src/prompts/schemas.js";
import { compositeScore, nextReviewScore, scoreAfter } from "../../core/src/prompts/scoring.js";
import {
  experimentEndings,
  improvementTasks,
  promptService,
  promptStore,
  templateStore,
} from "../../core/src/services.js";
import { versionKey, versionReviewsKey } from "../../core/src/templates/keys.js";
import type { TemplateDetail, TemplateVersion } from "../../core/src/templates/schemas.js";
import type { Fleet } from "../../testkit/fleet.js";
import { AUTH, dataOf, fleetOf, jsonPost, type TestApp, testApp } from "../helpers/app.js";
import { type TestClock, testClock } from "../helpers/clock.js";
import { CONFLICT_MODES, testConfig } from "../helpers/db.js";

const fleets: Fleet[] = [];
afterEach(() => {
  for (const fleet of fleets.splice(0)) fleet.destroy();
});

function fleet(t: TestApp, emulateConflicts: boolean): Fleet {
  const made = fleetOf(t, emulateConflicts);
  fleets.push(made);
  return made;
}

/**
 * `count` prompts of the default task-execution version, recorded as agents get them: by claiming
 * `count` todo tasks (the first claim, which takes nothing, seeds the default templates).
 */
async function promptsOfOneVersion(t: TestApp, count: number): Promise<Prompt[]> {
  const seeding = await t.app.request("/api/dispatch/claim", jsonPost({ agent: "seeding", types: ["monitor"] }));
  if (seeding.status !== 204) throw new Error(`the seeding claim answered ${seeding.status}`);
  for (let i = 0; i < count; i++) {
    await dataOf(t.app.request("/api/issues", jsonPost({ title: `task ${i}`, type: "task", status: "todo" })), 201);
  }
  const prompts: Prompt[] = [];
  for (let i = 0; i < count; i++) {
    const claim = await dataOf<{ prompt: Prompt | null }>(
      t.app.request("/api/dispatch/claim", jsonPost({ agent: `agent-${i}`, types: ["task"] })),
      201,
    );
    if (!claim.prompt) throw new Error("the default templates give every task a prompt");
    prompts.push(claim.prompt);
  }
  return prompts;
}

async function activeVersion(t: TestApp, template: string): Promise<TemplateVersion> {
  const detail = await dataOf<TemplateDetail>(t.app.request(`/api/templates/${template}`, { headers: AUTH }));
  if (!detail.activeVersion) throw new Error("no active version");
  return detail.activeVersion;
}

const rating = (i: number) => ({
  clarity: (i % 5) + 1,
  completeness: ((i * 3) % 5) + 1,
  relevance: ((i * 7) % 5) + 1,
  authorType: "agent" as const,
});

describe.each(CONFLICT_MODES)("reviews of one version through a fleet ($mode)", ({ emulateConflicts }) => {
  it("40 at once over 8 prompts: each counted once, scored in sequence order, one improvement task, a few calls each", async () => {
    const t = await testApp({}, { emulateConflicts });
    const prompts = await promptsOfOneVersion(t, 8);
    const versionIds = new Set(prompts.map(({ versionId }) => versionId));
    expect(versionIds.size).toBe(1);
    const lambda = fleet(t, emulateConflicts);
    const answeredOf = new Map<string, number>();
    const answered: Review[] = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const prompt = prompts[i % prompts.length] as Prompt;
        const review = await dataOf<Review>(
          lambda.request(`/api/prompts/${prompt.id}/reviews`, jsonPost(rating(i))),
          201,
        );
        // Read-your-writes: once answered, a review counts on its version and its prompt.
        const ofPrompt = (answeredOf.get(prompt.id) ?? 0) + 1;
        answeredOf.set(prompt.id, ofPrompt);
        expect((await activeVersion(t, "task-execution")).reviewCount).toBeGreaterThanOrEqual(review.sequence);
        const stored = await dataOf<Prompt>(t.app.request(`/api/prompts/${prompt.id}`, { headers: AUTH }));
        expect(stored.reviewCount).toBeGreaterThanOrEqual(ofPrompt);
        return review;
      }),
    );
    // Each review is its own work: none was retried once for each of the others.
    const callsPerReview = lambda.calls() / 40;
    const inOrder = [...answered].sort((a, b) => a.sequence - b.sequence);
    expect(new Set(inOrder.map(({ sequence }) => sequence)).size).toBe(40);
    const version = await activeVersion(t, "task-execution");
    expect(version.reviewCount).toBe(40);
    expect(version.reviewScore).toBeCloseTo(scoreAfter(inOrder.map(({ composite }) => composite)) ?? Number.NaN, 9);
    for (const prompt of prompts) {
      const stored = await dataOf<Prompt>(t.app.request(`/api/prompts/${prompt.id}`, { headers: AUTH }));
      expect(stored.reviewCount).toBe(answered.filter(({ promptId }) => promptId === prompt.id).length);
    }
    const tasks = await dataOf<{ title: string }[]>(
      t.app.request("/api/issues?label=prompt-improvement&limit=100", { headers: AUTH }),
    );
    expect(tasks.map(({ title }) => title)).toEqual(["Improve prompt template: task-execution"]);
    // A review retried once for each of the others would make 39 calls more than its own ~6. The
    // polls of a review waiting for the fold ahead of it grow with the machine's load but are bounded
    // by its wait: pauses of 25 ms doubling to 250 ms within foldWaitMs (6 s) are at most ~26 reads.
    // So the bound lies between the two: above what any load gives, below what the retries would.
    expect(callsPerReview).toBeLessThan(40);
  });
});

/**
 * The app's review store, and its review service as the composition root builds it but with
 * `timings`, on `clock` (its waits for a review number and for its fold run on it).
 */
function reviewsWith(t: TestApp, timings: Partial<ReviewTimings>, clock: TestClock) {
  const deps = { config: testConfig({ tableName: t.tableName, endpoint: t.endpoint }), db: t.db };
  const store = new ReviewStore(deps.db);
  const service = new ReviewService(
    store,
    { service: promptService(deps), store: promptStore(deps) },
    templateStore(deps),
    improvementTasks(deps),
    experimentEndings(deps),
    clock,
    timings,
  );
  return { service, store };
}

const promptOf = (t: TestApp, id: string) => dataOf<Prompt>(t.app.request(`/api/prompts/${id}`, { headers: AUTH }));

describe("one review at a time", () => {
  it("costs 6 calls: the prompt, the version, a number, its write, the slots after the version's position, the fold", async () => {
    const t = await testApp();
    const [prompt] = await promptsOfOneVersion(t, 1);
    if (!prompt) throw new Error("no prompt");
    for (let i = 1; i <= 3; i++) {
      const before = t.db.usage().calls;
      const review = await dataOf<Review>(
        t.app.request(`/api/prompts/${prompt.id}/reviews`, jsonPost({ ...rating(4), clarity: 5 })),
        201,
      );
      expect({ sequence: review.sequence, calls: t.db.usage().calls - before }).toEqual({ sequence: i, calls: 6 });
    }
  });
});

describe("a review number taken and never written", () => {
  it("holds the reviews after it until the slot after it is gapTimeoutMs old; they are then folded past it", async () => {
    const t = await testApp();
    const [prompt] = await promptsOfOneVersion(t, 1);
    if (!prompt) throw new Error("no prompt");
    const clock = testClock();
    const { service, store } = reviewsWith(t, { gapTimeoutMs: 400 }, clock);
    // A review that took its number and died before writing it.
    const lost = await store.takeReviewNumber(prompt.versionId, clock().toISOString());
    expect(lost.value).toBe(1);
    const started = clock.elapsed();
    const first = await service.review(prompt.id, rating(1));
    expect(first.sequence).toBe(2);
    expect(clock.elapsed() - started).toBeGreaterThanOrEqual(300);
    const afterFirst = await activeVersion(t, "task-execution");
    expect(afterFirst).toMatchObject({ reviewCount: 1, reviewScore: first.composite });
    expect((await promptOf(t, prompt.id)).reviewCount).toBe(1);
    // The number is given up for good: the next review is folded at once.
    const second = await service.review(prompt.id, rating(2));
    expect(second.sequence).toBe(3);
    const afterSecond = await activeVersion(t, "task-execution");
    expect(afterSecond.reviewCount).toBe(2);
    expect(afterSecond.reviewScore).toBeCloseTo(scoreAfter([first.composite, second.composite]) ?? Number.NaN, 9);
    expect((await promptOf(t, prompt.id)).reviewCount).toBe(2);
  });

  it("a review that cannot be folded within foldWaitMs answers all the same, and the next fold takes it in", async () => {
    const t = await testApp();
    const [prompt] = await promptsOfOneVersion(t, 1);
    if (!prompt) throw new Error("no prompt");
    const clock = testClock();
    const { service, store } = reviewsWith(t, { gapTimeoutMs: 1_500, foldWaitMs: 300 }, clock);
    await store.takeReviewNumber(prompt.versionId, clock().toISOString());
    const started = clock.elapsed();
    const first = await service.review(prompt.id, rating(3));
    expect(clock.elapsed() - started).toBeLessThan(1_500);
    expect(first.sequence).toBe(2);
    // Stored and listed, not yet counted on its version or prompt.
    const listed = await dataOf<Review[]>(t.app.request(`/api/prompts/${prompt.id}/reviews`, { headers: AUTH }));
    expect(listed.map(({ id }) => id)).toEqual([first.id]);
    expect((await activeVersion(t, "task-execution")).reviewCount).toBe(0);
    expect((await promptOf(t, prompt.id)).reviewCount).toBe(0);
    clock.advance(1_600 - (clock.elapsed() - started));
    const second = await service.review(prompt.id, rating(4));
    expect(second.sequence).toBe(3);
    const version = await activeVersion(t, "task-execution");
    expect(version.reviewCount).toBe(2);
    expect(version.reviewScore).toBeCloseTo(scoreAfter([first.composite, second.composite]) ?? Number.NaN, 9);
    expect((await promptOf(t, prompt.id)).reviewCount).toBe(2);
  });
});

describe("a version reviewed before reviews took numbers", () => {
  it("numbers its next reviews after the ones it has, and folds them onto its count and score", async () => {
    const t = await testApp();
    const [prompt] = await promptsOfOneVersion(t, 1);
    if (!prompt) throw new Error("no prompt");
    // As reviews applied one at a time left a version: a count and a score on it, no fold position
    // and no reviews item.
    await t.db.update({
      Key: versionKey(prompt.templateId, prompt.versionNumber),
      UpdateExpression: "SET reviewCount = :count, reviewScore = :score",
      ExpressionAttributeValues: { ":count": 2, ":score": 4.5 },
    });
    await t.db.delete(versionReviewsKey(prompt.templateId, prompt.versionNumber));
    const review = await dataOf<Review>(t.app.request(`/api/prompts/${prompt.id}/reviews`, jsonPost(rating(2))), 201);
    expect(review.sequence).toBe(3);
    const version = await activeVersion(t, "task-execution");
    expect(version.reviewCount).toBe(3);
    expect(version.reviewScore).toBeCloseTo(nextReviewScore(4.5, compositeScore(rating(2))), 9);
  });
});

describe("a version's reviews item", () => {
  it("takes every fold: the version item, with its content, is never rewritten by a review", async () => {
    const t = await testApp();
    const [prompt] = await promptsOfOneVersion(t, 1);
    if (!prompt) throw new Error("no prompt");
    const key = versionKey(prompt.templateId, prompt.versionNumber);
    const before = await t.db.get(key, { consistent: true });
    const composites: number[] = [];
    for (let i = 0; i < 3; i++) {
      const review = await dataOf<Review>(t.app.request(`/api/prompts/${prompt.id}/reviews`, jsonPost(rating(i))), 201);
      composites.push(review.composite);
    }
    expect(await t.db.get(key, { consistent: true })).toEqual(before);
    const version = await activeVersion(t, "task-execution");
    expect(version.reviewCount).toBe(3);
    expect(version.reviewScore).toBeCloseTo(scoreAfter(composites) ?? Number.NaN, 9);
    const tally = await t.db.get(versionReviewsKey(prompt.templateId, prompt.versionNumber), { consistent: true });
    expect(tally).toMatchObject({ reviewCount: 3, reviewsFoldedThrough: 3 });
  });

  it("starts from what a version folded before it kept on itself: count, score, position and improvement task", async () => {
    const t = await testApp();
    const [prompt] = await promptsOfOneVersion(t, 1);
    if (!prompt) throw new Error("no prompt");
    const first = await dataOf<Review>(t.app.request(`/api/prompts/${prompt.id}/reviews`, jsonPost(rating(1))), 201);
    const second = await dataOf<Review>(t.app.request(`/api/prompts/${prompt.id}/reviews`, jsonPost(rating(2))), 201);
    // As folds left a version before its reviews had an item of their own: the tally on the version.
    const reviewsKey = versionReviewsKey(prompt.templateId, prompt.versionNumber);
    const tally = await t.db.get(reviewsKey, { consistent: true });
    await t.db.update({
      Key: versionKey(prompt.templateId, prompt.versionNumber),
      UpdateExpression:
        "SET reviewCount = :count, reviewScore = :score, reviewsFoldedThrough = :through, improvementIssueId = :issue",
      ExpressionAttributeValues: {
        ":count": tally?.reviewCount,
        ":score": tally?.reviewScore,
        ":through": tally?.reviewsFoldedThrough,
        ":issue": "iss_01M000000000000000000000AA",
      },
    });
    await t.db.delete(reviewsKey);
    const before = await activeVersion(t, "task-execution");
    expect(before.reviewCount).toBe(2);
    expect(before.reviewScore).toBeCloseTo(scoreAfter([first.composite, second.composite]) ?? Number.NaN, 9);
    const third = await dataOf<Review>(t.app.request(`/api/prompts/${prompt.id}/reviews`, jsonPost(rating(3))), 201);
    expect(third.sequence).toBe(3);
    const after = await activeVersion(t, "task-execution");
    expect(after.reviewCount).toBe(3);
    expect(after.reviewScore).toBeCloseTo(
      scoreAfter([first.composite, second.composite, third.composite]) ?? Number.NaN,
      9,
    );
    // The improvement task the version recorded moves with the tally: it is never opened twice.
    expect(await t.db.get(reviewsKey, { consistent: true })).toMatchObject({
      reviewCount: 3,
      reviewsFoldedThrough: 3,
      improvementIssueId: "iss_01M000000000000000000000AA",
    });
  });
});
