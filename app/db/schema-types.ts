/** Timestamps are ISO-8601 UTC strings on both engines (sortable, engine-neutral). */
export type Timestamp = string;
/** Booleans are stored as 0/1 integers on both engines. */
export type Flag = 0 | 1;
