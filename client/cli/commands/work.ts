/**
 * @module client/cli/commands/work — an agent's loop: `kaizen next` (claim), `heartbeat`,
 * `comment`, `review`, `complete` and `release`. All but `next` send `KAIZEN_DISPATCH_TOKEN` when
 * it is set, so an agent needs no service key once it holds a dispatch.
 */
import { readFileSync } from "node:fs";
import type { Argv } from "yargs";
import { ACTIVITY_TYPES, type ActivityType } from "../../../core/src/dispatch/activity-values.js";
import { ISSUE_TYPES } from "../../../core/src/issues/issue-values.js";
import { claimStopped, type Schema, stoppedReason } from "../../client.js";
import type { Define } from "../command.js";
import { COMMANDS } from "../command-index.js";
import { integerIn, parseCommit, parsePullRequest, resolveProjectId, usageOf, withUsage } from "../options.js";
import { emit, formatFields, paint, priorityLabel } from "../output.js";
import { type CommandContext, defaultAgentName, EXIT } from "../runtime.js";

/** Shown by `kaizen next --help`: what its exit statuses mean. */
export const NEXT_EPILOGUE = [
  "Exit status: 0 claimed (the prompt and the dispatch token are printed), 3 nothing is eligible",
  "(the API's 204; with --json stdout is `null`; also when the projects of the issues left spent their",
  "daily cost budget: said on stdout, or on stderr with --json), 4 you hold as many of a project's",
  "dispatches as its limits.maxActivePerAgent allows (the API's 429: finish one, or try again after the",
  "seconds it names), 1 another API error, 2 a usage error.",
  "Then work with the token: export KAIZEN_DISPATCH_TOKEN=<token>; kaizen heartbeat|comment|review|complete|release.",
].join("\n");

/**
 * A claim as `next` prints it: the prompt's text, then the dispatch, its lease and token, and the
 * commands to report with.
 * @example formatClaim(claim, false)
 */
export function formatClaim(claim: Schema<"ClaimResult">, colour: boolean): string {
  const { dispatch, issue, prompt } = claim;
  const header = paint(colour, "bold", `Claimed ${issue.identifier}: ${issue.title}`);
  const fields = formatFields(
    [
      ["issue", `${issue.identifier} (${issue.id}), ${issue.type}, ${priorityLabel(issue.priority)}`],
      ["dispatch", dispatch.id],
      ["prompt", prompt?.id ?? null],
      ["attempt", dispatch.attempt],
      ["lease", `${dispatch.leaseSeconds} s, until ${dispatch.leaseExpiresAt}`],
      ["token", dispatch.token, "yellow"],
    ],
    colour,
  );
  const next = [
    `export KAIZEN_DISPATCH_TOKEN=${dispatch.token}`,
    `kaizen heartbeat ${dispatch.id}            # within ${dispatch.leaseSeconds} s, and again while working`,
    `kaizen comment ${issue.identifier} "what you found"`,
    ...(prompt ? [`kaizen review ${prompt.id} --clarity 4 --completeness 4 --relevance 5`] : []),
    `kaizen complete ${dispatch.id} --result done --summary "what changed and how it was verified"`,
  ];
  const body = prompt ? prompt.text : "(No prompt template matches this issue: work from the issue itself.)";
  return [body.trimEnd(), "", "---", header, fields, "", paint(colour, "dim", next.join("\n"))].join("\n");
}

/** The author of comments and reviews: an agent when it works with a dispatch token, unless told. */
function authorFlags<T>(y: Argv<T>) {
  return y
    .option("author", { type: "string", describe: "Author name (default: KAIZEN_AGENT, else user@host)" })
    .option("author-type", {
      type: "string",
      choices: ["human", "agent"] as const,
      describe: "Author type (default: agent with KAIZEN_DISPATCH_TOKEN set, else human)",
    });
}

function author(args: { author?: string | undefined; authorType?: string | undefined }, context: CommandContext) {
  return {
    authorName: args.author ?? defaultAgentName(context.io.env),
    authorType: (args.authorType ?? (context.usesDispatchToken ? "agent" : "human")) as "human" | "agent",
  };
}

/** A dispatch's end as one line: what became of it and of its issue. */
function endedLine(verb: string, result: Schema<"DispatchWithIssue">): string {
  const issue = result.issue ? `; ${result.issue.identifier} is ${result.issue.status}` : "";
  return `${verb} ${result.dispatch.id} (${result.dispatch.status})${issue}`;
}

const TOKEN_NOTE =
  "Sends KAIZEN_DISPATCH_TOKEN when it is set (the claim's token works for its own dispatch, issue and prompt), else the API key.";

/** Shown by the commands that report usage. */
const USAGE_NOTE =
  "Usage figures are running totals for the dispatch (a lower one than already reported is ignored). A cost past the " +
  "dispatch's costBudgetUsd stops it: the API answers 409 Dispatch was stopped, and so does every later call with the token.";

