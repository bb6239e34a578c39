// Contracts of /voice_yuelu/admin (system): see docs/admin.md.
export {};
