/**
 * What a DynamoDB call costs (core/src/db/db-usage.ts): the capacity DynamoDB reports, with a total
 * alone counted as the call's own kind, and calls added up as the client meters them.
 */
import { describe, expect, it } from "vitest";
import { addUsage, callUsage, type DbUsage } from "../../../core/src/db/db-usage.js";

describe("a call's usage", () => {
  it("counts a total alone as the call's own kind", () => {
    expect(callUsage("read", { CapacityUnits: 0.5 })).toEqual({ calls: 1, readCapacity: 0.5, writeCapacity: 0 });
    expect(callUsage("write", { CapacityUnits: 2 })).toEqual({ calls: 1, readCapacity: 0, writeCapacity: 2 });
  });

  it("counts read and write units as reported, whatever the call's kind, over every table a transaction touched", () => {
    expect(
      callUsage("write", [
        { ReadCapacityUnits: 1, WriteCapacityUnits: 4, CapacityUnits: 5 },
        { WriteCapacityUnits: 2, CapacityUnits: 2 },
      ]),
    ).toEqual({ calls: 1, readCapacity: 1, writeCapacity: 6 });
  });

  it("is one call of no capacity when nothing was reported", () => {
    expect(callUsage("read", undefined)).toEqual({ calls: 1, readCapacity: 0, writeCapacity: 0 });
    expect(callUsage("write", [])).toEqual({ calls: 1, readCapacity: 0, writeCapacity: 0 });
  });

  it("adds up into a running total", () => {
    const total: DbUsage = { calls: 0, readCapacity: 0, writeCapacity: 0 };
    addUsage(total, callUsage("read", { CapacityUnits: 0.5 }));
    addUsage(total, callUsage("write", { CapacityUnits: 1 }));
    expect(total).toEqual({ calls: 2, readCapacity: 0.5, writeCapacity: 1 });
  });
});
