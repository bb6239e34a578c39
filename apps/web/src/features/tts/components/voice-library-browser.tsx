import type { MyVoice, VoiceItem, VoiceOption } from "@yuelu/contracts";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Pagination } from "@/components/ui/pagination.tsx";
import { EmptyState, ErrorState, Spinner } from "@/components/ui/states.tsx";
import { useAccountReady } from "@/lib/account.ts";
import { useSelectOptions } from "../api/get-select-options.ts";
import { useSoundList } from "../api/get-sound-list.ts";
import { useSamplePlayer } from "../hooks/use-sample-player.ts";
import { ALL, type FilterKey, type LibraryFilters, NO_FILTERS } from "../lib/library-query.ts";
import { setCurrentAudio } from "../lib/playing.ts";
import { MyVoiceGrid } from "./my-voice-grid.tsx";
import { VoiceCard } from "./voice-card.tsx";
import "./voice-library-browser.css";

const PAGE_SIZE = 12;

const FILTERS: { key: FilterKey; options: "languages" | "genders" | "ageGroups" | "styles" }[] = [
  { key: "language", options: "languages" },
  { key: "gender", options: "genders" },
  { key: "ageGroup", options: "ageGroups" },
  { key: "style", options: "styles" },
];

/**
 * The voice library: filters from select_options (-1 = all), a page of voice cards, a sample of
 * each (one plays at a time) and the card's action — 'use this voice' on the library page, 'choose'
 * in the editor's picker. Signed in, a 'mine' filter lists my own voices instead (issue 20).
 */
export function VoiceLibraryBrowser({
  action,
  selectedId,
  onChoose,
  selectedMineId,
  onChooseMine,
}: {
  action: "use" | "pick";
  selectedId?: number | null;
  onChoose: (voice: VoiceItem) => void;
  selectedMineId?: number | null;
  /** where given (and signed in), the 'mine' filter is offered */
  onChooseMine?: (voice: MyVoice) => void;
}) {
  const { t } = useTranslation();
  const signedIn = useAccountReady();
  const [source, setSource] = useState<"library" | "mine">(selectedMineId ? "mine" : "library");
  const showMine = signedIn && onChooseMine !== undefined && source === "mine";
  const [filters, setFilters] = useState<LibraryFilters>(NO_FILTERS);
  const [keyword, setKeyword] = useState("");
  const [page, setPage] = useState(1);
  const options = useSelectOptions();
  const list = useSoundList(filters, page, PAGE_SIZE);
  const player = useSamplePlayer();
  const { stop } = player;

  // The search waits for a pause in typing.
  useEffect(() => {
    const timer = setTimeout(() => {
      setFilters((f) => (f.keyword === keyword ? f : { ...f, keyword }));
      setPage(1);
    }, 300);
    return () => clearTimeout(timer);
  }, [keyword]);

  // Another page or other filters: what played is no longer listed.
  // biome-ignore lint/correctness/useExhaustiveDependencies: stops on a change of page or filters
  useEffect(() => stop(), [filters, page, stop]);

  const playingId = player.current?.phase === "playing" ? player.current.promptId : null;
  const voices = useMemo(() => setCurrentAudio(list.data?.list ?? [], playingId), [list.data, playingId]);

  const setFilter = (key: FilterKey, value: string) => {
    setFilters((f) => ({ ...f, [key]: value }));
    setPage(1);
  };

  return (
    <div className="voice-library">
      {signedIn && onChooseMine && (
        <div className="voice-source" role="radiogroup" aria-label={t("voices.source")}>
          {(["library", "mine"] as const).map((s) => (
            // biome-ignore lint/a11y/useSemanticElements: a two-option segmented control styled as buttons
            <button
              key={s}
              type="button"
              role="radio"
              aria-checked={source === s}
              className={source === s ? "voice-source-option active" : "voice-source-option"}
              onClick={() => {
                stop();
                setSource(s);
              }}
              data-testid={`voice-source-${s}`}
            >
              {t(`voices.sourceOf.${s}`)}
            </button>
          ))}
        </div>
      )}
      {showMine ? <MyVoiceGrid action={action} selectedId={selectedMineId} onChoose={onChooseMine} /> : libraryPart()}
      {/* biome-ignore lint/a11y/useMediaCaption: a voice sample is speech with its text shown on the card */}
      <audio ref={player.audioRef} preload="none" data-testid="sample-audio" hidden />
    </div>
  );

  // A plain function, not a component: the search box keeps its focus across renders.
  function libraryPart() {
    return (
      <>
        <div className="voice-filters">
          {FILTERS.map(({ key, options: name }) => (
            <label key={key} className="voice-filter">
              <span className="field-label">{t(`voices.filter.${key}`)}</span>
              <select
                className="input select"
                value={filters[key]}
                onChange={(e) => setFilter(key, e.target.value)}
                data-testid={`filter-${key}`}
              >
                <option value={ALL}>{t(`voices.allOf.${key}`)}</option>
                {(options.data?.[name] ?? ([] as VoiceOption[])).map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
            </label>
          ))}
          <label className="voice-filter voice-search">
            <span className="field-label">{t("voices.search")}</span>
            <input
              className="input"
              type="search"
              value={keyword}
              maxLength={50}
              placeholder={t("voices.searchPlaceholder")}
              onChange={(e) => setKeyword(e.target.value)}
            />
          </label>
        </div>

        {list.isPending ? (
          <Spinner />
        ) : list.isError ? (
          <ErrorState onRetry={() => list.refetch()} />
        ) : voices.length === 0 ? (
          <EmptyState icon="◎" text={t("voices.empty")} />
        ) : (
          <>
            <ul className="voice-grid" aria-busy={list.isFetching}>
              {voices.map((voice) => (
                <VoiceCard
                  key={voice.promptId}
                  voice={voice}
                  action={action}
                  selected={selectedId === voice.promptId}
                  loading={player.current?.promptId === voice.promptId && player.current.phase === "loading"}
                  failure={player.failure?.promptId === voice.promptId ? player.failure.message : undefined}
                  onToggle={() => player.toggle(voice)}
                  onUse={() => {
                    stop();
                    onChoose(voice);
                  }}
                />
              ))}
            </ul>
            <Pagination page={page} pageSize={PAGE_SIZE} total={list.data.total} onPage={setPage} />
          </>
        )}
      </>
    );
  }
}
