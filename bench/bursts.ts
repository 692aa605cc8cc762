/**
 * @module bench/bursts — the same N requests sent one after another and all at once, against the
 * local server, with AWS's transaction conflicts emulated and not (ARCHITECTURE.md, "Budgets": a
 * burst's wall time ≤ 1.0 × the serial wall with emulation off, ≤ 1.5 × with it on, 0 × 5xx).
 * Besides the bursts the budget names, creates that all name one label and one project show the
 * spread reference checks. Every run writes things no other run touched (its own titles, fingerprints and delivery ids),
 * and rounds alternate which of the two goes first, so neither order is favoured. The reviews burst
 * (./review-burst.ts) reviews one version from fresh prompts each run, and checks what each run left.
 */
import { randomUUID } from "node:crypto";
import { codehostDelivery, type Delivery, issueEvent } from "./deliveries.js";
import { quantile } from "./format.js";
import type { BenchServer } from "./throughput.js";

/** One HTTP request of a burst. */
export interface BurstRequest {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** What a burst sends, and what each answer must be. */
export interface BurstCase {
  name: string;
  /** Requests to send once before the runs (what the burst refers to), in order. */
  setup?: BurstRequest[];
  /**
   * The requests of one run; `run` is unique per run, for fresh titles, fingerprints and ids.
   * Built before the run is timed, so it may prepare what they refer to (fresh prompts to review).
   */
  requests(run: number): BurstRequest[] | Promise<BurstRequest[]>;
  /** Statuses a correct answer may have. */
  expect: number[];
  /** Whether the answers of one run are right as a whole (e.g. 25 new signals and 75 duplicates). */
  verify?(answers: Answer[]): string | undefined;
  /**
   * What the run left behind, read back after it (untimed): a problem found here fails the bench,
   * as a wrong end state means the timings measured a broken burst.
   */
  settled?(answers: Answer[]): Promise<string | undefined>;
}

export interface Answer {
  status: number;
  ms: number;
  body: unknown;
}

/** One run: its wall time and its answers. */
export interface BurstRun {
  wallMs: number;
  answers: Answer[];
  /** DynamoDB calls the server made (failed ones included), and conflicts among them. */
  dynamoCalls: number;
  conflicts: number;
}

export interface BurstRow {
  name: string;
  emulation: boolean;
  requests: number;
  serial: BurstRun[];
  concurrent: BurstRun[];
  /** Median concurrent wall ÷ median serial wall. */
  ratio: number;
  serialWallMs: number;
  concurrentWallMs: number;
  p50Ms: number;
  p99Ms: number;
  fiveXx: number;
  unexpected: number;
  problems: string[];
}

/**
 * The problem lines for answers other than `status`: how many, which statuses, and the first body.
 * @example const problems = refusedAnswers(answers, 201); // [] when every answer was a 201
 */
export function refusedAnswers(answers: Answer[], status: number): string[] {
  const refused = answers.filter((answer) => answer.status !== status);
  if (refused.length === 0) return [];
  const statuses = [...new Set(refused.map((answer) => answer.status))].join(", ");
  return [
    `${refused.length} answers were not ${status} (${statuses}), first: ${JSON.stringify(refused[0]?.body).slice(0, 200)}`,
  ];
}

/** The burst cases of ARCHITECTURE.md: creates, and deliveries of 100 fingerprints, of one, and of 25 ids × 4. */
export function burstCases(apiKey: string, size: number): BurstCase[] {
  const issueDelivery = (action: string, repoIssue: number, deliveryId?: string) =>
    toRequest(codehostDelivery("issues", issueEvent(action, repoIssue), deliveryId));
  const ids = Math.max(1, Math.floor(size / 4));
  const bearer = { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" };
  return [
    {
      name: `${size} × POST /api/issues`,
      requests: (run) =>
        Array.from({ length: size }, (_, i) => ({
          path: "/api/issues",
          headers: bearer,
          body: JSON.stringify({ title: `Burst ${run} issue ${i}`, type: "task", priority: 3 }),
        })),
      expect: [201],
      verify: (answers) => distinctNumbers(answers, size),
    },
    {
      name: `${size} × POST /api/issues naming one label and one project`,
      setup: [
        { path: "/api/labels", headers: bearer, body: JSON.stringify({ name: "incident", color: "#d73a4a" }) },
        { path: "/api/projects", headers: bearer, body: JSON.stringify({ name: "Checkout" }) },
      ],
      requests: (run) =>
        Array.from({ length: size }, (_, i) => ({
          path: "/api/issues",
          headers: bearer,
          body: JSON.stringify({
            title: `Burst ${run} alert ${i}`,
            type: "task",
            labels: ["incident"],
            projectId: "$project",
          }),
        })),
      expect: [201],
      verify: (answers) => distinctNumbers(answers, size),
    },
    {
      name: `${size} deliveries, ${size} fingerprints (each opens an issue)`,
      requests: (run) => Array.from({ length: size }, (_, i) => issueDelivery("opened", run * 10_000 + i)),
      expect: [201],
      verify: (answers) => actions(answers, { opened: size }),
    },
    {
      name: `${size} deliveries, one fingerprint (one opens, the rest group)`,
      requests: (run) => Array.from({ length: size }, () => issueDelivery("edited", run * 10_000)),
      expect: [201],
      verify: (answers) => actions(answers, { opened: 1, grouped: size - 1 }),
    },
    {
      name: `${size} deliveries of ${ids} delivery ids (each sent 4 times)`,
      requests: (run) => {
        const deliveries = Array.from({ length: ids }, (_, i) =>
          issueDelivery("edited", run * 10_000 + i, randomUUID()),
        );
        // Each id four times, interleaved, as a provider's redeliveries would arrive.
        return Array.from({ length: size }, (_, i) => deliveries[i % ids] as BurstRequest);
      },
      expect: [200, 201],
      verify: (answers) => {
        const created = answers.filter((answer) => answer.status === 201).length;
        return created === ids ? undefined : `${created} signals stored, expected ${ids}`;
      },
    },
  ];
}

function toRequest(delivery: Delivery): BurstRequest {
  return { path: delivery.path, headers: delivery.headers, body: delivery.body };
}

function distinctNumbers(answers: Answer[], size: number): string | undefined {
  const numbers = new Set(answers.map((answer) => (answer.body as { data?: { number?: number } })?.data?.number));
  return numbers.size === size ? undefined : `${numbers.size} distinct issue numbers for ${size} creates`;
}

function actions(answers: Answer[], expected: Record<string, number>): string | undefined {
  const seen: Record<string, number> = {};
  for (const answer of answers) {
    const action = (answer.body as { data?: { signal?: { action?: string } } })?.data?.signal?.action ?? "none";
    seen[action] = (seen[action] ?? 0) + 1;
  }
  const wrong = Object.entries(expected).filter(([action, count]) => seen[action] !== count);
  return wrong.length === 0 ? undefined : `actions ${JSON.stringify(seen)}, expected ${JSON.stringify(expected)}`;
}

async function send(url: string, request: BurstRequest): Promise<Answer> {
  const started = performance.now();
  const response = await fetch(`${url}${request.path}`, {
    method: "POST",
    headers: request.headers,
    body: request.body,
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, ms: performance.now() - started, body };
}

async function run(server: BenchServer, requests: BurstRequest[], concurrent: boolean): Promise<BurstRun> {
  const before = await server.stats();
  const started = performance.now();
  let answers: Answer[];
  if (concurrent) {
    answers = await Promise.all(requests.map((request) => send(server.url, request)));
  } else {
    answers = [];
    for (const request of requests) answers.push(await send(server.url, request));
  }
  const wallMs = performance.now() - started;
  const after = await server.stats();
  return {
    wallMs,
    answers,
    dynamoCalls: after.dynamoCalls - before.dynamoCalls,
    conflicts: conflictsIn(after.byCommand) - conflictsIn(before.byCommand),
  };
}

function conflictsIn(byCommand: Awaited<ReturnType<BenchServer["stats"]>>["byCommand"]): number {
  let total = 0;
  for (const counts of Object.values(byCommand)) {
    for (const [failure, count] of Object.entries(counts.failures)) {
      if (failure.includes("TransactionConflict")) total += count;
    }
  }
  return total;
}

/**
 * Sends `burst` one after another and all at once, `rounds` times each (alternating which goes
 * first), and compares the medians.
 */
export async function measureBurst(
  server: BenchServer,
  burst: BurstCase,
  options: { emulation: boolean; rounds: number; nextRun: () => number },
): Promise<BurstRow> {
  const serial: BurstRun[] = [];
  const concurrent: BurstRun[] = [];
  // Ids the setup made, for requests that name them (`"$project"`).
  const made: Record<string, string> = {};
  for (const request of burst.setup ?? []) {
    const answer = await send(server.url, request);
    const id = (answer.body as { data?: { id?: string } })?.data?.id;
    if (answer.status >= 300 || !id) throw new Error(`burst setup ${request.path} answered ${answer.status}`);
    made[request.path.split("/").pop() ?? ""] = id;
  }
  const named = (request: BurstRequest): BurstRequest =>
    made.projects ? { ...request, body: request.body.replace('"$project"', JSON.stringify(made.projects)) } : request;
  for (let round = 0; round < options.rounds; round++) {
    const order = round % 2 === 0 ? [false, true] : [true, false];
    for (const all of order) {
      const requests = (await burst.requests(options.nextRun())).map(named);
      const result = await run(server, requests, all);
      const wrong = await burst.settled?.(result.answers);
      if (wrong) {
        const how = `${all ? "all at once" : "one after another"}, conflicts ${options.emulation ? "emulated" : "off"}`;
        throw new Error(`burst "${burst.name}" (${how}, round ${round + 1}) left a wrong state: ${wrong}`);
      }
      (all ? concurrent : serial).push(result);
    }
  }
  const everyAnswer = [...serial, ...concurrent].flatMap((result) => result.answers);
  const problems = [...serial, ...concurrent].flatMap((result) => {
    const problem = burst.verify?.(result.answers);
    return problem ? [problem] : [];
  });
  const median = (runs: BurstRun[]) =>
    quantile(
      runs.map((result) => result.wallMs).sort((a, b) => a - b),
      0.5,
    );
  const latencies = concurrent.flatMap((result) => result.answers.map((answer) => answer.ms)).sort((a, b) => a - b);
  const serialWallMs = median(serial);
  const concurrentWallMs = median(concurrent);
  return {
    name: burst.name,
    emulation: options.emulation,
    requests: serial[0]?.answers.length ?? 0,
    serial,
    concurrent,
    ratio: concurrentWallMs / serialWallMs,
    serialWallMs,
    concurrentWallMs,
    p50Ms: quantile(latencies, 0.5),
    p99Ms: quantile(latencies, 0.99),
    fiveXx: everyAnswer.filter((answer) => answer.status >= 500).length,
    unexpected: everyAnswer.filter((answer) => !burst.expect.includes(answer.status)).length,
    problems: [...new Set(problems)],
  };
}
