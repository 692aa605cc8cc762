/**
 * @module dispatch/activity-values — the kinds of activity an agent may post (docs/api.md#activities),
 * without zod: ./schemas.ts validates against them, and the CLI offers them as choices without
 * loading a schema.
 */

/** What an agent may say of its work as an activity: what it thought, did, answered, or what went wrong. */
export const ACTIVITY_TYPES = ["thought", "action", "response", "error"] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];
