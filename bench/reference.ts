/**
 * @module bench/reference — the floor a Lambda handler is measured against: Hono plus one
 * DynamoDB GetItem through the plain client, nothing else (docs/contributing.md#budgets).
 */
import { DynamoDBClient, GetItemCommand } from "@aws-sdk/client-dynamodb";
import { Hono } from "hono";
import { handle } from "hono/aws-lambda";

// Made once at module scope, as the functions do.
const client = new DynamoDBClient({
  region: process.env.AWS_REGION ?? "us-east-1",
  ...(process.env.DYNAMODB_ENDPOINT ? { endpoint: process.env.DYNAMODB_ENDPOINT } : {}),
});

const app = new Hono();

app.get("/items/:id", async (c) => {
  const out = await client.send(
    new GetItemCommand({
      TableName: process.env.TABLE_NAME ?? "bench",
      Key: { pk: { S: c.req.param("id") }, sk: { S: c.req.param("id") } },
    }),
  );
  return out.Item ? c.json(out.Item) : c.json({ error: "Not found" }, 404);
});

export const handler = handle(app);
