// Refused: an HTTP route reaches past the use cases into store/.
import { clients } from '../../store/accounts.ts';

export const route = clients;
