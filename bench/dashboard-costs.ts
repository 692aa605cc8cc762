/**
 * @module bench/dashboard-costs — what one `GET /api/dashboard/stats` costs with 10 issues and with
 * many (ARCHITECTURE.md, "Budgets": the dashboard's stats read spread counts kept by the writes, so
 * "the bench shows it costs the same at 10 and 10,000 issues"; held here to a consumed capacity
 * ratio ≤ 1.5, like the claim, and to the 2 queries it is built from), with one page of
 * `GET /api/dashboard/activity` and of `GET /api/dashboard/prompts` at both sizes (reported).
 * Costed like the other single requests (in-process `app.request`, every DynamoDB call traced),
 * against a table of its own so the rest of the bench is left undisturbed.
 *
 * Order: the default templates are seeded (so the prompts page has rows); {@link FEW_ISSUES} - 1
 * issues are created through `POST /api/issues`, then {@link FEW_SIGNALS} signals through
 * `POST /api/signals` (all of one fingerprint: the first opens the tenth issue, the rest group into
 * it); the three requests are costed; then issues are created until `issues` exist (a mix of every
 * creatable status and every type, a few at a time) with {@link MORE_SIGNALS} more signals among
 * them, and the three requests are costed again.
 */
import { Logger } from "@aws-lambda-powertools/logger";
import { ALL_FAMILIES, type Config, createApp, createDb, ensureTable } from "../core/src/index.js";
import { CREATABLE_STATUSES, ISSUE_TYPES } from "../core/src/issues/schemas.js";
import { promptEngine } from "../core/src/templates/engine.js";
import { type CostCase, type CostRow, measureCost, type ResponseCheck } from "./costs.js";
import { traceDynamo } from "./dynamo-trace.js";

/** The smaller table of the budget. */
export const FEW_ISSUES = 10;
/** Signals sent before the first costing (a full activity page of 20, and more). */
export const FEW_SIGNALS = 25;
/** Signals sent while the table grows. */
export const MORE_SIGNALS = 500;
/** Requests sent at once while seeding (creates take their numbers atomically and retry conflicts). */
const SEED_BATCH = 8;
/** The body the bench's signals are sent with: one fingerprint, so only the first opens an issue. */
const SIGNAL_BODY = { source: "pager", type: "alert", title: "t", severity: "low" };

export interface DashboardStage {
  /** Issues and signals the table held when the three requests were costed. */
  issues: number;
  signals: number;
  stats: CostRow;
  activity: CostRow;
  prompts: CostRow;
}

export interface DashboardCosts {
  few: DashboardStage;
  many: DashboardStage;
  /** Requests sent to seed the table (issues and signals), and how long that took. */
  seeded: number;
  seedMs: number;
}

interface StatsBody {
  issues?: { total?: number; byStatus?: Record<string, number>; byType?: Record<string, number> };
  signals?: { last7d?: { total?: number } };
  queue?: { depth?: number };
}

/** Issue `i` of the seed: every creatable status and every type in turn (5 × 5 combinations). */
function issueBody(i: number) {
  const status = CREATABLE_STATUSES[i % CREATABLE_STATUSES.length];
  const type = ISSUE_TYPES[Math.floor(i / CREATABLE_STATUSES.length) % ISSUE_TYPES.length];
  return {
    title: `Dashboard issue ${i}: cart total drifts after coupon ${i % 23}`,
    description: `Synthetic issue for the dashboard costs. Sequence ${String(i).padStart(6, "0")}.`,
    type,
    status,
    priority: i % 5,
  };
}

/** A 200 whose counts say `issues` issues and `signals` signals this week. */
function statsAre(issues: number, signals: number): ResponseCheck {
  return (status, body) => {
    if (status !== 200) return `answered ${status}, expected 200`;
    const data = body.data as StatsBody | undefined;
    const total = data?.issues?.total;
    if (total !== issues) return `issues.total is ${total}, expected ${issues}`;
    const week = data?.signals?.last7d?.total;
    if (week !== signals) return `signals.last7d.total is ${week}, expected ${signals}`;
    return undefined;
  };
}

function stageCases(issues: number, signals: number): CostCase[] {
  return [
    {
      key: `dashboard.stats.${issues}`,
      label: `GET stats (${issues} issues)`,
      kind: "get",
      path: "/api/dashboard/stats",
      check: statsAre(issues, signals),
    },
    {
      key: `dashboard.activity.${issues}`,
      label: `GET activity, page 1 (${issues} issues, ${signals} signals)`,
      kind: "list",
      path: "/api/dashboard/activity?limit=20",
    },
    {
      key: `dashboard.prompts.${issues}`,
      label: `GET prompts, page 1 (${issues} issues)`,
      kind: "list",
      path: "/api/dashboard/prompts?limit=20",
    },
  ];
}

