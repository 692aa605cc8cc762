/**
 * @module bench/signal-costs — what the data-layer section costs about signals: one signed delivery
 * of each kind the receivers route (opened, duplicate, grouped, recorded, each provider, and two
 * ≈4 MiB pushes, one of them too big to travel in its own transaction), then, once signals are
 * seeded, list pages and reads by id.
 */
import type { SignalAction } from "../core/src/signals/schemas.js";
import { PAYLOAD_IN_TRANSACTION_BYTES } from "../core/src/signals/store.js";
import { type CostCase, type CostRow, PAGE_LIMIT, type ResponseBody, type ResponseCheck } from "./costs.js";
import {
  analyticsDelivery,
  analyticsEvent,
  codehostDelivery,
  type Delivery,
  errortrackerDelivery,
  errortrackerIssueCreated,
  issueEvent,
  largePushEvent,
  payloadSizes,
  pushEvent,
} from "./deliveries.js";

/** A code-host issue number no other bench delivery uses, so its first delivery opens an issue. */
const FRESH_ISSUE_NUMBER = 4242;
const LARGE_PAYLOAD_BYTES = 4 * 1024 * 1024;

interface IngestAnswer {
  signal?: { id?: string; action?: SignalAction; payloadBytes?: number };
  issue?: { id?: string } | null;
  duplicate?: boolean;
}

function answerOf(body: ResponseBody): IngestAnswer {
  return (body.data ?? {}) as IngestAnswer;
}

/** A delivery must answer `status` with a signal that did `action` (201), or be taken for a duplicate (200). */
function ingested(action: SignalAction | "duplicate"): ResponseCheck {
  return (status, body) => {
    const answer = answerOf(body);
    if (action === "duplicate") {
      return status === 200 && answer.duplicate === true ? undefined : `answered ${status}, not a duplicate (200)`;
    }
    if (status !== 201) return `answered ${status}, expected 201`;
    return answer.signal?.action === action ? undefined : `signal was ${answer.signal?.action}, expected ${action}`;
  };
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function mb(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(2)} MB`;
}

/** A large push, labelled with its size, its gzipped size and where its chunks go. */
function largePushCase(key: string, compressible: boolean): CostCase {
  const delivery = codehostDelivery("push", largePushEvent(LARGE_PAYLOAD_BYTES, compressible));
  const { bytes, gzipped } = payloadSizes(delivery);
  const ahead = gzipped > PAYLOAD_IN_TRANSACTION_BYTES;
  const what = compressible ? "repetitive" : "random text";
  return {
    key,
    label: `push, ${mib(bytes)} ${what} (${mb(gzipped)} gzipped${ahead ? ", chunks ahead" : ""})`,
    kind: "receiver",
    path: delivery.path,
    delivery,
    check: ingested("recorded"),
    ...(ahead
      ? {
          exempt: `gzipped payload ${mb(gzipped)} > 3 MB: its chunks are written ahead of the transaction by design`,
        }
      : {}),
  };
}

function receiverCase(key: string, label: string, delivery: Delivery, action: SignalAction | "duplicate"): CostCase {
  return { key, label, kind: "receiver", path: delivery.path, delivery, check: ingested(action) };
}

/** One delivery of each kind, in an order where each finds what it needs (the duplicate after its first). */
export function receiverCases(): CostCase[] {
  const opened = codehostDelivery("issues", issueEvent("opened", FRESH_ISSUE_NUMBER));
  return [
    receiverCase("new", `codehost issues.opened #${FRESH_ISSUE_NUMBER}, new`, opened, "opened"),
    receiverCase("duplicate", "same delivery id again (duplicate)", opened, "duplicate"),
    receiverCase(
      "grouped",
      `codehost issues.edited #${FRESH_ISSUE_NUMBER}, new id (grouped)`,
      codehostDelivery("issues", issueEvent("edited", FRESH_ISSUE_NUMBER)),
      "grouped",
    ),
    receiverCase("recorded", "codehost push (recorded)", codehostDelivery("push", pushEvent(0)), "recorded"),
    receiverCase(
      "errortracker",
      "errortracker issue.created (opened)",
      errortrackerDelivery("issue", errortrackerIssueCreated("1170820242")),
      "opened",
    ),
    receiverCase(
      "analytics",
      "analytics event, -30% (opened)",
      analyticsDelivery(analyticsEvent("checkout_conversion_drop", -30)),
      "opened",
    ),
    largePushCase("large.inline", true),
    largePushCase("large.ahead", false),
  ];
}

/** The signal a receiver row stored (or, for a duplicate, found). */
function signalIdOf(row: CostRow | undefined): string | undefined {
  return row ? answerOf(row.body).signal?.id : undefined;
}

/** The first signal of a list page must be `id`, and the total `total`. */
function firstSignalIs(id: string | undefined, total: number): ResponseCheck {
  return (_status, body) => {
    const first = (Array.isArray(body.data) ? (body.data[0] as { id?: string } | undefined) : undefined)?.id;
    if (body.total !== total) return `total is ${body.total}, expected ${total}`;
    return first === id ? undefined : `first signal is ${first}, expected ${id}`;
  };
}

function signalIs(id: string): ResponseCheck {
  return (_status, body) => {
    const found = (body.data as { id?: string; payload?: unknown } | undefined) ?? {};
    if (found.id !== id) return `answered signal ${found.id}, expected ${id}`;
    return found.payload === undefined ? "no payload" : undefined;
  };
}

/**
 * Reads once signals are in: the first and a far page of `GET /api/signals` (newest first, so
 * page p starts at the p-th 20 of the ids sorted descending, as ULIDs sort), and by id the
 * receivers' recorded push and their payload written in chunks ahead.
 */
export function signalReadCases(receiverRows: CostRow[], seededIds: string[]): CostCase[] {
  const idOf = (key: string) => signalIdOf(receiverRows.find((row) => row.key === key));
  const small = idOf("recorded") ?? seededIds[0] ?? "";
  const large = idOf("large.ahead");
  const received = receiverRows.flatMap((row) => signalIdOf(row) ?? []);
  const ids = [...new Set([...received, ...seededIds])].sort().reverse();
  const far = Math.min(500, Math.max(1, Math.ceil(ids.length / PAGE_LIMIT)));
  const list = (page: number) => `/api/signals?page=${page}&limit=${PAGE_LIMIT}`;
  const cases: CostCase[] = [
    {
      key: "signals.p1",
      label: `signals list, page 1 (${ids.length})`,
      kind: "list",
      path: list(1),
      check: firstSignalIs(ids[0], ids.length),
    },
    {
      key: "signals.far",
      label: `signals list, page ${far}`,
      kind: "list",
      path: list(far),
      check: firstSignalIs(ids[(far - 1) * PAGE_LIMIT], ids.length),
    },
    {
      key: "signal.get",
      label: "get signal by id (push)",
      kind: "get",
      path: `/api/signals/${small}`,
      check: signalIs(small),
    },
  ];
  if (large) {
    cases.push({
      key: "signal.get.large",
      label: "get signal by id (payload in chunks)",
      kind: "get",
      path: `/api/signals/${large}`,
      check: signalIs(large),
      exempt: "its payload chunks share the signal's partition: one query, paged by DynamoDB every 1 MB",
    });
  }
  return cases;
}
