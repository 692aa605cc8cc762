/**
 * @module bench/claims — one `POST /api/dispatch/claim` with 10 issues queued and with BENCH_ISSUES,
 * on a table that holds only queued tasks of one shape, so the queue's length is the only difference.
 * The first claim of the app (it seeds the default templates and fills the process's caches, as a
 * cold Lambda's first claim would) is left out.
 */
import { BUDGETS } from "./budgets.js";
import { BenchApp, capacityRatio, costLines, costTable } from "./costs.js";
import { inBatches, type Section } from "./section.js";

const FEW_QUEUED = 10;

function queuedTask(i: number) {
  return {
    title: `Queued task ${i}: p95 latency regression on checkout step ${i % 17}`,
    description: `Synthetic queued task. The checkout page stalls after the payment step. Sequence ${String(i).padStart(6, "0")}.`,
    type: "task",
    status: "todo",
    priority: 1 + (i % 4),
  };
}

export const claimsSection: Section = {
  name: "claims",
  title: "Dispatch claims: one claim with 10 and with BENCH_ISSUES issues queued (in-process app.request)",
  async run(ctx) {
    const app = await BenchApp.open(ctx, "claims");
    try {
      const queued = Math.max(ctx.settings.BENCH_ISSUES, FEW_QUEUED);
      let made = 0;
      /** Queues `count` more tasks; then `depth` must be queued. */
      const queue = async (count: number, depth: number) => {
        await inBatches(ctx, count, 4, () => app.post("/api/issues", queuedTask(made++)));
        const total = (await app.send({ path: "/api/dispatch/queue?limit=1" })).body.total;
        if (total !== depth) throw new Error(`claims: ${total} issues queued, expected ${depth}`);
      };
      const claim = (label: string) => app.cost(label, { path: "/api/dispatch/claim", body: { agent: "bench" } }, 201);
      await queue(FEW_QUEUED + 1, FEW_QUEUED + 1);
      await claim("warm-up claim");
      const few = await claim(`POST claim (${FEW_QUEUED} queued)`);
      ctx.log(`queueing ${queued - FEW_QUEUED + 1} more tasks (${queued} in all)…`);
      await queue(queued - FEW_QUEUED + 1, queued);
      const many = await claim(`POST claim (${queued} queued)`);
      ctx.log(costTable([few, many]));
      return [
        capacityRatio(`claim, ${queued} / ${FEW_QUEUED} queued`, many, few, BUDGETS.manyOverFew),
        ...costLines([few, many]),
      ];
    } finally {
      app.close();
    }
  },
};
