/**
 * Secrets are compared in constant time everywhere: the API key, the webhook signatures and
 * secrets, and dispatch tokens. The source of core/src is parsed (TypeScript's own parser) and
 * every equality comparison is checked, so a new `===` on a secret fails here; the comparison
 * helpers are checked with secrets of different lengths.
 */
import { createHash, createHmac } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import fc from "fast-check";
import ts from "typescript";
import { ulid } from "ulid";
import { describe, expect, it } from "vitest";
import { newDispatchToken, tokenMatches } from "../../core/src/dispatch/token.js";
import { secretsEqual } from "../../core/src/http/auth.js";
import {
  verifyAnalyticsSecret,
  verifyCodehostSignature,
  verifyErrortrackerSignature,
} from "../../core/src/webhooks/verify.js";

const CORE = join(import.meta.dirname, "../../core/src");
/** Names that hold a secret or something derived from one that must not leak by timing. */
const SECRET_NAME = /secret|apikey|signature|digest|storedhash|tokenhash|presented|bearer|credential/i;
const EQUALITY = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith(".ts")
        ? [join(dir, entry.name)]
        : [],
  );
}

/** A side of a comparison that cannot be a secret: a literal, `undefined`, a `typeof`, a length or a count. */
function isHarmless(node: ts.Expression): boolean {
  if (ts.isLiteralExpression(node) || ts.isNoSubstitutionTemplateLiteral(node)) return true;
  if (node.kind === ts.SyntaxKind.NullKeyword || node.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (node.kind === ts.SyntaxKind.FalseKeyword) return true;
  if (ts.isIdentifier(node) && node.text === "undefined") return true;
  if (ts.isTypeOfExpression(node)) return true;
  if (ts.isPropertyAccessExpression(node) && ["length", "size", "status"].includes(node.name.text)) return true;
  return false;
}

/** Every `a === b` (and `!==`, `==`, `!=`) in core/src where a secret meets anything but a harmless value. */
function secretComparisons(): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(CORE)) {
    const text = readFileSync(file, "utf8");
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (ts.isBinaryExpression(node) && EQUALITY.has(node.operatorToken.kind)) {
        const sides = [node.left, node.right];
        const secret = sides.some((side) => SECRET_NAME.test(side.getText(source)));
        if (secret && !sides.some(isHarmless)) {
          const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
          found.push(`${relative(CORE, file)}:${line + 1}: ${node.getText(source)}`);
        }
      }
      // `Buffer#equals` and `Buffer.compare` stop at the first difference.
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
        const name = node.expression.name.text;
        if ((name === "equals" || name === "compare") && SECRET_NAME.test(node.getText(source))) {
          const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
          found.push(`${relative(CORE, file)}:${line + 1}: ${node.getText(source)}`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

describe("constant-time comparison of secrets", () => {
  it("no equality operator in core/src compares a secret", () => {
    expect(secretComparisons()).toEqual([]);
  });

  it("the modules that hold secrets compare them with timingSafeEqual, directly or through secretsEqual", () => {
    const uses = (path: string, name: string) => readFileSync(join(CORE, path), "utf8").includes(`${name}(`);
    expect(uses("http/constant-time.ts", "timingSafeEqual")).toBe(true);
    expect(uses("http/auth.ts", "secretsEqual")).toBe(true);
    expect(uses("dispatch/token.ts", "timingSafeEqual")).toBe(true);
    for (const verifier of ["verifyCodehostSignature", "verifyErrortrackerSignature", "verifyAnalyticsSecret"]) {
      const body = readFileSync(join(CORE, "webhooks/verify.ts"), "utf8").split(`export function ${verifier}(`)[1];
      expect(body?.split("\nexport ")[0], verifier).toContain("secretsEqual(");
    }
  });

  it("the scan sees a plain comparison of a secret (it is not vacuous)", () => {
    const source = ts.createSourceFile("x.ts", "if (presented === expectedSecret) ok();", ts.ScriptTarget.Latest, true);
    let seen = false;
    const visit = (node: ts.Node) => {
      if (ts.isBinaryExpression(node) && EQUALITY.has(node.operatorToken.kind)) {
        seen = [node.left, node.right].some((side) => SECRET_NAME.test(side.getText(source)));
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    expect(seen).toBe(true);
  });
});

describe("secrets of different lengths", () => {
  const secret = "configured-webhook-secret";
  const body = new TextEncoder().encode('{"action":"opened"}');
  const hex = createHmac("sha256", secret).update(body).digest("hex");

  it("secretsEqual is false, and does not throw, for every prefix, extension and empty value", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), fc.string({ maxLength: 80 }), (a, b) => {
        expect(secretsEqual(a, b)).toBe(a === b);
        expect(secretsEqual(a, `${a}x`)).toBe(false);
        expect(secretsEqual(`${a}x`, a)).toBe(false);
      }),
    );
    expect(secretsEqual("", "")).toBe(true);
    expect(secretsEqual("", "x")).toBe(false);
  });

  it("webhook checks refuse truncated and extended signatures and secrets without throwing", () => {
    for (const presented of [hex.slice(0, 63), hex.slice(0, 1), `${hex}0`, `${hex}${hex}`, ""]) {
      expect(verifyCodehostSignature(body, `sha256=${presented}`, secret)).toBe(false);
      expect(verifyErrortrackerSignature(body, presented, secret)).toBe(false);
    }
    expect(verifyCodehostSignature(body, `sha256=${hex}`, secret)).toBe(true);
    for (const presented of [secret.slice(0, -1), `${secret} `, `${secret}${secret}`, "", "s"]) {
      expect(verifyAnalyticsSecret(presented, secret)).toBe(false);
    }
    expect(verifyAnalyticsSecret(secret, secret)).toBe(true);
  });

  it("a dispatch token is refused when shorter, longer or empty, against a hash of any length", () => {
    const { token, hash } = newDispatchToken(`dsp_${ulid()}`);
    expect(tokenMatches(token, hash)).toBe(true);
    for (const presented of [token.slice(0, -1), `${token}0`, "", token.slice(0, 4)]) {
      expect(tokenMatches(presented, hash)).toBe(false);
    }
    const digest = createHash("sha256").update(token).digest("hex");
    for (const stored of [digest.slice(0, -2), `${digest}00`, ""]) {
      expect(tokenMatches(token, stored)).toBe(false);
    }
  });
});
