/** @module scripts/keygen — prints a fresh service API key (`npm run keygen`). */
import { generateApiKey } from "../core/src/http/auth.js";

console.log(generateApiKey());
