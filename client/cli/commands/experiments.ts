/**
 * @module client/cli/commands/experiments — `kaizen experiments start|list|show|stop`: experiments
 * between a template's active version and a candidate draft (docs/api.md#experiments), with both arms' figures
 * and their 95 % intervals, and what became of each arm's work (docs/api.md#outcomes).
 */
import type { Argv } from "yargs";
import { verdict } from "../../../core/src/templates/experiment-figures.js";
import type { KaizenClient, Schema } from "../../client.js";
import { costText, type ExperimentArm, rateText, scoreText } from "../../measures.js";
import type { Define } from "../command.js";
import { COMMANDS } from "../command-index.js";
import { integerIn, withPaging } from "../options.js";
import { type Column, emit, formatFields, formatTable, paint, section, shortTime, statusStyle } from "../output.js";
import { EXIT, UsageError } from "../runtime.js";

type Experiment = Schema<"Experiment">;

/** `ver_…` as it is, or a version number (`2`, `v2`). */
const VERSION_NUMBER = /^v?([1-9][0-9]*)$/i;

/**
 * The version `--candidate` names: a `ver_…` id is used as it is (the API checks it); a number is
 * looked up among the template's versions, as people know them by number.
 * @example await resolveCandidate(kaizen, "exp-task", "2") // "ver_01J…"
 */
export async function resolveCandidate(kaizen: KaizenClient, template: string, reference: string): Promise<string> {
  if (/^ver_/.test(reference)) return reference;
  const number = VERSION_NUMBER.exec(reference.trim())?.[1];
  if (!number) throw new UsageError(`--candidate must be a version id (ver_…) or a version number (got ${reference})`);
  for (let page = 1; ; page++) {
    const { data } = await kaizen.GET("/api/templates/{id}/versions", {
      params: { path: { id: template }, query: { page, limit: 100 } },
    });
    const versions = data?.data ?? [];
    const found = versions.find((version) => version.version === Number(number));
    if (found) return found.id;
    if (versions.length < 100 || page * 100 >= (data?.total ?? 0)) {
      throw new UsageError(`Template ${template} has no version ${number} (kaizen templates show ${template})`);
    }
  }
}

/** The arms as table rows, control first. */
function armRows(arms: Experiment["arms"]): [string, ExperimentArm][] {
  return [
    ["control", arms.control],
    ["candidate", arms.candidate],
  ];
}

/** The first column of both arms' tables. */
const ARM_COLUMN: Column<[string, ExperimentArm]> = { header: "ARM", value: ([name]) => name, style: () => "bold" };

/** Both arms side by side: what was claimed and finished, completion rate, review score and cost with intervals. */
export function formatArms(arms: Experiment["arms"], colour: boolean): string {
  return formatTable<[string, ExperimentArm]>(
    [
      ARM_COLUMN,
      { header: "VERSION", value: ([, arm]) => `v${arm.versionNumber}` },
      { header: "CLAIMS", value: ([, arm]) => String(arm.claims), align: "right" },
      { header: "FINISHED", value: ([, arm]) => String(arm.finished), align: "right" },
      { header: "DONE", value: ([, arm]) => String(arm.completions), align: "right" },
      { header: "COMPLETION RATE", value: ([, arm]) => rateText(arm.completionRate) },
      { header: "REVIEWS", value: ([, arm]) => String(arm.reviews), align: "right" },
      { header: "REVIEW SCORE", value: ([, arm]) => scoreText(arm.reviewScore) },
      { header: "MEAN COST", value: ([, arm]) => costText(arm.costUsd) },
    ],
    armRows(arms),
    colour,
  );
}

/**
 * What became of each arm's completed work (docs/api.md#outcomes): merged, sent back by review,
 * regressed within its watch, verified, and the verified rate with its interval.
 */
export function formatArmOutcomes(arms: Experiment["arms"], colour: boolean): string {
  return formatTable<[string, ExperimentArm]>(
    [
      ARM_COLUMN,
      { header: "MERGED", value: ([, arm]) => String(arm.merged), align: "right" },
      { header: "REWORKED", value: ([, arm]) => String(arm.reworked), align: "right" },
      { header: "REGRESSED", value: ([, arm]) => String(arm.regressed), align: "right" },
      { header: "VERIFIED", value: ([, arm]) => String(arm.verified), align: "right" },
      { header: "VERIFIED RATE", value: ([, arm]) => rateText(arm.verifiedRate) },
    ],
    armRows(arms),
    colour,
  );
}

