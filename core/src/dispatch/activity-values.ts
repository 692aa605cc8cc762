/**
 * @module dispatch/activity-values — the kinds of activity (docs/api.md#activities), without zod:
 * ./schemas.ts validates against them, and the CLI offers them as choices without loading a schema.
 */

/**
 * What an agent may say of its work as an activity: what it thought, did, answered, what went
 * wrong, a question for a person (`elicitation`), or its plan (`plan`).
 */
export const ACTIVITY_TYPES = ["thought", "action", "response", "error", "elicitation", "plan"] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

/** Every kind an activity may be: an agent's, or a person's `message` (docs/api.md#questions-and-answers). */
export const ACTIVITY_KINDS = ["thought", "action", "response", "error", "elicitation", "plan", "message"] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

/** What a `waiting` dispatch waits for: a person's answer, or a person's approval of its plan. */
export const WAITING_FOR = ["input", "approval"] as const;
export type WaitingFor = (typeof WAITING_FOR)[number];
