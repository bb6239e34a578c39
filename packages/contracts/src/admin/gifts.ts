// Contracts of /voice_yuelu/admin (gifts): see docs/admin.md.
export {};
