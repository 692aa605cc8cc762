/**
 * @module tests/helpers/cli-stub — the CLI's commands run in process (`main`, no child process)
 * against a stub API that records each request: for unit tests of what a command sends and prints,
 * with no server, database or network beyond the loopback.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { PassThrough } from "node:stream";
import { main } from "../../client/cli/main.js";

/** A request as the stub saw it. */
export interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  body: string;
}

/** What the stub answers a request: a status and, unless undefined, a JSON body. */
export type StubAnswer = (request: IncomingMessage) => { status: number; json?: unknown };

/**
 * Runs `run` with the URL of a stub API that answers each request with `answer` and records it in
 * `seen`, and closes the stub afterwards.
 * @example await withStub(() => ({ status: 200, json: { data: [] } }), async (url, seen) => { … })
 */
export async function withStub(answer: StubAnswer, run: (url: string, seen: Seen[]) => Promise<void>): Promise<void> {
  const seen: Seen[] = [];
  const stub = createServer((request: IncomingMessage, response: ServerResponse) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      seen.push({
        method: request.method ?? "",
        url: request.url ?? "",
        authorization: request.headers.authorization,
        body,
      });
      const { status, json } = answer(request);
      if (json === undefined) {
        response.writeHead(status).end();
        return;
      }
      response.writeHead(status, { "Content-Type": "application/json" });
      response.end(JSON.stringify(json));
    });
  });
  await new Promise<void>((resolve) => stub.listen(0, "127.0.0.1", resolve));
  try {
    await run(`http://127.0.0.1:${(stub.address() as AddressInfo).port}`, seen);
  } finally {
    stub.close();
  }
}

/** A readable stream holding `text`, as a command's standard input. */
export function stdinOf(text: string): PassThrough {
  const stream = new PassThrough();
  stream.end(text);
  return stream;
}

/**
 * The `kaizen` command in process, run in `cwd`: its exit status and what it wrote.
 * @example const kaizen = inProcessKaizen(dir); const { status, stdout } = await kaizen(["keys", "list"], env);
 */
export function inProcessKaizen(cwd: string) {
  return async (args: string[], env: NodeJS.ProcessEnv, stdin = "") => {
    let stdout = "";
    let stderr = "";
    const status = await main(args, {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => (stderr += text) },
      stdin: stdinOf(stdin),
      env,
      cwd,
    });
    return { status, stdout, stderr };
  };
}
