/**
 * @module access/audit-keys — keys of the audit log (pure functions, no I/O).
 *
 * Access patterns:
 * - a day's records, newest first .... Query  pk=$kaizen#audit_1#<YYYY-MM-DD>  sk=aud_<ULID> (descending)
 *   (one partition a day: every record its own item, so a burst of writers holds no item in common)
 */
import { decodeTime, encodeTime } from "ulid";
import type { Key } from "../db/db.js";
import { keyPrefix } from "../db/item-kinds.js";

const AUDIT_ENTITY = keyPrefix("audit");

/** How long a record is kept: 90 days, then DynamoDB's TTL removes it. */
export const AUDIT_RETENTION_DAYS = 90;
const DAY_MS = 86_400_000;

export { newAuditId } from "../http/audit.js";

/** The UTC day (`YYYY-MM-DD`) of an instant in ms. */
export function auditDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The partition of a UTC day's records. */
export function auditDayPk(day: string): string {
  return `${AUDIT_ENTITY}#${day}`;
}

/** Where record `id` lives: its day's partition, by its id. */
export function auditKey(id: string): Key {
  return { pk: auditDayPk(auditDay(decodeTime(id.slice(4)))), sk: id };
}

/** The lowest record id of an instant: where a day's records from then on begin. */
export function auditIdFloor(ms: number): string {
  // A ULID's first 10 characters are its time; the rest at its lowest.
  return `aud_${encodeTime(ms, 10)}${"0".repeat(16)}`;
}

/** The UTC days from `to` back to `from` (both ms), newest first. */
export function auditDaysBack(from: number, to: number): string[] {
  const days: string[] = [];
  for (let day = Date.parse(auditDay(to)); day >= Date.parse(auditDay(from)); day -= DAY_MS) days.push(auditDay(day));
  return days;
}

/** The epoch second after which the TTL removes a record made at `ms`. */
export function auditExpiry(ms: number): number {
  return Math.floor(ms / 1000) + AUDIT_RETENTION_DAYS * 86_400;
}

/** The earliest instant a listing reaches: the retention's start. */
export function retentionStart(now: number): number {
  return now - AUDIT_RETENTION_DAYS * DAY_MS;
}
