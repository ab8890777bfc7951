// Stands in for a generated Prisma client.
export class PrismaClient {}
