import type { Clip, Segment } from "@yuelu/contracts";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { CopyButton } from "@/components/ui/copy-button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { formatDuration } from "@/lib/format.ts";
import { timedSegments, useCreateClip, useDeleteClip, useShareClip } from "../api/clips.ts";
import { useWordSelection } from "../hooks/use-word-selection.ts";
import { clipRange } from "../lib/clip-range.ts";
import "./clip-button.css";

/** An address of ours as the page uses it (same origin: the session's cookie goes with it). */
const local = (url: string) => {
  try {
    const u = new URL(url, window.location.href);
    return u.pathname + u.search;
  } catch {
    return url;
  }
};

/**
 * Select words in the transcript → "剪辑 / Clip" (issue 45, docs/clips.md): a button by the selection cuts
 * the record from the first selected word's start to the last one's end (their measured times: the
 * segments are read with their words), then shows the clip — played, downloadable with its captions,
 * shareable as its own public link, deletable.
 */
export function ClipButton({ fileId, segments }: { fileId: number; segments: readonly Segment[] }) {
  const { t } = useTranslation();
  const selection = useWordSelection();
  const create = useCreateClip(fileId);
  const [clip, setClip] = useState<Clip | null>(null);

  const make = async () => {
    if (!selection) return;
    // the words' times: the page's segments do not carry them; the text selected is the page's
    const timed = await timedSegments(fileId).catch(() => null);
    const withWords = segments.map((s, i) => {
      const w = timed?.[i];
      return w && w.text === s.text && w.words ? { ...s, words: w.words } : s;
    });
    const range = clipRange(withWords, selection.from, selection.to);
    if (!range) {
      toast(t("clips.noWords"));
      return;
    }
    const made = await create.mutateAsync(range).catch(() => null);
    if (made) {
      document.getSelection()?.removeAllRanges();
      setClip(made);
    }
  };

  return (
    <>
      {selection && !clip && (
        <div
          className="clip-float"
          style={{ top: Math.max(8, selection.rect.bottom + 6), left: Math.max(8, selection.rect.left) }}
        >
          <Button
            size="sm"
            // keep the selection: the button takes no focus on press
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => void make()}
            disabled={create.isPending}
            aria-label={t("clips.makeLabel")}
            data-testid="clip-make"
          >
            {create.isPending ? t("clips.making") : t("clips.make")}
          </Button>
        </div>
      )}
      {clip && <ClipDialog fileId={fileId} clip={clip} onClose={() => setClip(null)} />}
    </>
  );
}

function ClipDialog({ fileId, clip, onClose }: { fileId: number; clip: Clip; onClose: () => void }) {
  const { t } = useTranslation();
  const share = useShareClip(fileId);
  const remove = useDeleteClip(fileId);
  const [link, setLink] = useState<string | null>(null);
  const seconds = Math.max(1, Math.round((clip.endTime - clip.startTime) / 1000));
  const done = clip.status === 2;
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={t("clips.title")}>
      <div className="clip-dialog" data-testid="clip-dialog">
        <p className="clip-title">{clip.title}</p>
        <p className="muted">
          {t(clip.kind === "video" ? "clips.video" : "clips.audio")} ·{" "}
          {t("clips.length", { duration: formatDuration(seconds) })}
        </p>
        {done ? (
          clip.kind === "video" ? (
            // biome-ignore lint/a11y/useMediaCaption: the clip's captions are offered for download beside it
            <video className="clip-media" src={local(clip.url)} controls preload="metadata" data-testid="clip-media" />
          ) : (
            // biome-ignore lint/a11y/useMediaCaption: the clip's captions are offered for download beside it
            <audio
              className="clip-media"
              src={local(clip.audioUrl)}
              controls
              preload="metadata"
              data-testid="clip-media"
            />
          )
        ) : (
          <p className="muted">{clip.status === -1 ? t("clips.failed") : t("clips.cutting")}</p>
        )}
        {done && (
          <div className="clip-actions">
            <a className="btn btn-secondary btn-sm" href={local(clip.url)} download data-testid="clip-download">
              {t("clips.download")}
            </a>
            <a className="btn btn-ghost btn-sm" href={`${local(clip.captionsUrl)}&format=srt`} download>
              {t("clips.captions")}
            </a>
            <Button
              size="sm"
              variant="secondary"
              disabled={share.isPending || link !== null}
              onClick={() =>
                void share
                  .mutateAsync(clip.clipId)
                  .then((l) => setLink(l.url))
                  .catch(() => {})
              }
              data-testid="clip-share"
            >
              {t("clips.share")}
            </Button>
            <Button
              size="sm"
              variant="danger"
              disabled={remove.isPending}
              onClick={() =>
                void remove
                  .mutateAsync(clip.clipId)
                  .then(() => {
                    toast(t("clips.deleted"));
                    onClose();
                  })
                  .catch(() => {})
              }
            >
              {t("clips.delete")}
            </Button>
          </div>
        )}
        {link && (
          <div className="clip-link">
            <input className="input" readOnly value={link} data-testid="clip-link" aria-label={t("clips.share")} />
            <CopyButton text={link} />
            <p className="muted">{t("clips.shareNote")}</p>
          </div>
        )}
      </div>
    </Dialog>
  );
}
