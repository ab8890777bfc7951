// Allowed: store/ is the one layer that talks to a database client.
import pg from 'pg';
import { PrismaClient } from './generated/prisma/client.ts';

export const clients = [pg, PrismaClient];
export interface Account {
  readonly id: string;
}
