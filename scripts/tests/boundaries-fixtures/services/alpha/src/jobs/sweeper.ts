// Allowed: a job runs a use case on a schedule.
import { getAccount } from '../use-cases/get-account.ts';

export const sweep = (): string => getAccount('acct_1').id;
