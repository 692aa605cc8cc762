/**
 * @module templates/partial-service — partial rules (docs/api.md#partials): unique names, content that
 * compiles and includes only partials that exist, no cycle, and no delete while an active or draft
 * version (or another partial) includes it.
 */
import { ConditionFailedError } from "../db/db.js";
import { retryRaces } from "../db/retry.js";
import { ConflictError, NotFoundError } from "../errors.js";
import { checkVersion, type ExpectedVersions } from "../http/conditional.js";
import { pageOffset } from "../http/pagination.js";
import { includedPartials, refuseCycle } from "./partial-includes.js";
import type { CreatePartialBody, PatchPartialBody, TemplatePartial } from "./partial-schemas.js";
import type { PartialStore, PartialUses, StoredPartial } from "./partial-store.js";
import { checkedContent } from "./render.js";
import type { PageQuery } from "./schemas.js";

/** Use records a delete removes with the partial; older ones stay (they name nothing that holds it). */
const MAX_USES_DELETED = 80;

export class PartialService {
  constructor(
    private readonly store: PartialStore,
    /** Seals the precompiled forms this service stores (the service key): only sealed ones are run. */
    private readonly sealSecret: string | undefined,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async get(name: string): Promise<StoredPartial> {
    const found = await this.store.get(name);
    if (!found) throw new NotFoundError(`Partial ${name} not found`);
    return found;
  }

  async list(query: PageQuery): Promise<{ partials: TemplatePartial[]; total: number }> {
    const { partials, total } = await this.store.list({ offset: pageOffset(query), limit: query.limit });
    return { partials: partials.map(({ partial }) => partial), total };
  }

  /** Creates a partial; a taken name is a 409, content that does not compile or names a missing partial a 400. */
  async create(input: CreatePartialBody): Promise<StoredPartial> {
    const { compiled, partials: references } = await checkedContent(input.content, this.sealSecret);
    const at = this.now().toISOString();
    const partial: TemplatePartial = {
      name: input.name,
      content: input.content,
      description: input.description ?? null,
      createdAt: at,
      updatedAt: at,
    };
    // A lost race is an included partial changed or deleted meanwhile: read them again.
    const nameTaken = (error: ConditionFailedError) => error.reasons[0] === "ConditionalCheckFailed";
    return retryRaces(
      async () => {
        const includes = await includedPartials(this.store, references);
        const walked = await refuseCycle(this.store, partial.name, includes);
        try {
          await this.store.transact([
            ...this.store.prepareCreate(partial, compiled, includes),
            ...this.store.prepareUnchanged(walked),
          ]);
        } catch (error) {
          if (error instanceof ConditionFailedError && nameTaken(error)) {
            throw new ConflictError(`Partial "${partial.name}" already exists`);
          }
          throw error;
        }
        return { partial, version: 1, uses: 0, includes: includes.map(named), compiled };
      },
      { isRace: (error) => !nameTaken(error) },
    );
  }

  /** Changes content and description under `If-Match`; the name is the partial's id and never changes. */
  async update(name: string, changes: PatchPartialBody, expected?: ExpectedVersions): Promise<StoredPartial> {
    return retryRaces(async () => {
      const current = await this.get(name);
      checkVersion(expected, current.version);
      const content = changes.content ?? current.partial.content;
      const description = changes.description === undefined ? current.partial.description : changes.description;
      if (content === current.partial.content && description === current.partial.description) return current;
      const { compiled, partials: references } = await checkedContent(content, this.sealSecret);
      const includes = await includedPartials(this.store, references);
      const walked = await refuseCycle(this.store, name, includes);
      const updated: TemplatePartial = {
        ...current.partial,
        content,
        description,
        updatedAt: this.now().toISOString(),
      };
      await this.store.transact([
        ...this.store.prepareUpdate(current, updated, compiled, includes),
        ...this.store.prepareUnchanged(walked),
      ]);
      return { ...current, partial: updated, version: current.version + 1, includes: includes.map(named), compiled };
    });
  }

  /**
   * Deletes a partial that nothing holds: an active or draft version of a live template, or another
   * partial, that includes it is a 409 naming them. A version made meanwhile that includes it records
   * a use, so the delete reads again and refuses (docs/api.md#partials).
   */
  async delete(name: string, expected?: ExpectedVersions): Promise<void> {
    await retryRaces(async () => {
      const current = await this.get(name);
      checkVersion(expected, current.version);
      const uses = await this.store.usesOf(name);
      const holders = holdersIn(uses);
      if (holders.length > 0) {
        throw new ConflictError(
          `Partial "${name}" is included by ${holders.join(", ")}; retire those versions or change those partials first`,
        );
      }
      const deleted = { ...uses, keys: uses.keys.slice(0, MAX_USES_DELETED) };
      await this.store.transact(this.store.prepareDelete(current, deleted));
    });
  }
}

function named(partial: StoredPartial): string {
  return partial.partial.name;
}

/** What holds a partial, as a 409 names it: versions of live templates that are active or draft, then partials. */
function holdersIn(uses: PartialUses): string[] {
  return [
    ...uses.versions
      .filter(({ status }) => status === "active" || status === "draft")
      .map((use) => `${use.status} version ${use.versionNumber} of template ${use.slug} (${use.versionId})`),
    ...uses.partials.map((partial) => `partial "${partial}"`),
  ];
}
