import pg from 'pg';

/** One connection to the PostgreSQL at `url` for `fn`, closed afterwards whatever happens (admin
 * statements, counts from outside the app's pool). */
export async function withPgClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
