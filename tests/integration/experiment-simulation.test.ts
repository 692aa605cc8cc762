/**
 * Experiments as agents would run them (docs/api.md#experiments): hundreds of claims through the API, each
 * dispatch ending done or failed by a seeded outcome sequence of its arm, for a candidate better
 * than the active version, a worse one and an equal one. The rule must promote the first, mark
 * the second `loser` and leave the third running.
 *
 * Which issue falls in which arm depends on its id (new every run), so each arm draws its outcomes
 * from its own seeded sequence, in order: every run sees the same outcomes per arm, whatever the
 * interleaving of the arms.
 */
import { describe, expect, it } from "vitest";
import type { Dispatch } from "../../core/src/dispatch/schemas.js";
import type { Issue } from "../../core/src/issues/schemas.js";
import type { Prompt } from "../../core/src/prompts/schemas.js";
import { compare, wilson } from "../../core/src/templates/experiment-figures.js";
import type { Experiment, TemplateVersion } from "../../core/src/templates/schemas.js";
import { AUTH, dataOf, jsonPost, type TestApp, testApp } from "../helpers/app.js";
import { createTemplate } from "../helpers/templates.js";

type Claimed = { dispatch: Dispatch & { token: string }; issue: Issue; prompt: Prompt | null };

/** Mulberry32: a small seeded generator, so a sequence is the same on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** `length` outcomes (true: done) at `rate`, from `seed`. */
function outcomes(seed: number, rate: number, length: number): boolean[] {
  const next = seeded(seed);
  return Array.from({ length }, () => next() < rate);
}

const MIN_SAMPLES = 30;
/** Claims per scenario at most: hundreds, as a day of a busy template. */
const CLAIMS = 300;

interface Scenario {
  name: string;
  control: boolean[];
  candidate: boolean[];
}

async function simulate(t: TestApp, scenario: Scenario) {
  const template = await createTemplate(t.app, {
    slug: "simulated",
    name: "Simulated",
    conditions: { type: "task" },
    specificity: 900,
    content: "A: {{issue.title}}",
  });
  const draft = await dataOf<TemplateVersion>(
    t.app.request(`/api/templates/${template.id}/versions`, jsonPost({ content: "B: {{issue.title}}" })),
    201,
  );
  const experiment = await dataOf<Experiment>(
    t.app.request(
      `/api/templates/${template.id}/experiments`,
      jsonPost({ candidateVersionId: draft.id, trafficPercent: 50, minSamples: MIN_SAMPLES }),
    ),
    201,
  );
  const used = { control: 0, candidate: 0 };
  const read = () =>
    dataOf<Experiment>(t.app.request(`/api/templates/${template.id}/experiments/${experiment.id}`, { headers: AUTH }));
  let claims = 0;
  for (; claims < CLAIMS; claims++) {
    // The issues to claim are made ten at a time, side by side: which issue a claim takes (a new
    // one or one back from a failure) does not change an arm's outcomes.
    if (claims % 10 === 0) {
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          dataOf(
            t.app.request("/api/issues", jsonPost({ title: `issue ${claims + i}`, type: "task", status: "todo" })),
            201,
          ),
        ),
      );
    }
    const claimed = await dataOf<Claimed>(t.app.request("/api/dispatch/claim", jsonPost({ agent: "sim" })), 201);
    const arm = claimed.prompt?.experiment?.arm;
    if (!arm) break;
    const done = scenario[arm][used[arm]++];
    await dataOf(
      t.app.request(
        `/api/dispatch/${claimed.dispatch.id}/complete`,
        jsonPost(
          { result: done ? "done" : "failed", summary: "simulated" },
          { Authorization: `Bearer ${claimed.dispatch.token}` },
        ),
      ),
    );
    if (claims % 10 === 9 && (await read()).status !== "running") break;
  }
  const [detail, ended] = await Promise.all([
    dataOf<{ activeVersionId: string }>(t.app.request(`/api/templates/${template.id}`, { headers: AUTH })),
    read(),
  ]);
  return { experiment: ended, claims, activeIsCandidate: detail.activeVersionId === draft.id };
}

describe("experiments simulated over hundreds of claims", () => {
  const better: Scenario = {
    name: "better",
    control: outcomes(11, 0.55, CLAIMS),
    candidate: outcomes(12, 0.9, CLAIMS),
  };
  const worse: Scenario = {
    name: "worse",
    control: outcomes(21, 0.85, CLAIMS),
    candidate: outcomes(22, 0.45, CLAIMS),
  };
  // Equal by construction: both arms draw the same sequence.
  const equal: Scenario = { name: "equal", control: outcomes(31, 0.7, CLAIMS), candidate: outcomes(31, 0.7, CLAIMS) };

  it("the equal arms' data never separate, however the claims interleave (a check of the data, not of Kaizen)", () => {
    const rates = (sequence: boolean[], n: number) => wilson(sequence.slice(0, n).filter(Boolean).length, n);
    for (let a = MIN_SAMPLES; a <= CLAIMS / 2 + 30; a++) {
      for (let b = MIN_SAMPLES; b <= CLAIMS / 2 + 30; b++) {
        expect(compare(rates(equal.candidate, a), rates(equal.control, b))).toBe("overlapping");
      }
    }
  });

  it("promotes the better candidate, marks the worse one `loser`, leaves the equal one running", async () => {
    const [forBetter, forWorse, forEqual] = await Promise.all([testApp(), testApp(), testApp()]);
    if (!forBetter || !forWorse || !forEqual) throw new Error("no apps");
    const [promoted, lost, running] = await Promise.all([
      simulate(forBetter, better),
      simulate(forWorse, worse),
      simulate(forEqual, equal),
    ]);

    expect(promoted.experiment.status).toBe("promoted");
    expect(promoted.activeIsCandidate).toBe(true);
    expect(promoted.experiment.decision?.reason).toMatch(/^candidate better: completion rate better/);
    const won = promoted.experiment.decision?.arms;
    expect(Math.min(won?.control.finished ?? 0, won?.candidate.finished ?? 0)).toBeGreaterThanOrEqual(MIN_SAMPLES);

    expect(lost.experiment.status).toBe("loser");
    expect(lost.activeIsCandidate).toBe(false);
    expect(lost.experiment.decision?.reason).toMatch(/^candidate worse: completion rate worse/);

    expect(running.experiment.status).toBe("running");
    expect(running.claims).toBe(CLAIMS);
    const { control, candidate } = running.experiment.arms;
    expect(control.claims + candidate.claims).toBe(CLAIMS);
    expect(control.finished).toBeGreaterThanOrEqual(MIN_SAMPLES);
    expect(candidate.finished).toBeGreaterThanOrEqual(MIN_SAMPLES);
  }, 240_000);
});
