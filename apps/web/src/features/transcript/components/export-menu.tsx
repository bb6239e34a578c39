import * as Popover from "@radix-ui/react-popover";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { readStorage, StorageKey, writeStorage } from "@/lib/storage.ts";
import {
  DEFAULT_EXPORT_OPTIONS,
  type ExportKind,
  type ExportOptions,
  exportFileName,
  type SubtitleTranslation,
  useExportTranscript,
} from "../api/export-transcript.ts";
import { useNotes } from "../api/get-notes.ts";
import { isNoteDone } from "../lib/notes.ts";
import "./export-menu.css";

const KINDS: [ExportKind, string][] = [
  ["txt", "transcript.exportTxt"],
  ["word", "transcript.exportWord"],
  ["srt", "transcript.exportSrt"],
  ["vtt", "transcript.exportVtt"],
];

function storedOptions(): ExportOptions {
  try {
    const stored = JSON.parse(readStorage(StorageKey.exportOptions) ?? "{}");
    return {
      withSpeaker: typeof stored.withSpeaker === "boolean" ? stored.withSpeaker : DEFAULT_EXPORT_OPTIONS.withSpeaker,
      withTime: typeof stored.withTime === "boolean" ? stored.withTime : DEFAULT_EXPORT_OPTIONS.withTime,
    };
  } catch {
    return DEFAULT_EXPORT_OPTIONS;
  }
}

/** The subtitle exports that carry a translation: with it under the original, or it alone. */
function translatedKinds(targets: ("zh" | "en")[]) {
  return targets.flatMap((target) =>
    (["srt", "vtt"] as const).flatMap((kind) =>
      [true, false].map((bilingual) => ({ kind, translation: { target, bilingual } as SubtitleTranslation })),
    ),
  );
}

/**
 * Exports: TXT, Word, SRT, VTT as blobs (subtitles also with a done translation) — with or without speakers and times (remembered on this
 * device) — and the original file as a streamed download. Share has its own button beside it (share-button.tsx).
 */
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
  const [options, setOptions] = useState(storedOptions);
  const choose = (change: Partial<ExportOptions>) => {
    const next = { ...options, ...change };
    setOptions(next);
    writeStorage(StorageKey.exportOptions, JSON.stringify(next));
  };
  const notes = useNotes(fileId, transcribed);
  const targets = (notes.data?.notes ?? [])
    .filter((n) => n.kind === "translation" && isNoteDone(n))
    .map((n) => n.target as "zh" | "en");
  return (
    <Popover.Root>
      <Popover.Trigger className="btn btn-secondary" data-testid="export-menu">
        {exporter.isPending ? t("transcript.exporting") : t("transcript.export")} ▾
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="popover menu-popover" align="end" sideOffset={6}>
          {transcribed && (
            <fieldset className="export-options">
              <legend className="sr-only">{t("transcript.exportOptions")}</legend>
              <label>
                <input
                  type="checkbox"
                  checked={options.withSpeaker}
                  onChange={(e) => choose({ withSpeaker: e.target.checked })}
                  data-testid="export-with-speaker"
                />
                {t("transcript.exportWithSpeaker")}
              </label>
              <label>
                <input
                  type="checkbox"
                  checked={options.withTime}
                  onChange={(e) => choose({ withTime: e.target.checked })}
                  data-testid="export-with-time"
                />
                {t("transcript.exportWithTime")}
              </label>
            </fieldset>
          )}
          {transcribed &&
            KINDS.map(([kind, label]) => (
              <Popover.Close
                key={kind}
                className="menu-item"
                data-testid={`export-${kind}`}
                disabled={exporter.isPending}
                onClick={() => exporter.mutate({ kind, fileName: exportFileName(kind, fileName, ""), options })}
              >
                {t(label)}
              </Popover.Close>
            ))}
          {transcribed &&
            translatedKinds(targets).map(({ kind, translation }) => (
              <Popover.Close
                key={`${kind}-${translation.target}-${translation.bilingual}`}
                className="menu-item"
                data-testid={`export-${kind}-${translation.target}${translation.bilingual ? "-bilingual" : ""}`}
                disabled={exporter.isPending}
                onClick={() =>
                  exporter.mutate({
                    kind,
                    // "会议.en.srt": beside the original's subtitles, a player picks it up as their English track
                    fileName: exportFileName(kind, fileName, "").replace(/\.(srt|vtt)$/, `.${translation.target}.$1`),
                    options,
                    translation,
                  })
                }
              >
                {t(translation.bilingual ? "transcript.exportWithTranslation" : "transcript.exportTranslationOnly", {
                  kind: t(kind === "srt" ? "transcript.exportSrt" : "transcript.exportVtt"),
                  lang: t(`notes.lang.${translation.target}`),
                })}
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
