/** @module stats/schemas — the usage sums the API shows (per day, per agent, per project), written once for every reader. */
import * as z from "zod/mini";
import { count, resourceId } from "../http/resource-fields.js";
import { type Output, onFirstUse } from "../schema.js";

// Each schema is built on its first use, and a bundle keeps only those it uses (schema.ts says how).

/** A UTC day, `YYYY-MM-DD`. */
export const usageDate = () => z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/));

/** What the finished dispatches of one scope reported they cost. */
const sumFields = () => ({
  /** Dispatches that reported any usage. */
  reports: count(),
  inputTokens: count(),
  outputTokens: count(),
  costUsd: z.number().check(z.gte(0)),
});

export const usageSumsSchema = /* @__PURE__ */ onFirstUse(() => z.object(sumFields()));
export type UsageSums = Output<typeof usageSumsSchema>;

/** One day's sums, over every dispatch that finished that day (UTC) and reported usage. */
export const usageDaySumsSchema = /* @__PURE__ */ onFirstUse(() => z.object({ date: usageDate(), ...sumFields() }));
export type UsageDaySums = Output<typeof usageDaySumsSchema>;

/** One day's sums, in all, per agent and per project (the project when it was claimed). */
export const usageDaySchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    date: usageDate(),
    ...sumFields(),
    agents: z.array(z.object({ agent: z.string(), ...sumFields() })),
    projects: z.array(z.object({ projectId: resourceId("prj"), ...sumFields() })),
  }),
);
export type UsageDay = Output<typeof usageDaySchema>;
