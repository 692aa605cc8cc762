/**
 * The CLI's flag parsers: integers in range, JSON objects, commits and pull requests as `complete`
 * takes them, running usage as `heartbeat`, `activity` and `complete` report it.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { integerIn, parseCommit, parsePullRequest, readJsonObject, usageOf } from "../../../client/cli/options.js";
import { UsageError } from "../../../client/cli/runtime.js";

const dir = mkdtempSync(join(tmpdir(), "kaizen-cli-options-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("integerIn", () => {
  const lease = integerIn("lease", 60, 7200);
  it("accepts whole numbers in range and names the flag otherwise", () => {
    expect(lease(60)).toBe(60);
    expect(lease("900")).toBe(900);
    for (const bad of [59, 7201, 1.5, "abc", Number.NaN]) {
      expect(() => lease(bad)).toThrow(UsageError);
    }
    expect(() => lease(30)).toThrow("--lease must be a whole number from 60 to 7200 (got 30)");
  });
});

describe("readJsonObject", () => {
  it("reads inline JSON, @file and stdin text", () => {
    const file = join(dir, "payload.json");
    writeFileSync(file, '{"route": "/checkout", "p95": 2.5}');
    expect(readJsonObject('{"a": 1}', "payload")).toEqual({ a: 1 });
    expect(readJsonObject(`@${file}`, "payload")).toEqual({ route: "/checkout", p95: 2.5 });
    expect(readJsonObject("-", "payload", () => '{"from": "stdin"}')).toEqual({ from: "stdin" });
  });

  it("refuses what is not a JSON object, and files it cannot read", () => {
    expect(() => readJsonObject("{nope", "payload")).toThrow(/--payload is not valid JSON/);
    expect(() => readJsonObject("[1, 2]", "payload")).toThrow("--payload must be a JSON object");
    expect(() => readJsonObject("null", "payload")).toThrow("--payload must be a JSON object");
    expect(() => readJsonObject(`@${join(dir, "missing.json")}`, "payload")).toThrow(/cannot read .*ENOENT/);
  });
});

describe("parseCommit", () => {
  it("takes a sha and an optional message", () => {
    expect(parseCommit("4f2a9c1")).toEqual({ sha: "4f2a9c1", message: "" });
    expect(parseCommit("4F2A9C1DEADBEEF Retry the payment call")).toEqual({
      sha: "4F2A9C1DEADBEEF",
      message: "Retry the payment call",
    });
  });

  it("refuses what is not a sha", () => {
    expect(() => parseCommit("abc")).toThrow(UsageError);
    expect(() => parseCommit("xyz1234 message")).toThrow(/--commit must be a commit sha/);
  });
});

describe("parsePullRequest", () => {
  it("takes a URL ending in the number, or the number, each with an optional title", () => {
    expect(parsePullRequest("https://code.example/acme/shop/pull/42")).toEqual({
      number: 42,
      url: "https://code.example/acme/shop/pull/42",
      title: "",
    });
    expect(parsePullRequest("https://code.example/acme/shop/pull/42/ Retry payments")).toEqual({
      number: 42,
      url: "https://code.example/acme/shop/pull/42/",
      title: "Retry payments",
    });
    expect(parsePullRequest("#7 Fix it")).toEqual({ number: 7, title: "Fix it" });
    expect(parsePullRequest("7")).toEqual({ number: 7, title: "" });
  });

  it("refuses URLs without a number and words that are not URLs", () => {
    expect(() => parsePullRequest("https://code.example/acme/shop/pulls")).toThrow(
      /does not end in the pull request's number/,
    );
    expect(() => parsePullRequest("soon")).toThrow(/--pr must be a pull request URL/);
    expect(() => parsePullRequest("0")).toThrow(UsageError);
  });
});

describe("usageOf", () => {
  it("keeps the flags given, and nothing when none was", () => {
    expect(usageOf({})).toBeUndefined();
    expect(usageOf({ costUsd: 0.42, model: "m" })).toEqual({ costUsd: 0.42, model: "m" });
    expect(usageOf({ inputTokens: 0 })).toEqual({ inputTokens: 0 });
  });

  it("refuses a flag that is not a number", () => {
    expect(() => usageOf({ costUsd: Number.NaN })).toThrow(UsageError);
    expect(() => usageOf({ outputTokens: Number.NaN })).toThrow("--output-tokens must be a number");
  });
});
