// Entry of the voice-print worker thread. The app runs TypeScript through tsx, whose loader a new
// thread does not reliably inherit (Node 20 applies neither `register()` nor `--import tsx` hooks to
// workers): register it here, then load the TypeScript side.
import { register } from "tsx/esm/api";

register();
await import("./voice-print-thread.ts");
