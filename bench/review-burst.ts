/**
 * @module bench/review-burst — the reviews burst of ARCHITECTURE.md ("Budgets"): N reviews of ONE
 * template version (the default `task-execution` version), spread over 10 prompts of 10 task
 * issues. Prompts are not created over HTTP yet, so each run records 10 fresh prompts in-process,
 * as a claim will (`promptEngine` → `preparePrompt` → `transactWrite`), before it is timed: both
 * sides of the burst start from unreviewed prompts of the same version.
 *
 * Once, before the first run, the version is reviewed one request at a time until it needs
 * improvement, so the review that opens its one improvement task (extra reads and an issue
 * create) lands in no timed run and no side pays for it.
 *
 * After each run the version's `reviewCount` must have grown by exactly N, every answer must be a
 * 201, the reviews' `sequence` numbers must be the N that follow the count read before, and each
 * prompt must count its own reviews; otherwise the bench fails.
 */
import { createDb, loadConfig } from "../core/src/index.js";
import type { Prompt } from "../core/src/prompts/schemas.js";
import { needsImprovement } from "../core/src/prompts/scoring.js";
import { promptEngine } from "../core/src/templates/engine.js";
import type { TemplateDetail, TemplateVersion } from "../core/src/templates/schemas.js";
import { type Answer, type BurstCase, type BurstRequest, refusedAnswers } from "./bursts.js";

/** The default template task issues get; its active version is the one reviewed. */
export const REVIEWED_TEMPLATE = "task-execution";
/** Prompts (and task issues) the reviews of one run are spread over. */
const PROMPTS = 10;
/** Reviews the warm-up may send before it gives up waiting for the version to need improvement. */
const WARM_UP_LIMIT = 50;

/** The reviews burst, and a way to release its database client once the server is done. */
export interface ReviewBurst {
  burst: BurstCase;
  close(): void;
}

/** One review body; the ratings vary from review to review, as agents' would. */
function reviewBody(i: number): string {
  return JSON.stringify({ clarity: 3 + (i % 3), completeness: 5 - (i % 2), relevance: 4, authorType: "agent" });
}

/**
 * The reviews burst against the local server at `url`, whose table is `tableName` at `endpoint`:
 * the bench process records the prompts in that table itself.
 */
