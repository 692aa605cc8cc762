/**
 * @module testkit/load-audit — after a load, reads the whole table and checks that nothing
 * acknowledged was lost or doubled: every acknowledged delivery is stored exactly once, every
 * created issue exists (and a fingerprint has at most one open issue), each issue had one active
 * dispatch at a time and every claim an agent got is stored as the agent left it, and the
 * maintained counts equal a recount (./recount.ts).
 */
import type { Db } from "../core/src/db/db.js";
import type { WebhookProvider } from "../core/src/routes.js";
import { dashboardService } from "../core/src/services.js";
import { deliveryKey } from "../core/src/signals/keys.js";
import {
  dashboardMismatches,
  listingCountMismatches,
  recountDashboard,
  scanTable,
  signalCountMismatches,
  type TableItem,
} from "./recount.js";

/** One answer to a delivery: its status and what the body said. */
export interface DeliveryAck {
  status: number;
  signalId: string | null;
  duplicate: boolean | null;
}

/** Every acknowledged (2xx) send of one delivery id, in the order the answers came. */
export interface DeliveryRecord {
  source: WebhookProvider;
  deliveryId: string;
  acks: DeliveryAck[];
}

/**
 * How an agent left a dispatch it claimed: `completed`/`failed` when its completion was answered
 * 200, `vanished` when it never finished it, `refused` when the completion was answered 409 (its
 * lease had run out), `unanswered` when the completion got no answer at all.
 */
export type ClaimEnd = "completed" | "failed" | "vanished" | "refused" | "unanswered";

/** One 201 of `POST /api/dispatch/claim` and what the agent did with it. */
export interface ClaimRecord {
  dispatchId: string;
  issueId: string;
  agent: string;
  promptId: string | null;
  /** The dispatch's attempt number, from the claim's answer. */
  attempt: number;
  /** When the claim's 201 arrived (epoch ms, the load's clock): the dispatch was active by then. */
  acknowledgedAt: number;
  /**
   * When the agent sent the last request its token succeeded with (heartbeat, review, completion):
   * the dispatch was still active after that instant. Null when none succeeded.
   */
  lastSeenActiveAt: number | null;
  end: ClaimEnd;
  /** The review the agent's token posted on the prompt (answered 201), if any. */
  reviewId: string | null;
}

/** What the load was told was written. */
export interface LoadRecords {
  deliveries: DeliveryRecord[];
  /** Ids of issues `POST /api/issues` answered 201 for. */
  issuesCreated: string[];
  claims: ClaimRecord[];
  /** Claims that got no answer: up to this many dispatches may exist that no agent knows of. */
  unansweredClaims: number;
}

export type ViolationKind = "delivery" | "issue" | "dispatch" | "counter";

export interface Violation {
  kind: ViolationKind;
  message: string;
}

/** What the table holds after the load, for the report. */
export interface AuditFigures {
  items: number;
  signals: number;
  deliveriesAcknowledged: number;
  /** Acknowledged sends after the first of a delivery id (answered as duplicates). */
  redeliveriesAcknowledged: number;
  issues: number;
  dispatches: Record<string, number>;
  /** Dispatches whose lease ran out (expired by a later claim or call). */
  expired: number;
  /** Expired dispatches whose issue was claimed again afterwards. */
  reclaimed: number;
  /** The most dispatches one issue had. */
  maxAttempts: number;
}

export interface AuditResult {
  ok: boolean;
  violations: Violation[];
  figures: AuditFigures;
}

/** Violations listed per kind before the rest are summarised (a broken run can produce thousands). */
const LISTED_PER_KIND = 25;

/**
 * Reads the dashboard and scans `db`'s table, then checks `records` against them. Call it once
 * nothing writes any more: every violation found is listed in the result, which is `ok` only
 * without any.
 * @example const audit = await auditLoad(db, records); if (!audit.ok) console.log(audit.violations);
 */
