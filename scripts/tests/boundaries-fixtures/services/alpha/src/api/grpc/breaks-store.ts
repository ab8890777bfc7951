// Refused: an API handler reaches past the use cases into store/ (a type import counts too).
import type { Account } from '../../store/accounts.ts';

export type Answer = Account;