export function reviewBurst(options: {
  url: string;
  apiKey: string;
  size: number;
  tableName: string;
  endpoint: string;
}): ReviewBurst {
  const { url, apiKey, size, tableName, endpoint } = options;
  const headers = { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" };
  const db = createDb({ tableName, region: "us-east-1", endpoint });
  const config = loadConfig({ env: { TABLE_NAME: tableName, DYNAMODB_ENDPOINT: endpoint, SERVICE_API_KEY: apiKey } });
  const engine = promptEngine({ config, db });
  const prompts = Math.min(PROMPTS, size);

  const api = async (method: "GET" | "POST", path: string, body?: string) => {
    const response = await fetch(`${url}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
    const text = await response.text();
    let json: { data?: unknown } = {};
    try {
      json = JSON.parse(text) as { data?: unknown };
    } catch {
      // Not JSON: reported below through the status.
    }
    return { status: response.status, data: json.data, text };
  };
  const detail = async (): Promise<TemplateDetail & { activeVersion: TemplateVersion }> => {
    const answer = await api("GET", `/api/templates/${REVIEWED_TEMPLATE}`);
    const found = answer.data as TemplateDetail | undefined;
    if (answer.status !== 200 || !found?.activeVersion) {
      throw new Error(
        `GET /api/templates/${REVIEWED_TEMPLATE} answered ${answer.status}: ${answer.text.slice(0, 300)}`,
      );
    }
    return { ...found, activeVersion: found.activeVersion };
  };
  /** Records the prompt `issueId` gets now, as a claim would; it must come from the reviewed version. */
  const record = async (issueId: string, versionId: string): Promise<Prompt> => {
    const prepared = await engine.prompts.preparePrompt(issueId, null, { dispatch: null, previousDispatches: [] });
    if (!prepared) throw new Error(`reviews burst: no template matches task issue ${issueId}`);
    if (prepared.prompt.versionId !== versionId) {
      throw new Error(
        `reviews burst: issue ${issueId} got a prompt of version ${prepared.prompt.versionId}, expected ${versionId} (${REVIEWED_TEMPLATE})`,
      );
    }
    await db.transactWrite(prepared.writes);
    return prepared.prompt;
  };
  const review = async (promptId: string, i: number) => {
    const answer = await api("POST", `/api/prompts/${promptId}/reviews`, reviewBody(i));
    if (answer.status !== 201) {
      throw new Error(`warm-up review answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    }
  };

  let issues: string[] | undefined;
  /** The issues, made once; the version warmed up past its improvement task. */
  const prepareOnce = async (): Promise<string[]> => {
    if (issues) return issues;
    await engine.defaultsReady();
    const made: string[] = [];
    for (let i = 0; i < prompts; i++) {
      const body = JSON.stringify({ title: `Review burst task ${i}`, type: "task", priority: 3 });
      const answer = await api("POST", "/api/issues", body);
      const id = (answer.data as { id?: string } | undefined)?.id;
      if (answer.status !== 201 || !id) throw new Error(`reviews burst: POST /api/issues answered ${answer.status}`);
      made.push(id);
    }
    const [first] = made;
    if (!first) throw new Error("reviews burst: no issue to warm up with");
    let version = (await detail()).activeVersion;
    const warmUp = await record(first, version.id);
    for (let i = 0; !needsImprovement(version); i++) {
      if (i >= WARM_UP_LIMIT) throw new Error(`reviews burst: the version needs no improvement after ${i} reviews`);
      await review(warmUp.id, i);
      version = (await detail()).activeVersion;
    }
    issues = made;
    return made;
  };

  /** What the current run started from: the version's count, and its prompts with the reviews each is sent. */
  let start: { count: number; prompts: Prompt[]; sent: number[] } | undefined;

  const burst: BurstCase = {
    name: `${size} × POST /api/prompts/:id/reviews, one version (${prompts} prompts)`,
    async requests() {
      const made = await prepareOnce();
      const { activeVersion } = await detail();
      const fresh: Prompt[] = [];
      for (const issueId of made) fresh.push(await record(issueId, activeVersion.id));
      const sent = fresh.map(() => 0);
      const requests = Array.from({ length: size }, (_, i): BurstRequest => {
        const at = i % fresh.length;
        sent[at] = (sent[at] ?? 0) + 1;
        return { path: `/api/prompts/${fresh[at]?.id}/reviews`, headers, body: reviewBody(i) };
      });
      start = { count: activeVersion.reviewCount, prompts: fresh, sent };
      return requests;
    },
    expect: [201],
    async settled(answers: Answer[]) {
      if (!start) return "the run was not prepared";
      const { count, prompts: reviewed, sent } = start;
      start = undefined;
      const problems = refusedAnswers(answers, 201);
      const after = (await detail()).activeVersion;
      if (after.reviewCount - count !== size) {
        problems.push(
          `reviewCount went ${count} → ${after.reviewCount}: grew by ${after.reviewCount - count}, not ${size}`,
        );
      }
      const sequences = answers
        .map((answer) => (answer.body as { data?: { sequence?: number } })?.data?.sequence)
        .filter((sequence): sequence is number => typeof sequence === "number")
        .sort((a, b) => a - b);
      const expected = Array.from({ length: size }, (_, i) => count + 1 + i);
      if (JSON.stringify(sequences) !== JSON.stringify(expected)) {
        problems.push(`review sequences are not ${count + 1}…${count + size}, each once`);
      }
      for (const [i, prompt] of reviewed.entries()) {
        const answer = await api("GET", `/api/prompts/${prompt.id}`);
        const got = (answer.data as { reviewCount?: number } | undefined)?.reviewCount;
        if (got !== sent[i]) problems.push(`prompt ${prompt.id} counts ${got} reviews, was sent ${sent[i]}`);
      }
      return problems.length === 0 ? undefined : problems.join("; ");
    },
  };
  return { burst, close: () => db.client.destroy() };
}
