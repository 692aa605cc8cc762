/** @module dashboard/schemas — what the dashboard's routes accept (API.md 3.7). */
import * as z from "zod/mini";
import { paginationQuery } from "../http/pagination.js";

/** The dashboard's lists take nothing but a page. */
export const dashboardPageQuery = z.strictObject({ ...paginationQuery });
