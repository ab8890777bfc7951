// Refused: domain/ reaches into adapters/ (an outbound client is I/O, never a pure rule).
import { fetchRates } from '../adapters/rate-source.ts';

export const rates = fetchRates;
