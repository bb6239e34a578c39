// Contracts of /voice_yuelu/admin (content): see docs/admin.md.
export {};
