import pg from 'pg';

/** The part of Prisma's runtime data model that names tables and columns. */
export interface PrismaDataModel {
  models: Record<string, { dbName: string | null; fields: { name: string; kind: string; dbName?: string | null }[] }>;
}

/**
 * Differences between a migrated database and a Prisma schema: tables or columns the schema has and
 * the migrations do not create, and columns the migrations create that the schema does not know.
 * Migrations are hand-written SQL (docs/adr/0003), so this is what keeps them honest.
 */
export async function schemaDrift(databaseUrl: string, dataModel: PrismaDataModel): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ table_name: string; column_name: string }>(
      `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'`,
    );
    const columns = new Map<string, Set<string>>();
    for (const row of rows) {
      if (!columns.has(row.table_name)) columns.set(row.table_name, new Set());
      columns.get(row.table_name)!.add(row.column_name);
    }
    const problems: string[] = [];
    for (const [modelName, model] of Object.entries(dataModel.models)) {
      const table = model.dbName ?? modelName;
      const actual = columns.get(table);
      if (!actual) {
        problems.push(`table ${table} (model ${modelName}) is not created by the migrations`);
        continue;
      }
      const expected = new Set(model.fields.filter((f) => f.kind === 'scalar' || f.kind === 'enum').map((f) => f.dbName ?? f.name));
      for (const column of expected) if (!actual.has(column)) problems.push(`column ${table}.${column} is missing from the migrations`);
      for (const column of actual) if (!expected.has(column)) problems.push(`column ${table}.${column} is not in schema.prisma`);
    }
    return problems;
  } finally {
    await client.end();
  }
}
