/** The registry of item kinds (core/src/db/item-kinds.ts, docs/architecture.md#item-kinds) and the code held to it. */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import {
  entitiesOf,
  entityOf,
  ITEM_KINDS,
  type ItemKind,
  keyPrefix,
  LEGACY_ENTITIES,
  LISTINGS,
} from "../../../core/src/db/item-kinds.js";
import { EVENT_SOURCE_ENTITIES } from "../../../core/src/events/derive.js";
import { checkModule, declares, ownerModule } from "./item-kind-rules.js";

const CORE = join(import.meta.dirname, "../../../core/src");
const KINDS = Object.entries(ITEM_KINDS as Record<string, ItemKind>);
const LEGACY: Record<string, readonly string[]> = LEGACY_ENTITIES;

/** Every TypeScript module under core/src, by path under it. */
function coreModules(): Map<string, string> {
  const files = readdirSync(CORE, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".ts"));
  return new Map(files.map((file) => [relative(CORE, join(CORE, file)), readFileSync(join(CORE, file), "utf8")]));
}

/** Every stored prefix: each kind's own, and each listing's entries and counts. */
function allPrefixes(): string[] {
  const own = KINDS.filter(([, kind]) => !kind.facet).map(([, kind]) => kind.prefix);
  const listings = Object.keys(LISTINGS).flatMap((name) => [`${name}list_1`, `${name}count_1`]);
  return [...own, ...listings];
}

/** What a kind's name must be by the rule: its prefix without the version, then its facet. */
function nameByRule(kind: ItemKind): string {
  return `${kind.prefix.replace(/_\d+$/, "")}${kind.facet ?? ""}`;
}

describe("the registry", () => {
  it("gives every stored prefix to one kind or listing only", () => {
    const prefixes = allPrefixes();
    expect(prefixes.length).toBeGreaterThan(50);
    expect(new Set(prefixes).size).toBe(prefixes.length);
  });

  it("gives every entity, legacy ones included, to one kind only", () => {
    const entities = KINDS.flatMap(([name]) => [name, ...(LEGACY[name] ?? [])]);
    expect(new Set(entities).size).toBe(entities.length);
  });

  it("names each kind by its prefix (and facet): the entity new items carry is that name", () => {
    for (const [name, kind] of KINDS) {
      expect(nameByRule(kind), name).toBe(name);
      if (kind.stamped) expect(entityOf(name as never)).toBe(name);
    }
  });

  it("lets a facet share the prefix of a kind that has one of its own", () => {
    for (const [name, kind] of KINDS.filter(([, kind]) => kind.facet)) {
      const owner = KINDS.find(([, other]) => !other.facet && other.prefix === kind.prefix);
      expect(owner, name).toBeDefined();
    }
  });

  it("builds each prefix as stored: `$kaizen#<prefix>`", () => {
    for (const [name, kind] of KINDS.filter(([, kind]) => !kind.facet)) {
      expect(keyPrefix(name as never)).toBe(`$kaizen#${kind.prefix}`);
    }
    expect(keyPrefix("issuelist")).toBe("$kaizen#issuelist_1");
    expect(keyPrefix("eventdeliverycount")).toBe("$kaizen#eventdeliverycount_1");
  });

  it("keeps legacy entities for stamped kinds only, and readers accept them after the name", () => {
    for (const [name, legacy] of Object.entries(LEGACY)) {
      expect(ITEM_KINDS[name as keyof typeof ITEM_KINDS].stamped, name).toBe(true);
      expect(entitiesOf(name as never)).toEqual([name, ...legacy]);
    }
    expect(entitiesOf("issue")).toEqual(["issue"]);
  });

  it("has the stream's filter and the events derivation match an event source's old entity and its name", () => {
    expect([...EVENT_SOURCE_ENTITIES].sort()).toEqual(
      ["issue", "dispatch", "experiment", "templateverreviews", "templatereviews"].sort(),
    );
  });

  it("names keys modules and owners that exist and declare what the registry says", () => {
    const modules = coreModules();
    const places = [
      ...KINDS.map(([name, kind]) => ({ name, keys: kind.keys, owner: kind.owner })),
      ...Object.entries(LISTINGS).map(([name, listing]) => ({ name: `listing ${name}`, ...listing })),
    ];
    for (const { name, keys, owner } of places) {
      expect(modules.has(`${keys}.ts`), `${name}: ${keys}.ts`).toBe(true);
      const text = modules.get(ownerModule(owner));
      expect(text, `${name}: ${owner}`).toBeDefined();
      expect(declares(text ?? "", owner.slice(owner.indexOf("#") + 1)), `${name}: ${owner}`).toBe(true);
    }
  });
});

