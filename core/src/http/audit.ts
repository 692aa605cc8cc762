/**
 * @module http/audit — the audit log's side of a request (docs/security.md#audit-log): a request that
 * may change something runs so that its first change carries its record in the same transaction;
 * once answered, the record learns its status and what the request created; a 401 or 403, which
 * changed nothing, is recorded on its own. The log itself is the access domain's (handed in by the
 * composition root).
 */
import type { Context, MiddlewareHandler } from "hono";
import type { TransactItem } from "../db/db.js";
import { ulidSource } from "../db/ids.js";
import type { RouteSpec } from "../routes.js";
import type { AppEnv, Caller } from "./env.js";
import { noteProblem, redactSecrets } from "./logger.js";

/** Who acted: a credential's holder, or Kaizen itself (`automation`). */
export interface AuditActor {
  kind: "root" | "key" | "dispatch" | "automation";
  id: string;
  name: string;
}

/** One record of the audit log, as the API shows it. */
export interface AuditRecord {
  id: string;
  at: string;
  /** null: a 401, whose credential named no one. */
  actor: AuditActor | null;
  /** The request's method and path; null for Kaizen's own actions. */
  method: string | null;
  path: string | null;
  /** What Kaizen did, for its own actions (`issue.status backlog→todo`, `dispatch.stopped`); null for a request. */
  action: string | null;
  /** The resource acted on: the route's `:id`, or what the request created. */
  targetId: string | null;
  /** The answer's status; null for Kaizen's own actions. */
  status: number | null;
  requestId: string | null;
  userAgent: string | null;
}

const nextUlid = ulidSource(0);

/**
 * An audit record id: `aud_` and a ULID of the instant it was made. Ids made in the same
 * millisecond sort in the order they were made; an earlier instant (another clock) gets an id of
 * its own time, never one nudged past a later id, since the id names the day its record is kept in.
 * @example newAuditId(Date.parse("2026-11-28T08:00:00Z")) // "aud_01KB…"
 */
export function newAuditId(now: number): string {
  return `aud_${nextUlid(now)}`;
}

/** The audit log as a request writes to it. */
export interface AuditTrail {
  /** Runs `work` so that its first change carries the record `draft()` makes then. */
  carry<T>(
    draft: (change: readonly TransactItem[]) => AuditRecord,
    work: () => Promise<T>,
  ): Promise<{ written: boolean; missed: boolean }>;
  /** Writes a record on its own. */
  write(record: AuditRecord): Promise<void>;
  /** Sets a written record's status and target once the request is answered. */
  amend(record: AuditRecord, changes: { status: number; targetId: string | null }): Promise<void>;
}

/**
 * Whether a route's requests are recorded when they change something: every one but a GET, unless
 * its declaration says otherwise (`audit`).
 * @example audited({ method: "GET", path: "/api/dispatch/next", auth: "bearer", audit: true }) // true
 */
export function audited(route: Pick<RouteSpec, "method" | "audit">): boolean {
  return route.audit ?? route.method !== "GET";
}

function actorOf(caller: Caller | undefined): AuditActor | null {
  return caller ? { kind: caller.kind, id: caller.id, name: caller.name } : null;
}

/**
 * What a change creates, as its items say: the first item it puts that is a resource (an `entity`
 * with an `id`), so a create's record names what it made without another write.
 */
function createdIn(change: readonly TransactItem[]): string | null {
  for (const item of change) {
    const put = item.Put?.Item;
    if (put && typeof put.entity === "string" && typeof put.id === "string") return put.id;
  }
  return null;
}

/** The id a created resource's `Location` names (its last segment). */
function createdId(c: Context<AppEnv>): string | null {
  const location = c.res.headers.get("Location");
  return location ? (location.split("/").pop() ?? null) : null;
}

/**
 * Records a bearer route's requests in the audit log (wraps its authentication, so it sees refusals).
 * @example app.post("/api/issues", auditTrail(route, trail, 201, now), bearerAuth(options), handler)
 */
export function auditTrail(
  route: RouteSpec,
  trail: AuditTrail,
  successStatus: number,
  now: () => Date,
): MiddlewareHandler<AppEnv> {
  const recorded = audited(route);
  return async (c, next) => {
    const at = now();
    const record = (status: number, targetId: string | null): AuditRecord => ({
      id: newAuditId(at.getTime()),
      at: at.toISOString(),
      actor: actorOf(c.get("caller")),
      method: c.req.method,
      // A key pasted into a path by mistake is not kept.
      path: redactSecrets(c.req.path),
      action: null,
      targetId: targetId === null ? null : redactSecrets(targetId),
      status,
      requestId: c.get("requestId") ?? null,
      userAgent: c.req.header("User-Agent")?.slice(0, 200) ?? null,
    });
    let carried: AuditRecord | undefined;
    const unrecorded = async () => {
      await next();
      return { written: false, missed: false };
    };
    const outcome = recorded
      ? await trail.carry(
          (change) => {
            carried = record(successStatus, c.req.param("id") ?? createdIn(change));
            return carried;
          },
          () => next(),
        )
      : await unrecorded();
    const status = c.res.status;
    try {
      if (status === 401 || status === 403) {
        await trail.write(record(status, c.req.param("id") ?? null));
      } else if (outcome.written && carried) {
        // Without an `:id`, what the answer's `Location` names is the target, whatever the change's
        // items suggested (at the cost of a write when they suggested another).
        const targetId = (c.req.param("id") === undefined ? createdId(c) : null) ?? carried.targetId;
        if (status !== carried.status || targetId !== carried.targetId)
          await trail.amend(carried, { status, targetId });
      } else if (outcome.missed && status < 400) {
        await trail.write(record(status, c.req.param("id") ?? createdId(c)));
      }
    } catch (error) {
      // The change (or the refusal) stands; a record that could not be finished is said in the log line.
      noteProblem(c, "audit record", error);
    }
  };
}
