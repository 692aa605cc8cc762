/**
 * @module tests/helpers/fresh-modules — setup of each integration file, whose files share a worker
 * (vitest.config.ts): Kaizen's own modules are evaluated afresh for the file, as in a process of its
 * own, so state a module keeps for its process (the instant ids last named, counts running hot, the
 * conflict emulator's held items, caches) is never another file's. Packages under `node_modules` stay
 * loaded: they keep no state a test depends on, and loading them again is most of what a new process
 * per file cost.
 */
import { vi } from "vitest";

vi.resetModules();
