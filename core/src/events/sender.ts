/**
 * @module events/sender — one attempt to deliver one event: a POST of its body with the headers of
 * docs/api.md#outbound-events, which succeeds on a 2xx answered within {@link SEND_TIMEOUT_MS}. Redirects are not
 * followed (a 3xx is a failure: the destination's URL should be changed instead).
 */
import { EVENT_ID_HEADER, EVENT_TYPE_HEADER, SIGNATURE_HEADER, signatureHeader, TIMESTAMP_HEADER } from "./signing.js";

/** How long a destination has to answer (docs/api.md#outbound-events). */
export const SEND_TIMEOUT_MS = 10_000;

/** What one attempt came to. */
export interface SendResult {
  ok: boolean;
  /** The status the destination answered, or null when it did not answer in time or at all. */
  responseStatus: number | null;
  durationMs: number;
  /** Why it failed: `HTTP <status>`, `timeout after 10 s`, or the connection's error. */
  error: string | null;
}

export interface Sending {
  url: string;
  eventId: string;
  eventType: string;
  body: string;
  /** The secrets that sign now, the newest first. */
  secrets: readonly string[];
}

/** Sends one event once; never throws. */
export async function sendEvent(sending: Sending, timeoutMs = SEND_TIMEOUT_MS): Promise<SendResult> {
  const timestamp = Math.floor(Date.now() / 1000);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await fetch(sending.url, {
      method: "POST",
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
      headers: {
        "Content-Type": "application/json",
        "User-Agent": "Kaizen-Events/1",
        [EVENT_ID_HEADER]: sending.eventId,
        [EVENT_TYPE_HEADER]: sending.eventType,
        [TIMESTAMP_HEADER]: String(timestamp),
        [SIGNATURE_HEADER]: signatureHeader(sending.secrets, timestamp, sending.body),
      },
      body: sending.body,
    });
    // The answer's body is not read: let the connection go.
    await response.body?.cancel().catch(() => undefined);
    const ok = response.status >= 200 && response.status < 300;
    return { ok, responseStatus: response.status, durationMs: elapsed(), error: ok ? null : `HTTP ${response.status}` };
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === "TimeoutError";
    return {
      ok: false,
      responseStatus: null,
      durationMs: elapsed(),
      error: timedOut ? `timeout after ${timeoutMs / 1000} s` : connectionError(error),
    };
  }
}

function connectionError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const detail = cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
  return `connection failed: ${detail}`;
}
