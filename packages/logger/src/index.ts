// CONTRACT (to be implemented): see docs/architecture.md
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