/** What the decision rule says of a running experiment's figures now (a running one has no decision yet). */
function ruleNow(experiment: Experiment): string {
  return verdict(experiment.arms.candidate, experiment.arms.control, experiment.minSamples).reason;
}

/**
 * An experiment as `show` prints it: its setting, its status and the decision's reason (or what the
 * rule says now while it runs), then both arms' figures and what became of their work.
 */
export function formatExperiment(experiment: Experiment, colour: boolean): string {
  const { control, candidate } = experiment.arms;
  const decision = experiment.decision;
  const header = `${paint(colour, "bold", `Experiment ${experiment.id}`)}  ${paint(colour, statusStyle(experiment.status), experiment.status)}`;
  const fields = formatFields(
    [
      ["candidate", `v${candidate.versionNumber} (${candidate.versionId}), ${experiment.trafficPercent} % of claims`],
      ["control", `v${control.versionNumber} (${control.versionId})`],
      ["min samples", `${experiment.minSamples} finished dispatches in each arm`],
      ["auto-promote", experiment.autoPromote ? "yes: a winner becomes the active version" : "no: a winner is marked"],
      ["started", shortTime(experiment.createdAt)],
      ["ended", experiment.endedAt ? shortTime(experiment.endedAt) : undefined],
      [
        "decision",
        decision ? `${decision.outcome} (${shortTime(decision.decidedAt)}): ${decision.reason}` : undefined,
        statusStyle(decision?.outcome),
      ],
      ["rule now", experiment.status === "running" ? ruleNow(experiment) : undefined],
    ],
    colour,
  );
  return [
    header,
    fields,
    section("Arms (95 % intervals)", formatArms(experiment.arms, colour), colour),
    section("Outcomes", formatArmOutcomes(experiment.arms, colour), colour),
  ].join("\n");
}

/** Experiments as `list` prints them, newest first. */
function formatExperimentList(experiments: Experiment[], colour: boolean): string {
  return formatTable(
    [
      { header: "ID", value: (e: Experiment) => e.id },
      { header: "STATUS", value: (e) => e.status, style: (e) => statusStyle(e.status) },
      {
        header: "CANDIDATE",
        value: (e) => `v${e.arms.candidate.versionNumber}, ${e.arms.candidate.finished} finished`,
      },
      { header: "CONTROL", value: (e) => `v${e.arms.control.versionNumber}, ${e.arms.control.finished} finished` },
      { header: "TRAFFIC", value: (e) => `${e.trafficPercent} %`, align: "right" },
      { header: "MIN SAMPLES", value: (e) => String(e.minSamples), align: "right" },
      { header: "STARTED", value: (e) => shortTime(e.createdAt) },
      { header: "DECISION", value: (e) => e.decision?.reason ?? "-", max: 70 },
    ],
    experiments,
    colour,
  );
}

/** The experiment `show` picks without an id: the running one, else the latest. */
async function currentExperiment(kaizen: KaizenClient, template: string): Promise<Experiment | undefined> {
  const { data } = await kaizen.GET("/api/templates/{id}/experiments", {
    params: { path: { id: template }, query: { limit: 100 } },
  });
  const experiments = data?.data ?? [];
  return experiments.find((experiment) => experiment.status === "running") ?? experiments[0];
}

const templatePositional = <T>(y: Argv<T>) =>
  y.positional("template", { type: "string", demandOption: true, describe: "Template id (tpl_…) or slug" });

