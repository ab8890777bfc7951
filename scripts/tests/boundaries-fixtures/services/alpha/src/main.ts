// Allowed: the composition root wires every layer.
import { fetchRates } from './adapters/rate-source.ts';
import { handlers } from './api/grpc/handlers.ts';
import { sweep } from './jobs/sweeper.ts';
import { clients } from './store/accounts.ts';

export const wired = [fetchRates, handlers, sweep, clients];
