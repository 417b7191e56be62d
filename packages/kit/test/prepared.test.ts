import { freshDatabase } from '@app/testing';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, prepared } from '../src/index.ts';

let db: Awaited<ReturnType<typeof freshDatabase>>;
let pool: pg.Pool;

beforeAll(async () => {
  db = await freshDatabase();
  pool = createPool(db.url, 'public', 1); // one connection: what it has prepared is what the pool has
  await pool.query('CREATE TABLE notes (id int PRIMARY KEY, body text NOT NULL)');
});
afterAll(async () => {
  await pool.end();
  await db.drop();
});

const preparedOnConnection = async () =>
  (await pool.query<{ name: string; statement: string }>('SELECT name, statement FROM pg_prepared_statements')).rows;

describe('prepared', () => {
  it('names a text once and prepares it once per connection, whatever its values', async () => {
    const text = 'INSERT INTO notes (id, body) VALUES ($1, $2) RETURNING id, body';
    const first = prepared(text, [1, 'one']);
    expect(prepared(text, [2, 'two']).name).toBe(first.name);
    expect(prepared('SELECT body FROM notes WHERE id = $1', [1]).name).not.toBe(first.name);

    for (let id = 1; id <= 8; id++) {
      const { rows } = await pool.query(prepared(text, [id, `note ${id}`]));
      expect(rows).toEqual([{ id, body: `note ${id}` }]); // each call with its own values, past the generic plan's 5
    }
    const statements = await preparedOnConnection();
    expect(statements.filter((s) => s.statement === text)).toEqual([{ name: first.name, statement: text }]);
  });

  it('keeps a statement prepared through a failed call and a rolled back transaction on that connection', async () => {
    // As pgTransactions does: the connection held, BEGIN, a statement that fails, ROLLBACK, released, used again.
    const client = await pool.connect();
    try {
      const text = 'SELECT 100 / $1::int AS n';
      await client.query('BEGIN');
      expect((await client.query(prepared(text, [5]))).rows).toEqual([{ n: 20 }]);
      await expect(client.query(prepared(text, [0]))).rejects.toThrow(/division by zero/);
      await client.query('ROLLBACK');
      expect((await client.query(prepared(text, [4]))).rows).toEqual([{ n: 25 }]);
      await client.query('BEGIN');
      await expect(
        client.query(prepared('INSERT INTO notes (id, body) VALUES ($1, $2)', [1, 'again'])),
      ).rejects.toThrow(/duplicate key/);
      await client.query('ROLLBACK');
      const statements = (await client.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements'))
        .rows;
      expect(statements.filter((s) => s.statement === text)).toHaveLength(1);
    } finally {
      client.release();
    }
    expect((await pool.query(prepared('SELECT body FROM notes WHERE id = $1', [1]))).rows).toEqual([
      { body: 'note 1' },
    ]);
  });

  it('answers with the table as it is now after a column is added under a prepared statement', async () => {
    const text = 'SELECT id, body FROM notes WHERE id = $1';
    expect((await pool.query(prepared(text, [2]))).rows).toEqual([{ id: 2, body: 'note 2' }]);
    await pool.query("ALTER TABLE notes ADD COLUMN tag text NOT NULL DEFAULT 'x'"); // a rolling deploy's migration
    await pool.query('UPDATE notes SET body = $1 WHERE id = 2', ['changed']);
    expect((await pool.query(prepared(text, [2]))).rows).toEqual([{ id: 2, body: 'changed' }]);
  });
});