export async function auditLoad(db: Db, records: LoadRecords): Promise<AuditResult> {
  const stats = await dashboardService({ db: db }).stats();
  const items = await scanTable(db);
  const violations: Violation[] = [];
  const report = (kind: ViolationKind, message: string) => violations.push({ kind, message });

  const deliveryFigures = auditDeliveries(items, records.deliveries, report);
  const issues = auditIssues(items, records.issuesCreated, report);
  const dispatchFigures = auditDispatches(items, issues, records, report);
  for (const mismatch of dashboardMismatches(stats, recountDashboard(items, new Date(stats.generatedAt)))) {
    report("counter", `dashboard ${mismatch}`);
  }
  for (const mismatch of listingCountMismatches(items)) report("counter", `listing ${mismatch}`);
  for (const mismatch of signalCountMismatches(items)) report("counter", mismatch);

  return {
    ok: violations.length === 0,
    violations: summarise(violations),
    figures: { items: items.length, ...deliveryFigures, issues: issues.size, ...dispatchFigures },
  };
}

type Report = (kind: ViolationKind, message: string) => void;

function auditDeliveries(items: TableItem[], deliveries: DeliveryRecord[], report: Report) {
  const signals = items.filter((item) => item.entity === "signal");
  const stored = new Map<string, TableItem[]>();
  for (const signal of signals) {
    if (typeof signal.deliveryId !== "string") continue;
    const key = `${signal.source} ${signal.deliveryId}`;
    stored.set(key, [...(stored.get(key) ?? []), signal]);
  }
  for (const [key, copies] of stored) {
    if (copies.length > 1) {
      report(
        "delivery",
        `delivery ${key} is stored as ${copies.length} signals: ${copies.map((s) => s.id).join(", ")}`,
      );
    }
  }
  const seen = new Map(
    items.filter((item) => String(item.pk).startsWith("$kaizen#delivery_1#")).map((item) => [String(item.pk), item]),
  );
  let acknowledged = 0;
  let redeliveries = 0;
  for (const delivery of deliveries) {
    const [first, ...later] = delivery.acks;
    if (!first) continue;
    acknowledged += 1;
    redeliveries += later.length;
    const name = `${delivery.source} delivery ${delivery.deliveryId}`;
    // Redeliveries are sent only after the first send was answered, so the first answer is the new one.
    if (first.status !== 201 || first.duplicate !== false) {
      report("delivery", `${name}: first answer ${first.status} (duplicate ${first.duplicate}), expected 201 new`);
    }
    const wrong = later.filter((ack) => ack.status !== 200 || ack.duplicate !== true);
    if (wrong.length > 0) {
      report(
        "delivery",
        `${name}: ${wrong.length} of ${later.length} redeliveries not answered 200 duplicate (${wrong.map((ack) => ack.status).join(", ")})`,
      );
    }
    const ids = [...new Set(delivery.acks.map((ack) => ack.signalId))];
    if (ids.length !== 1 || ids[0] === null) report("delivery", `${name}: answered with signals ${ids.join(", ")}`);
    const copies = stored.get(`${delivery.source} ${delivery.deliveryId}`) ?? [];
    if (copies.length === 0) report("delivery", `${name}: acknowledged (${first.signalId}) but no signal is stored`);
    else if (copies.length === 1 && copies[0]?.id !== first.signalId) {
      report("delivery", `${name}: acknowledged as ${first.signalId}, stored as ${copies[0]?.id}`);
    }
    const marker = seen.get(deliveryKey(delivery.source, delivery.deliveryId).pk);
    if (!marker) report("delivery", `${name}: acknowledged but its delivery record is missing`);
    else if (marker.signalId !== first.signalId) {
      report("delivery", `${name}: delivery record names ${marker.signalId}, acknowledged ${first.signalId}`);
    }
  }
  return { signals: signals.length, deliveriesAcknowledged: acknowledged, redeliveriesAcknowledged: redeliveries };
}

