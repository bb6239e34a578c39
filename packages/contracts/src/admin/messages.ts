// Contracts of /voice_yuelu/admin (messages): see docs/admin.md.
export {};
