export { startWorkers, type WorkerContext } from "./workers.ts";
export { runHousekeeping } from "./jobs/housekeeping.ts";
