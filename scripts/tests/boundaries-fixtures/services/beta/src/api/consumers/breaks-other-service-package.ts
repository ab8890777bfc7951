// Refused: one service imports another service by its package name (cross-service goes through packages/ and @hc/proto).
import { getAccount } from '@hc/alpha';

export const borrowed = getAccount;
