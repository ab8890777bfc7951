// Allowed: an adapter speaks to the outside world over HTTP.
import { request } from 'node:https';

export const fetchRates = request;
