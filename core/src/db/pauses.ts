/**
 * @module db/pauses — the waits of a polling loop that something else may cut short: a pause ends
 * after its time, or at once when woken for what it waits on; a stop ends every pause and every
 * later one. The stream reader (./stream-reader.ts) waits on its shards with them.
 */

/** What ends a pause early: a wish to poll for new records, or to list the shards; a stop ends every pause. */
export type Wake = "poll" | "list" | "stop";

export class Pauses {
  private readonly pending = new Set<{ wakeOn: Wake; end: () => void }>();
  private stopped = false;

  /** Waits `ms`, or less when woken for `wakeOn` or by a stop. */
  pause(ms: number, wakeOn: Wake): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const pause = {
        wakeOn,
        end: () => {
          clearTimeout(timer);
          this.pending.delete(pause);
          resolve();
        },
      };
      const timer = setTimeout(pause.end, ms);
      this.pending.add(pause);
    });
  }

  /** Ends the pauses waiting on `reason`; a stop ends them all, and every pause after it at once. */
  wake(reason: Wake): void {
    if (reason === "stop") this.stopped = true;
    for (const pause of this.pending) if (reason === "stop" || pause.wakeOn === reason) pause.end();
  }
}
