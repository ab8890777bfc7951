// Refused: a use case imports the generated Prisma client (only store/ may).
import { PrismaClient } from '../store/generated/prisma/client.ts';

export const client = PrismaClient;
