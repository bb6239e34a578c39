// Contracts of /voice_yuelu/admin (catalogue): see docs/admin.md.
export {};
