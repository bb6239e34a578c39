import * as Popover from "@radix-ui/react-popover";
import { useTranslation } from "react-i18next";
import { type ExportKind, exportFileName, useExportTranscript } from "../api/export-transcript.ts";

const KINDS: [ExportKind, string][] = [
  ["txt", "transcript.exportTxt"],
  ["word", "transcript.exportWord"],
  ["srt", "transcript.exportSrt"],
  ["vtt", "transcript.exportVtt"],
];

/** Exports: TXT, Word, SRT, VTT as blobs, and the original file as a streamed download. */
export function ExportMenu({
  fileId,
  fileName,
  audioHref,
  transcribed,
}: {
  fileId: number;
  fileName: string;
  audioHref: string;
  transcribed: boolean;
}) {
  const { t } = useTranslation();
  const exporter = useExportTranscript(fileId);
  return (
    <Popover.Root>
      <Popover.Trigger className="btn btn-secondary" data-testid="export-menu">
        {exporter.isPending ? t("transcript.exporting") : t("transcript.export")} ▾
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="popover menu-popover" align="end" sideOffset={6}>
          {transcribed &&
            KINDS.map(([kind, label]) => (
              <Popover.Close
                key={kind}
                className="menu-item"
                data-testid={`export-${kind}`}
                disabled={exporter.isPending}
                onClick={() => exporter.mutate({ kind, fileName: exportFileName(kind, fileName, "") })}
              >
                {t(label)}
              </Popover.Close>
            ))}
          <a className="menu-item" href={audioHref} download={fileName} data-testid="download-audio">
            {t("transcript.downloadAudio")}
          </a>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
