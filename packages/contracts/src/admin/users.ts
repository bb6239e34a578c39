// Contracts of /voice_yuelu/admin (users): see docs/admin.md.
export {};
