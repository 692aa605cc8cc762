/**
 * @module bench/load-traffic — the autocannon side of the sustained load: one instance per route,
 * each building every request afresh in `setupRequest` and reading every answer in `onResponse`.
 * Signed deliveries of the three providers (one in four a byte-identical redelivery of an earlier
 * acknowledged one), issue creates (`todo` while the queue is short, so agents always find work,
 * else `triage`), edits (priority, title, and `triage` → `todo` while the queue is short) and issue lists.
 */
import autocannon from "autocannon";
import {
  analyticsDelivery,
  codehostDelivery,
  type Delivery,
  errortrackerDelivery,
  issueEvent,
  type Provider,
  pushEvent,
} from "./deliveries.js";
import { type LoadLedger, type RouteFigures, unexpectedAnswers } from "./load-ledger.js";

/** Share of webhook sends that redeliver an earlier acknowledged delivery. */
export const REDELIVERY_SHARE = 0.25;
/** Share of edits that move a `triage` issue to `todo` (when one is waiting and the queue is short). */
const TRIAGE_SHARE = 0.35;

/** One autocannon instance: a route, its connections, and how requests are built and answered. */
export interface TrafficRoute {
  route: string;
  connections: number;
  setupRequest(request: autocannon.Request, context: Record<string, unknown>): autocannon.Request;
  onResponse(status: number, body: string, context: Record<string, unknown>): void;
}

/** Where the traffic goes and what it may name. */
export interface TrafficOptions {
  apiKey: string;
  ledger: LoadLedger;
  /** The seeded project half of the creates and one of the lists name. */
  projectId: string;
  /** Connections per route. */
  connections: number;
  /** Creates and edits add `todo` issues while fewer than this many are queued (LoadLedger.queueDepth). */
  queueTarget: number;
  /** Called for each answer with status ≥ 500, with its route (for live progress). */
  onServerError(route: string, status: number): void;
}

/** The delivery id each provider's delivery carries (docs/api.md#receivers). */
export function deliveryIdOf(delivery: Delivery): string {
  const { headers } = delivery;
  return headers["X-Codehost-Delivery"] ?? headers["Request-ID"] ?? headers["X-Analytics-Delivery"] ?? "";
}

/** Every autocannon route of the load. */
export function trafficRoutes(options: TrafficOptions): TrafficRoute[] {
  const { ledger } = options;
  // Copied into each request: autocannon writes the body's Content-Length into the headers object it is given.
  const json = { Authorization: `Bearer ${options.apiKey}`, "Content-Type": "application/json" };
  const sent: Record<Provider, number> = { codehost: 0, errortracker: 0, analytics: 0 };
  const serverErrors =
    (route: string) =>
    (status: number): void => {
      if (status >= 500) options.onServerError(route, status);
    };

  const webhook = (provider: Provider): TrafficRoute => {
    const route = `POST /api/signals/${provider}`;
    const failed = serverErrors(route);
    return {
      route,
      connections: options.connections,
      setupRequest: (request, context) => {
        const again = Math.random() < REDELIVERY_SHARE ? ledger.redelivery(provider) : undefined;
        const delivery = again ?? freshDelivery(provider, ++sent[provider]);
        context.delivery = delivery;
        return {
          ...request,
          method: "POST",
          path: delivery.path,
          headers: { ...delivery.headers },
          body: delivery.body,
        };
      },
      onResponse: (status, body, context) => {
        failed(status);
        const delivery = context.delivery as Delivery | undefined;
        if (delivery) ledger.deliveryAnswered(delivery, deliveryIdOf(delivery), status, body);
      },
    };
  };

  let created = 0;
  const createRoute = "POST /api/issues";
  const createFailed = serverErrors(createRoute);
  const creates: TrafficRoute = {
    route: createRoute,
    connections: options.connections,
    setupRequest: (request) => {
      const n = ++created;
      const body = {
        title: `Load issue ${n}: checkout retries exceed the payment timeout`,
        // Mostly medium tasks, so the queue is close to first come, first served and issues whose
        // lease ran out (older than the rest) are claimed again within the run.
        type: (["task", "task", "task", "plan"] as const)[n % 4],
        status: ledger.queueDepth < options.queueTarget ? "todo" : "triage",
        priority: n % 10 === 0 ? 2 : 3,
        description: "Created by the sustained load bench.",
        ...(n % 2 === 0 ? { projectId: options.projectId } : {}),
      };
      return { ...request, method: "POST", path: "/api/issues", headers: { ...json }, body: JSON.stringify(body) };
    },
    onResponse: (status, body) => {
      createFailed(status);
      if (status !== 201) return;
      const data = (JSON.parse(body) as { data: { id: string; status: string } }).data;
      ledger.issueCreated(data.id, data.status);
    },
  };

  let edited = 0;
  const patchRoute = "PATCH /api/issues/:id";
  const edits: TrafficRoute = {
    route: patchRoute,
    connections: options.connections,
    setupRequest: (request) => {
      const n = ++edited;
      const triaged =
        ledger.queueDepth < options.queueTarget && Math.random() < TRIAGE_SHARE ? ledger.triage.shift() : undefined;
      const id = triaged ?? ledger.known[Math.floor(Math.random() * ledger.known.length)];
      const body = triaged
        ? { status: "todo" }
        : n % 2 === 0
          ? { priority: 1 + Math.floor(Math.random() * 4) }
          : { title: `Load issue, edited ${n} times over` };
      return {
        ...request,
        method: "PATCH",
        path: `/api/issues/${id}`,
        headers: { ...json },
        body: JSON.stringify(body),
      };
    },
    onResponse: serverErrors(patchRoute),
  };

  const queries = [
    "?status=todo&limit=20",
    "?sort=priority&limit=50",
    "?page=3&limit=20",
    "?type=task,signal&sort=-updatedAt&limit=20",
    `?projectId=${options.projectId}&limit=20`,
    "?status=in_progress&limit=100",
  ];
  let listed = 0;
  const listRoute = "GET /api/issues";
  const lists: TrafficRoute = {
    route: listRoute,
    connections: options.connections,
    setupRequest: (request) => ({
      ...request,
      method: "GET",
      path: `/api/issues${queries[listed++ % queries.length]}`,
      headers: { ...json },
    }),
    onResponse: serverErrors(listRoute),
  };

  return [webhook("codehost"), webhook("errortracker"), webhook("analytics"), creates, edits, lists];
}

