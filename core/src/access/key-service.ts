/**
 * @module access/key-service — API keys as the API serves them (docs/security.md): made with a fresh
 * text shown once, listed and read without it, revoked at once on this instance (and within the
 * check's cache bound everywhere). Time comes from an injected clock.
 */
import { retryRaces } from "../db/retry.js";
import { fieldError, NotFoundError } from "../errors.js";
import { checkVersion, type ExpectedVersions } from "../http/conditional.js";
import type { ApiKey, ApiKeyStore, StoredKey } from "./api-key-store.js";
import type { KeyCheck } from "./key-check.js";
import { API_KEY_ID, KEY_PREFIX_LENGTH, newApiKeyId, newKeyText } from "./keys.js";
import type { CreateKeyBody } from "./schemas.js";

/** Which of `ids` name no project (handed in by the composition root: projects are the catalog's). */
export type UnknownProjects = (ids: string[]) => Promise<string[]>;

export class KeyService {
  constructor(
    private readonly store: ApiKeyStore,
    private readonly check: Pick<KeyCheck, "forget">,
    private readonly unknownProjects: UnknownProjects,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** A new key and its text, shown this once; 400 for an expiry not in the future or a project that does not exist. */
  async create(input: CreateKeyBody): Promise<{ apiKey: ApiKey & { key: string }; version: number }> {
    const now = this.now();
    if (input.expiresAt !== undefined && Date.parse(input.expiresAt) <= now.getTime()) {
      throw fieldError("expiresAt", "must be in the future");
    }
    const missing = input.projectIds ? await this.unknownProjects(input.projectIds) : [];
    if (missing.length > 0) {
      const message = `no project ${missing.join(", ")}`;
      throw fieldError("projectIds", message);
    }
    const { id, createdAt } = newApiKeyId(now.getTime());
    const { key, digest } = newKeyText();
    const made = await this.store.create(
      {
        id,
        name: input.name,
        scopes: input.scopes,
        projectIds: input.projectIds ?? null,
        prefix: key.slice(0, KEY_PREFIX_LENGTH),
        createdAt,
        expiresAt: input.expiresAt ?? null,
        lastUsedAt: null,
        revokedAt: null,
      },
      digest,
    );
    return { apiKey: { ...made.apiKey, key }, version: made.version };
  }

  /** Every key, oldest first, revoked ones included. */
  list(): Promise<ApiKey[]> {
    return this.store.all();
  }

  async get(id: string): Promise<StoredKey> {
    const found = API_KEY_ID.test(id) ? await this.store.get(id) : undefined;
    if (!found) throw new NotFoundError(`Key ${id} not found`);
    return found;
  }

  /**
   * Revokes key `id` if it is at a version `expected` lists (412 otherwise; any version when undefined):
   * refused at once here, and on every instance within the check's cache bound. A key revoked
   * already keeps its first revocation.
   */
  async revoke(id: string, expected?: ExpectedVersions): Promise<StoredKey> {
    const revoked = await retryRaces(async () => {
      const current = await this.get(id);
      checkVersion(expected, current.version);
      if (current.apiKey.revokedAt) return current;
      return this.store.revoke(current, this.now().toISOString());
    });
    this.check.forget(id);
    return revoked;
  }
}
