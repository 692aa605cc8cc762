/**
 * @module access/key-check — what a presented API key grants (docs/security.md): its grant, read by
 * the key's digest in one call (an update that also marks the key used) and kept for at most {@link GRANT_CACHE_MS} on this instance, so a
 * warm instance checks a key without a read and a revoked key is refused everywhere within that
 * bound, and at once on the instance that revoked it ({@link KeyCheck.forget}). An unknown, revoked
 * or expired key grants nothing.
 */
import type { ApiKeyStore, KeyGrant } from "./api-key-store.js";
import { keyDigest } from "./keys.js";

/** Longest a grant read on this instance is used without reading it again. */
export const GRANT_CACHE_MS = 30_000;

export class KeyCheck {
  private readonly grants = new Map<string, { grant: KeyGrant | undefined; readAt: number }>();

  constructor(
    private readonly store: Pick<ApiKeyStore, "useByDigest">,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The grant of `presented` if it is a live key (not revoked, not expired); undefined otherwise. */
  async grantOf(presented: string): Promise<KeyGrant | undefined> {
    const digest = keyDigest(presented);
    const at = this.now().getTime();
    const cached = this.grants.get(digest);
    const grant = cached && at - cached.readAt < GRANT_CACHE_MS ? cached.grant : await this.read(digest, at);
    if (!grant || grant.revokedAt !== null) return undefined;
    if (grant.expiresAt !== null && Date.parse(grant.expiresAt) <= at) return undefined;
    return grant;
  }

  /** Drops what this instance knows of key `id` (it was just revoked here). */
  forget(id: string): void {
    for (const [digest, { grant }] of this.grants) if (grant?.id === id) this.grants.delete(digest);
  }

  private async read(digest: string, at: number): Promise<KeyGrant | undefined> {
    const grant = await this.store.useByDigest(digest, new Date(at).toISOString());
    // Unknown keys are not kept: a guessed key costs a read each time, and a key made on another
    // instance works here at once.
    if (grant) this.grants.set(digest, { grant, readAt: at });
    return grant;
  }
}
