// Allowed: a use case reads the store and applies domain rules.
import { isPositive } from '../domain/account-rules.ts';
import type { Account } from '../store/accounts.ts';

export const getAccount = (id: string): Account => ({ id: isPositive('1') ? id : '' });
