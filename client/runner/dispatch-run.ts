/**
 * @module client/runner/dispatch-run — one dispatch worked by a command: the command started in its
 * own process group with the prompt on stdin and the dispatch in its environment, its output posted
 * as activities, the dispatch called often enough to keep its lease and to hear of a stop, and the
 * outcome reported when the command exits (docs/agents.md#running-an-agent-kaizen-run).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { KaizenApiError, type KaizenClient, type Schema } from "../client.js";
import { ActivityBatcher, type MergedActivity } from "./activity-batcher.js";
import { AgentOutput, clip, type RunningUsage } from "./agent-output.js";
import { type CommandExit, startGrouped } from "./process-group.js";
import { type CommandReport, fallbackSummary, readResultFile } from "./result-file.js";

/** The runner's timings; the defaults are in ./run-settings.ts. */
export interface RunSettings {
  /** The longest the runner goes without calling a dispatch (a heartbeat when no activity went): how soon it hears of a stop. */
  checkMs: number;
  /** The least time between two activity calls of one dispatch. */
  batchMs: number;
  /** How long a TERMed command has before its group is KILLed. */
  killGraceMs: number;
  /** The first wait after a claim found nothing; it doubles up to {@link maxPollMs}. */
  pollMs: number;
  maxPollMs: number;
}

/** A dispatch to work: what the command is told about it. */
export interface Assignment {
  dispatchId: string;
  token: string;
  /** `KZN-<n>`. */
  identifier: string;
  prompt: string;
  leaseSeconds: number;
}

/** What the runner needs to work one dispatch. */
export interface DispatchRunDeps {
  /** The service, as the command is told (`KAIZEN_URL`). */
  url: string;
  /** A client holding the dispatch's token. */
  client: KaizenClient;
  /** The command and its arguments. */
  command: readonly string[];
  /** The runner's environment, which the command inherits (less the service key). */
  env: NodeJS.ProcessEnv;
  settings: RunSettings;
  /** A line about the dispatch for whoever runs the runner. */
  log(line: string): void;
}

/** How a worked dispatch ended. */
export type DispatchEnd =
  | { kind: "completed"; result: "done" | "failed"; dispatch: Schema<"DispatchWithIssue"> }
  /** The dispatch ended under the runner (stopped, over budget, expired, released by someone): the command was killed. */
  | { kind: "ended"; reason: string }
  /** The runner itself was stopped: the command was killed and the dispatch released (or `error` says why not). */
  | { kind: "released"; error?: string }
  /** The command could not be started (`reason` says why): the dispatch was released, not failed. */
  | { kind: "unstartable"; reason: string; error?: string };

/**
 * Works `assignment` with `deps.command` until the command exits (then completes the dispatch
 * `done` on status 0, else `failed`), the dispatch ends under it (then kills the command's group),
 * or `shutdown` aborts (then kills the group and releases the dispatch).
 * @example const end = await workDispatch(assignment, deps, controller.signal);
 */
