/** changeRecordOf and changesOf (db/changes.ts): a raw stream record as a Lambda stream event and the Streams API carry it, made a plain change. */
import type { _Record } from "@aws-sdk/client-dynamodb-streams";
import type { DynamoDBRecord, DynamoDBStreamEvent } from "aws-lambda";
import { describe, expect, it } from "vitest";
import { changeRecordOf, changesOf } from "../../../core/src/db/changes.js";

/** A MODIFY as Lambda delivers it: epoch seconds, binary as base64 text. */
const lambdaModify: DynamoDBRecord = {
  eventID: "c4ca4238a0b923820dcc509a6f75849b",
  eventName: "MODIFY",
  eventVersion: "1.1",
  eventSource: "aws:dynamodb",
  awsRegion: "us-east-1",
  eventSourceARN: "arn:aws:dynamodb:us-east-1:123456789012:table/kaizen/stream/2026-01-01T00:00:00.000",
  dynamodb: {
    ApproximateCreationDateTime: 1_767_225_600,
    Keys: { pk: { S: "$kaizen#issue_1#01J" }, sk: { S: "$kaizen#issue_1" } },
    OldImage: {
      pk: { S: "$kaizen#issue_1#01J" },
      sk: { S: "$kaizen#issue_1" },
      version: { N: "3" },
      status: { S: "todo" },
    },
    NewImage: {
      pk: { S: "$kaizen#issue_1#01J" },
      sk: { S: "$kaizen#issue_1" },
      version: { N: "4" },
      status: { S: "in_progress" },
      labels: { SS: ["bug", "checkout"] },
      payload: { B: Buffer.from([0x1f, 0x8b, 0x08]).toString("base64") },
      chunks: { BS: [Buffer.from([1]).toString("base64"), Buffer.from([2, 3]).toString("base64")] },
      recent: { M: { sig_1: { M: { at: { S: "2026-01-01T00:00:00.000Z" }, raw: { B: "AQID" } } } } },
      history: { L: [{ N: "1.5" }, { NULL: true }, { BOOL: false }, { B: "/w==" }] },
    },
    SequenceNumber: "111100000000000000000001",
    SizeBytes: 320,
    StreamViewType: "NEW_AND_OLD_IMAGES",
  },
};

