/**
 * @module tests/unit/infra/dynamodb-local — the JVM options DynamoDB Local starts with: ours with
 * the environment's after them, the environment's alone when they choose a collector, and the
 * environment as it was once the process is spawned.
 */
import { afterEach, describe, expect, it } from "vitest";
import { DYNAMODB_JVM_OPTIONS, jvmOptionsFor, withJvmOptions } from "../../../infra/local/dynamodb.js";

describe("jvmOptionsFor", () => {
  it("is the parallel collector when the environment gives java no options", () => {
    expect(DYNAMODB_JVM_OPTIONS).toBe("-XX:+UseParallelGC");
    expect(jvmOptionsFor(undefined)).toBe("-XX:+UseParallelGC");
    expect(jvmOptionsFor("  ")).toBe("-XX:+UseParallelGC");
  });

  it("puts the environment's options after ours, so they win where both set something", () => {
    expect(jvmOptionsFor("-Xmx2g -Dfile.encoding=UTF-8")).toBe("-XX:+UseParallelGC -Xmx2g -Dfile.encoding=UTF-8");
  });

  it("leaves the environment's options alone when they choose a collector, since two stop the JVM", () => {
    for (const chosen of ["-XX:+UseG1GC", "-Xmx1g -XX:+UseSerialGC", "-XX:+UseZGC -Xss1m", "-XX:+UseParallelGC"]) {
      expect(jvmOptionsFor(chosen)).toBe(chosen);
    }
  });
});

describe("withJvmOptions", () => {
  const original = process.env.JDK_JAVA_OPTIONS;
  afterEach(() => {
    if (original === undefined) delete process.env.JDK_JAVA_OPTIONS;
    else process.env.JDK_JAVA_OPTIONS = original;
  });

  it("spawns with the options in the environment, and leaves none behind when there were none", () => {
    delete process.env.JDK_JAVA_OPTIONS;
    const seen = withJvmOptions(() => process.env.JDK_JAVA_OPTIONS);
    expect(seen).toBe("-XX:+UseParallelGC");
    expect("JDK_JAVA_OPTIONS" in process.env).toBe(false);
  });

  it("adds to the environment's own options for the spawn and puts them back after", () => {
    process.env.JDK_JAVA_OPTIONS = "-Xmx2g";
    expect(withJvmOptions(() => process.env.JDK_JAVA_OPTIONS)).toBe("-XX:+UseParallelGC -Xmx2g");
    expect(process.env.JDK_JAVA_OPTIONS).toBe("-Xmx2g");
  });

  it("puts the environment back when the spawn throws", () => {
    process.env.JDK_JAVA_OPTIONS = "-Xmx2g";
    expect(() =>
      withJvmOptions(() => {
        throw new Error("spawn failed");
      }),
    ).toThrow("spawn failed");
    expect(process.env.JDK_JAVA_OPTIONS).toBe("-Xmx2g");
  });
});
