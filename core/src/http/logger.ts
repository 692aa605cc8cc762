/** @module http/logger — the structured JSON logger (Powertools); one per process. */
import { Logger } from "@aws-lambda-powertools/logger";

/** Default logger; level from `POWERTOOLS_LOG_LEVEL` (INFO when unset). */
export const defaultLogger = new Logger({ serviceName: "kaizen" });

export type { Logger };