describe("the code under core/src", () => {
  it("breaks none of the registry's rules", () => {
    const violations = [...coreModules()].flatMap(([file, text]) => checkModule(file, text));
    expect(violations).toEqual([]);
  });

  it("builds the keys of every kind through the registry, in its keys module", () => {
    const modules = coreModules();
    for (const [name, kind] of KINDS.filter(([, kind]) => !kind.facet)) {
      expect(modules.get(`${kind.keys}.ts`), name).toContain(`keyPrefix("${name}")`);
    }
  });

  it("writes the entity of every stamped kind in its owner module", () => {
    const modules = coreModules();
    for (const [name, kind] of KINDS.filter(([, kind]) => kind.stamped)) {
      expect(modules.get(ownerModule(kind.owner)), name).toContain(`entityOf("${name}")`);
    }
  });
});

describe("the checker", () => {
  const check = (file: string, text: string) => checkModule(file, text).map((violation) => violation.message);

  it("finds a prefix written out, in a string or a template", () => {
    expect(check("issues/keys.ts", 'const A = "$kaizen#issue_1";')).toHaveLength(1);
    const template = ["const B = (id: string) => `$kaizen#issue_1#$", "{id}`;"].join("");
    expect(check("issues/keys.ts", template)).toHaveLength(1);
    expect(check("db/item-kinds.ts", 'const A = "$kaizen#issue_1";')).toEqual([]);
    expect(check("issues/keys.ts", '// "$kaizen#issue_1" in a comment is no key\nconst A = 1;')).toEqual([]);
  });

  it("finds a kind's keys built outside its keys module, or an unknown kind", () => {
    expect(check("issues/keys.ts", 'const A = keyPrefix("issue");')).toEqual([]);
    expect(check("signals/store.ts", 'const A = keyPrefix("issue");')).toEqual([
      "keys of issue are built in issues/keys.ts, not here",
    ]);
    expect(check("issues/keys.ts", 'const A = keyPrefix("isue");')).toHaveLength(1);
    expect(check("issues/keys.ts", "const A = keyPrefix(name);")).toHaveLength(1);
    expect(check("issues/keys.ts", 'const A = keyPrefix("issuelist");')).toHaveLength(1);
  });

  it("finds an entity written by a module that does not own the kind", () => {
    const write = 'db.put({ Item: { ...issueKey(id), entity: entityOf("issue"), title } });';
    expect(check("issues/issue-item.ts", write)).toEqual([]);
    expect(check("comments/store.ts", write)).toEqual([
      "issue is written by issues/issue-item#issueItem, not by this module",
    ]);
  });

  it("finds an entity written as text, in an item or in an update's values", () => {
    expect(check("issues/store.ts", 'const item = { ...issueKey(id), entity: "issue" };')).toHaveLength(1);
    expect(check("templates/store.ts", 'const values = { ":entity": "templatereviews" };')).toHaveLength(1);
  });

  it("finds a listing that is not registered or is declared outside its keys module", () => {
    expect(check("prompts/keys.ts", 'const L = ulidListingScheme("prompt", 1, 8);')).toEqual([]);
    expect(check("prompts/keys.ts", 'const L = ulidListingScheme("prompts", 1, 8);')).toHaveLength(1);
    expect(check("comments/keys.ts", 'const L = ulidListingScheme("prompt", 1, 8);')).toHaveLength(1);
    const scheme = (name: string) => `const S = { entity: "${name}", bucketOf: (sk) => sk };`;
    expect(check("issues/keys.ts", scheme("issuepriority"))).toEqual([]);
    expect(check("issues/keys.ts", scheme("issuebyage"))).toHaveLength(1);
  });

  it("finds an owner the registry names that its module does not declare", () => {
    expect(declares("export class IssueStore {}", "IssueStore")).toBe(true);
    expect(declares("export const PROJECT_KIND = {};", "PROJECT_KIND")).toBe(true);
    expect(declares("export class IssueQueries {}", "IssueStore")).toBe(false);
  });
});
