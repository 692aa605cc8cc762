/** A local HTTP receiver of outbound events for tests: records what arrives, answers as scripted. */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { arrivals } from "./arrivals.js";

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
  const arrived = arrivals<Received>((got, count, ms) => `receiver got ${got} of ${count} requests in ${ms} ms`);
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const answer = script(arrived.received.length);
      arrived.add({
        headers: request.headers,
        body,
        event: JSON.parse(body),
        answered: answer === "hang" ? null : answer,
      });
      if (answer !== "hang") response.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received: arrived.received,
    waitFor: arrived.waitFor,
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
