// Refused: domain/ reaches into store/.
import type { Account } from '../store/accounts.ts';

export type Shape = Account;
