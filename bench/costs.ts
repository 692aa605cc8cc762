/**
 * @module bench/costs — DynamoDB calls and consumed capacity of single API requests, served
 * in-process by `app.request()` so the client's usage counters diff exactly around each one.
 */
import type { Hono } from "hono";
import type { AppEnv } from "../core/src/http/app.js";
import type { Db, DbUsage } from "../core/src/index.js";
import type { DynamoTrace, TracedCall } from "./dynamo-trace.js";
import { num } from "./format.js";
import type { SeedSummary } from "./seed.js";

export const PAGE_LIMIT = 20;

export type CostKind = "list" | "get" | "create";

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
  /** False when at least one call's response carried no ConsumedCapacity. */
  capacityReported: boolean;
  traced: TracedCall[];
  returned: number | undefined;
  total: number | undefined;
  /** Why a response looks wrong (empty page, wrong first number), if it does. */
  problem: string | undefined;
}

interface Case {
  key: string;
  label: string;
  kind: CostKind;
  method?: "GET" | "POST";
  path: string;
  body?: unknown;
  /** Issue number the first entry of a list page must have. */
  firstNumber?: number;
}

function topKey(counts: Record<string, number>): [string, number] {
  const entries = Object.entries(counts).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return entries[0] ?? ["", 0];
}

function lastPage(total: number): number {
  return Math.max(1, Math.ceil(total / PAGE_LIMIT));
}

/** The requests to cost, chosen from what was seeded. */
export function costCases(seed: SeedSummary): Case[] {
  const n = seed.count;
  const far = Math.min(500, lastPage(n));
  const todo = seed.byStatus.todo ?? 0;
  const [label, labelCount] = topKey(seed.byLabel);
  const [project, projectCount] = topKey(seed.byProject);
  const list = (query: string) => `/api/issues?${query}`;
  const cases: Case[] = [
    { key: "all.p1", label: "list, page 1", kind: "list", path: list("page=1&limit=20"), firstNumber: n },
    {
      key: "all.far",
      label: `list, page ${far}`,
      kind: "list",
      path: list(`page=${far}&limit=20`),
      firstNumber: n - (far - 1) * PAGE_LIMIT,
    },
    {
      key: "asc.p1",
      label: "list sort=createdAt, page 1",
      kind: "list",
      path: list("page=1&limit=20&sort=createdAt"),
      firstNumber: 1,
    },
    {
      key: "asc.far",
      label: `list sort=createdAt, page ${far}`,
      kind: "list",
      path: list(`page=${far}&limit=20&sort=createdAt`),
      firstNumber: (far - 1) * PAGE_LIMIT + 1,
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
  cases.push(
    {
      key: "combined.p1",
      label: `status=todo&type=task (${combined}), page 1`,
      kind: "list",
      path: list("status=todo&type=task&page=1&limit=20"),
    },
    {
      key: "combined.last",
      label: `status=todo&type=task, last page ${lastPage(combined)}`,
      kind: "list",
      path: list(`status=todo&type=task&page=${lastPage(combined)}&limit=20`),
    },
    { key: "get.id", label: "get by id", kind: "get", path: `/api/issues/${seed.firstId}` },
    {
      key: "get.ref",
      label: `get by KZN-${Math.ceil(n / 2)}`,
      kind: "get",
      path: `/api/issues/KZN-${Math.ceil(n / 2)}`,
    },
    {
      key: "create",
      label: "create (POST)",
      kind: "create",
      method: "POST",
      path: "/api/issues",
      body: {
        title: "Benchmark-created issue",
        type: "task",
        status: "todo",
        priority: 2,
        description: "Created by the bench to cost one POST /api/issues.",
      },
    },
  );
  return cases;
}

/** Runs each case once, in order, and costs it. */
export async function measureCosts(
  app: Hono<AppEnv>,
  db: Db,
  trace: DynamoTrace,
  apiKey: string,
  cases: Case[],
): Promise<CostRow[]> {
  const rows: CostRow[] = [];
  for (const item of cases) {
    const headers: Record<string, string> = { Authorization: `Bearer ${apiKey}` };
    if (item.body !== undefined) headers["Content-Type"] = "application/json";
    trace.take();
    const before = db.usage();
    const response = await app.request(`http://localhost${item.path}`, {
      method: item.method ?? "GET",
      headers,
      ...(item.body !== undefined ? { body: JSON.stringify(item.body) } : {}),
    });
    const body = (await response.json()) as { data?: unknown; total?: number };
    const after = db.usage();
    const traced = trace.take();
    const data = Array.isArray(body.data) ? (body.data as { number?: number }[]) : undefined;
    let problem: string | undefined;
    if (response.status >= 300) problem = `answered ${response.status}: ${JSON.stringify(body).slice(0, 200)}`;
    else if (data && data.length === 0) problem = "empty page";
    else if (item.firstNumber !== undefined && data?.[0]?.number !== item.firstNumber) {
      problem = `first issue is #${data?.[0]?.number}, expected #${item.firstNumber}`;
    }
    rows.push({
      key: item.key,
      label: item.label,
      kind: item.kind,
      request: `${item.method ?? "GET"} ${item.path}`,
      status: response.status,
      calls: after.calls - before.calls,
      readCapacity: sumCapacity(traced, "read"),
      writeCapacity: sumCapacity(traced, "write"),
      usage: {
        calls: after.calls - before.calls,
        readCapacity: after.readCapacity - before.readCapacity,
        writeCapacity: after.writeCapacity - before.writeCapacity,
      },
      capacityReported: traced.length > 0 && traced.every((call) => call.capacity !== undefined),
      traced,
      returned: data?.length,
      total: body.total,
      problem,
    });
  }
  return rows;
}

function sumCapacity(calls: TracedCall[], kind: TracedCall["kind"]): number {
  return calls.filter((call) => call.kind === kind).reduce((sum, call) => sum + (call.capacity ?? 0), 0);
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

/** `Query 2 (100/100) · BatchGetItem 20 (20)`: each call's capacity and items returned/evaluated. */
export function breakdown(calls: TracedCall[]): string {
  return calls
    .map((call) => {
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
