/**
 * @module templates/experiment-endings — how a running experiment ends (docs/api.md#experiments):
 * {@link ExperimentEndings.settle} applies the rule after a dispatch of an arm ends or a review of
 * one of its prompts arrives, and {@link ExperimentEndings.prepareEndFor} ends it within a change
 * made by hand to its template. A decision ends the experiment in one transaction with its effects
 * (the promotion, or the template freed), under a condition on the experiment's status, so
 * concurrent finishes decide once. Apart from ./experiment-service.ts (start, list, stop), so the
 * functions that only finish dispatches and take reviews carry only this.
 */
import { ConditionFailedError, type TransactItem } from "../db/db.js";
import { retryRaces } from "../db/retry.js";
import { type ArmFigures, armFigures, verdict } from "./experiment-figures.js";
import type { ExperimentStore, StoredExperiment } from "./experiment-store.js";
import type { Experiment, ExperimentDecision, ExperimentStatus } from "./schemas.js";
import type { StoredTemplate } from "./template-item.js";
import type { TemplateStore } from "./template-store.js";

/** Index of the experiment's own write in an ending transaction: its failed condition means it ended already. */
export const EXPERIMENT_INDEX = 0;

/** An experiment's status once it ended, and why. */
export interface ExperimentEnding {
  status: Exclude<ExperimentStatus, "running">;
  reason: string;
}

export class ExperimentEndings {
  constructor(
    private readonly templates: TemplateStore,
    private readonly store: ExperimentStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Applies the rule of docs/api.md#experiments to experiment `experimentId` of template `templateId` as its
   * counts stand: a candidate that wins is promoted in the same transaction (`autoPromote`) or
   * marked `winner`, one that loses is marked `loser`; the template's split ends either way. The
   * experiment's status must still be `running` for the transaction to hold, so of concurrent
   * settles one decides. Called after a dispatch of the experiment ends or one of its prompts is
   * reviewed; answers the status the experiment has afterwards.
   */
  async settle(templateId: string, experimentId: string): Promise<ExperimentStatus | undefined> {
    return retryRaces(
      async () => {
        const found = await this.store.get(templateId, experimentId);
        if (found?.record.status !== "running") return found?.record.status;
        const { control, candidate } = arms(found);
        const said = verdict(candidate, control, found.record.minSamples);
        if (!said.decided) return "running";
        const current = await this.templates.get(templateId);
        if (!current || current.deleted || current.experiment?.id !== experimentId) return "running";
        const status = said.outcome === "winner" && found.record.autoPromote ? "promoted" : said.outcome;
        const decision = endingDecision(found, status, said.reason, this.now());
        const writes: TransactItem[] = [this.store.prepareEnd(found.record, status, decision)];
        if (status === "promoted") {
          const target = await this.templates.getVersion(templateId, found.record.candidateVersionNumber);
          if (!target) return "running";
          writes.push(
            ...this.templates.preparePromotion(
              current,
              target.version,
              new Date(decision.decidedAt),
              current.activeVersionNumber ?? undefined,
              null,
            ),
          );
        } else {
          writes.push(
            ...this.templates.prepareUpdate(
              current,
              { ...current.template, updatedAt: decision.decidedAt },
              { experiment: null },
            ).writes,
          );
        }
        try {
          await this.templates.transact(writes);
        } catch (error) {
          if (error instanceof ConditionFailedError && error.reasons[EXPERIMENT_INDEX] === "ConditionalCheckFailed") {
            // Another settle (or a stop) ended it first.
            return (await this.store.get(templateId, experimentId))?.record.status;
          }
          throw error;
        }
        return status;
      },
      { isRace: (error) => error.reasons[EXPERIMENT_INDEX] !== "ConditionalCheckFailed" },
    );
  }

  /**
   * The write that ends `current`'s running experiment because its template changed by hand (a
   * version promoted, the template deleted), for that change's own transaction; the caller clears
   * the template's `experiment` itself. None when it runs none.
   */
  async prepareEndFor(current: StoredTemplate, ending: ExperimentEnding): Promise<TransactItem[]> {
    if (!current.experiment) return [];
    const found = await this.store.get(current.template.id, current.experiment.id);
    if (found?.record.status !== "running") return [];
    return [
      this.store.prepareEnd(
        found.record,
        ending.status,
        endingDecision(found, ending.status, ending.reason, this.now()),
      ),
    ];
  }
}

/** The decision that ends `found` with `outcome` at `now`, with the figures it was taken on. */
export function endingDecision(
  found: StoredExperiment,
  outcome: ExperimentDecision["outcome"],
  reason: string,
  now: Date,
): ExperimentDecision {
  return { outcome, reason, decidedAt: now.toISOString(), arms: armsView(found) };
}

function arms(found: StoredExperiment): { control: ArmFigures; candidate: ArmFigures } {
  return { control: armFigures(found.counts.control), candidate: armFigures(found.counts.candidate) };
}

export function armsView(found: StoredExperiment): Experiment["arms"] {
  const { control, candidate } = arms(found);
  const { record } = found;
  return {
    control: { versionId: record.controlVersionId, versionNumber: record.controlVersionNumber, ...control },
    candidate: { versionId: record.candidateVersionId, versionNumber: record.candidateVersionNumber, ...candidate },
  };
}
