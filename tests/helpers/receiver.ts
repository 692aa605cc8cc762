/** A local HTTP receiver of outbound events for tests: records what arrives, answers as scripted. */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  /** The parsed body: `{id, type, createdAt, data}`. */
  event: { id: string; type: string; createdAt: string; data: Record<string, unknown> };
  /** The status answered (`null` when the receiver hung). */
  answered: number | null;
}

/** How the receiver answers its n-th request (0-based): a status, or `"hang"` (never answers). */
export type Script = (n: number) => number | "hang";

export interface Receiver {
  url: string;
  received: Received[];
  /** Resolves once `count` requests arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/**
 * Starts a receiver on a free port of 127.0.0.1, answering 204 unless `script` says otherwise.
 * @example const receiver = await startReceiver((n) => (n === 0 ? 500 : 200));
 */
export async function startReceiver(script: Script = () => 204): Promise<Receiver> {
  const received: Received[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const answer = script(received.length);
      received.push({
        headers: request.headers,
        body,
        event: JSON.parse(body),
        answered: answer === "hang" ? null : answer,
      });
      for (const waiter of waiters.filter((w) => received.length >= w.count)) waiter.resolve();
      if (answer !== "hang") response.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    waitFor(count, timeoutMs = 15_000) {
      if (received.length >= count) return Promise.resolve(received);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`receiver got ${received.length} of ${count} requests in ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(received);
          },
        });
      });
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
