/**
 * @module bench/claim-burst — the claims burst of ARCHITECTURE.md ("Budgets") at the size of the
 * dispatch issue's own target: 50 `POST /api/dispatch/claim` against at least 200 eligible issues,
 * all at once vs one after another.
 *
 * Before each run (untimed) the queue is topped up with `todo` tasks through `POST /api/issues`
 * until at least 200 are eligible, so both sides claim from a queue of the same depth, and the
 * count of active dispatches is read. After each run every answer must be a 201, the 50 claimed
 * issues must be distinct, and `GET /api/dispatch?status=active` must count exactly 50 more
 * dispatches; otherwise the bench fails. Leases last 30 minutes by default, far longer than a
 * burst's runs, so none runs out (and is expired by a later claim) between the two counts.
 */
import { type Answer, type BurstCase, type BurstRequest, refusedAnswers } from "./bursts.js";

/** Claims sent per run. */
export const CLAIMS = 50;
/** Issues that must be eligible before each run. */
export const ELIGIBLE = 200;

/** The claims burst against the local server at `url`. */
export function claimBurst(options: { url: string; apiKey: string }): BurstCase {
  const { url, apiKey } = options;
  const headers = { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" };

  const api = async (method: "GET" | "POST", path: string, body?: string) => {
    const response = await fetch(`${url}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
    const text = await response.text();
    let json: { data?: unknown; total?: number } = {};
    try {
      json = JSON.parse(text) as { data?: unknown; total?: number };
    } catch {
      // Not JSON: reported below through the status.
    }
    return { status: response.status, data: json.data, total: json.total, text };
  };
  /** The `total` of a list answer, which must be a 200. */
  const total = async (path: string): Promise<number> => {
    const answer = await api("GET", path);
    if (answer.status !== 200 || typeof answer.total !== "number") {
      throw new Error(`claims burst: GET ${path} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    }
    return answer.total;
  };
  const queued = () => total("/api/dispatch/queue?limit=1");
  const active = () => total("/api/dispatch?status=active&limit=100");

  let created = 0;
  /** Creates `todo` tasks (priorities 1–4) until at least {@link ELIGIBLE} are queued. */
  const topUp = async (run: number): Promise<number> => {
    let eligible = await queued();
    for (let i = 0; eligible < ELIGIBLE; i++, eligible++) {
      const body = JSON.stringify({
        title: `Claim burst ${run} task ${i}`,
        type: "task",
        status: "todo",
        priority: 1 + (created++ % 4),
      });
      const answer = await api("POST", "/api/issues", body);
      if (answer.status !== 201) {
        throw new Error(`claims burst: POST /api/issues answered ${answer.status}: ${answer.text.slice(0, 300)}`);
      }
    }
    const now = await queued();
    if (now < ELIGIBLE) throw new Error(`claims burst: ${now} issues queued after topping up, expected ≥ ${ELIGIBLE}`);
    return now;
  };

  /** The active dispatches counted before the current run. */
  let activeBefore: number | undefined;

  return {
    name: `${CLAIMS} × POST /api/dispatch/claim (≥ ${ELIGIBLE} eligible)`,
    async requests(run) {
      await topUp(run);
      activeBefore = await active();
      return Array.from(
        { length: CLAIMS },
        (_, i): BurstRequest => ({
          path: "/api/dispatch/claim",
          headers,
          body: JSON.stringify({ agent: `bench-${run}-${i}` }),
        }),
      );
    },
    expect: [201],
    async settled(answers: Answer[]) {
      if (activeBefore === undefined) return "the run was not prepared";
      const before = activeBefore;
      activeBefore = undefined;
      const problems = refusedAnswers(answers, 201);
      const issues = answers
        .map((answer) => (answer.body as { data?: { issue?: { id?: string } } })?.data?.issue?.id)
        .filter((id): id is string => typeof id === "string");
      const distinct = new Set(issues).size;
      if (distinct !== CLAIMS) problems.push(`${distinct} distinct issues claimed by ${CLAIMS} claims`);
      const after = await active();
      if (after - before !== CLAIMS) {
        problems.push(`active dispatches went ${before} → ${after}: grew by ${after - before}, not ${CLAIMS}`);
      }
      return problems.length === 0 ? undefined : problems.join("; ");
    },
  };
}
