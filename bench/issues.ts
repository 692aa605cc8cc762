/**
 * @module bench/issues — issue lists at BENCH_ISSUES issues (page 1 against page 500, or the last page
 * where fewer exist), single requests on issues, and the dashboard stats with 10 issues and with all,
 * on one table seeded through the API (the throughput section loads the same table).
 */
import { BUDGETS, type BudgetLine } from "./budgets.js";
import { BenchApp, type CostRow, capacityRatio, costLines, costTable } from "./costs.js";
import { type BenchContext, inBatches, type Section } from "./section.js";

const TYPES = ["signal", "hypothesis", "plan", "task", "monitor"];
const CREATABLE_STATUSES = ["triage", "backlog", "todo", "done", "canceled"];
const LABELS = ["bug", "performance", "ux", "infra", "security"];
const PROJECTS = 5;
/** The first issues created; one in twenty of the later ones is a child of one of them. */
const PARENTS = 5;
/** The smaller table the dashboard stats are costed at. */
const FEW_ISSUES = 10;
const FAR_PAGE = 500;
/** A word one title in twenty-five carries, for a search. */
const TITLE_WORD = "webhook";
const SEED_CONCURRENCY = 8;

export interface IssuesTable {
  app: BenchApp;
  count: number;
  seedMs: number;
  /** Issue ids by seed order: the first {@link PARENTS} are the parents. */
  ids: string[];
  projects: string[];
  /** The dashboard stats once {@link FEW_ISSUES} issues existed. */
  statsFew: CostRow;
}

/** Issue `i` (from 1): types and statuses in turn, a fifth labelled, a tenth in a project, a twentieth a child. */
function issueBody(i: number, ids: string[], projects: string[]) {
  const round = Math.floor(i / 5);
  return {
    title: `Seeded issue ${i}: p95 latency regression on ${i % 25 === 13 ? "Webhook delivery" : "checkout"} step ${i % 17}`,
    description: "Synthetic issue for the benchmark: the checkout page stalls after the payment step.",
    type: TYPES[i % 5],
    status: CREATABLE_STATUSES[round % 5],
    priority: (i * 3) % 5,
    ...(i % 5 === 2 ? { labels: LABELS.slice(round % 5, (round % 5) + (i % 20 === 7 ? 2 : 1)) } : {}),
    ...(i % 10 === 3 ? { projectId: projects[round % PROJECTS] } : {}),
    ...(i > PARENTS && i % 20 === 11 ? { parentId: ids[Math.floor(i / 20) % PARENTS] } : {}),
  };
}

/** The table of BENCH_ISSUES issues, seeded once per run by the first section that asks. */
export function issuesTable(ctx: BenchContext): Promise<IssuesTable> {
  return ctx.shared("issues", async () => {
    const app = await BenchApp.open(ctx, "issues");
    const count = ctx.settings.BENCH_ISSUES;
    ctx.log(`table ${app.tableName}: seeding ${count} issues through POST /api/issues, ${SEED_CONCURRENCY} at a time…`);
    const projects: string[] = [];
    for (let p = 1; p <= PROJECTS; p++)
      projects.push(String((await app.post("/api/projects", { name: `Bench project ${p}` })).id));
    for (const [i, name] of LABELS.entries())
      await app.post("/api/labels", { name, color: `#${(0x336699 + i * 0x202020).toString(16)}` });
    const ids: string[] = [];
    const create = async (i: number) => {
      ids[i - 1] = String((await app.post("/api/issues", issueBody(i, ids, projects))).id);
    };
    const started = performance.now();
    for (let i = 1; i <= FEW_ISSUES; i++) await create(i);
    const statsFew = await app.cost(`GET /api/dashboard/stats (${FEW_ISSUES} issues)`, {
      path: "/api/dashboard/stats",
    });
    await inBatches(ctx, count - FEW_ISSUES, SEED_CONCURRENCY, (i) => create(FEW_ISSUES + 1 + i));
    return { app, count, seedMs: performance.now() - started, ids, projects, statsFew };
  });
}

/** The lists costed: indexed ones are held to the budget; walked ones read a whole listing whatever the page. */
function lists(t: IssuesTable): { name: string; query: string; walks?: string }[] {
  return [
    { name: "list", query: "" },
    ...["createdAt", "priority", "-updatedAt", "number"].map((sort) => ({
      name: `sort=${sort}`,
      query: `sort=${sort}`,
    })),
    { name: "status=todo", query: "status=todo" },
    { name: "label=bug", query: "label=bug" },
    { name: "projectId=<one>", query: `projectId=${t.projects[0]}` },
    { name: "parentId=<one>", query: `parentId=${t.ids[0]}` },
    { name: "status=todo&type=task", query: "status=todo&type=task", walks: "status=todo" },
    { name: "status=todo&sort=priority", query: "status=todo&sort=priority", walks: "status=todo" },
    { name: "status=todo,backlog", query: "status=todo,backlog", walks: "all" },
    { name: `q=${TITLE_WORD}`, query: `q=${TITLE_WORD}`, walks: "all" },
    { name: "status=todo&sort=-updatedAt", query: "status=todo&sort=-updatedAt", walks: "-updatedAt" },
  ];
}

