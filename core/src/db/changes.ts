/** placeholder: replaced by the stream-reader branch */
import type { Item } from "./item.js";

export interface ChangeRecord {
  id: string;
  kind: "INSERT" | "MODIFY" | "REMOVE";
  sequenceNumber: string;
  keys: Item;
  oldImage?: Item;
  newImage?: Item;
  at: number;
}
