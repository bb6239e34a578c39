/** The library's filters (-1 = all) and the query they make. */
export interface LibraryFilters {
  language: string;
  gender: string;
  ageGroup: string;
  style: string;
  keyword: string;
}

export const ALL = "-1";

export const NO_FILTERS: LibraryFilters = { language: ALL, gender: ALL, ageGroup: ALL, style: ALL, keyword: "" };

export const FILTER_KEYS = ["language", "gender", "ageGroup", "style"] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];

/** Spec §5: library queries drop any filter parameter whose value is -1 (and empty ones). */
export function dropUnset(params: Record<string, string | number | undefined>): Record<string, string | number> {
  return Object.fromEntries(
    Object.entries(params).filter(([, v]) => v !== undefined && v !== "" && v !== -1 && v !== "-1"),
  ) as Record<string, string | number>;
}

export function soundListParams(filters: LibraryFilters, page: number, pageSize: number) {
  return dropUnset({
    page,
    pageSize,
    language: filters.language,
    gender: filters.gender,
    ageGroup: filters.ageGroup,
    style: filters.style,
    keyword: filters.keyword.trim(),
    source: 0,
  });
}
