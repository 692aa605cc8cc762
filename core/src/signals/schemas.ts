/** @module signals/schemas — what a signal is and what clients may send or ask (docs/api.md#signals). */
import * as z from "zod/mini";
import { paginationQuery } from "../http/pagination.js";
import { count, issueRef, nullableText, resourceId, timestamp, timestampGiven } from "../http/resource-fields.js";
import { issueSchema } from "../issues/schemas.js";
import { type Output, onFirstUse } from "../schema.js";
import { SEVERITIES } from "./rules.js";
import { SIGNAL_ACTIONS } from "./signal-actions.js";

export { SIGNAL_ACTIONS, type SignalAction } from "./signal-actions.js";

// Each schema is built on its first use, and a bundle keeps only those it uses (schema.ts says how).

export const PROVIDER_SOURCES = ["codehost", "errortracker", "analytics"] as const;

const SOURCE = /^[a-z0-9_-]{1,40}$/;
const severity = /* @__PURE__ */ onFirstUse(() =>
  z.enum(SEVERITIES as unknown as ["low", "medium", "high", "critical"]),
);

/** `POST /api/signals`: a signal from anything that is not a webhook provider. */
export const manualSignalBody = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({
    source: z.string().check(
      z.regex(SOURCE, "must be 1..40 of a-z, 0-9, _ and -"),
      z.refine(
        (source) => !(PROVIDER_SOURCES as readonly string[]).includes(source),
        "is reserved for its webhook receiver",
      ),
    ),
    type: z.string().check(z.minLength(1, "must be 1..200 characters"), z.maxLength(200, "must be 1..200 characters")),
    title: z.string().check(z.minLength(1, "must be 1..500 characters"), z.maxLength(500, "must be 1..500 characters")),
    severity: severity(),
    payload: z.optional(z.record(z.string(), z.unknown())),
    fingerprint: z.optional(
      z.string().check(z.minLength(1, "must be 1..500 characters"), z.maxLength(500, "must be 1..500 characters")),
    ),
    projectId: z.optional(z.string().check(z.regex(/^prj_[0-9A-Z]{26}$/, "must be a project id (prj_…)"))),
  }),
);
export type ManualSignalBody = Output<typeof manualSignalBody>;

/** `GET /api/signals` query. */
export const listSignalsQuery = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({
    ...paginationQuery(),
    source: z.optional(z.string().check(z.regex(SOURCE, "must be 1..40 of a-z, 0-9, _ and -"))),
    type: z.optional(
      z.string().check(z.minLength(1, "must not be empty"), z.maxLength(200, "must be at most 200 characters")),
    ),
    severity: z.optional(severity()),
    issueId: z.optional(issueRef()),
    action: z.optional(z.enum(SIGNAL_ACTIONS)),
    since: z.optional(timestampGiven()),
  }),
);
export type ListSignalsQuery = Output<typeof listSignalsQuery>;

/** `POST /api/issues/:id/merge`: the issue that stays. */
export const mergeIssueBody = /* @__PURE__ */ onFirstUse(() =>
  z.strictObject({
    intoId: issueRef(),
  }),
);
export type MergeIssueBody = Output<typeof mergeIssueBody>;

/** `GET /api/issues/:id/signals` query. */
export const issueSignalsQuery = /* @__PURE__ */ onFirstUse(() => z.strictObject({ ...paginationQuery() }));

// Responses (docs/api.md#signals): the OpenAPI document's schemas; the types the code uses are inferred from them.

/** A signal as the API shows it. `payload` is present only when one signal is read by id. */
export const signalSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    id: resourceId("sig"),
    source: z.string(),
    type: z.string(),
    deliveryId: nullableText(),
    fingerprint: z.string(),
    severity: severity(),
    title: z.string(),
    action: z.enum(SIGNAL_ACTIONS),
    issueId: z.nullable(resourceId("iss")),
    /** The project its source routes to (docs/api.md#what-a-signal-does), or the manual signal's. */
    projectId: z.nullable(resourceId("prj")),
    /** The provider's repository, project or product it came from; null for manual signals. */
    sourceKey: nullableText(),
    /** Size of the payload's JSON text in bytes. */
    payloadBytes: count(),
    payload: z.optional(z.unknown()),
    headers: z.record(z.string(), z.string()),
    receivedAt: timestamp(),
  }),
);
export type Signal = Output<typeof signalSchema>;

/** A receiver's or `POST /api/signals`' answer: the signal, the issue it opened or joined, and whether it was seen before. */
export const ingestResultSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({ signal: signalSchema(), issue: z.nullable(issueSchema()), duplicate: z.boolean() }),
);
export type IngestResult = Output<typeof ingestResultSchema>;
