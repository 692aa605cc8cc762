/**
 * @module client/cli/commands/steering — a person steering an agent at work: `kaizen watch` follows a
 * dispatch, `answer` replies to its question, `approve` and `reject` decide on its plan, `stop` ends
 * it (docs/api.md#questions-and-answers, docs/api.md#plan-approval, docs/api.md#stopping-a-dispatch).
 * The four actions are a person's: they send the service key, never `KAIZEN_DISPATCH_TOKEN` (the API
 * refuses a dispatch's own token with 403).
 */
import { readFileSync } from "node:fs";
import type { Argv } from "yargs";
import type { KaizenClient, paths, Schema } from "../../client.js";
import type { Define } from "../command.js";
import { COMMANDS } from "../command-index.js";
import { integerIn } from "../options.js";
import { emit } from "../output.js";
import { type CommandContext, EXIT, missingKeyMessage, UsageError } from "../runtime.js";
import { runWatch } from "./watch.js";

type StopBody = NonNullable<paths["/api/dispatch/{id}/stop"]["post"]["requestBody"]>["content"]["application/json"];

/** Where a stopped dispatch's issue goes, as `--then` offers it (the API's `then`, docs/api.md#stopping-a-dispatch). */
export const STOP_THEN = ["todo", "backlog", "canceled"] as const satisfies readonly NonNullable<StopBody["then"]>[];

/** Shown by the person's commands. */
const PERSON_NOTE =
  "A person's action: it sends the service key (KAIZEN_API_KEY, .kaizen/env, or the local server's .data/api-key), " +
  "never KAIZEN_DISPATCH_TOKEN, which the API refuses here (403).";

/** Shown by `kaizen watch --help`. */
const WATCH_EPILOGUE = `Prints the dispatch's activities as they arrive (time in UTC, sequence, type, author, body) and,
when they change, its status, what it waits for and its usage against its budget; polls every
--interval seconds until the dispatch ends (it says how, exit 0) or Ctrl-C. --json prints one JSON
object a line: {"kind": "dispatch", "dispatch": …} or {"kind": "activity", "activity": …}.
With the service key it reads the dispatch and its activities. With KAIZEN_DISPATCH_TOKEN set (an
agent on its own dispatch) it reads only the activities: an agent that asked a question runs
kaizen watch <dispatch> --after <its question's sequence> --until-answer, which exits 0 with the answer.`;

/**
 * A client with the service key, for a person's action; a {@link UsageError} without one, saying
 * that the dispatch token will not do.
 */
function personClient(context: CommandContext): KaizenClient {
  if (!context.connection.apiKey) {
    throw new UsageError(`${missingKeyMessage(context.connection.url)}\n${PERSON_NOTE}`);
  }
  return context.client("key");
}

/** `text`, or stdin's text for `-`. */
function textOf(text: string): string {
  return text === "-" ? readFileSync(0, "utf8") : text;
}

/**
 * A person's answer to a plan as one line: what was decided, and what the agent does now.
 * @example decisionLine("approve", decision) // "Approved the plan of dsp_… (message 5): it works again"
 */
export function decisionLine(verb: "approve" | "reject", decision: Schema<"DispatchDecision">): string {
  const { dispatch, activity } = decision;
  return verb === "approve"
    ? `Approved the plan of ${dispatch.id} (message ${activity.sequence}): it works again, and may complete once done`
    : `Sent the plan of ${dispatch.id} back (message ${activity.sequence}): it works again, and posts a new plan before it may complete`;
}

/**
 * A stop's answer as one line: the dispatch, why, and where its issue went.
 * @example stoppedLine(result) // "Stopped dsp_… (Wrong approach); KZN-7 is backlog"
 */
export function stoppedLine(result: Schema<"DispatchWithIssue">): string {
  const issue = result.issue ? `; ${result.issue.identifier} is ${result.issue.status}` : "";
  return `Stopped ${result.dispatch.id} (${result.dispatch.stopReason ?? "stopped"})${issue}`;
}

const DISPATCH = { type: "string", demandOption: true, describe: "Dispatch id (dsp_…)" } as const;