const pageSize = (row: CostRow) => (Array.isArray(row.body.data) ? row.body.data.length : 0);

export const issuesSection: Section = {
  name: "issues",
  title: "Issue lists, single issue requests and the dashboard stats (in-process app.request, DynamoDB Local)",
  async run(ctx) {
    const t = await issuesTable(ctx);
    const { app } = t;
    ctx.log(
      `seeded ${t.count} issues in ${(t.seedMs / 1000).toFixed(1)} s (${(t.count / (t.seedMs / 1000)).toFixed(0)}/s)`,
    );
    const lines: BudgetLine[] = [];

    const statsMany = await app.cost(`GET /api/dashboard/stats (${t.count} issues)`, { path: "/api/dashboard/stats" });
    ctx.log(`\nDashboard stats with ${FEW_ISSUES} and with ${t.count} issues (docs/api.md: the same cost)`);
    ctx.log(costTable([t.statsFew, statsMany]));
    lines.push(
      capacityRatio(`dashboard stats, ${t.count} / ${FEW_ISSUES} issues`, statsMany, t.statsFew, BUDGETS.manyOverFew),
    );

    const listRows: CostRow[] = [];
    for (const list of lists(t)) {
      const path = (page: number) => `/api/issues?${list.query}${list.query ? "&" : ""}page=${page}&limit=20`;
      const first = await app.cost(`${list.name}, page 1`, { path: path(1) });
      const total = first.body.total ?? 0;
      const far = Math.min(FAR_PAGE, Math.max(1, Math.ceil(total / 20)));
      const last = await app.cost(`${list.name}, ${far < FAR_PAGE ? "last " : ""}page ${far} of ${total}`, {
        path: path(far),
      });
      if (pageSize(first) === 0 || pageSize(last) === 0 || last.body.total !== total) {
        ctx.log(
          `  !! ${list.name}: pages of ${pageSize(first)} and ${pageSize(last)} issues, totals ${total} and ${last.body.total}`,
        );
        ctx.fail(`issue list ${list.name} answered an empty page or totals that disagree`);
      }
      listRows.push(first, last);
      const walked =
        list.walks && `walked: reads the whole ${list.walks} listing whatever the page, so its cost grows with it`;
      lines.push(capacityRatio(`${list.name}, page ${far} / page 1`, last, first, walked || BUDGETS.farPage));
    }
    ctx.log(
      `\nIssue lists: page 1 against page ${FAR_PAGE} (or the last); indexed lists are held to a capacity ratio ≤ ${BUDGETS.farPage}`,
    );
    ctx.log(costTable(listRows));

    const root = await app.cost("get by id, no parent or children", { path: `/api/issues/${t.ids[PARENTS]}` });
    const number = (root.body.data as { number: number }).number;
    const title = "Benchmark-created issue";
    const created = await app.cost(
      "POST issue",
      { path: "/api/issues", body: { title, type: "task", priority: 2 } },
      201,
    );
    const id = (created.body.data as { id: string }).id;
    const singles = [
      root,
      await app.cost("get by id, with children", { path: `/api/issues/${t.ids[0]}` }),
      await app.cost("get by id, a child (reads its parent too)", { path: `/api/issues/${t.ids[10]}` }),
      await app.cost(`get by KZN-${number} (resolves the number first)`, { path: `/api/issues/KZN-${number}` }),
      created,
      await app.cost(
        "POST issue with parentId, projectId and a label",
        {
          path: "/api/issues",
          body: { title, type: "task", parentId: t.ids[0], projectId: t.projects[0], labels: ["bug"] },
        },
        201,
      ),
      await app.cost("PATCH title", {
        method: "PATCH",
        path: `/api/issues/${id}`,
        body: { title: `${title}, retitled` },
      }),
      await app.cost("PATCH status triage → todo", {
        method: "PATCH",
        path: `/api/issues/${id}`,
        body: { status: "todo" },
      }),
    ];
    ctx.log("\nSingle requests on issues");
    ctx.log(costTable(singles));
    return [...lines, ...costLines([t.statsFew, statsMany, ...singles])];
  },
};
