// Allowed: an API handler reaches a use case and a shared package.
import { ApiError } from '@hc/errors';
import { getAccount } from '../../use-cases/get-account.ts';

export const handlers = { getAccount, ApiError };
