/**
 * @module bench/costs — DynamoDB calls and consumed capacity of single API requests (and webhook
 * deliveries), served in-process by `app.request()` so the client's usage counters diff exactly
 * around each one.
 */
import type { Hono } from "hono";
import type { AppEnv } from "../core/src/http/app.js";
import type { Db, DbUsage } from "../core/src/index.js";
import type { Delivery } from "./deliveries.js";
import type { DynamoTrace, TracedCall } from "./dynamo-trace.js";
import { num } from "./format.js";
import type { SeedSummary } from "./seed.js";

export const PAGE_LIMIT = 20;

/** Which budget a row is held to: list page ≤ 3, get ≤ 1, receiver ≤ 3, claim ≤ 3 calls; other writes have none. */
export type CostKind = "list" | "get" | "write" | "receiver" | "claim";

/** The parsed JSON a request answered. */
export interface ResponseBody {
  data?: unknown;
  total?: number;
}

/** Why a response is not the one the case asked for (wrong status, wrong first item), if it is not. */
export type ResponseCheck = (status: number, body: ResponseBody, headers: Headers) => string | undefined;

export interface CostRow {
  key: string;
  label: string;
  kind: CostKind;
  request: string;
  status: number;
  calls: number;
  /** Capacity of read calls and of write calls, from each call's response. */
  readCapacity: number;
  writeCapacity: number;
  /** What the data layer's own meter (`Db.usage()`) booked for the request. */
  usage: DbUsage;
  /** False when at least one successful call's response carried no ConsumedCapacity. */
  capacityReported: boolean;
  traced: TracedCall[];
  returned: number | undefined;
  total: number | undefined;
  /** Why a response looks wrong (empty page, wrong first number), if it does. */
  problem: string | undefined;
  /** Why the row is only reported, not held to its kind's budget, if it is. */
  exempt: string | undefined;
  body: ResponseBody;
  /** The response's `ETag`, for an `If-Match` that follows. */
  etag: string | undefined;
}

export interface CostCase {
  key: string;
  label: string;
  kind: CostKind;
  method?: "GET" | "POST" | "PATCH" | "DELETE";
  path: string;
  /** A JSON body, sent with the API key like every other API request. */
  body?: unknown;
  /** Headers beside the API key (`If-Match`, `Idempotency-Key`). */
  headers?: Record<string, string>;
  /** A webhook delivery: sent exactly as given (its signature stands in for the API key). */
  delivery?: Delivery;
  check?: ResponseCheck;
  exempt?: string;
}

/** The first entry of a list page must be issue `number`. */
function firstNumberIs(number: number): ResponseCheck {
  return (_status, body) => {
    const first = (Array.isArray(body.data) ? (body.data[0] as { number?: number } | undefined) : undefined)?.number;
    return first === number ? undefined : `first issue is #${first}, expected #${number}`;
  };
}

export function topKey(counts: Record<string, number>): [string, number] {
  const entries = Object.entries(counts).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return entries[0] ?? ["", 0];
}

export function lastPage(total: number): number {
  return Math.max(1, Math.ceil(total / PAGE_LIMIT));
}

