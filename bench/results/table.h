/* table.h — a CSV table read into memory: the one reader of the engine's files (ledgers, tasks.csv,
 * summary.csv) for resume, merge, aggregation, plots and bench_compare.
 * Format: a header line of column names, then rows of the same number of comma-separated fields. No
 * quoting (the engine never writes commas inside a field). Lines starting with '#' and blank lines are
 * skipped. A row with the wrong number of fields or without its newline is corrupt: table_read fails with
 * a message naming the file and line — except that in TABLE_TORN_LAST mode (ledgers, which a kill -9 may
 * cut mid-write) a bad LAST line is a torn row and is dropped (n_dropped = 1, dropped_line its number);
 * a bad line followed by good ones is still corruption. */
#ifndef CB_TABLE_H
#define CB_TABLE_H

#include <stdio.h>

enum table_mode { TABLE_STRICT = 0, TABLE_TORN_LAST = 1 };

struct table {
  int ncol, nrow, cap;
  char **col;       /* ncol column names */
  char **cell;      /* nrow * ncol field pointers, row-major, into owned storage */
  int n_dropped;    /* 1 when a torn last line was dropped (TABLE_TORN_LAST) */
  int dropped_line; /* its line number */
};

/* Reads path. Returns 0 on success; 1 if the file does not exist (errno ENOENT, *t NULL, no message);
 * 2 on any other problem, with a message on stderr naming the file (and line). */
int table_read(const char *path, enum table_mode mode, struct table **t);
/* An empty table with these columns (for building one in memory). */
struct table *table_create(int ncol, const char *const *names);
/* Appends a row (fields copied); 0 on success. */
int table_append(struct table *t, const char *const *fields);
void table_destroy(struct table **t);
/* Removes the rows whose column col holds value; returns how many. */
int table_drop_rows(struct table *t, int col, const char *value);

/* Column index by name, -1 if absent. */
int table_column(const struct table *t, const char *name);
static inline const char *table_get(const struct table *t, int row, int col)
{
  return t->cell[(size_t)row * (size_t)t->ncol + (size_t)col];
}
/* A field as a number: NAN when empty or not a number. */
double table_number(const struct table *t, int row, int col);
/* Writes header and rows; 0 on success. */
int table_write(const struct table *t, FILE *out);

#endif