/**
 * A heartbeat's answer as one line: the new end of the lease, or, on a waiting dispatch, what it
 * waits for (its lease stays paused).
 * @example heartbeatLine(dispatch) // "Lease of dsp_… extended until 2026-11-25T14:35:00.000Z"
 */
export function heartbeatLine(dispatch: Schema<"Dispatch">): string {
  if (dispatch.status === "waiting") {
    const what = dispatch.waitingFor === "approval" ? "a person's approval of its plan" : "a person's answer";
    return `${dispatch.id} waits for ${what}: its lease stays paused (until ${dispatch.leaseExpiresAt} at the latest)`;
  }
  return `Lease of ${dispatch.id} extended until ${dispatch.leaseExpiresAt}`;
}

/**
 * A posted activity as one line; a question or a plan says how to wait for the person's answer.
 * @example activityRecorded(activity) // "Activity 3 of dsp_… recorded (action)"
 */
export function activityRecorded(activity: Schema<"Activity">): string {
  const line = `Activity ${activity.sequence} of ${activity.dispatchId} recorded (${activity.type})`;
  const wait = `kaizen watch ${activity.dispatchId} --after ${activity.sequence} --until-answer`;
  if (activity.type === "elicitation") return `${line}: the dispatch waits for a person's answer; ${wait} waits for it`;
  if (activity.type === "plan") {
    return `${line}: on a project with plan approval the dispatch waits for a person's approval; ${wait} waits for it`;
  }
  return line;
}

