/**
 * @module bench/costs — single requests served in-process (`app.request`: every family on a table of
 * the bench's own), each costed by the DynamoDB calls it made and the capacity they consumed.
 */
import { Logger } from "@aws-lambda-powertools/logger";
import { API_FAMILIES, createApp, createDb, type Db, loadConfig } from "../core/src/index.js";
import { atMost, type BudgetLine, reported } from "./budgets.js";
import { BENCH_WEBHOOK_SECRETS, type Delivery } from "./deliveries.js";
import { type DynamoTrace, type TracedCall, traceDynamo } from "./dynamo-trace.js";
import { num, table } from "./format.js";
import { type BenchContext, benchTable } from "./section.js";

/** A request with the API key and a JSON body, or a signed delivery sent exactly as it is. */
export type BenchRequest = { method?: "GET" | "POST" | "PATCH"; path: string; body?: unknown } | Delivery;

export interface Answer {
  status: number;
  body: { data?: unknown; total?: number };
}

export interface CostRow extends Answer {
  label: string;
  /** Calls as DynamoDB would make them (see {@link QUERY_PAGE_CU}). */
  calls: number;
  read: number;
  write: number;
  traced: TracedCall[];
}

/**
 * Read capacity DynamoDB Local reports for a full 1 MB Query page. It applies the 1 MB limit after a
 * filter, DynamoDB before it, so a Query that read more is several calls on AWS, and counted so.
 */
const QUERY_PAGE_CU = 257;

/** Every family in this process on table `kaizen_bench_<name>`, its DynamoDB calls traced. */
export class BenchApp {
  private constructor(
    readonly tableName: string,
    private readonly apiKey: string,
    private readonly db: Db,
    private readonly app: ReturnType<typeof createApp>,
    private readonly trace: DynamoTrace,
  ) {}

  static async open(ctx: BenchContext, name: string): Promise<BenchApp> {
    const { tableName, endpoint } = await benchTable(ctx, name);
    const db = createDb({ tableName, region: "us-east-1", endpoint });
    const config = {
      ...loadConfig({ env: { TABLE_NAME: tableName, DYNAMODB_ENDPOINT: endpoint } }),
      serviceApiKey: ctx.apiKey,
      webhookSecrets: BENCH_WEBHOOK_SECRETS,
    };
    const logger = new Logger({ serviceName: "kaizen-bench", logLevel: "SILENT" });
    const app = createApp(API_FAMILIES, { config, db, logger });
    return new BenchApp(tableName, ctx.apiKey, db, app, traceDynamo(db.client));
  }

  async send(request: BenchRequest): Promise<Answer> {
    const init =
      "headers" in request
        ? { method: "POST", headers: request.headers, body: request.body }
        : {
            method: request.method ?? (request.body === undefined ? "GET" : "POST"),
            headers: { Authorization: `Bearer ${this.apiKey}`, "Content-Type": "application/json" },
            ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
          };
    const response = await this.app.request(`http://localhost${request.path}`, init);
    const text = await response.text();
    return { status: response.status, body: text === "" ? {} : JSON.parse(text) };
  }

  /** A POST that must answer `status`; its `data`. */
  async post(path: string, body: unknown, status = 201): Promise<Record<string, unknown>> {
    const answer = await this.send({ path, body });
    if (answer.status !== status) {
      throw new Error(`POST ${path} answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
    }
    return answer.body.data as Record<string, unknown>;
  }

  /** Serves one request, alone, and costs it; throws when it is not answered `status`. */
  async cost(label: string, request: BenchRequest, status = "headers" in request ? 201 : 200): Promise<CostRow> {
    this.trace.take();
    const answer = await this.send(request);
    const traced = this.trace.take();
    if (answer.status !== status) {
      throw new Error(`${label}: answered ${answer.status}, expected ${status}: ${JSON.stringify(answer.body)}`);
    }
    const capacity = (kind: TracedCall["kind"]) =>
      traced.filter((call) => call.kind === kind).reduce((sum, call) => sum + (call.capacity ?? 0), 0);
    const pages = (call: TracedCall) =>
      call.command === "Query" ? Math.max(1, Math.ceil((call.capacity ?? 0) / QUERY_PAGE_CU)) : 1;
    return {
      ...answer,
      label,
      calls: traced.reduce((sum, call) => sum + pages(call), 0),
      read: capacity("read"),
      write: capacity("write"),
      traced,
    };
  }

  close(): void {
    this.db.client.destroy();
  }
}

/**
 * AWS write units a request consumes at least: 2 per item of a transaction, 1 per single-item write
 * (more for items over 1 KB). Failed calls are left out: DynamoDB Local reports nothing for them.
 */
export function writeUnits(row: CostRow): number {
  let units = 0;
  for (const call of row.traced.filter((c) => c.kind === "write" && c.error === undefined)) {
    units += call.command === "TransactWriteItems" ? 2 * (call.requested ?? 0) : (call.requested ?? 1);
  }
  return units;
}

/** `Query 2 [100] · BatchGetItem 20 [20]`: each call's capacity and items returned (of evaluated), or how it failed. */
function breakdown(calls: TracedCall[]): string {
  return calls
    .map((call) => {
      if (call.error !== undefined) return `${call.command} failed: ${call.error}`;
      const items = call.returned ?? call.requested;
      const scanned = call.scanned !== undefined && call.scanned !== call.returned ? `/${call.scanned}` : "";
      return `${call.command} ${call.capacity === undefined ? "n/r" : num(call.capacity)}${items === undefined ? "" : ` [${items}${scanned}]`}`;
    })
    .join(" · ");
}

/** The cost table: calls, capacity (as DynamoDB Local reported it), AWS write units, and each call. */
export function costTable(rows: CostRow[]): string {
  return [
    table(
      ["request", "calls", "read CU", "write CU", "AWS WU ≥", "per call: capacity [items returned/evaluated]"],
      rows.map((row) => [
        row.label,
        String(row.calls),
        num(row.read),
        num(row.write),
        String(writeUnits(row)),
        breakdown(row.traced),
      ]),
    ),
    "  calls: as DynamoDB pages them (1 MB a Query); CU: capacity DynamoDB Local reported (n/r: none); AWS WU: 2 per\n" +
      "  item of a transaction, 1 per single write (more per item over 1 KB).",
  ].join("\n");
}

/** The calls and write units of each row, for the budget table. */
export function costLines(rows: CostRow[]): BudgetLine[] {
  return rows.map((row) =>
    reported(
      `calls, ${row.label}`,
      `${row.calls} call${row.calls === 1 ? "" : "s"}${writeUnits(row) > 0 ? `, ≥ ${writeUnits(row)} AWS WU` : ""}`,
      `${num(row.read)} read / ${num(row.write)} write CU`,
    ),
  );
}

/**
 * `far`'s consumed capacity over `near`'s, held to `limit` (or reported when `limit` is a reason it is not).
 * @example capacityRatio("list page 500 / page 1", far, first, BUDGETS.farPage)
 */
export function capacityRatio(what: string, far: CostRow, near: CostRow, limit: number | string): BudgetLine {
  const ratio = (far.read + far.write) / (near.read + near.write);
  const note = `${num(far.read + far.write)} vs ${num(near.read + near.write)} CU, ${far.calls} vs ${near.calls} calls`;
  return typeof limit === "number"
    ? atMost(`capacity ratio, ${what}`, ratio, limit, note)
    : reported(`capacity ratio, ${what}`, `${ratio.toFixed(2)}×`, `${note}; ${limit}`);
}
