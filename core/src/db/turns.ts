/**
 * @module db/turns — turns per key within this process: work on one key runs one at a time, in
 * the order it arrived, so writers of one item never race each other through the database. Only
 * an optimisation: across processes the database's conditions still decide.
 */
export class TurnsByKey {
  private readonly tails = new Map<string, Promise<unknown>>();

  /**
   * Runs `work` after every earlier work of `key` has settled.
   * @example await reviews.run(versionId, () => applyReview(review));
   */
  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const turn = previous.then(work, work);
    const tail = turn.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await turn;
    } finally {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** Keys with work queued or running (for tests). */
  get size(): number {
    return this.tails.size;
  }
}