/**
 * A new delivery (its own id) of `provider`, the `n`th: code-host issue events over a growing set of
 * repository issues (each opens an issue, then groups into it) and pushes (recorded); tracker issues
 * over a growing set; analytics drops over twenty funnel steps.
 */
function freshDelivery(provider: Provider, n: number): Delivery {
  const growing = () => 1 + Math.floor(Math.random() * (10 + n / 20));
  switch (provider) {
    case "codehost":
      return n % 4 === 0
        ? codehostDelivery("push", pushEvent(n))
        : codehostDelivery("issues", issueEvent(n % 3 === 0 ? "opened" : "edited", growing()));
    case "errortracker":
      return errortrackerDelivery(String(growing()));
    case "analytics":
      return analyticsDelivery(`checkout_step_${1 + (n % 20)}`, -(10 + Math.random() * 60));
  }
}

/**
 * Loads every route at once for `seconds`, each as fast as it is answered or, with `rate`, at that
 * many requests per second; one row of figures per route.
 */
export async function runTraffic(
  url: string,
  routes: TrafficRoute[],
  seconds: number,
  rate = 0,
): Promise<RouteFigures[]> {
  return Promise.all(
    routes.map(async (route) => {
      const result = await autocannon({
        url,
        connections: route.connections,
        duration: seconds,
        ...(rate > 0 ? { overallRate: rate } : {}),
        timeout: 30,
        requests: [
          {
            setupRequest: (request, context) => route.setupRequest(request, context as Record<string, unknown>),
            onResponse: (status, body, context) => route.onResponse(status, body, context as Record<string, unknown>),
          },
        ],
      });
      const statuses = Object.fromEntries(
        Object.entries(result.statusCodeStats ?? {}).map(([status, stat]) => [status, stat.count ?? 0]),
      );
      const answered = Object.values(statuses).reduce((sum, count) => sum + count, 0);
      return {
        route: route.route,
        driver: "autocannon" as const,
        concurrency: route.connections,
        requests: answered,
        requestsPerSecond: answered / result.duration,
        p50Ms: result.latency.p50,
        p99Ms: result.latency.p99,
        statuses,
        unexpected: unexpectedAnswers(route.route, statuses),
        errors: result.errors,
      };
    }),
  );
}