/**
 * Costs the dashboard's stats, activity and prompts pages with {@link FEW_ISSUES} and with `issues`
 * issues, in table `tableName` (created here) at `endpoint`, served by an app of its own.
 */
export async function measureDashboardCosts(options: {
  endpoint: string;
  tableName: string;
  config: Config;
  apiKey: string;
  issues: number;
  progress: (total: number) => (done: number, elapsedMs: number) => void;
  log: (line: string) => void;
}): Promise<DashboardCosts> {
  const { endpoint, tableName, apiKey, log } = options;
  const issues = Math.max(options.issues, FEW_ISSUES);
  const connection = { tableName, region: "us-east-1", endpoint };
  const seedDb = createDb(connection);
  const db = createDb(connection);
  try {
    await ensureTable(seedDb);
    const config = { ...options.config, tableName };
    await promptEngine({ config, db: seedDb }).defaultsReady();
    const logger = new Logger({ serviceName: "kaizen-bench", logLevel: "SILENT" });
    // The seed goes through an app on a client of its own, so the costed app's meter sees only its requests.
    const seedApp = createApp(ALL_FAMILIES, { config, db: seedDb, logger });
    const app = createApp(ALL_FAMILIES, { config, db, logger });
    const trace = traceDynamo(db.client);
    const measure = (item: CostCase) => measureCost(app, db, trace, apiKey, item);

    const post = async (path: string, body: unknown, expect: number[]) => {
      const response = await seedApp.request(`http://localhost${path}`, {
        method: "POST",
        headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      if (!expect.includes(response.status)) {
        throw new Error(`dashboard costs: POST ${path} answered ${response.status}: ${text.slice(0, 300)}`);
      }
    };
    /** Sends `requests` a batch at a time; the first signal alone, as it opens the fingerprint's issue. */
    const seed = async (
      requests: (() => Promise<void>)[],
      progress: (done: number, elapsedMs: number) => void,
      every = 1_000,
    ): Promise<number> => {
      const started = performance.now();
      for (let done = 0; done < requests.length; ) {
        const batch = requests.slice(done, done + SEED_BATCH);
        await Promise.all(batch.map((send) => send()));
        const before = done;
        done += batch.length;
        if (Math.floor(done / every) > Math.floor(before / every) || done === requests.length) {
          progress(done, performance.now() - started);
        }
      }
      return performance.now() - started;
    };
    const createIssue = (i: number) => () => post("/api/issues", issueBody(i), [201]);
    const sendSignal = () => post("/api/signals", SIGNAL_BODY, [200, 201]);
    const costStage = async (issuesNow: number, signalsNow: number): Promise<DashboardStage> => {
      const rows: CostRow[] = [];
      for (const item of stageCases(issuesNow, signalsNow)) rows.push(await measure(item));
      const [stats, activity, prompts] = rows;
      if (!stats || !activity || !prompts) throw new Error("dashboard costs: a request was not costed");
      return { issues: issuesNow, signals: signalsNow, stats, activity, prompts };
    };

    // 9 issues, then the signals: the first opens the 10th issue, the others group into it.
    const fewCreates = Array.from({ length: FEW_ISSUES - 1 }, (_, i) => createIssue(i));
    let seedMs = await seed(fewCreates, () => undefined);
    await sendSignal();
    seedMs += await seed(
      Array.from({ length: FEW_SIGNALS - 1 }, () => sendSignal),
      () => undefined,
    );
    const few = await costStage(FEW_ISSUES, FEW_SIGNALS);

    const more = issues - FEW_ISSUES;
    log(`  creating ${more} more issues (${issues} in all) and sending ${MORE_SIGNALS} more signals…`);
    const growth: (() => Promise<void>)[] = Array.from({ length: more }, (_, i) => createIssue(FEW_ISSUES - 1 + i));
    // The signals spread evenly among the creates.
    const every = Math.max(1, Math.floor(growth.length / MORE_SIGNALS));
    for (let s = 0; s < MORE_SIGNALS; s++) growth.splice(Math.min(growth.length, s * (every + 1)), 0, sendSignal);
    seedMs += await seed(growth, options.progress(growth.length));
    const many = await costStage(issues, FEW_SIGNALS + MORE_SIGNALS);
    return { few, many, seeded: FEW_ISSUES - 1 + FEW_SIGNALS + growth.length, seedMs };
  } finally {
    seedDb.client.destroy();
    db.client.destroy();
  }
}
