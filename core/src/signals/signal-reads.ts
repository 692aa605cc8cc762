/**
 * @module signals/signal-reads — one signal with its whole payload, the read a prompt's context and a
 * key's reach make. ./signal-queries.ts extends it with heads, listings and counts; apart from those, so
 * the functions that render prompts carry this read alone (docs/contributing.md#budgets). Keys: ./keys.ts.
 */
import type { Db, Item } from "../db/db.js";
import { PAYLOAD_CHUNK_PREFIX, signalKey } from "./keys.js";
import { decodePayload } from "./payload.js";
import type { Signal, SignalAction } from "./schemas.js";
import type { SignalHead } from "./signal-store.js";

export class SignalReads {
  constructor(protected readonly db: Db) {}

  /** A signal with its whole payload: the signal and its chunks share a partition (one query). */
  async get(id: string): Promise<Signal | undefined> {
    const items = await this.db.queryPartition(signalKey(id).pk);
    const head = items.find((item) => item.sk === signalKey(id).sk);
    if (!head) return undefined;
    const chunks = items
      .filter((item) => String(item.sk).startsWith(PAYLOAD_CHUNK_PREFIX))
      .sort((a, b) => String(a.sk).localeCompare(String(b.sk)))
      .map((item) => item.data as Uint8Array);
    return { ...toHead(head), payload: JSON.parse(decodePayload(chunks)) };
  }
}

/** A signal without its payload, from its item (as ./signal-store.ts wrote it). */
export function toHead(item: Item): SignalHead {
  return {
    id: String(item.id),
    source: String(item.source),
    type: String(item.type),
    deliveryId: typeof item.deliveryId === "string" ? item.deliveryId : null,
    fingerprint: String(item.fingerprint),
    severity: item.severity as Signal["severity"],
    title: String(item.title),
    action: item.action as SignalAction,
    issueId: typeof item.issueId === "string" ? item.issueId : null,
    // Signals stored before routing by source have neither.
    projectId: typeof item.projectId === "string" ? item.projectId : null,
    sourceKey: typeof item.sourceKey === "string" ? item.sourceKey : null,
    payloadBytes: Number(item.payloadBytes ?? 0),
    headers: (item.headers as Record<string, string> | undefined) ?? {},
    receivedAt: String(item.receivedAt),
  };
}
