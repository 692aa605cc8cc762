/** @module db/item — what the table holds: items, and the key (`pk`, `sk`) every item has. */
export type Item = Record<string, unknown>;
export type Key = { pk: string; sk: string };
