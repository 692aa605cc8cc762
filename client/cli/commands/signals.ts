/**
 * @module client/cli/commands/signals — `kaizen signals send|list|show`: manual signals in (each
 * opens or joins an issue), and the record of every signal received.
 */
import type { Argv } from "yargs";
import { SIGNAL_ACTIONS } from "../../../core/src/signals/signal-actions.js";
import type { Schema } from "../../client.js";
import type { Define } from "../command.js";
import { COMMANDS } from "../command-index.js";
import { readJsonObject, resolveProjectId, withPaging } from "../options.js";
import { emit, formatFields, formatTable, pageFooter, section, shortTime, statusStyle } from "../output.js";

const SEVERITIES = ["low", "medium", "high", "critical"] as const;

/** What a manual signal did, in a line: the issue it opened, joined or closed. */
function ingestLine(result: Schema<"IngestResult">): string {
  const issue = result.issue;
  const where = issue ? `${issue.identifier} (${issue.status}) "${issue.title}"` : "no issue";
  const what = {
    opened: `opened ${where}`,
    grouped: `joined ${where}`,
    closed_loop: `closed the loop on ${where}`,
    review: `was kept as review feedback on ${where}`,
    regressed: `showed the merged fix of ${where} regressed`,
    recorded: "was recorded (no open issue to act on)",
  }[result.signal.action];
  return `${result.duplicate ? "Already received: signal" : "Signal"} ${result.signal.id} ${what}`;
}

/** Registers `kaizen signals …`. */
export function registerSignals(yargs: Argv, define: Define): Argv {
  return yargs.command(...COMMANDS.signals, (y) =>
    y
      .command(
        ...define(
          "send",
          "Send a manual signal: it opens an issue in triage, or joins the open one with its fingerprint",
          (y) =>
            y
              .option("source", {
                type: "string",
                demandOption: true,
                describe: "Where it comes from: 1..40 of a-z, 0-9, _ and - (not codehost, errortracker, analytics)",
              })
              .option("type", { type: "string", demandOption: true, describe: "What kind of event (e.g. alert.fired)" })
              .option("title", { type: "string", demandOption: true, describe: "Title of the issue it opens" })
              .option("severity", { type: "string", choices: SEVERITIES, default: "medium", describe: "Severity" })
              .option("fingerprint", {
                type: "string",
                describe: "Groups signals into one issue (default: from the title)",
              })
              .option("payload", { type: "string", describe: "A JSON object: inline, @file, or - for stdin" })
              .option("project", { type: "string", describe: "Project id (prj_…) or name" }),
          async (args, { client, output }) => {
            const kaizen = client("key");
            const payload = args.payload === undefined ? undefined : readJsonObject(args.payload, "payload");
            const projectId = args.project ? await resolveProjectId(kaizen, args.project) : undefined;
            const { data } = await kaizen.POST("/api/signals", {
              body: {
                source: args.source,
                type: args.type,
                title: args.title,
                severity: args.severity as (typeof SEVERITIES)[number],
                fingerprint: args.fingerprint,
                payload,
                projectId,
              },
            });
            emit(output, data?.data, (result) => (result ? ingestLine(result) : ""));
            return 0;
          },
        ),
      )
      .command(
        ...define(
          "list",
          "List received signals, newest first",
          (y) =>
            withPaging(y)
              .option("source", { type: "string", describe: "Only this source" })
              .option("type", { type: "string", describe: "Only this event type" })
              .option("severity", { type: "string", choices: SEVERITIES, describe: "Only this severity" })
              .option("issue", { type: "string", describe: "Only signals of this issue (iss_…)" })
              .option("action", { type: "string", choices: SIGNAL_ACTIONS, describe: "Only signals that did this" })
              .option("since", { type: "string", describe: "Only signals received at or after this ISO time" }),
          async (args, { client, output }) => {
            const { data } = await client("key").GET("/api/signals", {
              params: {
                query: {
                  page: args.page,
                  limit: args.limit,
                  source: args.source,
                  type: args.type,
                  severity: args.severity as (typeof SEVERITIES)[number] | undefined,
                  issueId: args.issue,
                  action: args.action as (typeof SIGNAL_ACTIONS)[number] | undefined,
                  since: args.since,
                },
              },
            });
            const page = data ?? { data: [], total: 0 };
            emit(output, page.data, (signals) => {
              const table = formatTable(
                [
                  { header: "SIGNAL", value: (s: Schema<"Signal">) => s.id },
                  { header: "RECEIVED", value: (s) => shortTime(s.receivedAt) },
                  { header: "SOURCE", value: (s) => s.source },
                  { header: "TYPE", value: (s) => s.type, max: 30 },
                  { header: "SEVERITY", value: (s) => s.severity, style: (s) => statusStyle(s.severity) },
                  { header: "ACTION", value: (s) => s.action },
                  { header: "TITLE", value: (s) => s.title, max: 60 },
                ],
                signals,
                output.colour,
              );
              const footer = pageFooter(signals.length, page.total, args.page ?? 1, args.limit ?? 20, "signals");
              return signals.length > 0 ? `${table}\n${footer}` : footer;
            });
            return 0;
          },
        ),
      )
      .command(
        ...define(
          "show <signal>",
          "Show a signal with its whole payload",
          (y) => y.positional("signal", { type: "string", demandOption: true, describe: "Signal id (sig_…)" }),
          async (args, { client, output }) => {
            const { data } = await client("key").GET("/api/signals/{id}", { params: { path: { id: args.signal } } });
            emit(output, data?.data, (signal) =>
              signal
                ? [
                    signal.title,
                    formatFields(
                      [
                        ["id", signal.id],
                        ["source", signal.source],
                        ["type", signal.type],
                        ["severity", signal.severity, statusStyle(signal.severity)],
                        ["action", signal.action],
                        ["issue", signal.issueId],
                        ["fingerprint", signal.fingerprint],
                        ["delivery", signal.deliveryId],
                        ["received", signal.receivedAt],
                      ],
                      output.colour,
                    ),
                    section("Payload", JSON.stringify(signal.payload ?? null, null, 2), output.colour),
                  ].join("\n")
                : "",
            );
            return 0;
          },
        ),
      )
      .demandCommand(1, "Which signals command? (send, list, show)"),
  );
}