/** Registers `watch`, `answer`, `approve`, `reject` and `stop`. */
export function registerSteering(yargs: Argv, define: Define): Argv {
  return yargs
    .command(
      ...define(
        ...COMMANDS.watch,
        (y) =>
          y
            .positional("dispatch", DISPATCH)
            .option("after", {
              type: "number",
              default: 0,
              describe: "Only activities after this sequence (default 0: from the first)",
              coerce: integerIn("after", 0, 1_000_000_000),
            })
            .option("until-answer", {
              type: "boolean",
              describe: "Exit once a person answers (a message, an approval or a rejection) after --after",
            })
            .option("interval", {
              type: "number",
              default: 2,
              describe: "Seconds between polls (1..60)",
              coerce: integerIn("interval", 1, 60),
            })
            .epilogue(WATCH_EPILOGUE),
        async (args, context) => {
          const controller = new AbortController();
          const stop = () => controller.abort();
          process.on("SIGINT", stop);
          process.on("SIGTERM", stop);
          try {
            await runWatch(
              context.client("agent"),
              {
                dispatchId: args.dispatch,
                after: args.after,
                untilAnswer: args.untilAnswer === true,
                readsDispatch: !context.usesDispatchToken,
                intervalMs: args.interval * 1000,
              },
              context.output,
              controller.signal,
            );
          } finally {
            process.off("SIGINT", stop);
            process.off("SIGTERM", stop);
          }
          return EXIT.ok;
        },
      ),
    )
    .command(
      ...define(
        ...COMMANDS.answer,
        (y) =>
          y
            .positional("dispatch", DISPATCH)
            .positional("text", { type: "string", demandOption: true, describe: "Your answer, or - for stdin" })
            .epilogue(
              `A dispatch waiting for input works again with a fresh lease; on an active one the message is there for its agent to read.\n${PERSON_NOTE}`,
            ),
        async (args, context) => {
          const { data } = await personClient(context).POST("/api/dispatch/{id}/messages", {
            params: { path: { id: args.dispatch } },
            body: { body: textOf(args.text) },
          });
          emit(context.output, data?.data, (message) =>
            message
              ? `Sent message ${message.sequence} to ${message.dispatchId}: its agent reads it with its activities`
              : "",
          );
          return EXIT.ok;
        },
      ),
    )
    .command(
      ...define(
        ...COMMANDS.approve,
        (y) =>
          y
            .positional("dispatch", DISPATCH)
            .option("comment", { type: "string", describe: "What the agent should know (default: Plan approved.)" })
            .epilogue(`409 when the dispatch does not wait for approval.\n${PERSON_NOTE}`),
        async (args, context) => {
          const { data } = await personClient(context).POST("/api/dispatch/{id}/approve", {
            params: { path: { id: args.dispatch } },
            body: args.comment === undefined ? {} : { comment: args.comment },
          });
          emit(context.output, data?.data, (decision) => (decision ? decisionLine("approve", decision) : ""));
          return EXIT.ok;
        },
      ),
    )
    .command(
      ...define(
        ...COMMANDS.reject,
        (y) =>
          y
            .positional("dispatch", DISPATCH)
            .positional("feedback", {
              type: "string",
              demandOption: true,
              describe: "What to change in the plan, or - for stdin",
            })
            .epilogue(`409 when the dispatch does not wait for approval.\n${PERSON_NOTE}`),
        async (args, context) => {
          const { data } = await personClient(context).POST("/api/dispatch/{id}/reject", {
            params: { path: { id: args.dispatch } },
            body: { feedback: textOf(args.feedback) },
          });
          emit(context.output, data?.data, (decision) => (decision ? decisionLine("reject", decision) : ""));
          return EXIT.ok;
        },
      ),
    )
    .command(
      ...define(
        ...COMMANDS.stop,
        (y) =>
          y
            .positional("dispatch", DISPATCH)
            .positional("reason", {
              type: "string",
              demandOption: true,
              describe: "Why (1..500 characters): its agent's next call answers 409 with it",
            })
            .option("then", {
              type: "string",
              choices: STOP_THEN,
              default: "todo",
              describe: "Where its issue goes: todo (claimable again), backlog or canceled",
            })
            .epilogue(`409 when the dispatch has already ended.\n${PERSON_NOTE}`),
        async (args, context) => {
          const { data } = await personClient(context).POST("/api/dispatch/{id}/stop", {
            params: { path: { id: args.dispatch } },
            // biome-ignore lint/suspicious/noThenProperty: the API names the field `then` (docs/api.md#stopping-a-dispatch).
            body: { reason: args.reason, then: args.then as (typeof STOP_THEN)[number] },
          });
          emit(context.output, data?.data, (result) => (result ? stoppedLine(result) : ""));
          return EXIT.ok;
        },
      ),
    );
}
