import type { ReactNode } from "react";

/**
 * What the detail page takes from elsewhere, handed in by the route (app/routes/detail.tsx) so
 * this feature does not reach into the records feature: the transcribe dialog, and the hot words.
 */
export interface DetailSlots {
  /** the transcribe dialog for `record`, open while it is not null */
  transcribeDialog: (
    record: { fileId: number; fileStatus: number; timeLen: number } | null,
    onClose: () => void,
  ) => ReactNode;
  /** the hot words editor, one of the side tabs */
  hotWords: ReactNode;
}
