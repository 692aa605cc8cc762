/**
 * @module db/changes — one change of the table as a plain record, from a raw stream record: as the
 * DynamoDB Streams API returns it (the local stream reader, db/stream-reader.ts) or as a Lambda
 * stream event carries it. Both sources give the same record for the same change.
 */
import type { AttributeValue } from "@aws-sdk/client-dynamodb";
import { unmarshall } from "@aws-sdk/util-dynamodb";
import type { Item } from "./item.js";

/** One change of one item, in plain values. */
export interface ChangeRecord {
  /** The stream record's eventID: the same every time this change is read or redelivered. */
  id: string;
  kind: "INSERT" | "MODIFY" | "REMOVE";
  /** Orders the changes of one shard (and so of one item): a decimal string, compare by length then text. */
  sequenceNumber: string;
  /** The item's key (`pk`, `sk`). */
  keys: Item;
  /** The item before the change (absent for an INSERT). */
  oldImage?: Item;
  /** The item after the change (absent for a REMOVE). */
  newImage?: Item;
  /** When the change was made (epoch ms), from ApproximateCreationDateTime. */
  at: number;
}

/**
 * One attribute value in DynamoDB's wire form, as far as binary goes: Lambda's event carries
 * binary (`B`, `BS`) as base64 text where the Streams API gives bytes.
 */
interface WireValue {
  B?: Uint8Array | string | undefined;
  BS?: (Uint8Array | string)[] | undefined;
  L?: WireValue[] | undefined;
  M?: Record<string, WireValue> | undefined;
}
type WireImage = Record<string, WireValue>;

/**
 * A raw stream record: the DynamoDB Streams client's `_Record` (its time a Date) and aws-lambda's
 * `DynamoDBRecord` (its time in epoch seconds) both fit.
 */
export interface RawStreamRecord {
  eventID?: string | undefined;
  eventName?: "INSERT" | "MODIFY" | "REMOVE" | undefined;
  dynamodb?:
    | {
        ApproximateCreationDateTime?: Date | number | undefined;
        Keys?: WireImage | undefined;
        OldImage?: WireImage | undefined;
        NewImage?: WireImage | undefined;
        SequenceNumber?: string | undefined;
      }
    | undefined;
}

/**
 * The change a raw stream record describes, its key and images unmarshalled as every read of the
 * table is (numbers as numbers, binary as Uint8Array). Throws on a record without its id, kind,
 * sequence number, key or time, which DynamoDB always sends.
 * @example const changes = (out.Records ?? []).map(changeRecordOf);
 */
export function changeRecordOf(record: RawStreamRecord): ChangeRecord {
  const stream = record.dynamodb;
  const id = record.eventID;
  const kind = record.eventName;
  const sequenceNumber = stream?.SequenceNumber;
  const time = stream?.ApproximateCreationDateTime;
  if (!id || !kind || !sequenceNumber || !stream?.Keys || time === undefined) {
    throw new Error(`Not a complete stream record: ${JSON.stringify(record)}`);
  }
  const change: ChangeRecord = {
    id,
    kind,
    sequenceNumber,
    keys: plain(stream.Keys),
    at: typeof time === "number" ? time * 1000 : time.getTime(),
  };
  if (stream.OldImage) change.oldImage = plain(stream.OldImage);
  if (stream.NewImage) change.newImage = plain(stream.NewImage);
  return change;
}

/**
 * The changes one Lambda stream event carries, in the order of its records.
 * @example await handoffs.handleChanges(changesOf(event));
 */
export function changesOf(event: { Records: readonly RawStreamRecord[] }): ChangeRecord[] {
  return event.Records.map((record) => changeRecordOf(record));
}

function plain(image: WireImage): Item {
  return unmarshall(mapValues(image, withBytes)) as Item;
}

/** The value with binary given as base64 text turned into bytes, at any depth. */
function withBytes(value: WireValue): AttributeValue {
  // The Streams client reads an empty map (`{"M": {}}`) as a value with no member at all; nothing
  // else comes out empty, so it stands for the empty map it was.
  if (Object.keys(value).length === 0) return { M: {} };
  if (value.B !== undefined) return { B: bytesOf(value.B) };
  if (value.BS) return { BS: value.BS.map(bytesOf) };
  if (value.L) return { L: value.L.map(withBytes) };
  if (value.M) return { M: mapValues(value.M, withBytes) };
  return value as AttributeValue;
}

function bytesOf(value: Uint8Array | string): Uint8Array {
  return typeof value === "string" ? new Uint8Array(Buffer.from(value, "base64")) : value;
}

function mapValues<T, U>(record: Record<string, T>, map: (value: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(record).map(([name, value]) => [name, map(value)]));
}
