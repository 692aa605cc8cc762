/**
 * @module bench/signals — one signed delivery of each kind the receivers route (opened, duplicate,
 * grouped, recorded; each provider), then, with BENCH_SIGNALS signals stored, list pages and a read by id.
 */
import { BenchApp, capacityRatio, costLines, costTable } from "./costs.js";
import { analyticsDelivery, codehostDelivery, errortrackerDelivery, issueEvent, pushEvent } from "./deliveries.js";
import { inBatches, type Section } from "./section.js";

const FAR_PAGE = 500;

export const signalsSection: Section = {
  name: "signals",
  title: "Webhook deliveries and signal reads (in-process app.request, DynamoDB Local)",
  async run(ctx) {
    const app = await BenchApp.open(ctx, "signals");
    try {
      const opened = codehostDelivery("issues", issueEvent("opened", 4242));
      const receivers = [
        await app.cost("codehost issues.opened, new", opened),
        await app.cost("the same delivery again (duplicate)", opened, 200),
        await app.cost(
          "codehost issues.edited, new id (grouped)",
          codehostDelivery("issues", issueEvent("edited", 4242)),
        ),
        await app.cost("codehost push (recorded)", codehostDelivery("push", pushEvent(0))),
        await app.cost("errortracker issue.created (opened)", errortrackerDelivery("1170820242")),
        await app.cost("analytics event, -30% (opened)", analyticsDelivery("checkout_conversion_drop", -30)),
      ];
      ctx.log("One signed delivery each");
      ctx.log(costTable(receivers));

      const count = ctx.settings.BENCH_SIGNALS;
      ctx.log(`\nstoring ${count} recorded pushes through POST /api/signals/codehost, 8 at a time…`);
      const seedMs = await inBatches(ctx, count, 8, async (i) => {
        const answer = await app.send(codehostDelivery("push", pushEvent(i + 1)));
        if (answer.status !== 201) throw new Error(`push ${i + 1} answered ${answer.status}`);
      });
      ctx.log(`stored ${count} signals in ${(seedMs / 1000).toFixed(1)} s (${(count / (seedMs / 1000)).toFixed(0)}/s)`);
      const first = await app.cost("signals list, page 1", { path: "/api/signals?page=1&limit=20" });
      const total = first.body.total ?? 0;
      const page = Math.min(FAR_PAGE, Math.max(1, Math.ceil(total / 20)));
      const far = await app.cost(`signals list, page ${page} of ${total}`, {
        path: `/api/signals?page=${page}&limit=20`,
      });
      const id = (first.body.data as { id: string }[])[0]?.id;
      const one = await app.cost("get signal by id", { path: `/api/signals/${id}` });
      ctx.log(costTable([first, far, one]));
      return [
        ...costLines([...receivers, first, far, one]),
        // Signals are counted per hour, and a page walks at most half of its hour from the nearer end: reported.
        capacityRatio(
          `signals page ${page} / page 1`,
          far,
          first,
          "signals are counted per hour; a page walks within its hour",
        ),
      ];
    } finally {
      app.close();
    }
  },
};