describe("changeRecordOf", () => {
  it("makes a Lambda record's images plain values, its binary bytes and its epoch seconds milliseconds", () => {
    expect(changeRecordOf(lambdaModify)).toEqual({
      id: "c4ca4238a0b923820dcc509a6f75849b",
      kind: "MODIFY",
      sequenceNumber: "111100000000000000000001",
      keys: { pk: "$kaizen#issue_1#01J", sk: "$kaizen#issue_1" },
      oldImage: { pk: "$kaizen#issue_1#01J", sk: "$kaizen#issue_1", version: 3, status: "todo" },
      newImage: {
        pk: "$kaizen#issue_1#01J",
        sk: "$kaizen#issue_1",
        version: 4,
        status: "in_progress",
        labels: new Set(["bug", "checkout"]),
        payload: new Uint8Array([0x1f, 0x8b, 0x08]),
        chunks: new Set([new Uint8Array([1]), new Uint8Array([2, 3])]),
        recent: { sig_1: { at: "2026-01-01T00:00:00.000Z", raw: new Uint8Array([1, 2, 3]) } },
        history: [1.5, null, false, new Uint8Array([0xff])],
      },
      at: 1_767_225_600_000,
    });
  });

  it("gives the bytes as Uint8Array, as the Streams API's records give them", () => {
    const { newImage } = changeRecordOf(lambdaModify);
    expect(newImage?.payload).toBeInstanceOf(Uint8Array);
    expect(Object.getPrototypeOf(newImage?.payload)).toBe(Uint8Array.prototype);
  });

  it("takes a Streams API record, its time a Date and its binary bytes already", () => {
    const record: _Record = {
      eventID: "7a3c1b0e-0000-4000-8000-000000000000",
      eventName: "INSERT",
      dynamodb: {
        ApproximateCreationDateTime: new Date("2026-01-01T00:01:00.000Z"),
        Keys: { pk: { S: "p" }, sk: { S: "s" } },
        NewImage: { pk: { S: "p" }, sk: { S: "s" }, bytes: { B: new Uint8Array([7, 8]) } },
        SequenceNumber: "000000000000000000042",
      },
    };
    expect(changeRecordOf(record)).toEqual({
      id: "7a3c1b0e-0000-4000-8000-000000000000",
      kind: "INSERT",
      sequenceNumber: "000000000000000000042",
      keys: { pk: "p", sk: "s" },
      newImage: { pk: "p", sk: "s", bytes: new Uint8Array([7, 8]) },
      at: Date.parse("2026-01-01T00:01:00.000Z"),
    });
  });

  it("leaves out the images a record does not have: no new image for a REMOVE", () => {
    const remove: DynamoDBRecord = {
      eventID: "e1",
      eventName: "REMOVE",
      dynamodb: {
        ApproximateCreationDateTime: 1_767_225_601,
        Keys: { pk: { S: "p" }, sk: { S: "s" } },
        OldImage: { pk: { S: "p" }, sk: { S: "s" }, title: { S: "gone" } },
        SequenceNumber: "2",
      },
    };
    const change = changeRecordOf(remove);
    expect(change.oldImage).toEqual({ pk: "p", sk: "s", title: "gone" });
    expect("newImage" in change).toBe(false);
  });

  it("refuses a record without its id, kind, sequence number, key or time", () => {
    const complete = lambdaModify.dynamodb ?? {};
    const broken: DynamoDBRecord[] = [
      { ...lambdaModify, eventID: undefined },
      { ...lambdaModify, eventName: undefined },
      { ...lambdaModify, dynamodb: { ...complete, SequenceNumber: undefined } },
      { ...lambdaModify, dynamodb: { ...complete, Keys: undefined } },
      { ...lambdaModify, dynamodb: { ...complete, ApproximateCreationDateTime: undefined } },
      { ...lambdaModify, dynamodb: undefined },
    ];
    for (const record of broken) expect(() => changeRecordOf(record)).toThrow(/Not a complete stream record/);
  });
});

describe("changesOf", () => {
  it("gives a Lambda stream event's changes in the order of its records", () => {
    const insert: DynamoDBRecord = {
      ...lambdaModify,
      eventID: "c81e728d9d4c2f636f067f89cc14862c",
      eventName: "INSERT",
      dynamodb: { ...lambdaModify.dynamodb, OldImage: undefined, SequenceNumber: "200" },
    };
    const event: DynamoDBStreamEvent = { Records: [insert, lambdaModify] };
    expect(changesOf(event)).toEqual([changeRecordOf(insert), changeRecordOf(lambdaModify)]);
    expect(changesOf(event).map((change) => change.kind)).toEqual(["INSERT", "MODIFY"]);
    expect(changesOf({ Records: [] })).toEqual([]);
  });
});

describe("an empty map", () => {
  it("reads as an empty map whether it comes as Lambda sends it or as the Streams client leaves it", () => {
    const record = (value: object) =>
      ({
        eventID: "e-1",
        eventName: "INSERT",
        dynamodb: {
          ApproximateCreationDateTime: 1_767_225_600,
          Keys: { pk: { S: "p" }, sk: { S: "s" } },
          NewImage: { pk: { S: "p" }, sk: { S: "s" }, recentSignals: value },
          SequenceNumber: "1",
        },
      }) as DynamoDBRecord;
    expect(changeRecordOf(record({ M: {} })).newImage?.recentSignals).toEqual({});
    // The Streams client gives `{"M": {}}` back as a value with no member.
    expect(changeRecordOf(record({})).newImage?.recentSignals).toEqual({});
  });
});
