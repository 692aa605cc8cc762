/**
 * @module bench/load-ledger — what the sustained load was told: every acknowledged delivery, issue
 * and claim (the audit's input, testkit/load-audit.ts), the issues the load's edits pick from, and the
 * figures per route of the requests the agents send themselves.
 */
import type { ClaimRecord, DeliveryAck, DeliveryRecord, LoadRecords } from "../testkit/load-audit.js";
import type { Delivery, Provider } from "./deliveries.js";
import { quantile } from "./format.js";

/** Acknowledged deliveries kept per provider for redelivery (recent ones, so redeliveries bunch up). */
const REDELIVERY_POOL = 200;

/** Requests, rate, latency and answers of one route over the load. */
export interface RouteFigures {
  /** Method and route pattern: `POST /api/dispatch/:id/heartbeat`. */
  route: string;
  /** Who sent it: an autocannon instance of its own, or fetch loops (the agents, the queue watch). */
  driver: "autocannon" | "fetch";
  /** Connections (autocannon) or loops sending it. */
  concurrency: number;
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers by status code. */
  statuses: Record<string, number>;
  /** Answers whose status the load does not expect on this route (a 409 on an edit, say). */
  unexpected: number;
  /** Requests that got no answer (connection errors, timeouts). */
  errors: number;
}

/**
 * The statuses each route of the load may answer: webhooks 201 new or 200 duplicate, claims 204
 * when the queue is empty, and 409 on a heartbeat or completion whose lease ran out first.
 */
export const EXPECTED_STATUSES: Record<string, readonly number[]> = {
  "POST /api/signals/codehost": [200, 201],
  "POST /api/signals/errortracker": [200, 201],
  "POST /api/signals/analytics": [200, 201],
  "POST /api/issues": [201],
  "PATCH /api/issues/:id": [200],
  "GET /api/issues": [200],
  "GET /api/dispatch/queue": [200],
  "POST /api/dispatch/claim": [201, 204],
  "POST /api/dispatch/:id/heartbeat": [200, 409],
  "POST /api/prompts/:id/reviews": [201],
  "POST /api/dispatch/:id/complete": [200, 409],
};

/** Answers in `statuses` that {@link EXPECTED_STATUSES} does not allow on `route`. */
export function unexpectedAnswers(route: string, statuses: Record<string, number>): number {
  const expected = EXPECTED_STATUSES[route] ?? [];
  return Object.entries(statuses).reduce(
    (sum, [status, count]) => sum + (expected.includes(Number(status)) ? 0 : count),
    0,
  );
}

/** The acknowledged writes of a load, and the ids its requests pick from. */
export class LoadLedger {
  private readonly deliveries = new Map<string, DeliveryRecord>();
  readonly issuesCreated: string[] = [];
  readonly claims: ClaimRecord[] = [];
  unansweredClaims = 0;
  /** Issues the load's edits may pick (seeded, created, opened by signals). */
  readonly known: string[] = [];
  /** Issues in `triage`, waiting for an edit to move them to `todo`. */
  readonly triage: string[] = [];
  /**
   * Issues claimable now, as last read from `GET /api/dispatch/queue`: creates and edits add `todo`
   * issues only while it is under the target, so the queue neither runs dry nor grows without end
   * (an endless queue would leave issues whose lease ran out waiting behind newer ones).
   */
  queueDepth = 0;
  private readonly acknowledged: Record<Provider, Delivery[]> = {
    codehost: [],
    errortracker: [],
    analytics: [],
  };

  /** Records an answer to `delivery` (2xx only: anything else acknowledged nothing). */
  deliveryAnswered(delivery: Delivery, deliveryId: string, status: number, body: string): void {
    if (status < 200 || status >= 300) return;
    const data = parse(body) as {
      signal?: { id?: string; action?: string };
      issue?: { id?: string; status?: string };
      duplicate?: boolean;
    };
    const ack: DeliveryAck = {
      status,
      signalId: typeof data.signal?.id === "string" ? data.signal.id : null,
      duplicate: typeof data.duplicate === "boolean" ? data.duplicate : null,
    };
    const key = `${delivery.provider} ${deliveryId}`;
    const record = this.deliveries.get(key);
    if (record) {
      record.acks.push(ack);
      return;
    }
    this.deliveries.set(key, { source: delivery.provider, deliveryId, acks: [ack] });
    const pool = this.acknowledged[delivery.provider];
    pool.push(delivery);
    if (pool.length > REDELIVERY_POOL) pool.shift();
    if (data.signal?.action === "opened" && data.issue?.id) this.issueSeen(data.issue.id, data.issue.status);
  }

  /** An earlier acknowledged delivery of `provider` to send again, byte for byte; none before the first. */
  redelivery(provider: Provider): Delivery | undefined {
    const pool = this.acknowledged[provider];
    return pool[Math.floor(Math.random() * pool.length)];
  }

  /** Records an issue `POST /api/issues` answered 201 for. */
  issueCreated(id: string, status: string): void {
    this.issuesCreated.push(id);
    this.issueSeen(id, status);
  }

  private issueSeen(id: string, status: string | undefined): void {
    this.known.push(id);
    if (status === "triage") this.triage.push(id);
  }

  /** The audit's input. */
  records(): LoadRecords {
    return {
      deliveries: [...this.deliveries.values()],
      issuesCreated: [...this.issuesCreated],
      claims: [...this.claims],
      unansweredClaims: this.unansweredClaims,
    };
  }
}

/** Latency and answers per route of the requests sent with fetch, timed by the sender. */
export class RouteTimings {
  private readonly routes = new Map<string, { ms: number[]; statuses: Record<string, number>; errors: number }>();

  /** Records one request to `route`: its answer's status, or null when none came. */
  record(route: string, status: number | null, ms: number): void {
    let entry = this.routes.get(route);
    if (!entry) {
      entry = { ms: [], statuses: {}, errors: 0 };
      this.routes.set(route, entry);
    }
    if (status === null) {
      entry.errors += 1;
      return;
    }
    entry.ms.push(ms);
    entry.statuses[status] = (entry.statuses[status] ?? 0) + 1;
  }

  /** Responses with status ≥ 500 so far. */
  fiveXx(): number {
    let total = 0;
    for (const { statuses } of this.routes.values()) {
      for (const [status, count] of Object.entries(statuses)) if (Number(status) >= 500) total += count;
    }
    return total;
  }

  /** One row per route, over `seconds` of load; `concurrency` says how many loops sent each route. */
  figures(seconds: number, concurrency: (route: string) => number): RouteFigures[] {
    return [...this.routes].map(([route, entry]) => ({
      route,
      driver: "fetch",
      concurrency: concurrency(route),
      requests: entry.ms.length,
      requestsPerSecond: entry.ms.length / seconds,
      p50Ms: quantile(entry.ms, 0.5),
      p99Ms: quantile(entry.ms, 0.99),
      statuses: entry.statuses,
      unexpected: unexpectedAnswers(route, entry.statuses),
      errors: entry.errors,
    }));
  }
}

function parse(body: string): Record<string, unknown> {
  try {
    return ((JSON.parse(body) as { data?: Record<string, unknown> }).data ?? {}) as Record<string, unknown>;
  } catch {
    return {};
  }
}