export async function workDispatch(
  assignment: Assignment,
  deps: DispatchRunDeps,
  shutdown: AbortSignal,
): Promise<DispatchEnd> {
  const { settings, client, log } = deps;
  // Claimed as the runner was being stopped: given back without starting anything.
  if (shutdown.aborted) return await release(client, assignment.dispatchId);
  const tag = `[${assignment.identifier}]`;
  const dir = mkdtempSync(join(tmpdir(), "kaizen-run-"));
  const promptFile = join(dir, "prompt.md");
  const resultFile = join(dir, "result.json");
  writeFileSync(promptFile, assignment.prompt, { mode: 0o600 });
  const { KAIZEN_API_KEY: _key, ...inherited } = deps.env;
  const [command = "", ...args] = deps.command;
  const run = startGrouped(command, args, {
    ...inherited,
    KAIZEN_URL: deps.url,
    KAIZEN_DISPATCH_ID: assignment.dispatchId,
    KAIZEN_DISPATCH_TOKEN: assignment.token,
    KAIZEN_ISSUE: assignment.identifier,
    KAIZEN_PROMPT_FILE: promptFile,
    KAIZEN_RESULT_FILE: resultFile,
  });
  run.child.stdin.end(assignment.prompt);

  const output = new AgentOutput();
  const batcher = new ActivityBatcher(settings.batchMs, () => Date.now());
  const calls = new DispatchCalls(client, assignment, settings, output.usage, log, tag);
  const streams = Promise.all([
    readLines(run.child.stdout, (line) => take(output.read(line, "stdout"))),
    readLines(run.child.stderr, (line) => take(output.read(line, "stderr"))),
  ]);
  function take(drafts: ReturnType<AgentOutput["read"]>) {
    for (const draft of drafts) {
      log(`${tag} ${draft.type}: ${clip(draft.body.split("\n")[0] ?? "", 160)}`);
      if (calls.activities) batcher.add(draft);
    }
  }

  const ticker = setInterval(
    () => void calls.tick(batcher),
    Math.max(10, Math.min(settings.batchMs, settings.checkMs) / 4),
  );
  const aborted = new Promise<"shutdown">((resolve) => {
    if (shutdown.aborted) resolve("shutdown");
    shutdown.addEventListener("abort", () => resolve("shutdown"), { once: true });
  });
  try {
    const first = await Promise.race([run.exited, calls.ended, aborted]);
    if (first === "shutdown") {
      clearInterval(ticker);
      await run.terminate(settings.killGraceMs);
      return await release(client, assignment.dispatchId);
    }
    if (typeof first === "string") {
      clearInterval(ticker);
      log(`${tag} ${first}: ending the command (TERM, then KILL after ${settings.killGraceMs / 1000} s)`);
      await run.terminate(settings.killGraceMs);
      return { kind: "ended", reason: first };
    }
    // The output may still be on its way when the command has exited; a process it left behind may
    // hold the pipes open, so the wait is short.
    await Promise.race([streams, sleep(2_000, undefined, { ref: false })]);
    clearInterval(ticker);
    if (first.startError) {
      // Nothing was tried: failing the issue would count against it (three failures cancel it).
      const released = await release(client, assignment.dispatchId);
      const reason = `cannot start ${command}: ${first.startError}`;
      return released.kind === "released" && released.error
        ? { kind: "unstartable", reason, error: released.error }
        : { kind: "unstartable", reason };
    }
    await calls.drain(batcher, shutdown);
    if (calls.endedReason) return { kind: "ended", reason: calls.endedReason };
    const report = reportOf(resultFile, output, first);
    if (report.problem) log(`${tag} ${report.problem}: completing without it`);
    return await complete(client, assignment, first.code === 0 ? "done" : "failed", report, output.usage, log, tag);
  } finally {
    clearInterval(ticker);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Calls `onLine` with each line of `stream`; resolves when the stream ends. */
function readLines(stream: Readable, onLine: (line: string) => void): Promise<void> {
  const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  lines.on("line", onLine);
  return new Promise((resolve) => lines.once("close", resolve));
}

/** A command's exit in words: `exited with status 1`, `was ended by SIGKILL`. */
function exitWords(exit: CommandExit): string {
  return exit.signal ? `was ended by ${exit.signal}` : `exited with status ${exit.code}`;
}

/** The completion's summary, commits and pull requests: the result file's, else what the output said. */
function reportOf(resultFile: string, output: AgentOutput, exit: CommandExit): CommandReport {
  const file = readResultFile(resultFile) ?? {};
  return {
    ...file,
    summary: file.summary ?? fallbackSummary(output.response, output.lastLines(), exitWords(exit)),
  };
}

/** The usage to report, when any was seen. */
function usageBody(usage: RunningUsage): { usage?: RunningUsage } {
  return Object.keys(usage).length > 0 ? { usage: { ...usage } } : {};
}

/**
 * Completes the dispatch. A completion the API refuses for the result file's commits or pull
 * requests (400) is made again without them, saying so; one refused because the plan was not
 * approved (409) is made `failed`, saying so.
 */
async function complete(
  client: KaizenClient,
  assignment: Assignment,
  result: "done" | "failed",
  report: CommandReport,
  usage: RunningUsage,
  log: (line: string) => void,
  tag: string,
): Promise<DispatchEnd> {
  const send = async (outcome: "done" | "failed", body: Omit<CommandReport, "problem">) => {
    const { data } = await client.POST("/api/dispatch/{id}/complete", {
      params: { path: { id: assignment.dispatchId } },
      body: { result: outcome, ...body, ...usageBody(usage) },
    });
    if (!data) throw new Error("the completion answered no dispatch");
    const issue = data.data.issue ? `; ${data.data.issue.identifier} is ${data.data.issue.status}` : "";
    log(`${tag} completed ${outcome}${issue}`);
    return { kind: "completed", result: outcome, dispatch: data.data } as const;
  };
  const { summary, commits, pullRequests } = report;
  try {
    return await send(result, { summary, ...(commits ? { commits } : {}), ...(pullRequests ? { pullRequests } : {}) });
  } catch (error) {
    if (!(error instanceof KaizenApiError)) throw error;
    if (error.status === 400 && (commits || pullRequests)) {
      log(`${tag} the result file's commits or pull requests were refused (${error.error}): completing without them`);
      const note = `\n\n(The result file's commits and pull requests were refused: ${error.error})`;
      return await send(result, { summary: clip(summary, 50_000 - note.length) + note });
    }
    if (error.status === 409 && error.error.startsWith("Plan approval required")) {
      log(`${tag} ${error.error}: completing failed`);
      const note = "\n\n(The command finished before its plan was approved.)";
      return await send("failed", { summary: clip(summary, 50_000 - note.length) + note });
    }
    if (error.status === 409 || error.status === 401) {
      log(`${tag} ${error.error}`);
      return { kind: "ended", reason: error.error };
    }
    throw error;
  }
}

/** Gives the dispatch back, as the runner stops. */
async function release(client: KaizenClient, dispatchId: string): Promise<DispatchEnd> {
  try {
    await client.POST("/api/dispatch/{id}/release", { params: { path: { id: dispatchId } } });
    return { kind: "released" };
  } catch (error) {
    return { kind: "released", error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The calls a worked dispatch makes while its command runs, one at a time: an activity when the
 * batcher has one due, else a heartbeat once `checkMs` (or a third of the lease, if shorter) passed
 * since the last call. A 409 or 401 from either means the dispatch ended under the runner
 * ({@link ended} resolves with the API's message); a 404 from the activities route (a server from
 * before activities) turns activities off and leaves heartbeats.
 */
class DispatchCalls {
  /** Whether activities are posted (false on a server without the route). */
  activities = true;
  endedReason: string | undefined;
  readonly ended: Promise<string>;
  private resolveEnded: (reason: string) => void = () => undefined;
  private busy = false;
  private lastCall = Date.now();
  private waitingFor: string | null = null;
  private readonly heartbeatMs: number;

  constructor(
    private readonly client: KaizenClient,
    private readonly assignment: Assignment,
    settings: RunSettings,
    private readonly usage: RunningUsage,
    private readonly log: (line: string) => void,
    private readonly tag: string,
  ) {
    this.ended = new Promise((resolve) => {
      this.resolveEnded = resolve;
    });
    this.heartbeatMs = Math.min(settings.checkMs, (assignment.leaseSeconds * 1000) / 3);
  }

  /** One step: the due activity, or the due heartbeat, unless a call is under way or the dispatch ended. */
  async tick(batcher: ActivityBatcher): Promise<void> {
    if (this.busy || this.endedReason) return;
    this.busy = true;
    try {
      const activity = this.activities ? batcher.take() : undefined;
      if (activity) await this.post(activity);
      else if (Date.now() - this.lastCall >= this.heartbeatMs) await this.heartbeat();
    } finally {
      this.busy = false;
    }
  }

  /** Posts what the batcher still holds, a call per interval, unless the runner is stopping. */
  async drain(batcher: ActivityBatcher, shutdown: AbortSignal): Promise<void> {
    while (this.busy) await sleep(10);
    while (this.activities && !this.endedReason && !shutdown.aborted && batcher.pending > 0) {
      const activity = batcher.take();
      if (activity) await this.post(activity);
      else await sleep(Math.max(1, batcher.dueAt() - Date.now()));
    }
  }

  private async post(activity: MergedActivity): Promise<void> {
    this.lastCall = Date.now();
    try {
      await this.client.POST("/api/dispatch/{id}/activities", {
        params: { path: { id: this.assignment.dispatchId } },
        body: { type: activity.type, body: activity.body, data: activity.data, ...usageBody(this.usage) },
      });
    } catch (error) {
      if (error instanceof KaizenApiError && error.status === 404) {
        this.activities = false;
        this.log(`${this.tag} this server takes no activities (404): heartbeats only`);
        return;
      }
      this.failed(error, "activity");
    }
  }

  private async heartbeat(): Promise<void> {
    this.lastCall = Date.now();
    const usage = usageBody(this.usage);
    try {
      const { data } = await this.client.POST("/api/dispatch/{id}/heartbeat", {
        params: { path: { id: this.assignment.dispatchId } },
        ...(usage.usage ? { body: usage } : {}),
      });
      const waitingFor = data?.data.status === "waiting" ? (data.data.waitingFor ?? "input") : null;
      if (waitingFor !== this.waitingFor) {
        this.log(
          waitingFor
            ? `${this.tag} waits for a person's ${waitingFor === "approval" ? "approval of its plan" : "answer"}: the command keeps running`
            : `${this.tag} works again`,
        );
        this.waitingFor = waitingFor;
      }
    } catch (error) {
      this.failed(error, "heartbeat");
    }
  }

  /** A failed call: the dispatch's end (409, 401, 404), or a failure to say and ride out. */
  private failed(error: unknown, call: string): void {
    if (error instanceof KaizenApiError && [401, 404, 409].includes(error.status)) {
      this.endedReason =
        error.status === 409 ? error.error : `the dispatch's token was refused (${error.status} ${error.error})`;
      this.resolveEnded(this.endedReason);
      return;
    }
    this.log(`${this.tag} ${call} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
