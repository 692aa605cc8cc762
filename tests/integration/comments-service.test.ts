/**
 * Comments through CommentService and CommentStore on DynamoDB Local: storage, threading,
 * pagination and the cost of a page. (The HTTP behaviour is in comments.test.ts.)
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { CommentService } from "../../core/src/comments/comment-service.js";
import type { CommentStore } from "../../core/src/comments/comment-store.js";
import { NotFoundError, ValidationError } from "../../core/src/errors.js";
import type { Db, DbUsage } from "../../core/src/index.js";
import { commentService, commentStore, issueService } from "../../core/src/services.js";
import { CONFLICT_MODES, freshTable } from "../helpers/db.js";

const UNKNOWN_ISSUE = "iss_01ARZ3NDEKTSV4RRFFQ69G5FAV";
const UNKNOWN_COMMENT = "cmt_01ARZ3NDEKTSV4RRFFQ69G5FAV";
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

interface Fixture {
  db: Db;
  store: CommentStore;
  comments: CommentService;
  newIssue(): Promise<{ id: string; identifier: string }>;
}

async function fixture(options: { emulateConflicts?: boolean } = {}): Promise<Fixture> {
  const { db } = await freshTable(options);
  const deps = { db };
  const issues = issueService(deps);
  const store = commentStore(deps);
  const comments = commentService(deps);
  let n = 0;
  return {
    db,
    store,
    comments,
    newIssue: async () => (await issues.createIssue({ title: `Issue ${++n}`, type: "task" })).issue,
  };
}

const say = (body: string, extra: { parentId?: string | null; authorType?: "human" | "agent" } = {}) => ({
  body,
  authorName: "Ada",
  authorType: extra.authorType ?? ("human" as const),
  ...(extra.parentId !== undefined ? { parentId: extra.parentId } : {}),
});

async function costOf<T>(db: Db, call: () => Promise<T>): Promise<{ result: T; usage: DbUsage }> {
  const before = db.usage();
  const result = await call();
  const after = db.usage();
  return {
    result,
    usage: {
      calls: after.calls - before.calls,
      readCapacity: after.readCapacity - before.readCapacity,
      writeCapacity: after.writeCapacity - before.writeCapacity,
    },
  };
}

describe("CommentService", () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await fixture();
  });

  it("adds a comment with every field of the contract, and lists it", async () => {
    const issue = await f.newIssue();
    const { comment, version } = await f.comments.addComment(issue.id, say("First!", { authorType: "agent" }));
    expect(version).toBe(1);
    expect(comment).toEqual({
      id: expect.stringMatching(/^cmt_[0-9A-HJKMNP-TV-Z]{26}$/),
      issueId: issue.id,
      parentId: null,
      body: "First!",
      authorName: "Ada",
      authorType: "agent",
      createdAt: expect.stringMatching(ISO_MS),
      updatedAt: comment.createdAt,
    });
    expect(await f.comments.listComments(issue.id, { page: 1, limit: 20 })).toEqual({ comments: [comment], total: 1 });
  });

  it("takes the issue by KZN-<n> as well as by id", async () => {
    const issue = await f.newIssue();
    const { comment } = await f.comments.addComment(issue.identifier, say("by reference"));
    expect(comment.issueId).toBe(issue.id);
    expect((await f.comments.listComments(issue.identifier, { page: 1, limit: 20 })).comments).toEqual([comment]);
    expect((await f.comments.listComments(issue.id, { page: 1, limit: 20 })).comments).toEqual([comment]);
  });

  it("lists oldest first and pages 25 comments as 20 + 5 with the total, then an empty page", async () => {
    const issue = await f.newIssue();
    const other = await f.newIssue();
    await f.comments.addComment(other.id, say("elsewhere"));
    const created: string[] = [];
    for (let i = 1; i <= 25; i++) created.push((await f.comments.addComment(issue.id, say(`comment ${i}`))).comment.id);

    const first = await f.comments.listComments(issue.id, { page: 1, limit: 20 });
    const second = await f.comments.listComments(issue.id, { page: 2, limit: 20 });
    const past = await f.comments.listComments(issue.id, { page: 3, limit: 20 });
    expect([first.total, second.total, past.total]).toEqual([25, 25, 25]);
    expect(first.comments).toHaveLength(20);
    expect(second.comments).toHaveLength(5);
    expect(past.comments).toEqual([]);
    expect([...first.comments, ...second.comments].map((c) => c.id)).toEqual(created);
    expect(first.comments.map((c) => c.body).slice(0, 2)).toEqual(["comment 1", "comment 2"]);
    const times = [...first.comments, ...second.comments].map((c) => c.createdAt);
    expect([...times].sort()).toEqual(times);

    const middle = await f.comments.listComments(issue.id, { page: 3, limit: 7 });
    expect(middle.comments.map((c) => c.id)).toEqual(created.slice(14, 21));
  });

  it("threads replies of any depth, and filters the direct replies of one comment", async () => {
    const issue = await f.newIssue();
    const root = (await f.comments.addComment(issue.id, say("root"))).comment;
    const other = (await f.comments.addComment(issue.id, say("another root"))).comment;
    const reply1 = (await f.comments.addComment(issue.id, say("reply 1", { parentId: root.id }))).comment;
    const nested = (await f.comments.addComment(issue.id, say("reply to reply", { parentId: reply1.id }))).comment;
    const reply2 = (await f.comments.addComment(issue.id, say("reply 2", { parentId: root.id }))).comment;
    const topLevel = (await f.comments.addComment(issue.id, say("top level", { parentId: null }))).comment;

    expect(reply1.parentId).toBe(root.id);
    expect(nested.parentId).toBe(reply1.id);
    expect(topLevel.parentId).toBeNull();

    const all = await f.comments.listComments(issue.id, { page: 1, limit: 20 });
    expect(all.comments.map((c) => c.body)).toEqual([
      "root",
      "another root",
      "reply 1",
      "reply to reply",
      "reply 2",
      "top level",
    ]);
    expect(all.total).toBe(6);

    const replies = await f.comments.listComments(issue.id, { page: 1, limit: 20, parentId: root.id });
    expect(replies).toEqual({ comments: [reply1, reply2], total: 2 });
    expect(await f.comments.listComments(issue.identifier, { page: 1, limit: 1, parentId: root.id })).toEqual({
      comments: [reply1],
      total: 2,
    });
    expect(await f.comments.listComments(issue.id, { page: 1, limit: 20, parentId: reply1.id })).toEqual({
      comments: [nested],
      total: 1,
    });
    expect(await f.comments.listComments(issue.id, { page: 1, limit: 20, parentId: other.id })).toEqual({
      comments: [],
      total: 0,
    });
  });

  it("answers an empty page for the replies of an unknown comment or of another issue's comment", async () => {
    const issue = await f.newIssue();
    const other = await f.newIssue();
    const foreign = (await f.comments.addComment(other.id, say("theirs"))).comment;
    await f.comments.addComment(other.id, say("their reply", { parentId: foreign.id }));
    const page = { page: 1, limit: 20 };
    expect(await f.comments.listComments(issue.id, { ...page, parentId: foreign.id })).toEqual({
      comments: [],
      total: 0,
    });
    expect(await f.comments.listComments(issue.id, { ...page, parentId: UNKNOWN_COMMENT })).toEqual({
      comments: [],
      total: 0,
    });
  });

  it("refuses a parent that is not a comment of the same issue, writing nothing", async () => {
    const issue = await f.newIssue();
    const other = await f.newIssue();
    const foreign = (await f.comments.addComment(other.id, say("theirs"))).comment;
    for (const parentId of [foreign.id, UNKNOWN_COMMENT]) {
      const error = await f.comments.addComment(issue.id, say("reply", { parentId })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).status).toBe(400);
      expect((error as ValidationError).message).toBe(`parentId: comment ${parentId} is not a comment of this issue`);
      expect((error as ValidationError).details).toEqual([
        { path: "parentId", message: `comment ${parentId} is not a comment of this issue` },
      ]);
    }
    expect(await f.comments.listComments(issue.id, { page: 1, limit: 20 })).toEqual({ comments: [], total: 0 });
    expect((await f.comments.listComments(other.id, { page: 1, limit: 20 })).total).toBe(1);
  });

  it("404s for an unknown issue, by id, by KZN-<n> or by anything else", async () => {
    for (const ref of [UNKNOWN_ISSUE, "KZN-99999", "nope"]) {
      await expect(f.comments.addComment(ref, say("hello"))).rejects.toBeInstanceOf(NotFoundError);
      await expect(f.comments.listComments(ref, { page: 1, limit: 20 })).rejects.toThrow(`Issue ${ref} not found`);
    }
  });

  describe.each(CONFLICT_MODES)("$mode", ({ emulateConflicts }) => {
    it("takes concurrent comments on one issue without losing one or miscounting", async () => {
      const f = await fixture({ emulateConflicts });
      const issue = await f.newIssue();
      const created = await Promise.all(
        Array.from({ length: 12 }, (_, i) => f.comments.addComment(issue.id, say(`parallel ${i}`))),
      );
      const listed = await f.comments.listComments(issue.id, { page: 1, limit: 100 });
      expect(listed.total).toBe(12);
      expect(new Set(listed.comments.map((c) => c.id))).toEqual(new Set(created.map(({ comment }) => comment.id)));
    });
  });
});

describe("comment costs", () => {
  let f: Fixture;
  let issueId: string;
  let created: string[];
  // Comments over six hours, so pages cross count buckets. Future times keep the process's
  // monotonic ids honest for anything created after this block.
  const start = Date.parse("2100-01-01T00:10:00.000Z");
  beforeAll(async () => {
    f = await fixture();
    issueId = (await f.newIssue()).id;
    created = [];
    for (let i = 0; i < 30; i++) {
      const at = start + i * 12 * 60_000;
      const { comment } = await f.store.create(
        { issueId, parentId: null, body: `comment ${i}`, authorName: "Ada", authorType: "human" },
        () => at,
      );
      created.push(comment.id);
    }
  });

  it("reads any page in at most three calls (counts, entries, BatchGet), across hour buckets", async () => {
    for (const [offset, limit] of [
      [0, 20],
      [20, 20],
      [7, 9],
      [13, 1],
      [29, 5],
    ] as const) {
      const { result, usage } = await costOf(f.db, () => f.store.list({ issueId, offset, limit }));
      expect(result.total).toBe(30);
      expect(result.comments.map((c) => c.id)).toEqual(created.slice(offset, offset + limit));
      expect(usage.calls).toBeLessThanOrEqual(3);
    }
  });

  it("answers a page past the end from the counts alone (one call)", async () => {
    const { result, usage } = await costOf(f.db, () => f.store.list({ issueId, offset: 40, limit: 20 }));
    expect(result).toEqual({ comments: [], total: 30 });
    expect(usage.calls).toBe(1);
  });

  it("reads a page by issue id in three calls: the issue is looked up only when the page is empty", async () => {
    const { result, usage } = await costOf(f.db, () => f.comments.listComments(issueId, { page: 2, limit: 20 }));
    expect(result.comments).toHaveLength(10);
    expect(usage.calls).toBe(3);
    const empty = await costOf(f.db, () => f.comments.listComments(issueId, { page: 9, limit: 20 }));
    expect(empty.result.comments).toEqual([]);
    expect(empty.usage.calls).toBeLessThanOrEqual(3);
  });

  it("writes a comment or a reply in one transaction after the issue lookup", async () => {
    const root = await costOf(f.db, () => f.comments.addComment(issueId, say("costed")));
    expect(root.usage.calls).toBe(2);
    const reply = await costOf(f.db, () =>
      f.comments.addComment(issueId, say("costed reply", { parentId: root.result.comment.id })),
    );
    expect(reply.usage.calls).toBe(2);
    const replies = await costOf(f.db, () =>
      f.store.list({ issueId, parentId: root.result.comment.id, offset: 0, limit: 20 }),
    );
    expect(replies.result.comments).toEqual([reply.result.comment]);
    expect(replies.usage.calls).toBeLessThanOrEqual(3);
  });
});