/** Registers `kaizen experiments …`. */
export function registerExperiments(yargs: Argv, define: Define): Argv {
  return yargs.command(...COMMANDS.experiments, (y) =>
    y
      .command(
        ...define(
          "start <template>",
          "Start an experiment: the candidate draft takes a share of the template's claims",
          (y) =>
            templatePositional(y)
              .option("candidate", {
                type: "string",
                demandOption: true,
                describe: "The draft to try: its id (ver_…) or its version number (2 or v2)",
              })
              .option("traffic", {
                type: "number",
                demandOption: true,
                describe: "Percent of the template's claims the candidate takes (the API allows 1..50)",
                coerce: integerIn("traffic", 1, 100),
              })
              .option("min-samples", {
                type: "number",
                describe: "Finished dispatches each arm needs before a decision (API default 20)",
                coerce: integerIn("min-samples", 1, 1_000_000),
              })
              .option("auto-promote", {
                type: "boolean",
                default: true,
                describe: "Promote a winning candidate (--no-auto-promote only marks it winner)",
              }),
          async (args, { client, output }) => {
            const kaizen = client("key");
            const candidateVersionId = await resolveCandidate(kaizen, args.template, args.candidate);
            const { data } = await kaizen.POST("/api/templates/{id}/experiments", {
              params: { path: { id: args.template } },
              body: {
                candidateVersionId,
                trafficPercent: args.traffic,
                ...(args.minSamples === undefined ? {} : { minSamples: args.minSamples }),
                autoPromote: args.autoPromote,
              },
            });
            emit(output, data?.data, (experiment) => {
              if (!experiment) return "";
              const { candidate, control } = experiment.arms;
              return [
                `Started experiment ${experiment.id}: v${candidate.versionNumber} takes ${experiment.trafficPercent} % of ${args.template}'s claims, v${control.versionNumber} the rest.`,
                `It decides once each arm has ${experiment.minSamples} finished dispatches; a winner is ${experiment.autoPromote ? "promoted" : "marked winner"}.`,
                `Watch it: kaizen experiments show ${args.template}`,
              ].join("\n");
            });
            return EXIT.ok;
          },
        ),
      )
      .command(
        ...define(
          "list <template>",
          "List a template's experiments, newest first",
          (y) => withPaging(templatePositional(y)),
          async (args, { client, output }) => {
            const { data } = await client("key").GET("/api/templates/{id}/experiments", {
              params: { path: { id: args.template }, query: { page: args.page, limit: args.limit } },
            });
            const page = data ?? { data: [], total: 0 };
            emit(output, page.data, (experiments) =>
              experiments.length > 0
                ? formatExperimentList(experiments, output.colour)
                : `Template ${args.template} has run no experiment.`,
            );
            return EXIT.ok;
          },
        ),
      )
      .command(
        ...define(
          "show <template> [experiment]",
          "Show an experiment's arms, status and decision (default: the running one, else the latest)",
          (y) =>
            templatePositional(y).positional("experiment", {
              type: "string",
              describe: "Experiment id (exp_…)",
            }),
          async (args, { client, output }) => {
            const kaizen = client("key");
            const experiment = args.experiment
              ? (
                  await kaizen.GET("/api/templates/{id}/experiments/{experimentId}", {
                    params: { path: { id: args.template, experimentId: args.experiment } },
                  })
                ).data?.data
              : await currentExperiment(kaizen, args.template);
            if (!experiment) {
              output.err(
                `kaizen: template ${args.template} has run no experiment (kaizen experiments start ${args.template} --candidate <version> --traffic <percent>)`,
              );
              return EXIT.apiError;
            }
            emit(output, experiment, (shown) => formatExperiment(shown, output.colour));
            return EXIT.ok;
          },
        ),
      )
      .command(
        ...define(
          "stop <template> <experiment>",
          "Stop a running experiment: the active version takes every claim again",
          (y) =>
            templatePositional(y).positional("experiment", {
              type: "string",
              demandOption: true,
              describe: "Experiment id (exp_…)",
            }),
          async (args, { client, output }) => {
            const { data } = await client("key").DELETE("/api/templates/{id}/experiments/{experimentId}", {
              params: { path: { id: args.template, experimentId: args.experiment } },
            });
            emit(output, data?.data, (experiment) =>
              experiment
                ? `Stopped experiment ${experiment.id}: v${experiment.arms.control.versionNumber} takes every claim again; v${experiment.arms.candidate.versionNumber} stays a draft.`
                : "",
            );
            return EXIT.ok;
          },
        ),
      )
      .demandCommand(1, "Which experiments command? (start, list, show, stop)"),
  );
}
