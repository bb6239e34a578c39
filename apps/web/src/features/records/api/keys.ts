import { meKeys } from "../../account/api.ts";

/** Query keys of the records feature; under ["me"], so signing in or out drops them. */
export const recordKeys = {
  all: [...meKeys.all, "records"] as const,
  lists: () => [...recordKeys.all, "list"] as const,
  list: (params: object) => [...recordKeys.all, "list", params] as const,
  recycle: (params: object) => [...recordKeys.all, "recycle", params] as const,
  record: (fileId: number) => [...recordKeys.all, "record", fileId] as const,
  progress: (fileIds: readonly number[]) => [...recordKeys.all, "progress", fileIds.join(",")] as const,
  menus: meKeys.menus,
  hotWords: [...meKeys.all, "hotWords"] as const,
  dictationConfig: ["dictation", "configuration"] as const,
};
