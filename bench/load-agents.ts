/**
 * @module bench/load-agents — the agents of the sustained load, written with fetch: each slot runs
 * an agent that joins within the ramp, claims with the fleet's dispatch key (60 s leases, the shortest), heartbeats while it works (a second or two, or
 * about BENCH_LOAD_WORK_SECONDS), reviews its prompt
 * with its dispatch token, and completes done or failed; some vanish right after a claim or a
 * heartbeat and never come back (another agent takes the slot), so their leases run out and their
 * issues are claimed again. Every answer is recorded in the ledger; every request is timed.
 */

import type { ClaimRecord } from "../testkit/load-audit.js";
import { send as sendRequest } from "./http.js";
import type { LoadLedger, RouteTimings } from "./load-ledger.js";

export const CLAIM_ROUTE = "POST /api/dispatch/claim";

/** The shortest lease the API allows: vanished agents' leases run out within the load. */
export const LEASE_SECONDS = 60;

export interface AgentOptions {
  url: string;
  ledger: LoadLedger;
  timings: RouteTimings;
  /** Agents working at once. */
  agents: number;
  /** Share of claims after which the agent vanishes. */
  vanishShare: number;
  /** Share of completions that report `failed` (the issue goes back to `todo`). */
  failShare: number;
  /** Share of dispatches whose prompt the agent reviews. */
  reviewShare: number;
  /** Seconds spent on a dispatch before completing it, on average (half to one and a half times); 0: 0.2–1.2 s a heartbeat. */
  workSeconds: number;
  /** Seconds over which the agents join, at even intervals (the first at once); 0: all at once. */
  rampSeconds: number;
  /** Claims sent once every agent has joined are recorded here too: the load's polling, past its start. */
  joinedTimings: RouteTimings;
  /** No claim starts after this instant (performance.now()); dispatches in hand are finished. */
  deadline: number;
  apiKey: string;
}

/** What the agents did, for the report. */
export interface AgentFigures {
  agents: number;
  /** Agents that ever ran (the slots, plus one for each that vanished and was replaced). */
  started: number;
  claims: number;
  /** Claims answered 204: nothing was eligible. */
  emptyClaims: number;
  vanished: number;
  completed: number;
  failed: number;
  /** Completions refused with 409: the agent's lease had run out. */
  refused: number;
  reviews: number;
}

interface Answer {
  status: number | null;
  data: Record<string, unknown>;
  /** When the request was sent and when its answer came (epoch ms, this process's clock). */
  sentAt: number;
  answeredAt: number;
}

/** Runs `options.agents` agent slots until the deadline; resolves when every agent has stopped. */
export async function runAgents(options: AgentOptions): Promise<AgentFigures> {
  const figures: AgentFigures = {
    agents: options.agents,
    started: 0,
    claims: 0,
    emptyClaims: 0,
    vanished: 0,
    completed: 0,
    failed: 0,
    refused: 0,
    reviews: 0,
  };
  const joinedAt = performance.now() + options.rampSeconds * 1000;
  const send = async (route: string, path: string, bearer: string, body: unknown): Promise<Answer> => {
    const sentAt = Date.now();
    const joined = performance.now() >= joinedAt;
    const headers = { Authorization: `Bearer ${bearer}`, "Content-Type": "application/json" };
    const reply = await sendRequest(options.url, { path, headers, body: JSON.stringify(body) });
    options.timings.record(route, reply.status, reply.ms);
    if (joined && route === CLAIM_ROUTE) options.joinedTimings.record(route, reply.status, reply.ms);
    return { status: reply.status, data: reply.body?.data ?? {}, sentAt, answeredAt: Date.now() };
  };
  const running = () => performance.now() < options.deadline;

  /** One agent's life: dispatch after dispatch until the deadline; false when it vanished. */
  const life = async (agent: string): Promise<boolean> => {
    while (running()) {
      const claim = await send(CLAIM_ROUTE, "/api/dispatch/claim", options.apiKey, {
        agent,
        leaseSeconds: LEASE_SECONDS,
      });
      if (claim.status === null) options.ledger.unansweredClaims += 1;
      if (claim.status !== 201) {
        if (claim.status === 204) figures.emptyClaims += 1;
        await sleep(500 + Math.random() * 500);
        continue;
      }
      figures.claims += 1;
      const dispatch = claim.data.dispatch as { id: string; issueId: string; token: string; attempt: number };
      const prompt = claim.data.prompt as { id: string } | null;
      const record: ClaimRecord = {
        dispatchId: dispatch.id,
        issueId: dispatch.issueId,
        agent,
        promptId: prompt?.id ?? null,
        attempt: dispatch.attempt,
        acknowledgedAt: claim.answeredAt,
        lastSeenActiveAt: null,
        end: "vanished",
        reviewId: null,
      };
      /** A request with the dispatch's token succeeded: the dispatch was active after it was sent. */
      const seenActive = (answer: Answer) => {
        record.lastSeenActiveAt = answer.sentAt;
      };
      options.ledger.claims.push(record);
      const vanishing = Math.random() < options.vanishShare;
      const heartbeats = vanishing ? Math.floor(Math.random() * 2) : 1 + Math.floor(Math.random() * 3);
      const work = options.workSeconds * 1000 * (0.5 + Math.random());
      for (let i = 0; i < heartbeats; i++) {
        await sleep(options.workSeconds > 0 ? work / Math.max(heartbeats, 1) : 200 + Math.random() * 1000);
        const beat = await send(
          "POST /api/dispatch/:id/heartbeat",
          `/api/dispatch/${dispatch.id}/heartbeat`,
          dispatch.token,
          {},
        );
        if (beat.status === 200) seenActive(beat);
      }
      if (vanishing) {
        figures.vanished += 1;
        return false;
      }
      // The token dies with the dispatch, so the review comes before the completion.
      if (prompt && Math.random() < options.reviewShare) {
        const review = await send(
          "POST /api/prompts/:id/reviews",
          `/api/prompts/${prompt.id}/reviews`,
          dispatch.token,
          {
            clarity: score(),
            completeness: score(),
            relevance: score(),
            feedback: "Clear enough to start; the acceptance criteria could be sharper.",
            authorType: "agent",
          },
        );
        if (review.status === 201) {
          seenActive(review);
          record.reviewId = String(review.data.id);
          figures.reviews += 1;
        }
      }
      const result = Math.random() < options.failShare ? "failed" : "done";
      const complete = await send(
        "POST /api/dispatch/:id/complete",
        `/api/dispatch/${dispatch.id}/complete`,
        dispatch.token,
        {
          result,
          summary: result === "done" ? "Fixed the retry budget; checkout completes." : "Could not reproduce locally.",
        },
      );
      if (complete.status === 200) {
        seenActive(complete);
        record.end = result === "done" ? "completed" : "failed";
        figures[record.end] += 1;
      } else if (complete.status === 409) {
        record.end = "refused";
        figures.refused += 1;
      } else {
        record.end = "unanswered";
      }
    }
    return true;
  };

  await Promise.all(
    Array.from({ length: options.agents }, async (_, slot) => {
      await sleep((options.rampSeconds * 1000 * slot) / options.agents);
      for (let generation = 0; running(); generation++) {
        figures.started += 1;
        const stayed = await life(`load-agent-${slot}.${generation}`);
        if (stayed) return;
        await sleep(1_000);
      }
    }),
  );
  return figures;
}

function score(): number {
  return 2 + Math.floor(Math.random() * 4);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
