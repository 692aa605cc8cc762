/**
 * @module templates/experiment-service — experiments between a template's active version and a candidate
 * draft (docs/api.md#experiments): start, list, read, stop. Starting one marks the template (its listing entry
 * carries the running experiment, so claims choose an issue's arm without another read:
 * ./prompt-renderer.ts). Claims, finished dispatches and reviews count toward their arm in their own
 * transactions (./experiment-counts.ts); how an experiment ends, by the rule or with its template,
 * is ./experiment-endings.ts.
 */
import { ConditionFailedError } from "../db/db.js";
import { retryRaces } from "../db/retry.js";
import { ConflictError, NotFoundError, PreconditionFailedError } from "../errors.js";
import { checkVersion, type ExpectedVersions } from "../http/conditional.js";
import { armsView, EXPERIMENT_INDEX, endingDecision } from "./experiment-endings.js";
import { NO_COUNTS } from "./experiment-figures.js";
import {
  type ExperimentRecord,
  type ExperimentStore,
  RUNNING_VERSION,
  type StoredExperiment,
} from "./experiment-store.js";
import { EXPERIMENT_ID, newExperimentId, VERSION_ID } from "./keys.js";
import { DEFAULT_MIN_SAMPLES, type Experiment, type StartExperimentBody } from "./schemas.js";
import type { RunningExperiment, StoredTemplate } from "./template-item.js";
import type { TemplateStore } from "./template-store.js";

/** An experiment as the API shows it, and its version (its `ETag`). */
export interface VersionedExperiment {
  experiment: Experiment;
  version: number;
}

export class ExperimentService {
  constructor(
    private readonly templates: TemplateStore,
    private readonly store: ExperimentStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Starts an experiment: `candidateVersionId` (a draft of the template) takes `trafficPercent` %
   * of its claims. 409 while another runs, without an active version, or for a candidate that is
   * not a draft.
   */
  async start(ref: string, input: StartExperimentBody): Promise<VersionedExperiment> {
    return retryRaces(
      async () => {
        const current = await this.template(ref);
        const { slug } = current.template;
        if (current.experiment) {
          throw new ConflictError(`Template ${slug} already runs experiment ${current.experiment.id}; stop it first`);
        }
        if (current.activeVersionNumber === null || current.template.activeVersionId === null) {
          throw new ConflictError(`Template ${slug} has no active version to compare a candidate with`);
        }
        const located = VERSION_ID.test(input.candidateVersionId)
          ? await this.templates.locateVersion(input.candidateVersionId)
          : undefined;
        const candidate =
          located?.templateId === current.template.id
            ? await this.templates.getVersion(current.template.id, located.number)
            : undefined;
        if (!candidate) throw new NotFoundError(`Version ${input.candidateVersionId} of template ${ref} not found`);
        if (candidate.version.status !== "draft") {
          throw new ConflictError(
            `Version ${candidate.version.version} of template ${slug} is ${candidate.version.status}; a candidate must be a draft`,
          );
        }
        const now = this.now();
        const { id, createdAt } = newExperimentId(now.getTime());
        const record: ExperimentRecord = {
          id,
          templateId: current.template.id,
          candidateVersionId: candidate.version.id,
          candidateVersionNumber: candidate.version.version,
          controlVersionId: current.template.activeVersionId,
          controlVersionNumber: current.activeVersionNumber,
          trafficPercent: input.trafficPercent,
          minSamples: input.minSamples ?? DEFAULT_MIN_SAMPLES,
          autoPromote: input.autoPromote ?? true,
          status: "running",
          createdAt,
          endedAt: null,
          decision: null,
        };
        const running: RunningExperiment = {
          id,
          candidateVersionId: record.candidateVersionId,
          candidateVersionNumber: record.candidateVersionNumber,
          trafficPercent: record.trafficPercent,
        };
        const { writes } = this.templates.prepareUpdate(
          current,
          { ...current.template, updatedAt: now.toISOString() },
          { experiment: running },
        );
        // The template's write first: its failed condition (changed meanwhile) is a lost race.
        await this.templates.transact([...writes, this.store.prepareStart(record)]);
        return versioned({ record, version: RUNNING_VERSION, counts: emptyCounts() });
      },
      { isRace: (error) => error.reasons[0] === "ConditionalCheckFailed" },
    );
  }

  /** A template's experiments, newest first, a page at a time. */
  async list(
    ref: string,
    page: { offset: number; limit: number },
  ): Promise<{ experiments: Experiment[]; total: number }> {
    const { template } = await this.template(ref);
    const all = await this.store.list(template.id);
    return { experiments: all.slice(page.offset, page.offset + page.limit).map(view), total: all.length };
  }

  async get(ref: string, experimentId: string): Promise<VersionedExperiment> {
    return versioned(await this.stored(ref, experimentId));
  }

  /**
   * Stops a running experiment (`DELETE`) if it is at a version `expected` lists (412 otherwise; any
   * version when undefined): the template goes back to its active version alone; 409 once it ended.
   */
  async stop(ref: string, experimentId: string, expected?: ExpectedVersions): Promise<VersionedExperiment> {
    return retryRaces(
      async () => {
        const found = await this.stored(ref, experimentId);
        checkVersion(expected, found.version);
        if (found.record.status !== "running") {
          throw new ConflictError(`Experiment ${experimentId} is ${found.record.status}`);
        }
        const current = await this.template(ref);
        const decision = endingDecision(found, "stopped", "stopped on request", this.now());
        const writes = [
          this.store.prepareEnd(found.record, "stopped", decision),
          ...(current.experiment?.id === experimentId
            ? this.templates.prepareUpdate(
                current,
                { ...current.template, updatedAt: decision.decidedAt },
                { experiment: null },
              ).writes
            : []),
        ];
        try {
          await this.templates.transact(writes);
        } catch (error) {
          // Decided meanwhile: it moved on from the version `If-Match` named (412), else it has ended (409).
          if (error instanceof ConditionFailedError && error.reasons[EXPERIMENT_INDEX] === "ConditionalCheckFailed") {
            if (expected !== undefined) throw new PreconditionFailedError();
            throw new ConflictError(`Experiment ${experimentId} ended meanwhile`);
          }
          throw error;
        }
        return versioned({
          ...found,
          record: { ...found.record, status: "stopped", endedAt: decision.decidedAt, decision },
          version: found.version + 1,
        });
      },
      { isRace: (error) => error.reasons[1] === "ConditionalCheckFailed" },
    );
  }

  private async template(ref: string): Promise<StoredTemplate> {
    const found = await this.templates.resolve(ref);
    if (!found) throw new NotFoundError(`Template ${ref} not found`);
    return found;
  }

  private async stored(ref: string, experimentId: string): Promise<StoredExperiment> {
    const { template } = await this.template(ref);
    const found = EXPERIMENT_ID.test(experimentId) ? await this.store.get(template.id, experimentId) : undefined;
    if (!found) throw new NotFoundError(`Experiment ${experimentId} of template ${ref} not found`);
    return found;
  }
}

function emptyCounts(): StoredExperiment["counts"] {
  return { control: { ...NO_COUNTS }, candidate: { ...NO_COUNTS } };
}

function versioned(found: StoredExperiment): VersionedExperiment {
  return { experiment: view(found), version: found.version };
}

/** An experiment as the API shows it: its record with its arms' figures now. */
function view(found: StoredExperiment): Experiment {
  const { candidateVersionNumber: _candidate, controlVersionNumber: _control, ...record } = found.record;
  return { ...record, arms: armsView(found) };
}
