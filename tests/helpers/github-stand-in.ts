/**
 * A local stand-in for GitHub's REST API in tests of hosted runners: it takes repository dispatches
 * (`POST /repos/<owner>/<repo>/dispatches`), checks the method, path, headers and body exactly as
 * GitHub documents them, records each, and answers as scripted: 204, a refusal with GitHub's error
 * body, or never.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { arrivals } from "./arrivals.js";

/** What the stand-in expects of every request. */
export interface GitHubExpectations {
  repository: string;
  githubToken: string;
  eventType: string;
}

/** A repository dispatch as received. */
export interface ReceivedDispatch {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: { event_type: string; client_payload: { dispatchId: string; issue: string; token: string; kaizenUrl: string } };
  /** What the request did not do as GitHub documents (empty when it was exact). */
  problems: string[];
  /** The status answered (`null` when the stand-in hung). */
  answered: number | null;
}

/** How the stand-in answers its n-th request (0-based): a status, or `"hang"` (never answers). */
export type GitHubScript = (n: number) => 204 | 401 | 404 | 422 | 500 | 502 | "hang";

/** GitHub's error bodies for the refusals a hand-off meets. */
const GITHUB_ERRORS: Record<number, string> = {
  401: "Bad credentials",
  404: "Not Found",
  422: "Validation Failed",
  500: "Server Error",
  502: "Server Error",
};

export interface GitHubStandIn {
  /** The API base, for `GITHUB_API_URL`. */
  url: string;
  received: ReceivedDispatch[];
  /** Changes how later requests are answered. */
  answer(script: GitHubScript): void;
  /** Resolves once `count` requests arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedDispatch[]>;
  close(): Promise<void>;
}

/** What a request did differently from GitHub's documented repository dispatch. */
function problemsOf(
  expected: GitHubExpectations,
  method: string,
  path: string,
  headers: IncomingHttpHeaders,
  text: string,
): string[] {
  const problems: string[] = [];
  const want = (what: string, got: unknown, wanted: unknown) => {
    if (got !== wanted) problems.push(`${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(wanted)}`);
  };
  want("method", method, "POST");
  want("path", path, `/repos/${expected.repository}/dispatches`);
  want("authorization", headers.authorization, `Bearer ${expected.githubToken}`);
  want("accept", headers.accept, "application/vnd.github+json");
  want("x-github-api-version", headers["x-github-api-version"], "2022-11-28");
  want("content-type", headers["content-type"], "application/json");
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return [...problems, "body: not JSON"];
  }
  want("body keys", Object.keys(body).sort().join(","), "client_payload,event_type");
  want("event_type", body.event_type, expected.eventType);
  const payload = (body.client_payload ?? {}) as Record<string, unknown>;
  want("client_payload keys", Object.keys(payload).sort().join(","), "dispatchId,issue,kaizenUrl,token");
  if (!/^dsp_[0-9A-HJKMNP-TV-Z]{26}$/.test(String(payload.dispatchId))) problems.push("dispatchId: not a dispatch id");
  if (!/^KZN-[1-9][0-9]*$/.test(String(payload.issue))) problems.push("issue: not KZN-<n>");
  if (typeof payload.token !== "string" || payload.token === "") problems.push("token: missing");
  return problems;
}

/**
 * Starts the stand-in on a free port of 127.0.0.1, answering 204 unless `script` says otherwise. A
 * request that is not exactly GitHub's documented shape is answered 400 and recorded with its problems.
 * @example const github = await startGitHubStandIn({ repository: "acme/app", githubToken: "ghp_x", eventType: "kaizen-dispatch" });
 */
export async function startGitHubStandIn(
  expected: GitHubExpectations,
  script: GitHubScript = () => 204,
): Promise<GitHubStandIn> {
  const arrived = arrivals<ReceivedDispatch>(
    (got, count, ms) => `the stand-in got ${got} of ${count} repository dispatches in ${ms} ms`,
  );
  let answering = script;
  let n = 0;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const method = request.method ?? "";
      const path = request.url ?? "";
      const problems = problemsOf(expected, method, path, request.headers, text);
      const answer = problems.length > 0 ? 400 : answering(n++);
      let body: ReceivedDispatch["body"];
      try {
        body = JSON.parse(text) as ReceivedDispatch["body"];
      } catch {
        body = { event_type: "", client_payload: { dispatchId: "", issue: "", token: "", kaizenUrl: "" } };
      }
      arrived.add({
        method,
        path,
        headers: request.headers,
        body,
        problems,
        answered: answer === "hang" ? null : answer,
      });
      if (answer === "hang") return;
      if (answer === 204) {
        response.writeHead(204).end();
        return;
      }
      const message = answer === 400 ? problems.join("; ") : (GITHUB_ERRORS[answer] ?? "Error");
      response
        .writeHead(answer, { "Content-Type": "application/json; charset=utf-8" })
        .end(JSON.stringify({ message, documentation_url: "https://docs.github.com/rest" }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received: arrived.received,
    answer(next) {
      answering = next;
    },
    waitFor: arrived.waitFor,
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
