export { atEndOfTurn, endOfTurn } from './end-of-turn.ts';
export { Batcher, UNLIMITED } from './batcher.ts';
export type { BatcherOptions, Pending } from './batcher.ts';
export { GroupedReads } from './grouped-reads.ts';
export type { GroupedReadsOptions } from './grouped-reads.ts';
export { sharedCalls } from './shared-calls.ts';
export { groupCommit, groupCommitEach } from './group-commit.ts';
export { backoffDelay, WorkLoop } from './work-loop.ts';
export type { BackoffSettings, StepResult, WorkLoopOptions } from './work-loop.ts';
