/**
 * The LIMIT clause of a statement whose row limit is a bound parameter.
 *
 * SQLite (3.47 on) reads the value bound to a plain `LIMIT ?` while it plans the statement, and so marks the statement
 * to be prepared again whenever that parameter is bound again: a whole parse and plan on every call, as better-sqlite3
 * binds every parameter on every call. A unary plus hides the value from the planner (its look at a LIMIT's bound
 * value stops at a plain parameter), so the statement is prepared once and the limit is read when it runs.
 */
export const BOUND_LIMIT = 'LIMIT +?';
