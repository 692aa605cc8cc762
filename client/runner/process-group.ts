/**
 * @module client/runner/process-group — the command a dispatch runs, started in a process group of
 * its own (so that it, and whatever it starts, can be ended together) and ended as a group: TERM,
 * then KILL for whatever is left when the grace period is over.
 */
import { type ChildProcessByStdio, spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";

/** How a command ended: its exit code, or the signal that ended it. */
export interface CommandExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Why the command could not be started at all (`spawn claude ENOENT`); then `code` is 127. */
  startError?: string;
}

/** A started command and its group. */
export interface GroupedCommand {
  child: ChildProcessByStdio<Writable, Readable, Readable>;
  /** Resolves when the command (the group's leader) has exited. */
  exited: Promise<CommandExit>;
  /** Ends the whole group: TERM, then KILL once `graceMs` passed with any of it still alive. */
  terminate(graceMs: number): Promise<void>;
}

/** How often {@link GroupedCommand.terminate} looks whether the group is gone. */
const GROUP_POLL_MS = 50;
/** How long {@link GroupedCommand.terminate} waits for a KILLed group to be gone. */
const KILL_WAIT_MS = 2_000;

/**
 * Starts `command` with `args` and `env` as the leader of a new process group (its own session:
 * a terminal's Ctrl-C reaches the runner, never the command), its stdin, stdout and stderr piped.
 * A command that cannot start "exits" with code 127, as a shell would say, and says why.
 * @example const run = startGrouped("node", ["agent.js"], env); run.child.stdin.end(prompt); await run.exited;
 */
export function startGrouped(command: string, args: string[], env: NodeJS.ProcessEnv): GroupedCommand {
  const child = spawn(command, args, { env, detached: true, stdio: ["pipe", "pipe", "pipe"] });
  const exited = new Promise<CommandExit>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
    child.once("error", (error) => resolve({ code: 127, signal: null, startError: error.message }));
  });
  // A command that never reads its stdin closes it: the prompt it did not read is no error.
  child.stdin.on("error", () => undefined);
  return {
    child,
    exited,
    async terminate(graceMs) {
      const group = child.pid;
      if (group === undefined) return;
      if (!signalGroup(group, "SIGTERM")) return;
      const deadline = Date.now() + graceMs;
      while (Date.now() < deadline) {
        await sleep(Math.min(GROUP_POLL_MS, Math.max(1, deadline - Date.now())));
        if (!groupAlive(group)) return;
      }
      signalGroup(group, "SIGKILL");
      // A killed process may linger as a zombie where nothing reaps orphans: wait a little, not forever.
      const reaped = Date.now() + KILL_WAIT_MS;
      while (groupAlive(group) && Date.now() < reaped) await sleep(GROUP_POLL_MS);
    },
  };
}

/** Sends `signal` to every process of the group; false when none is left. */
function signalGroup(group: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-group, signal);
    return true;
  } catch {
    return false;
  }
}

/** Whether any process of the group still lives (signal 0 checks without sending). */
function groupAlive(group: number): boolean {
  return signalGroup(group, 0);
}
