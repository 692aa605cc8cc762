/**
 * @module tests/unit/db/item-kind-rules — reads a module of core/src with the TypeScript compiler and
 * lists where it breaks the rules of the item kinds' registry (core/src/db/item-kinds.ts,
 * docs/architecture.md#item-kinds):
 * - no `$kaizen#` text outside the registry: every key prefix comes from `keyPrefix`;
 * - `keyPrefix(kind)` only in the kind's keys module (listings' in db/listing-index.ts), naming a registered kind;
 * - `entityOf(kind)` (what an item's `entity` is written with) only in the kind's owner module;
 * - an `entity` written as text instead of through `entityOf`, anywhere;
 * - a listing scheme (`ulidListingScheme(name, …)`, or a literal with `bucketOf`) naming an
 *   unregistered listing, or declared outside that listing's keys module.
 */
import ts from "typescript";
import { ITEM_KINDS, type ItemKind, LISTINGS } from "../../../core/src/db/item-kinds.js";

export interface Violation {
  /** Module path under core/src, e.g. `issues/store.ts`. */
  file: string;
  line: number;
  message: string;
}

const KINDS: Record<string, ItemKind> = ITEM_KINDS;
const LISTING_KEYS: Record<string, { keys: string; owner: string }> = LISTINGS;
const REGISTRY = "db/item-kinds.ts";
const LISTING_MODULE = "db/listing-index.ts";

/** The module part of an owner (`issues/store#IssueStore` → `issues/store.ts`). */
export function ownerModule(owner: string): string {
  return `${owner.slice(0, owner.indexOf("#"))}.ts`;
}

/** Every violation in one module's text; `file` is its path under core/src. */
export function checkModule(file: string, text: string): Violation[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: Violation[] = [];
  const report = (node: ts.Node, message: string) =>
    found.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, message });

  const visit = (node: ts.Node): void => {
    if (
      file !== REGISTRY &&
      (ts.isStringLiteralLike(node) ||
        ts.isTemplateHead(node) ||
        ts.isTemplateMiddle(node) ||
        ts.isTemplateTail(node)) &&
      node.text.includes("$kaizen#")
    ) {
      report(node, `"$kaizen#" written out: take the prefix from keyPrefix (db/item-kinds.ts)`);
    }
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
      const callee = node.expression.text;
      const [first] = node.arguments;
      const name = first && ts.isStringLiteralLike(first) ? first.text : undefined;
      if (callee === "keyPrefix") checkKeyPrefix(node, name);
      if (callee === "entityOf") checkEntityOf(node, name);
      if (callee === "ulidListingScheme") checkListing(node, name);
    }
    if (ts.isObjectLiteralExpression(node)) checkObject(node);
    ts.forEachChild(node, visit);
  };

  const checkKeyPrefix = (node: ts.Node, name: string | undefined) => {
    if (name === undefined) {
      if (file !== LISTING_MODULE) report(node, "keyPrefix of a name not written out: only db/listing-index.ts may");
      return;
    }
    const listing = /^(.*)(list|count)$/.exec(name);
    if (listing?.[1] && LISTING_KEYS[listing[1]] && !KINDS[name]) {
      if (file !== LISTING_MODULE) report(node, `keys of listing ${listing[1]} are built in ${LISTING_MODULE}`);
      return;
    }
    const kind = KINDS[name];
    if (!kind) return report(node, `keyPrefix("${name}"): no such kind in db/item-kinds.ts`);
    if (`${kind.keys}.ts` !== file) report(node, `keys of ${name} are built in ${kind.keys}.ts, not here`);
  };

  const checkEntityOf = (node: ts.Node, name: string | undefined) => {
    if (name === undefined) return report(node, "entityOf of a name not written out");
    const kind = KINDS[name];
    if (!kind) return report(node, `entityOf("${name}"): no such kind in db/item-kinds.ts`);
    if (ownerModule(kind.owner) !== file) report(node, `${name} is written by ${kind.owner}, not by this module`);
  };

  const checkListing = (node: ts.Node, name: string | undefined) => {
    const listing = name === undefined ? undefined : LISTING_KEYS[name];
    if (!listing) return report(node, `listing ${name ?? "(not written out)"} is not in db/item-kinds.ts`);
    if (`${listing.keys}.ts` !== file) report(node, `listing ${name} is declared in ${listing.keys}.ts, not here`);
  };

  const checkObject = (object: ts.ObjectLiteralExpression) => {
    const names = object.properties.map((property) => (property.name ? propertyName(property.name) : undefined));
    const isScheme = names.includes("bucketOf");
    for (const property of object.properties) {
      if (!ts.isPropertyAssignment(property)) continue;
      const name = propertyName(property.name);
      if (name !== "entity" && name !== ":entity") continue;
      const value = property.initializer;
      if (!ts.isStringLiteralLike(value)) continue;
      if (isScheme) checkListing(value, value.text);
      else report(value, `entity "${value.text}" written out: write entityOf(kind) (db/item-kinds.ts)`);
    }
  };

  visit(source);
  return found;
}

function propertyName(name: ts.PropertyName): string | undefined {
  return ts.isIdentifier(name) || ts.isStringLiteralLike(name) ? name.text : undefined;
}

/** Whether `text` declares `name` at its top level (a class, function, or const). */
export function declares(text: string, name: string): boolean {
  const source = ts.createSourceFile("module.ts", text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  return source.statements.some((statement) => {
    if ((ts.isClassDeclaration(statement) || ts.isFunctionDeclaration(statement)) && statement.name) {
      return statement.name.text === name;
    }
    if (ts.isVariableStatement(statement)) {
      return statement.declarationList.declarations.some(
        (declaration) => ts.isIdentifier(declaration.name) && declaration.name.text === name,
      );
    }
    return false;
  });
}
