/**
 * @module bench/burst-cases — what the bursts send (./bursts.ts): creates (with the root key and with a
 * key of its own narrowed to a project; each leaves its audit record in its transaction), deliveries of many
 * fingerprints, of one, and of ids sent 4 times, reviews of one template version, claims, and
 * activities of agents each on its own dispatch and to one dispatch (reported, not budgeted: they take
 * turns), each with the statuses a right answer may have and what makes a run's answers wrong as a whole.
 */
import { codehostDelivery, issueEvent } from "./deliveries.js";
import { api, type Reply, send } from "./http.js";

export interface BurstRequest {
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface BurstCase {
  /** What the budget line calls it, after the count: `claim (≥ 200 eligible)`. */
  name: string;
  /** The route it sends. */
  route: string;
  /** The requests of run `run` (unique per run), prepared untimed. */
  requests(run: number): BurstRequest[] | Promise<BurstRequest[]>;
  /** Statuses a right answer may have. */
  expect: number[];
  /** What is wrong with one run's answers as a whole, if anything. */
  verify?(answers: Reply[]): string | undefined;
  /**
   * Why its ratio is reported rather than held to the burst budget: its requests take turns by
   * design, so all at once cannot beat one after another. A 5xx is still over budget.
   */
  unbounded?: string;
  /** How many requests it sends at once, when not the burst's size. */
  count?: number;
}

/** At least this many issues are eligible when a claim burst starts (the dispatch issue's own target). */
export const ELIGIBLE = 200;

/** A dispatch claimed for the activity bursts, and the token its agent posts with. */
interface Claimed {
  id: string;
  token: string;
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const dataOf = (answer: Reply) => (answer.body as { data?: Record<string, unknown> } | undefined)?.data ?? {};

function distinct(what: string, answers: Reply[], pick: (data: Record<string, unknown>) => unknown, expected: number) {
  const seen = new Set(answers.map((answer) => pick(dataOf(answer)))).size;
  return seen === expected ? undefined : `${seen} distinct ${what}, expected ${expected}`;
}

function actions(answers: Reply[], expected: Record<string, number>): string | undefined {
  const seen: Record<string, number> = {};
  for (const answer of answers) {
    const action = (dataOf(answer).signal as { action?: string } | undefined)?.action ?? "none";
    seen[action] = (seen[action] ?? 0) + 1;
  }
  const wrong = Object.entries(expected).some(([action, count]) => seen[action] !== count);
  return wrong ? `actions ${JSON.stringify(seen)}, expected ${JSON.stringify(expected)}` : undefined;
}

/** The burst cases against the server at `url`, `size` requests each. */
export function burstCases(url: string, apiKey: string, size: number): BurstCase[] {
  const client = api(url, apiKey);
  /** Posts sent at once to one dispatch: its agent and a few people watching it, never a crowd. */
  const together = Math.min(10, size);
  const post = (path: string, body: unknown): BurstRequest => ({
    path,
    headers: client.headers,
    body: JSON.stringify(body),
  });
  const issues = (run: number, extra: Record<string, unknown> = {}) =>
    range(size).map((i) =>
      post("/api/issues", { title: `Burst ${run} issue ${i}`, type: "task", priority: 3, ...extra }),
    );
  const delivery = (action: string, number: number) => codehostDelivery("issues", issueEvent(action, number));
  const ids = Math.max(1, Math.floor(size / 4));
  const project = async (name: string) => String((await client.post("/api/projects", { name })).data.id);
  let named: Promise<{ label: string; projectId: string }> | undefined;
  let keyed: Promise<{ key: string; projectId: string }> | undefined;
  let reviewed: Promise<string> | undefined;
  let working: Promise<string> | undefined;

  /** Prompts of the default task-execution version, recorded by claiming fresh tasks of `projectId`. */
  const prompts = async (projectId: string, count: number, run: number | string): Promise<string[]> => {
    for (const i of range(count)) {
      await client.post("/api/issues", {
        title: `Review burst ${run} task ${i}`,
        type: "task",
        status: "todo",
        projectId,
      });
    }
    const claimed: string[] = [];
    for (const i of range(count)) {
      const claim = (await client.post("/api/dispatch/claim", { agent: `reviewer-${run}-${i}`, projectId })).data;
      claimed.push(String(claim.prompt?.id));
    }
    return claimed;
  };
  /** Reviews a first prompt low until its version's one improvement task opens, so that no timed run opens it. */
  const reviewWarmUp = async () => {
    const projectId = await project("Review burst");
    const [prompt] = await prompts(projectId, 1, "warm-up");
    const improvementTasks = async () =>
      (await send(url, { path: "/api/issues?label=prompt-improvement&limit=1", headers: client.headers })).body
        ?.total ?? 0;
    for (let i = 0; (await improvementTasks()) === 0; i++) {
      if (i === 20) throw new Error("reviews burst: no improvement task after 20 low reviews");
      await client.post(`/api/prompts/${prompt}/reviews`, {
        clarity: 1,
        completeness: 1,
        relevance: 1,
        authorType: "agent",
      });
    }
    return projectId;
  };
  const review = (i: number) => ({
    clarity: 3 + (i % 3),
    completeness: 5 - (i % 2),
    relevance: 4,
    authorType: "agent",
  });

  const eligible = Math.max(ELIGIBLE, 2 * size);

  /**
   * `count` dispatches of run `run`, each claimed by an agent of its own from a project of the
   * activity bursts alone (topped up to `count` todo tasks), so that the claim burst's queue and these
   * claims never take each other's issues. Their leases are the longest a claim may ask, so that none
   * runs out within the bench and is expired inside another case's timed claims.
   */
  const dispatches = async (run: number, count: number): Promise<Claimed[]> => {
    working ??= project("Activity burst");
    const projectId = await working;
    const queued = (await client.get(`/api/dispatch/queue?projectId=${projectId}&limit=1`)).total as number;
    for (let i = queued; i < count; i++) {
      await client.post("/api/issues", {
        title: `Activity burst ${run} task ${i}`,
        type: "task",
        status: "todo",
        priority: 1 + (i % 4),
        projectId,
      });
    }
    const claimed: Claimed[] = [];
    for (const i of range(count)) {
      const claim = await client.post("/api/dispatch/claim", {
        agent: `act-${run}-${i}`,
        projectId,
        leaseSeconds: 7200,
      });
      claimed.push({ id: String(claim.data.dispatch.id), token: String(claim.data.dispatch.token) });
    }
    return claimed;
  };
  /** An activity of step `i` posted to dispatch `id` with its own token. */
  const activity = ({ id, token }: Claimed, i: number): BurstRequest => ({
    path: `/api/dispatch/${id}/activities`,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ type: i % 2 === 0 ? "thought" : "action", body: `Step ${i} of the task` }),
  });

