/**
 * @module signals/payload — whole payloads in items of at most 400 KB: the JSON text is gzipped
 * and cut into chunks; reading joins and inflates them back to the same text.
 */
import { gunzipSync, gzipSync } from "node:zlib";

/** Bytes of compressed payload per item, leaving room under DynamoDB's 400 KB for keys and fields. */
export const PAYLOAD_CHUNK_BYTES = 350_000;

export interface EncodedPayload {
  /** Size of the JSON text in UTF-8 bytes. */
  bytes: number;
  chunks: Uint8Array[];
}

/**
 * @example encodePayload('{"a":1}') // { bytes: 7, chunks: [<gzip bytes>] }
 */
export function encodePayload(text: string): EncodedPayload {
  const raw = Buffer.from(text, "utf8");
  const compressed = gzipSync(raw);
  const chunks: Uint8Array[] = [];
  for (let start = 0; start < compressed.length; start += PAYLOAD_CHUNK_BYTES) {
    chunks.push(compressed.subarray(start, start + PAYLOAD_CHUNK_BYTES));
  }
  return { bytes: raw.length, chunks };
}

/** The JSON text the chunks were made from. */
export function decodePayload(chunks: Uint8Array[]): string {
  return gunzipSync(Buffer.concat(chunks.map((chunk) => Buffer.from(chunk)))).toString("utf8");
}
