// Refused: one service imports another service's src (cross-service goes through packages/ and @hc/proto).
import { getAccount } from '../../../alpha/src/use-cases/get-account.ts';

export const borrowed = getAccount;