/** Registers `next`, `heartbeat`, `activity`, `complete`, `release`, `review` and `comment`. */
export function registerWork(yargs: Argv, define: Define): Argv {
  return yargs
    .command(
      ...define(
        ...COMMANDS.next,
        (y) =>
          y
            .option("agent", { type: "string", describe: "Who claims (default: KAIZEN_AGENT, else user@host)" })
            .option("project", {
              type: "string",
              describe: "Only this project's issues (prj_… or name; default: KAIZEN_PROJECT)",
            })
            .option("types", { type: "string", array: true, choices: ISSUE_TYPES, describe: "Only these issue types" })
            .option("lease", {
              type: "number",
              describe: "Lease in seconds (60..7200, default 1800); each heartbeat renews it",
              coerce: integerIn("lease", 60, 7200),
            })
            .epilogue(NEXT_EPILOGUE),
        async (args, context) => {
          const { client, output, connection, io } = context;
          const kaizen = client("key");
          const project = args.project ?? connection.projectId;
          const { data, response } = await kaizen.POST("/api/dispatch/claim", {
            body: {
              agent: (args.agent ?? defaultAgentName(io.env)).slice(0, 100),
              projectId: project ? await resolveProjectId(kaizen, project) : undefined,
              types: args.types as (typeof ISSUE_TYPES)[number][] | undefined,
              leaseSeconds: args.lease,
            },
          });
          if (response.status === 204 || !data) {
            const stopped = claimStopped(response);
            const why = stopped ? stoppedReason(stopped) : "";
            if (output.json) {
              output.out("null");
              if (stopped) output.err(`kaizen: ${why}`);
            } else output.out(stopped ? why : "Nothing to claim: no issue in todo is eligible right now.");
            return EXIT.nothingToClaim;
          }
          emit(output, data.data, (claim) => formatClaim(claim, output.colour));
          return 0;
        },
      ),
    )
    .command(
      ...define(
        ...COMMANDS.heartbeat,
        (y) =>
          withUsage(
            y.positional("dispatch", { type: "string", demandOption: true, describe: "Dispatch id (dsp_…)" }),
          ).epilogue(`${TOKEN_NOTE}\n${USAGE_NOTE}`),
        async (args, { client, output }) => {
          const usage = usageOf(args);
          const { data } = await client("agent").POST("/api/dispatch/{id}/heartbeat", {
            params: { path: { id: args.dispatch } },
            ...(usage ? { body: { usage } } : {}),
          });
          emit(output, data?.data, (dispatch) => (dispatch ? heartbeatLine(dispatch) : ""));
          return 0;
        },
      ),
    )
    .command(
      ...define(
        ...COMMANDS.complete,
        (y) =>
          withUsage(
            y
              .positional("dispatch", { type: "string", demandOption: true, describe: "Dispatch id (dsp_…)" })
              .option("result", {
                type: "string",
                choices: ["done", "failed"] as const,
                demandOption: true,
                describe: "Outcome",
              })
              .option("summary", {
                type: "string",
                demandOption: true,
                describe: "What changed and how it was verified (or why it failed); @file reads a file",
              })
              .option("commit", {
                type: "string",
                array: true,
                describe: 'A commit: "<sha> [message]" (repeat for several)',
              })
              .option("pr", {
                type: "string",
                array: true,
                describe: 'A pull request: "<url ending in its number> [title]", or its number (repeat for several)',
              }),
          ).epilogue(`${TOKEN_NOTE}\n${USAGE_NOTE}`),
        async (args, { client, output }) => {
          const summary = args.summary.startsWith("@") ? readFileSync(args.summary.slice(1), "utf8") : args.summary;
          const commits = args.commit?.map(parseCommit);
          const pullRequests = args.pr?.map(parsePullRequest);
          const usage = usageOf(args);
          const { data } = await client("agent").POST("/api/dispatch/{id}/complete", {
            params: { path: { id: args.dispatch } },
            body: { result: args.result as "done" | "failed", summary, commits, pullRequests, usage },
          });
          emit(output, data?.data, (result) => (result ? endedLine("Completed", result) : ""));
          return 0;
        },
      ),
    )
    .command(
      ...define(
        ...COMMANDS.release,
        (y) =>
          y
            .positional("dispatch", { type: "string", demandOption: true, describe: "Dispatch id (dsp_…)" })
            .epilogue(TOKEN_NOTE),
        async (args, { client, output }) => {
          const { data } = await client("agent").POST("/api/dispatch/{id}/release", {
            params: { path: { id: args.dispatch } },
          });
          emit(output, data?.data, (result) => (result ? endedLine("Released", result) : ""));
          return 0;
        },
      ),
    )
    .command(
      ...define(
        ...COMMANDS.review,
        (y) =>
          authorFlags(
            y
              .positional("prompt", { type: "string", demandOption: true, describe: "Prompt id (prm_…)" })
              .option("clarity", {
                type: "number",
                demandOption: true,
                describe: "1..5",
                coerce: integerIn("clarity", 1, 5),
              })
              .option("completeness", {
                type: "number",
                demandOption: true,
                describe: "1..5",
                coerce: integerIn("completeness", 1, 5),
              })
              .option("relevance", {
                type: "number",
                demandOption: true,
                describe: "1..5",
                coerce: integerIn("relevance", 1, 5),
              })
              .option("feedback", { type: "string", describe: "What was unclear or missing" }),
          ).epilogue(`${TOKEN_NOTE} The token stops working when its dispatch ends: review before you complete.`),
        async (args, context) => {
          const { data } = await context.client("agent").POST("/api/prompts/{id}/reviews", {
            params: { path: { id: args.prompt } },
            body: {
              clarity: args.clarity,
              completeness: args.completeness,
              relevance: args.relevance,
              feedback: args.feedback,
              ...author(args, context),
            },
          });
          emit(context.output, data?.data, (review) =>
            review
              ? `Review ${review.id} recorded: ${review.composite?.toFixed(2) ?? review.state} for version ${review.versionNumber} of ${review.templateId}`
              : "",
          );
          return 0;
        },
      ),
    )
    .command(
      ...define(
        ...COMMANDS.activity,
        (y) =>
          withUsage(
            y
              .positional("dispatch", { type: "string", demandOption: true, describe: "dsp_…" })
              .positional("body", {
                type: "string",
                demandOption: true,
                describe: "What you did or found, or - for stdin",
              })
              .option("type", {
                type: "string",
                choices: ACTIVITY_TYPES,
                default: "action",
                describe:
                  "thought, action, response, error; elicitation: a question, the dispatch waits for a person's answer; plan: on a project with plan approval, it waits for a person's approval",
              }),
          ).epilogue(`${TOKEN_NOTE}\n${USAGE_NOTE}`),
        async (args, context) => {
          const body = args.body === "-" ? readFileSync(0, "utf8") : args.body;
          const usage = usageOf(args);
          const { data } = await context.client("agent").POST("/api/dispatch/{id}/activities", {
            params: { path: { id: args.dispatch } },
            body: { type: args.type as ActivityType, body, ...(usage ? { usage } : {}) },
          });
          emit(context.output, data?.data, (activity) => (activity ? activityRecorded(activity) : ""));
          return 0;
        },
      ),
    )
    .command(
      ...define(
        ...COMMANDS.comment,
        (y) =>
          authorFlags(
            y
              .positional("issue", { type: "string", demandOption: true, describe: "KZN-<n> or iss_…" })
              .positional("body", { type: "string", demandOption: true, describe: "Markdown text, or - for stdin" })
              .option("reply-to", { type: "string", describe: "The comment this one answers (cmt_…)" }),
          ).epilogue(TOKEN_NOTE),
        async (args, context) => {
          const body = args.body === "-" ? readFileSync(0, "utf8") : args.body;
          const { data } = await context.client("agent").POST("/api/issues/{id}/comments", {
            params: { path: { id: args.issue } },
            body: { body, parentId: args.replyTo, ...author(args, context) },
          });
          emit(context.output, data?.data, (comment) =>
            comment ? `Comment ${comment.id} added by ${comment.authorName} (${comment.authorType})` : "",
          );
          return 0;
        },
      ),
    );
}
