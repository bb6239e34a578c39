import { meKeys } from "../../account/api.ts";

export const transcriptKeys = {
  all: [...meKeys.all, "transcript"] as const,
  text: (fileId: number) => [...meKeys.all, "transcript", fileId] as const,
};
