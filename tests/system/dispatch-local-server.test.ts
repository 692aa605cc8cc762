/**
 * Claims as agents make them: real concurrent HTTP requests against the local server (two of
 * them on one table, as two hosts would be), with AWS's transaction conflicts emulated and not.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/src/index.js";
import { freePort } from "../../infra/local/dynamodb.js";
import { type LocalStack, startLocalStack } from "../../infra/local/stack.js";
import { CONFLICT_MODES, dynamodbEndpoint, TEST_API_KEY } from "../helpers/db.js";

const stacks: LocalStack[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const stack of stacks) await stack.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function server(tableName: string, emulateConflicts: boolean): Promise<LocalStack> {
  const endpoint = dynamodbEndpoint();
  const config = {
    ...loadConfig({ env: { DYNAMODB_ENDPOINT: endpoint, TABLE_NAME: tableName } }),
    serviceApiKey: TEST_API_KEY,
    emulateConflicts,
    port: await freePort(),
  };
  const dataDir = mkdtempSync(join(tmpdir(), "kaizen-claims-"));
  dirs.push(dataDir);
  // No outbound events: two change-stream readers polling the table and handling every write of
  // the burst would double DynamoDB Local's work, and nothing here looks at events.
  const stack = await startLocalStack({ config, dataDir, hostname: "127.0.0.1", events: false });
  stacks.push(stack);
  return stack;
}

const headers = { Authorization: `Bearer ${TEST_API_KEY}`, "Content-Type": "application/json" };

describe.each(CONFLICT_MODES)("claims over HTTP ($mode)", ({ emulateConflicts }) => {
  it("30 agents at once on two servers against 20 eligible issues: each issue claimed once, 10 × 204", async () => {
    const tableName = `kaizen_claims_${emulateConflicts ? "on" : "off"}_${Date.now()}`;
    const [a, b] = [await server(tableName, emulateConflicts), await server(tableName, emulateConflicts)];
    const created = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const response = await fetch(`${a.url.replace("localhost", "127.0.0.1")}/api/issues`, {
          method: "POST",
          headers,
          body: JSON.stringify({ title: `http ${i}`, type: "task", status: "todo", priority: (i % 4) + 1 }),
        });
        expect(response.status).toBe(201);
        return ((await response.json()) as { data: { id: string } }).data.id;
      }),
    );
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        fetch(`${(i % 2 ? a : b).url.replace("localhost", "127.0.0.1")}/api/dispatch/claim`, {
          method: "POST",
          headers,
          body: JSON.stringify({ agent: `agent-${i}` }),
        }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([...Array(20).fill(201), ...Array(10).fill(204)]);
    const claimed = await Promise.all(
      answers
        .filter((answer) => answer.status === 201)
        .map(async (answer) => ((await answer.json()) as { data: { issue: { id: string } } }).data.issue.id),
    );
    expect(new Set(claimed)).toEqual(new Set(created));
    const active = await fetch(`${a.url.replace("localhost", "127.0.0.1")}/api/dispatch?status=active&limit=100`, {
      headers,
    });
    const body = (await active.json()) as { data: { issueId: string }[]; total: number };
    expect(body.total).toBe(20);
    expect(new Set(body.data.map(({ issueId }) => issueId)).size).toBe(20);
  });
});
