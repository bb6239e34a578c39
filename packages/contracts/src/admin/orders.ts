// Contracts of /voice_yuelu/admin (orders): see docs/admin.md.
export {};
