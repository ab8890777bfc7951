// Refused: domain/ opens a socket.
import { createConnection } from 'node:net';

export const open = createConnection;