/** The requests to cost, chosen from what was seeded. */
export function costCases(seed: SeedSummary): CostCase[] {
  const n = seed.count;
  const far = Math.min(500, lastPage(n));
  const todo = seed.byStatus.todo ?? 0;
  const [label, labelCount] = topKey(seed.byLabel);
  const [project, projectCount] = topKey(seed.byProject);
  const list = (query: string) => `/api/issues?${query}`;
  const cases: CostCase[] = [
    { key: "all.p1", label: "list, page 1", kind: "list", path: list("page=1&limit=20"), check: firstNumberIs(n) },
    {
      key: "all.far",
      label: `list, page ${far}`,
      kind: "list",
      path: list(`page=${far}&limit=20`),
      check: firstNumberIs(n - (far - 1) * PAGE_LIMIT),
    },
    {
      key: "asc.p1",
      label: "list sort=createdAt, page 1",
      kind: "list",
      path: list("page=1&limit=20&sort=createdAt"),
      check: firstNumberIs(1),
    },
    {
      key: "asc.far",
      label: `list sort=createdAt, page ${far}`,
      kind: "list",
      path: list(`page=${far}&limit=20&sort=createdAt`),
      check: firstNumberIs((far - 1) * PAGE_LIMIT + 1),
    },
    { key: "todo.p1", label: `status=todo (${todo}), page 1`, kind: "list", path: list("status=todo&page=1&limit=20") },
    {
      key: "todo.last",
      label: `status=todo, last page ${lastPage(todo)}`,
      kind: "list",
      path: list(`status=todo&page=${lastPage(todo)}&limit=20`),
    },
  ];
  if (label) {
    cases.push(
      {
        key: "label.p1",
        label: `label=${label} (${labelCount}), page 1`,
        kind: "list",
        path: list(`label=${label}&page=1&limit=20`),
      },
      {
        key: "label.last",
        label: `label=${label}, last page ${lastPage(labelCount)}`,
        kind: "list",
        path: list(`label=${label}&page=${lastPage(labelCount)}&limit=20`),
      },
    );
  }
  if (project) {
    cases.push({
      key: "project.p1",
      label: `projectId (${projectCount}), page 1`,
      kind: "list",
      path: list(`projectId=${project}&page=1&limit=20`),
    });
  }
  const combined = seed.byStatusType["todo+task"] ?? 0;
  const walked = walkedNote("status=todo", todo);
  cases.push(
    {
      key: "combined.p1",
      label: `status=todo&type=task (${combined}), page 1`,
      kind: "list",
      path: list("status=todo&type=task&page=1&limit=20"),
      exempt: walked,
    },
    {
      key: "combined.last",
      label: `status=todo&type=task, last page ${lastPage(combined)}`,
      kind: "list",
      path: list(`status=todo&type=task&page=${lastPage(combined)}&limit=20`),
      exempt: walked,
    },
  );
  return cases;
}

/** A page-1 row and a far-page row of one list, and whether their capacity ratio is held to ≤ 5. */
export interface RatioPair {
  what: string;
  farKey: string;
  firstKey: string;
  /** Served from bucket counts (budgeted); otherwise walked, and only reported. */
  indexed: boolean;
}

/** The note on a walked list's rows: what it reads whatever the page. */
export function walkedNote(listing: string, entries: number): string {
  return `walked: reads all ${entries} entries of the ${listing} listing whatever the page; its cost grows with that listing`;
}

/** The ratios of the cases above. */
export function costRatios(seed: SeedSummary): RatioPair[] {
  const far = Math.min(500, lastPage(seed.count));
  return [
    { what: `list page ${far} / page 1, default sort`, farKey: "all.far", firstKey: "all.p1", indexed: true },
    { what: `list page ${far} / page 1, sort=createdAt`, farKey: "asc.far", firstKey: "asc.p1", indexed: true },
    { what: "status=todo last page / page 1", farKey: "todo.last", firstKey: "todo.p1", indexed: true },
    { what: "label last page / page 1", farKey: "label.last", firstKey: "label.p1", indexed: true },
    { what: "status+type last page / page 1", farKey: "combined.last", firstKey: "combined.p1", indexed: false },
  ];
}

/** Runs each case once, in order, and costs it. */
export async function measureCosts(
  app: Hono<AppEnv>,
  db: Db,
  trace: DynamoTrace,
  apiKey: string,
  cases: CostCase[],
): Promise<CostRow[]> {
  const rows: CostRow[] = [];
  for (const item of cases) rows.push(await measureCost(app, db, trace, apiKey, item));
  return rows;
}

/** Serves one case and diffs the usage counters and the trace around it. */
export async function measureCost(
  app: Hono<AppEnv>,
  db: Db,
  trace: DynamoTrace,
  apiKey: string,
  item: CostCase,
): Promise<CostRow> {
  const method = item.method ?? (item.delivery ? "POST" : "GET");
  trace.take();
  const before = db.usage();
  const response = await app.request(`http://localhost${item.path}`, { method, ...requestInit(item, apiKey) });
  const text = await response.text();
  const body = (text === "" ? {} : JSON.parse(text)) as ResponseBody;
  const after = db.usage();
  const traced = trace.take();
  const data = Array.isArray(body.data) ? body.data : undefined;
  let problem: string | undefined;
  if (response.status >= 300) problem = `answered ${response.status}: ${JSON.stringify(body).slice(0, 200)}`;
  else if (data && data.length === 0) problem = "empty page";
  else problem = item.check?.(response.status, body, response.headers);
  return {
    key: item.key,
    label: item.label,
    kind: item.kind,
    request: `${method} ${item.path}`,
    status: response.status,
    calls: after.calls - before.calls,
    readCapacity: sumCapacity(traced, "read"),
    writeCapacity: sumCapacity(traced, "write"),
    usage: {
      calls: after.calls - before.calls,
      readCapacity: after.readCapacity - before.readCapacity,
      writeCapacity: after.writeCapacity - before.writeCapacity,
    },
    // A failed call carries no ConsumedCapacity by nature; the report says so apart (printCostRows).
    capacityReported:
      traced.length > 0 && traced.every((call) => call.error !== undefined || call.capacity !== undefined),
    traced,
    returned: data?.length,
    total: body.total,
    problem,
    exempt: item.exempt,
    body,
    etag: response.headers.get("ETag") ?? undefined,
  };
}

