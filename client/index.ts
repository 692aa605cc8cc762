/** @module client — the typed Kaizen client and its connection settings (see ./client.ts, ./config.ts). */
export {
  claimStopped,
  createKaizenClient,
  type ErrorDetail,
  KaizenApiError,
  type KaizenClient,
  type KaizenClientOptions,
  type paths,
  retryDelay,
  type Schema,
} from "./client.js";
export {
  type Connection,
  DEFAULT_URL,
  findKaizenEnvFile,
  KAIZEN_ENV_FILE,
  parseEnvFile,
  resolveConnection,
} from "./config.js";
