/**
 * @module db/in-flight — work running in this process, by key, so that requests for the same
 * thing that arrive together wait for the first instead of racing it through the database (a
 * provider redelivering while the first webhook delivery is being stored, a storm opening one issue).
 * Correctness never depends on it: across processes the database's conditions decide.
 */
export class InFlight {
  private readonly running = new Map<string, Promise<unknown>>();

  /** The work now running under `key`, if any: it settles as that work does. */
  pending(key: string): Promise<unknown> | undefined {
    return this.running.get(key);
  }

  /**
   * Runs `work` registered under `key` until it settles.
   * @example const result = await deliveries.run(deliveryId, () => store(delivery));
   */
  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const running = work();
    this.running.set(key, running);
    try {
      return await running;
    } finally {
      if (this.running.get(key) === running) this.running.delete(key);
    }
  }
}

/**
 * Keys seen in this process within the last `ttlMs` (at most `capacity` of them, the oldest
 * forgotten first): what a request learned that the next ones should act on for a while, such as
 * an item other transactions keep holding.
 */
export class RecentlySeen {
  private readonly until = new Map<string, number>();

  constructor(
    private readonly ttlMs: number,
    private readonly capacity = 1_000,
  ) {}

  remember(key: string): void {
    this.until.delete(key);
    this.until.set(key, Date.now() + this.ttlMs);
    for (const oldest of this.until.keys()) {
      if (this.until.size <= this.capacity) break;
      this.until.delete(oldest);
    }
  }

  has(key: string): boolean {
    const until = this.until.get(key);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    this.until.delete(key);
    return false;
  }
}
