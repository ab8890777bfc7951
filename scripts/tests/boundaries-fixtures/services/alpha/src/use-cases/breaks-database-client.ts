// Refused: a use case opens its own pg pool (only store/ touches a database client).
import pg from 'pg';

export const pool = new pg.Pool();
