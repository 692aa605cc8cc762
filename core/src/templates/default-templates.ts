/**
 * @module templates/default-templates — the default templates and partials Kaizen starts from
 * (docs/api.md#templates-and-versions), seeded once per table: claims and previews wait for them, so
 * a fresh table renders the defaults from its first request. Their content (./defaults.ts) and the
 * compiler that checks it are loaded only when one is to be written.
 */
import { randomUUID } from "node:crypto";
import { ConditionFailedError } from "../db/db.js";
import { pollBackoff, retryConflicts } from "../db/retry.js";
import { UnavailableError, ValidationError } from "../errors.js";
import { DEFAULT_PARTIAL_NAMES, DEFAULT_TEMPLATE_SLUGS, newTemplateId } from "./keys.js";
import { includedPartials } from "./partial-includes.js";
import type { PartialStore, StoredPartial } from "./partial-store.js";
import { checkedContent } from "./render.js";
import type { Template } from "./schemas.js";
import { newVersionRecord } from "./template-item.js";
import type { TemplateSeeding } from "./template-seeding.js";
import type { TemplateStore } from "./template-store.js";

/**
 * What the default templates' seeding marks: each default partial, then each default template (a
 * function, so the default names are read only when seeding).
 */
function seededMarks(): string[] {
  return [...DEFAULT_PARTIAL_NAMES.map((name) => `partial#${name}`), ...DEFAULT_TEMPLATE_SLUGS];
}

/** How long an instance seeding the default templates holds the seeding: far more than it takes. */
const SEEDING_LEASE_MS = 10_000;
/** How long a request waits for another instance to seed the defaults before it answers 503 (past one lease, so a dead holder is taken over first). */
const SEEDING_WAIT_MS = 15_000;
/** The 503's message when the defaults are still being seeded by another instance after that. */
export const SEEDING_MESSAGE = "The default templates are still being created; retry shortly";

export class DefaultTemplates {
  private seeded: Promise<void> | undefined;

  constructor(
    private readonly store: Pick<TemplateStore, "idOfSlug" | "prepareCreate" | "transact">,
    private readonly partials: PartialStore,
    /** The seeding's lease and marks. */
    private readonly seeding: TemplateSeeding,
    /** Seals the precompiled forms this service stores (the service key): only sealed ones are run. */
    private readonly sealSecret: string | undefined,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Seeds the default templates once per app instance (again after a failure): claims and previews
   * wait for it, so a fresh table renders the defaults from its first request.
   */
  ready(): Promise<void> {
    this.seeded ??= this.seed().then(
      () => undefined,
      (error: unknown) => {
        this.seeded = undefined;
        throw error;
      },
    );
    return this.seeded;
  }

  /**
   * Creates each default template (docs/api.md#templates-and-versions) that was never seeded: one read when all were.
   * A default the user changed or deleted is left as it is; a slug a user's template holds is skipped.
   *
   * One instance seeds at a time: it holds the seeding (templates/template-store.ts) while it writes, and
   * instances that start meanwhile (fifty agents' first claims on a fresh table, each on an
   * instance of its own) wait for its marks instead of each compiling the defaults and racing it.
   * A holder that died is taken over once its time runs out.
   */
  async seed(): Promise<string[]> {
    const holder = randomUUID();
    const marks = seededMarks();
    const deadline = Date.now() + SEEDING_WAIT_MS;
    for (let n = 1; ; n++) {
      const seeded = await this.seeding.seeded(marks);
      if (seeded.size === marks.length) return [];
      if (await this.seeding.reserve(holder, Date.now() + SEEDING_LEASE_MS)) {
        try {
          // Read again under the hold: the last holder may have finished since the read above.
          return await this.seedMissing(await this.seeding.seeded(marks), marks.length);
        } finally {
          await this.seeding.release(holder).catch(() => undefined);
        }
      }
      if (Date.now() >= deadline) throw new UnavailableError(SEEDING_MESSAGE);
      await pollBackoff(n);
    }
  }

  /**
   * Writes the defaults not in `seeded` (partials first; `marks` defaults in all), each with its
   * mark, and returns the templates' slugs.
   */
  private async seedMissing(seeded: Set<string>, marks: number): Promise<string[]> {
    const created: string[] = [];
    if (seeded.size === marks) return created;
    // Their content (and the compiler that checks it) is loaded only when one is to be written.
    const { DEFAULT_PARTIALS, DEFAULT_TEMPLATES, withDefaultPartialsInPlace } = await import("./defaults.js");
    for (const preset of DEFAULT_PARTIALS.filter(({ name }) => !seeded.has(`partial#${name}`))) {
      await this.seedPartial(preset);
    }
    for (const preset of DEFAULT_TEMPLATES.filter(({ slug }) => !seeded.has(slug))) {
      // Never marked seeded while a user's template holds the slug: skipped without compiling it.
      if (await this.store.idOfSlug(preset.slug)) continue;
      let content = preset.content;
      let checked = await checkedContent(content, this.sealSecret);
      let includes: StoredPartial[];
      try {
        includes = await includedPartials(this.partials, checked.partials);
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        // A default partial its users deleted before this default could be seeded: its text goes in place.
        content = withDefaultPartialsInPlace(content);
        checked = await checkedContent(content, this.sealSecret);
        includes = [];
      }
      const { compiled } = checked;
      const { id, createdAt } = newTemplateId(this.now().getTime());
      const first = newVersionRecord(
        id,
        1,
        { changelog: preset.changelog, authorType: "human", authorName: "kaizen", content },
        "active",
        createdAt,
      );
      const template: Template = {
        id,
        slug: preset.slug,
        name: preset.name,
        description: preset.description,
        conditions: preset.conditions,
        specificity: preset.specificity,
        projectId: null,
        activeVersionId: first.id,
        createdAt,
        updatedAt: createdAt,
      };
      try {
        const writes = [
          ...this.store.prepareCreate(
            template,
            first,
            compiled,
            includes.map(({ partial }) => partial.name),
          ),
          ...this.partials.prepareUses(includes, { versionId: first.id, templateId: id, versionNumber: 1 }),
          this.seeding.mark(preset.slug, id),
        ];
        await retryConflicts(() => this.store.transact(writes));
        created.push(preset.slug);
      } catch (error) {
        // Seeded meanwhile by another instance, or the slug is a user's: either way there is nothing to do.
        if (!(error instanceof ConditionFailedError)) throw error;
      }
    }
    return created;
  }

  /** Writes a default partial with its mark, unless a user's partial holds the name (then it is never marked). */
  private async seedPartial(preset: { name: string; description: string; content: string }): Promise<void> {
    if (await this.partials.get(preset.name)) return;
    const { compiled } = await checkedContent(preset.content, this.sealSecret);
    const at = this.now().toISOString();
    const partial = {
      name: preset.name,
      content: preset.content,
      description: preset.description,
      createdAt: at,
      updatedAt: at,
    };
    try {
      await retryConflicts(() =>
        this.partials.transact([
          ...this.partials.prepareCreate(partial, compiled, []),
          this.seeding.markPartial(preset.name),
        ]),
      );
    } catch (error) {
      // Seeded meanwhile by another instance: nothing to do.
      if (!(error instanceof ConditionFailedError)) throw error;
    }
  }
}
