export { runHousekeeping } from "./jobs/housekeeping.ts";
export { startWorkers, type WorkerContext } from "./workers.ts";
