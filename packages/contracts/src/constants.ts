/**
 * `@yuelu/contracts/constants`: everything of the contracts that is not a zod schema — status
 * codes and their messages, the words that name a limit (server-messages.ts), statuses, limits, the text
 * rule and the validation-message catalogue.
 * The web app imports these (and the schemas' types with `import type`), so no zod reaches its bundle.
 */
export * from "./codes.ts";
export * from "./engines.ts";
export * from "./limits.ts";
export * from "./live-constants.ts";
export * from "./records-constants.ts";
export * from "./server-messages.ts";
export * from "./share-constants.ts";
export * from "./statuses.ts";
export * from "./syllables.ts";
export * from "./text.ts";
export * from "./tts-constants.ts";
export * from "./validation.ts";
export * from "./voice-constants.ts";
export * from "./webhook-constants.ts";
export * from "./words.ts";