  return [
    {
      name: "create",
      route: "POST /api/issues",
      requests: (run) => issues(run),
      expect: [201],
      verify: (answers) => distinct("issue numbers", answers, (data) => data.number, size),
    },
    {
      name: "create (one label and project)",
      route: "POST /api/issues naming one label and one project",
      requests: async (run) => {
        // Named after the first run that asks: every model and mode shares the table, and label names are unique.
        named ??= client
          .post("/api/labels", { name: `incident-${run}`, color: "#d73a4a" })
          .then(async () => ({ label: `incident-${run}`, projectId: await project("Checkout") }));
        const { label, projectId } = await named;
        return issues(run, { labels: [label], projectId });
      },
      expect: [201],
      verify: (answers) => distinct("issue numbers", answers, (data) => data.number, size),
    },
    {
      name: "create (a key of its own)",
      route: "POST /api/issues with a write key narrowed to one project",
      requests: async (run) => {
        // One key for every run: its check is read once per instance, then kept.
        keyed ??= project("Keyed").then(async (projectId) => {
          const made = await client.post("/api/keys", {
            name: "bench writer",
            scopes: ["write"],
            projectIds: [projectId],
          });
          return { key: String(made.data.key), projectId };
        });
        const { key, projectId } = await keyed;
        return issues(run, { projectId }).map((request) => ({
          ...request,
          headers: { ...request.headers, Authorization: `Bearer ${key}` },
        }));
      },
      expect: [201],
      verify: (answers) => distinct("issue numbers", answers, (data) => data.number, size),
    },
    {
      name: `delivery (${size} fingerprints)`,
      route: "POST /api/signals/codehost, each opening an issue",
      requests: (run) => range(size).map((i) => delivery("opened", run * 10_000 + i)),
      expect: [201],
      verify: (answers) => actions(answers, { opened: size }),
    },
    {
      name: "delivery (one fingerprint)",
      route: "POST /api/signals/codehost, one opening an issue and the rest grouping into it",
      requests: (run) => range(size).map(() => delivery("edited", run * 10_000)),
      expect: [201],
      verify: (answers) => actions(answers, { opened: 1, grouped: size - 1 }),
    },
    {
      name: `delivery (${ids} ids × 4)`,
      route: "POST /api/signals/codehost, each delivery id sent 4 times, interleaved",
      requests: (run) => {
        const sent = range(ids).map((i) => delivery("edited", run * 10_000 + i));
        // Each id four times, interleaved, as a provider's redeliveries would arrive.
        return range(size).map((i) => sent[i % ids] as BurstRequest);
      },
      expect: [200, 201],
      verify: (answers) => {
        const stored = answers.filter((answer) => answer.status === 201).length;
        return stored === ids ? undefined : `${stored} signals stored, expected ${ids}`;
      },
    },
    {
      name: "review (one version)",
      route: `POST /api/prompts/:id/reviews, ${Math.min(10, size)} prompts of one template version`,
      requests: async (run) => {
        reviewed ??= reviewWarmUp();
        const promptIds = await prompts(await reviewed, Math.min(10, size), run);
        return range(size).map((i) => post(`/api/prompts/${promptIds[i % promptIds.length]}/reviews`, review(i)));
      },
      expect: [201],
    },
    {
      name: `claim (≥ ${eligible} eligible)`,
      route: "POST /api/dispatch/claim, each by an agent of its own",
      requests: async (run) => {
        const queued = (await client.get("/api/dispatch/queue?limit=1")).total as number;
        for (let i = queued; i < eligible; i++) {
          await client.post("/api/issues", {
            title: `Claim burst ${run} task ${i}`,
            type: "task",
            status: "todo",
            priority: 1 + (i % 4),
          });
        }
        return range(size).map((i) => post("/api/dispatch/claim", { agent: `bench-${run}-${i}` }));
      },
      expect: [201],
      verify: (answers) => distinct("issues claimed", answers, (data) => (data.issue as { id?: string })?.id, size),
    },
    {
      name: "activity (one per dispatch)",
      route: "POST /api/dispatch/:id/activities, each agent on its own dispatch, with its dispatch token",
      requests: async (run) => (await dispatches(run, size)).map((dispatch, i) => activity(dispatch, i)),
      expect: [201],
      verify: (answers) => {
        const firsts = answers.filter((answer) => dataOf(answer).sequence === 1).length;
        if (firsts !== size) return `${firsts} activities of sequence 1, expected ${size}`;
        return distinct("dispatches", answers, (data) => data.dispatchId, size);
      },
    },
    {
      name: "activity (to one dispatch)",
      count: together,
      route: `POST /api/dispatch/:id/activities, ${together} at once to one dispatch, with its dispatch token`,
      requests: async (run) => {
        const [dispatch] = await dispatches(run, 1);
        return range(together).map((i) => activity(dispatch as Claimed, i));
      },
      expect: [201],
      unbounded:
        "posts to one dispatch take turns by design: each reads its activity count and writes the next at the " +
        "version read (so sequences have no gaps), and a lost race reads again; one agent and the people " +
        `watching it post a few at once, so ${together}, not the burst's size`,
      verify: (answers) => {
        // Distinct and within 1..size: when every post is taken, exactly 1..size, without gaps or repeats
        // (a post not taken is already a wrong answer).
        const taken = answers.filter((answer) => answer.status === 201).map((answer) => dataOf(answer).sequence);
        const inRange = taken.filter(
          (sequence) => Number.isInteger(sequence) && Number(sequence) >= 1 && Number(sequence) <= together,
        );
        const distinctTaken = new Set(inRange).size;
        return distinctTaken === taken.length
          ? undefined
          : `${taken.length} activities taken, ${distinctTaken} distinct sequences within 1..${together}`;
      },
    },
  ];
}