/** Headers and body of a case: a delivery as it is, anything else with the API key. */
function requestInit(item: CostCase, apiKey: string): { headers: Record<string, string>; body?: string } {
  if (item.delivery) return { headers: item.delivery.headers, body: item.delivery.body };
  const headers: Record<string, string> = { Authorization: `Bearer ${apiKey}`, ...item.headers };
  if (item.body === undefined) return { headers };
  headers["Content-Type"] = "application/json";
  return { headers, body: JSON.stringify(item.body) };
}

function sumCapacity(calls: TracedCall[], kind: TracedCall["kind"]): number {
  return calls.filter((call) => call.kind === kind).reduce((sum, call) => sum + (call.capacity ?? 0), 0);
}

/**
 * Read capacity of one 1 MB Query page at strong consistency (4 KB per unit); DynamoDB Local
 * reports 257 for a full page, so only calls above that read more than DynamoDB would in one.
 */
export const QUERY_PAGE_CU = 256;

/**
 * The Query calls DynamoDB Local answered in one go although they read more than 1 MB: it applies
 * the 1 MB page limit after a FilterExpression, DynamoDB before it.
 */
export function oversizedQueries(row: CostRow): TracedCall[] {
  return row.traced.filter((call) => call.command === "Query" && (call.capacity ?? 0) > QUERY_PAGE_CU + 1);
}

/** The calls the request would make on DynamoDB, where each Query page stops after 1 MB read. */
export function callsOnAws(row: CostRow): number {
  const oversized = oversizedQueries(row);
  const pages = oversized.reduce((sum, call) => sum + Math.ceil((call.capacity ?? 0) / QUERY_PAGE_CU), 0);
  return row.calls - oversized.length + pages;
}

/** True when the data layer's meter booked the request's capacity as its calls reported it. */
export function meterAgrees(row: CostRow): boolean {
  const close = (a: number, b: number) => Math.abs(a - b) < 1e-9;
  return (
    row.usage.calls === row.traced.length &&
    close(row.usage.readCapacity, row.readCapacity) &&
    close(row.usage.writeCapacity, row.writeCapacity)
  );
}

/** `Query 2 [100] · BatchGetItem 20 [20]`: each call's capacity and items returned/evaluated, or how it failed. */
export function breakdown(calls: TracedCall[]): string {
  return calls
    .map((call) => {
      if (call.error !== undefined) return `${call.command} failed: ${call.error}`;
      const capacity = call.capacity === undefined ? "n/r" : num(call.capacity);
      const items =
        call.returned === undefined
          ? call.requested === undefined
            ? ""
            : ` [${call.requested} items]`
          : call.scanned !== undefined && call.scanned !== call.returned
            ? ` [${call.returned}/${call.scanned}]`
            : ` [${call.returned}]`;
      return `${call.command} ${capacity}${items}`;
    })
    .join(" · ");
}

/**
 * AWS write units a request would consume at least, from the writes it made: 2 per item of a
 * TransactWriteItems and 1 per single-item write (DynamoDB bills per KB of item, so items over
 * 1 KB cost more). Failed calls are left out, as DynamoDB Local reports no capacity for them.
 */
export function awsWriteUnits(row: CostRow): number {
  let units = 0;
  for (const call of row.traced) {
    if (call.error !== undefined) continue;
    if (call.command === "TransactWriteItems") units += 2 * (call.requested ?? 0);
    else if (call.command === "PutItem" || call.command === "UpdateItem" || call.command === "DeleteItem") units += 1;
    else if (call.command === "BatchWriteItem") units += call.requested ?? 0;
  }
  return units;
}