function auditIssues(items: TableItem[], created: string[], report: Report): Map<string, TableItem> {
  const all = items.filter((item) => item.entity === "issue");
  const issues = new Map(all.map((issue) => [String(issue.id), issue]));
  for (const id of created) {
    const issue = issues.get(id);
    if (!issue) report("issue", `issue ${id} was created (201) but is not stored`);
    else if (issue.deletedAt)
      report("issue", `issue ${id} was created (201) and is deleted, though the load deletes none`);
  }
  const numbers = new Map<number, string[]>();
  for (const issue of all)
    numbers.set(Number(issue.number), [...(numbers.get(Number(issue.number)) ?? []), String(issue.id)]);
  for (const [number, ids] of numbers) {
    if (ids.length > 1) report("issue", `issue number ${number} is held by ${ids.join(", ")}`);
  }
  const open = new Map<string, string[]>();
  for (const issue of all) {
    if (typeof issue.fingerprint !== "string" || issue.deletedAt) continue;
    if (issue.status === "done" || issue.status === "canceled") continue;
    open.set(issue.fingerprint, [...(open.get(issue.fingerprint) ?? []), String(issue.id)]);
  }
  for (const [fingerprint, ids] of open) {
    if (ids.length > 1) report("issue", `fingerprint ${fingerprint} has ${ids.length} open issues: ${ids.join(", ")}`);
  }
  return issues;
}

