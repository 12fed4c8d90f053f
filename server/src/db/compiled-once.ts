import { CompiledQuery, type Kysely } from 'kysely';

/** Stands in for argument `i` while the query is compiled the one time. */
const SENTINEL = '\u0000takes-argument-';

interface Compilable<Row> {
  compile(): CompiledQuery<Row>;
}

/**
 * A query Kysely builds and compiles once, then runs with new arguments.
 *
 * Building a query with Kysely's builder and compiling it to SQL costs tens of microseconds,
 * every time: for the queries every request makes (the session, the access check of a Range
 * request) that was a visible share of the request. Here the builder runs once with stand-in
 * values; the SQL is kept with the positions of the arguments among its parameters, and each call
 * only puts the new values in. The arguments must go into the query as parameters (the builder's
 * values, as `where(column, '=', value)` makes them), never into its SQL text: a stand-in found in
 * the SQL, or an argument not found among the parameters, is refused when it is compiled.
 */
export class CompiledOnce<Args extends string[], Row> {
  private compiled: { sql: string; parameters: readonly unknown[]; slots: number[] } | undefined;

  constructor(
    private readonly db: Kysely<never>,
    private readonly arity: Args['length'],
    private readonly build: (...args: Args) => Compilable<Row>,
  ) {}

  async execute(...args: Args): Promise<Row[]> {
    const compiled = (this.compiled ??= this.compile());
    const parameters = compiled.parameters.map((value, index) => {
      const slot = compiled.slots[index] ?? -1;
      return slot === -1 ? value : args[slot];
    });
    return (await this.db.executeQuery<Row>(CompiledQuery.raw(compiled.sql, parameters))).rows;
  }

  async executeTakeFirst(...args: Args): Promise<Row | undefined> {
    return (await this.execute(...args))[0];
  }

  private compile() {
    const standIns = Array.from({ length: this.arity }, (_, i) => `${SENTINEL}${i}`) as Args;
    const query = this.build(...standIns).compile();
    if (query.sql.includes(SENTINEL)) throw new Error('An argument was written into the SQL text');
    const slots = query.parameters.map((value) =>
      typeof value === 'string' && value.startsWith(SENTINEL)
        ? Number(value.slice(SENTINEL.length))
        : -1,
    );
    for (let i = 0; i < this.arity; i++)
      if (!slots.includes(i)) throw new Error(`Argument ${i} is not a parameter of the query`);
    return { sql: query.sql, parameters: query.parameters, slots };
  }
}
