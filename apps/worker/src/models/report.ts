import type { EngineReport } from "@yuelu/runtime";
import { type AsrConfig, modelWanted } from "../engines/asr/factory.ts";
import type { AsrEngineName } from "../engines/asr/types.ts";
import type { ModelProvisioner, ModelState } from "./provisioner.ts";

/**
 * Where each speech engine's model came from — or, while it cannot be fetched, why each source
 * failed — added to the worker's speech recognition reports for operators: /readyz and the console
 * show these fields; the pages users see never read them (the API words only the problem key).
 */
export function withModelSources(reports: EngineReport[], config: AsrConfig, models: ModelProvisioner): EngineReport[] {
  return reports.map((report) => {
    const want = modelWanted(report.engine as AsrEngineName, config);
    return want ? { ...report, ...provenanceOf(models.stateOf(want)) } : report;
  });
}

function provenanceOf(state: ModelState): Pick<EngineReport, "modelSource" | "sourceFailures"> {
  switch (state.state) {
    case "ready":
      return {
        ...(state.source ? { modelSource: state.source } : {}),
        ...(state.failures?.length ? { sourceFailures: state.failures } : {}),
      };
    case "downloading":
      return { modelSource: state.source };
    case "failed":
      return { sourceFailures: state.failures };
    case "missing":
      return {};
  }
}
