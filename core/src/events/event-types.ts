/**
 * @module events/event-types — the events Kaizen sends (docs/api.md#outbound-events), without zod: ./schemas.ts
 * validates against them, and the CLI offers them as choices without loading a schema.
 */

/** Every event Kaizen sends, in the order docs/api.md#outbound-events lists them. */
export const EVENT_TYPES = [
  "issue.created",
  "issue.status_changed",
  "dispatch.claimed",
  "dispatch.completed",
  "dispatch.failed",
  "dispatch.expired",
  "dispatch.waiting",
  "dispatch.stopped",
  "prompt.needs_attention",
  "experiment.decided",
  "issue.verified",
  "issue.regressed",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
