/**
 * @module templates/experiment-store — every DynamoDB expression about experiments: an experiment
 * written once when it starts, ended once (its status moves from `running` under a condition, so
 * of two decisions taken at once one holds), and read with the arm counts ./experiment-counts.ts
 * keeps beside it. Keys: ./keys.ts. The template's side (its running experiment) is ./template-store.ts.
 * An experiment's version (its `ETag`, docs/api.md#concurrency-and-idempotency) is 1 while it runs
 * and 2 once it ended: its record changes once; its counts are kept beside it.
 */
import type { Db, Item, TransactItem } from "../db/db.js";
import { entityOf } from "../db/item-kinds.js";
import { sumSpreadCounts } from "../db/spread.js";
import { type ArmCounts, NO_COUNTS } from "./experiment-figures.js";
import {
  type ArmCount,
  armCountOfSortKey,
  EXPERIMENT_SORT_PREFIX,
  type ExperimentArm,
  experimentIdOfSortKey,
  experimentKey,
  templateKey,
} from "./keys.js";
import type { ExperimentDecision, ExperimentStatus } from "./schemas.js";

/** An experiment as stored, without the figures its counts give. */
export interface ExperimentRecord {
  id: string;
  templateId: string;
  candidateVersionId: string;
  candidateVersionNumber: number;
  controlVersionId: string;
  controlVersionNumber: number;
  trafficPercent: number;
  minSamples: number;
  autoPromote: boolean;
  status: ExperimentStatus;
  createdAt: string;
  endedAt: string | null;
  decision: ExperimentDecision | null;
}

/** An experiment with its version and its arms' counts. */
export interface StoredExperiment {
  record: ExperimentRecord;
  /** 1 while it runs, 2 once it ended. */
  version: number;
  counts: Record<ExperimentArm, ArmCounts>;
}

/** The version of an experiment that runs; ending it moves it to the next. */
export const RUNNING_VERSION = 1;

const RECORD_FIELDS = [
  "id",
  "templateId",
  "candidateVersionId",
  "candidateVersionNumber",
  "controlVersionId",
  "controlVersionNumber",
  "trafficPercent",
  "minSamples",
  "autoPromote",
  "status",
  "createdAt",
  "endedAt",
  "decision",
] as const satisfies readonly (keyof ExperimentRecord)[];

/** Where each stored count goes in {@link ArmCounts}. */
const COUNT_FIELDS: Record<ArmCount, keyof ArmCounts> = {
  claims: "claims",
  finished: "finished",
  completed: "completed",
  failed: "failed",
  merged: "merged",
  reworked: "reworked",
  regressed: "regressed",
  verified: "verified",
  reviews: "reviews",
  ratings: "ratings",
  "ratings-sq": "ratingsSquared",
  "cost-reports": "costReports",
  cost: "cost",
  "cost-sq": "costSquared",
};

// Named condition fragments.
/** The key is new. */
const itemAbsent = "attribute_not_exists(pk)";
/**
 * The experiment has not ended. Its record changes once, as it ends, so running is being at
 * {@link RUNNING_VERSION}: this is the condition on the version read, and it also holds for an
 * experiment stored before experiments had a version.
 */
const stillRunning = "#status = :running";

export class ExperimentStore {
  constructor(private readonly db: Db) {}

  /** The write that records a new experiment, running. */
  prepareStart(record: ExperimentRecord): TransactItem {
    return {
      Put: {
        Item: {
          ...experimentKey(record.templateId, record.id),
          entity: entityOf("experiment"),
          version: RUNNING_VERSION,
          ...record,
        },
        ConditionExpression: itemAbsent,
      },
    };
  }