function auditDispatches(items: TableItem[], issues: Map<string, TableItem>, records: LoadRecords, report: Report) {
  const dispatches = items.filter((item) => item.entity === "dispatch");
  const byId = new Map(dispatches.map((dispatch) => [String(dispatch.id), dispatch]));
  const byIssue = new Map<string, TableItem[]>();
  for (const dispatch of dispatches) {
    const issueId = String(dispatch.issueId);
    byIssue.set(issueId, [...(byIssue.get(issueId) ?? []), dispatch]);
  }
  let reclaimed = 0;
  let maxAttempts = 0;
  for (const [issueId, own] of byIssue) {
    const issue = issues.get(issueId);
    if (!issue) {
      report("dispatch", `dispatches ${own.map((d) => d.id).join(", ")} name issue ${issueId}, which is not stored`);
      continue;
    }
    own.sort((a, b) => compare(String(a.claimedAt), String(b.claimedAt)) || compare(String(a.id), String(b.id)));
    maxAttempts = Math.max(maxAttempts, own.length);
    // Active from its claim until it ended: [claimedAt, finishedAt), open while active.
    for (let i = 1; i < own.length; i++) {
      const before = own[i - 1] as TableItem;
      const after = own[i] as TableItem;
      const ended = typeof before.finishedAt === "string" ? before.finishedAt : null;
      if (ended === null || ended > String(after.claimedAt)) {
        report(
          "dispatch",
          `issue ${issueId}: stored history overlaps: dispatch ${before.id} (${before.status}, ${before.claimedAt} → ` +
            `${ended ?? "still active"}) and ${after.id} (${after.status}, claimed ${after.claimedAt})`,
        );
      }
    }
    const active = own.filter((dispatch) => dispatch.status === "active");
    if (active.length > 1) {
      report(
        "dispatch",
        `issue ${issueId} has ${active.length} active dispatches: ${active.map((d) => d.id).join(", ")}`,
      );
    }
    const holder = active.length === 1 ? String(active[0]?.id) : null;
    if (issue.status === "in_progress" && (holder === null || issue.activeDispatchId !== holder)) {
      report(
        "dispatch",
        `issue ${issueId} is in_progress held by ${issue.activeDispatchId}, active dispatches: ${active.map((d) => d.id).join(", ") || "none"}`,
      );
    }
    if (holder !== null && issue.status !== "in_progress") {
      report("dispatch", `dispatch ${holder} is active but its issue ${issueId} is ${issue.status}`);
    }
    const attempts = own.map((dispatch) => Number(dispatch.attempt)).sort((a, b) => a - b);
    if (attempts.some((attempt, i) => attempt !== i + 1) || Number(issue.dispatchAttempts ?? 0) !== own.length) {
      report(
        "dispatch",
        `issue ${issueId}: ${own.length} dispatches with attempts ${attempts.join(", ")}, issue counts ${issue.dispatchAttempts}`,
      );
    }
    own.forEach((dispatch, i) => {
      if (dispatch.status === "expired" && i < own.length - 1) reclaimed += 1;
    });
  }

  // What the agents saw, on one clock: a later attempt acknowledged before an earlier one was last
  // seen active means both were active at once, whatever the stored timestamps say.
  const claimsByIssue = new Map<string, ClaimRecord[]>();
  for (const claim of records.claims) {
    claimsByIssue.set(claim.issueId, [...(claimsByIssue.get(claim.issueId) ?? []), claim]);
  }
  for (const [issueId, claims] of claimsByIssue) {
    for (const earlier of claims) {
      for (const later of claims) {
        if (later.attempt <= earlier.attempt || earlier.lastSeenActiveAt === null) continue;
        // Strictly before: within one millisecond the clock cannot order them.
        if (later.acknowledgedAt < earlier.lastSeenActiveAt) {
          report(
            "dispatch",
            `issue ${issueId}: agents held two active dispatches at once: ${later.dispatchId} (attempt ${later.attempt}) ` +
              `was handed out at ${iso(later.acknowledgedAt)}, ${earlier.dispatchId} (attempt ${earlier.attempt}) was ` +
              `still active after ${iso(earlier.lastSeenActiveAt)}`,
          );
        }
      }
    }
  }

  const reviews = new Set(
    items.filter((item) => String(item.pk).startsWith("$kaizen#reviewlist_1#prompt=")).map((item) => String(item.id)),
  );
  const expected: Record<ClaimRecord["end"], string[]> = {
    completed: ["completed"],
    failed: ["failed"],
    vanished: ["active", "expired"],
    refused: ["expired"],
    unanswered: ["active", "completed", "failed", "expired"],
  };
  const known = new Set<string>();
  for (const claim of records.claims) {
    known.add(claim.dispatchId);
    const stored = byId.get(claim.dispatchId);
    if (!stored) {
      report("dispatch", `dispatch ${claim.dispatchId} (claimed by ${claim.agent}, answered 201) is not stored`);
      continue;
    }
    if (stored.issueId !== claim.issueId || stored.agent !== claim.agent) {
      report(
        "dispatch",
        `dispatch ${claim.dispatchId}: stored for ${stored.issueId} by ${stored.agent}, claimed ${claim.issueId} by ${claim.agent}`,
      );
    }
    if (!expected[claim.end].includes(String(stored.status))) {
      report("dispatch", `dispatch ${claim.dispatchId} was left ${claim.end} by its agent but is ${stored.status}`);
    }
    if (claim.reviewId && !reviews.has(claim.reviewId)) {
      report("dispatch", `review ${claim.reviewId} of prompt ${claim.promptId} was answered 201 but is not stored`);
    }
  }
  const unknown = dispatches.filter((dispatch) => !known.has(String(dispatch.id)));
  if (unknown.length > records.unansweredClaims) {
    report(
      "dispatch",
      `${unknown.length} stored dispatches were never handed to an agent (${records.unansweredClaims} claims went unanswered): ` +
        unknown
          .slice(0, 5)
          .map((dispatch) => dispatch.id)
          .join(", "),
    );
  }
  const statuses: Record<string, number> = {};
  for (const dispatch of dispatches) statuses[String(dispatch.status)] = (statuses[String(dispatch.status)] ?? 0) + 1;
  return { dispatches: statuses, expired: statuses.expired ?? 0, reclaimed, maxAttempts };
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The first {@link LISTED_PER_KIND} violations of each kind, and one line for the rest of it. */
function summarise(violations: Violation[]): Violation[] {
  const kept: Violation[] = [];
  const byKind = new Map<ViolationKind, number>();
  for (const violation of violations) {
    const seen = (byKind.get(violation.kind) ?? 0) + 1;
    byKind.set(violation.kind, seen);
    if (seen <= LISTED_PER_KIND) kept.push(violation);
  }
  for (const [kind, count] of byKind) {
    if (count > LISTED_PER_KIND)
      kept.push({ kind, message: `… and ${count - LISTED_PER_KIND} more ${kind} violations` });
  }
  return kept;
}
