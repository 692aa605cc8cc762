/**
 * @module templates/template-seeding — the default templates seeded once per table: a lease that
 * one instance holds while it seeds, and a mark per seeded slug so none is seeded twice. The
 * templates themselves are written by ./template-store.ts, in the mark's transaction.
 */
import { ConditionFailedError, type Db, type TransactItem, TransactionConflictError } from "../db/db.js";
import { entityOf } from "../db/item-kinds.js";
import { partialSeedKey, seedingKey, seedKey } from "./keys.js";
import { itemAbsent } from "./template-writes.js";

export class TemplateSeeding {
  constructor(private readonly db: Db) {}

  /** The marker that a default template was seeded, so it is seeded once and never again. */
  mark(slug: string, templateId: string): TransactItem {
    return {
      Put: {
        Item: { ...seedKey(slug), entity: entityOf("templateseed"), templateId },
        ConditionExpression: itemAbsent,
      },
    };
  }
  /** The marker that a default partial was seeded (docs/api.md#partials), so it is seeded once. */
  markPartial(name: string): TransactItem {
    return {
      Put: {
        Item: { ...partialSeedKey(name), entity: entityOf("templateseed"), partial: name },
        ConditionExpression: itemAbsent,
      },
    };
  }
  /**
   * Takes the seeding of the default templates for `holder` until `until` (epoch ms): true when it
   * is free (or held by `holder`, or its holder's time ran out), false when another holds it.
   */
  async reserve(holder: string, until: number): Promise<boolean> {
    try {
      await this.db.put({
        Item: { ...seedingKey(), entity: entityOf("templateseedlock"), holder, until },
        ConditionExpression: "attribute_not_exists(pk) OR #holder = :holder OR #until < :now",
        ExpressionAttributeNames: { "#holder": "holder", "#until": "until" },
        ExpressionAttributeValues: { ":holder": holder, ":now": Date.now() },
      });
      return true;
    } catch (error) {
      if (error instanceof ConditionFailedError || error instanceof TransactionConflictError) return false;
      throw error;
    }
  }
  /** Gives up `holder`'s seeding once it is done (or failed), so a waiting instance need not wait for its time to run out. */
  async release(holder: string): Promise<void> {
    try {
      await this.db.delete(seedingKey(), {
        ConditionExpression: "#holder = :holder",
        ExpressionAttributeNames: { "#holder": "holder" },
        ExpressionAttributeValues: { ":holder": holder },
      });
    } catch (error) {
      // Taken over after its time ran out: the item is the new holder's.
      if (!(error instanceof ConditionFailedError)) throw error;
    }
  }
  /** The slugs of `slugs` that were seeded already: one read. */
  async seeded(slugs: readonly string[]): Promise<Set<string>> {
    const marks = await this.db.batchGet(
      slugs.map((slug) => seedKey(slug)),
      { consistent: true },
    );
    return new Set(marks.map((mark) => String(mark.pk).slice(seedKey("").pk.length)));
  }
}