  /**
   * The write that ends a running experiment with `status` and its decision: it holds only while
   * the experiment is running, so an experiment ends once whoever tries at the same time.
   */
  prepareEnd(record: ExperimentRecord, status: Exclude<ExperimentStatus, "running">, decision: ExperimentDecision) {
    return {
      Update: {
        Key: experimentKey(record.templateId, record.id),
        UpdateExpression: "SET #status = :status, #endedAt = :endedAt, #decision = :decision, #version = :ended",
        ConditionExpression: stillRunning,
        ExpressionAttributeNames: {
          "#status": "status",
          "#endedAt": "endedAt",
          "#decision": "decision",
          "#version": "version",
        },
        ExpressionAttributeValues: {
          ":status": status,
          ":endedAt": decision.decidedAt,
          ":decision": decision,
          ":running": "running",
          ":ended": RUNNING_VERSION + 1,
        },
      },
    } satisfies TransactItem;
  }

  /** One experiment with its counts: one query. */
  async get(templateId: string, experimentId: string): Promise<StoredExperiment | undefined> {
    const { sk } = experimentKey(templateId, experimentId);
    const items = await this.queryAll("pk = :pk AND sk BETWEEN :from AND :to", {
      ":pk": templateKey(templateId).pk,
      ":from": sk,
      ":to": `${sk}#~`,
    });
    return experimentsOf(items)[0];
  }

  /** Every experiment of a template with its counts, newest first: one query (a template runs them one at a time). */
  async list(templateId: string): Promise<StoredExperiment[]> {
    const items = await this.queryAll("pk = :pk AND begins_with(sk, :prefix)", {
      ":pk": templateKey(templateId).pk,
      ":prefix": EXPERIMENT_SORT_PREFIX,
    });
    return experimentsOf(items).reverse();
  }

  private queryAll(condition: string, values: Record<string, unknown>): Promise<Item[]> {
    return this.db.queryAll({
      KeyConditionExpression: condition,
      ExpressionAttributeValues: values,
      ConsistentRead: true,
    });
  }
}

/** Experiments from the items of their sort-key range (each item, then its counts), oldest first. */
function experimentsOf(items: Item[]): StoredExperiment[] {
  const byId = new Map<string, StoredExperiment>();
  const countItems = new Map<string, Item[]>();
  for (const item of items) {
    const sk = String(item.sk);
    const id = experimentIdOfSortKey(sk);
    if (armCountOfSortKey(sk) === undefined) {
      const record = recordOf(item);
      byId.set(id, {
        record,
        version: versionOf(item, record),
        counts: { control: { ...NO_COUNTS }, candidate: { ...NO_COUNTS } },
      });
    } else {
      countItems.set(id, [...(countItems.get(id) ?? []), item]);
    }
  }
  for (const [id, stored] of byId) {
    for (const { sk, total } of sumSpreadCounts(countItems.get(id) ?? [], "count")) {
      const named = armCountOfSortKey(sk);
      const field = named && COUNT_FIELDS[named.count];
      if (named && field && (named.arm === "control" || named.arm === "candidate")) {
        stored.counts[named.arm][field] = total;
      }
    }
  }
  return [...byId.values()];
}

/** An experiment's version: as stored, or, for one stored before experiments had one, by whether it still runs. */
function versionOf(item: Item, record: ExperimentRecord): number {
  if (item.version !== undefined) return Number(item.version);
  return record.status === "running" ? RUNNING_VERSION : RUNNING_VERSION + 1;
}

/** An experiment's record from its item (as this store wrote it), e.g. an image of the table's change stream. */
export function recordOf(item: Item): ExperimentRecord {
  // The item was written from an ExperimentRecord by this store.
  const record = Object.fromEntries(
    RECORD_FIELDS.map((field) => [field, item[field] ?? null]),
  ) as unknown as ExperimentRecord;
  return {
    ...record,
    candidateVersionNumber: Number(item.candidateVersionNumber),
    controlVersionNumber: Number(item.controlVersionNumber),
    trafficPercent: Number(item.trafficPercent),
    minSamples: Number(item.minSamples),
    autoPromote: item.autoPromote === true,
  };
}
