/**
 * @module events/derive — which events one change of the table stands for (docs/api.md#outbound-events): a pure
 * function of the change stream's record, so an event exists only for a write that happened, and a
 * record read twice gives the same events with the same ids.
 *
 * - `issue.created`: an issue item inserted.
 * - `issue.status_changed`: an issue item whose `status` differs before and after, with who moved it
 *   (its `statusChange`); also an issue item inserted with a status change already made (a signal's
 *   issue its project's automation accepted as it opened).
 * - `dispatch.claimed`: a dispatch item inserted.
 * - `dispatch.waiting`: a dispatch item entering `waiting`, or waiting for something else than
 *   before, with what it waits for (`waitingFor`: a person's input, or approval of its plan).
 * - `dispatch.completed` / `dispatch.failed` / `dispatch.expired`: a dispatch item leaving `active`
 *   or `waiting` for that status (a released dispatch has no event of its own: its issue's status
 *   change says it).
 * - `dispatch.stopped`: a dispatch item leaving `active` or `waiting` for `stopped`, with its reason
 *   and who stopped it (`api`: a person; `automation`: Kaizen, for its budget).
 * - `prompt.needs_attention`: a version's reviews item gaining its improvement task (its score fell
 *   below 3.5, docs/api.md#prompts-and-reviews), made when that task was (the instant its id names).
 * - `experiment.decided`: an experiment item leaving `running` (by the rule, by hand, or with its template).
 * - `issue.verified` / `issue.regressed`: an issue item whose `verification` leaves `pending` for
 *   that status (docs/api.md#verification), with the verification.
 *
 * Each item is read through its owning domain's own reader; nothing here knows their fields beyond
 * the ones named above.
 */
import type { ChangeRecord } from "../db/changes.js";
import type { Item } from "../db/db.js";
import { timeOfId } from "../db/ids.js";
import { entitiesOf } from "../db/item-kinds.js";
import { fromItem as dispatchFromItem } from "../dispatch/dispatch-item.js";
import { fromItem as issueFromItem } from "../issues/issue-item.js";
import type { Issue } from "../issues/schemas.js";
import { recordOf as experimentRecordOf } from "../templates/experiment-store.js";
import { versionOfReviewsKey } from "../templates/keys.js";
import { reviewsFromItem } from "../templates/template-item.js";
import { eventId } from "./keys.js";
import type { EventType, OutboundEvent } from "./schemas.js";

/** The kinds of item whose changes can stand for an event. */
const SOURCE_KINDS = ["issue", "dispatch", "experiment", "templateverreviews"] as const;

/** Each `entity` an item of those kinds may carry (legacy values too, db/item-kinds.ts), to its kind. */
const SOURCE_OF_ENTITY = new Map(SOURCE_KINDS.flatMap((kind) => entitiesOf(kind).map((entity) => [entity, kind])));

/**
 * The `entity` of every item whose changes can stand for an event: the deployed stream's
 * subscription filters on these (infra/events.ts), so no other change invokes the function.
 */
export const EVENT_SOURCE_ENTITIES: readonly string[] = [...SOURCE_OF_ENTITY.keys()];

const DISPATCH_ENDINGS: Partial<Record<string, EventType>> = {
  completed: "dispatch.completed",
  failed: "dispatch.failed",
  expired: "dispatch.expired",
};

/** The events `change` stands for: none for most changes. */
export function eventsOf(change: ChangeRecord): OutboundEvent[] {
  const after = change.newImage;
  if (!after) return [];
  const before = change.oldImage;
  const make = (type: EventType, createdAt: string | null | undefined, data: Record<string, unknown>) => {
    const at = Date.parse(createdAt ?? "") || change.at;
    return { id: eventId(change.id, type, at), type, createdAt: new Date(at).toISOString(), data };
  };
  switch (SOURCE_OF_ENTITY.get(String(after.entity))) {
    case "issue":
      return issueEvents(before, after, make);
    case "dispatch":
      return dispatchEvents(before, after, make);
    case "experiment": {
      if (before?.status !== "running" || after.status === "running") return [];
      const {
        candidateVersionNumber: _candidate,
        controlVersionNumber: _control,
        ...experiment
      } = experimentRecordOf(after);
      return [make("experiment.decided", experiment.endedAt, { experiment })];
    }
    case "templateverreviews": {
      const version = versionOfReviewsKey({ pk: String(change.keys.pk), sk: String(change.keys.sk) });
      const reviews = reviewsFromItem(after);
      if (!version || !reviews.improvementIssueId || (before && reviewsFromItem(before).improvementIssueId)) return [];
      // The stream's own time of a change is approximate (to the second on AWS, coarser on DynamoDB Local).
      const opened = timeOfId(reviews.improvementIssueId);
      return [
        make("prompt.needs_attention", opened === undefined ? null : new Date(opened).toISOString(), {
          templateId: version.templateId,
          version: version.number,
          reviewScore: reviews.reviewScore,
          reviewCount: reviews.reviewCount,
          improvementIssueId: reviews.improvementIssueId,
        }),
      ];
    }
    default:
      return [];
  }
}

type Make = (type: EventType, createdAt: string | null | undefined, data: Record<string, unknown>) => OutboundEvent;

function issueEvents(before: Item | undefined, after: Item, make: Make): OutboundEvent[] {
  const { issue } = issueFromItem(after);
  const change = issue.statusChange;
  if (!before) {
    const created = make("issue.created", issue.createdAt, { issue });
    if (!change || change.to !== issue.status) return [created];
    return [
      created,
      make("issue.status_changed", change.at, { issue, from: change.from, to: change.to, by: change.by }),
    ];
  }
  const events = verificationEvents(issueFromItem(before).issue, issue, make);
  if (before.status === after.status) return events;
  // An item of an older release has no status change recorded: who moved it is unknown.
  const by = change && change.to === issue.status ? change.by : null;
  return [
    make("issue.status_changed", issue.updatedAt, { issue, from: String(before.status), to: issue.status, by }),
    ...events,
  ];
}

/** `issue.verified` or `issue.regressed` when the watch of the issue's merged fix ended so. */
function verificationEvents(before: Issue, issue: Issue, make: Make): OutboundEvent[] {
  const was = before.verification;
  const now = issue.verification;
  if (was?.status !== "pending" || !now || now.mergedAt !== was.mergedAt || now.status === "pending") return [];
  return now.status === "verified"
    ? [make("issue.verified", issue.updatedAt, { issue, verification: now })]
    : [make("issue.regressed", now.regressedAt ?? issue.updatedAt, { issue, verification: now })];
}

function dispatchEvents(before: Item | undefined, after: Item, make: Make): OutboundEvent[] {
  const { dispatch, stoppedBy } = dispatchFromItem(after);
  if (!before) return dispatch.status === "active" ? [make("dispatch.claimed", dispatch.claimedAt, { dispatch })] : [];
  if (before.status !== "active" && before.status !== "waiting") return [];
  if (dispatch.status === "waiting") {
    const waitsAnew = before.status !== "waiting" || before.waitingFor !== dispatch.waitingFor;
    return waitsAnew
      ? [make("dispatch.waiting", dispatch.heartbeatAt, { dispatch, waitingFor: dispatch.waitingFor })]
      : [];
  }
  if (dispatch.status === "stopped") {
    return [
      make("dispatch.stopped", dispatch.finishedAt, { dispatch, reason: dispatch.stopReason, by: stoppedBy ?? "api" }),
    ];
  }
  const ending = DISPATCH_ENDINGS[dispatch.status];
  return ending ? [make(ending, dispatch.finishedAt, { dispatch })] : [];
}
