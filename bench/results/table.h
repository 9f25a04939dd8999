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

#include <stdint.h>
#include <stdio.h>

enum table_mode { TABLE_STRICT = 0, TABLE_TORN_LAST = 1 };

/* The fields live in one text block (each NUL-terminated, a row's fields side by side, as the line was
 * read) and the cells are 4-byte offsets into it: a million-row tasks.csv then costs its text and 4 bytes per
 * field, not a heap block per field (which took ~1 KB per row and most of a merge's time). */
struct table {
  int ncol, nrow, cap;
  char **col;     /* ncol column names */
  uint32_t *cell; /* nrow * ncol offsets into text, row-major */
  char *text;     /* the fields */
  size_t text_len, text_cap;
  int n_dropped;    /* 1 when a torn last line was dropped (TABLE_TORN_LAST) */
  int dropped_line; /* its line number */
};

/* Reads path. Returns 0 on success; 1 if the file does not exist (errno ENOENT, *t NULL, no message);
 * 2 on any other problem, with a message on stderr naming the file (and line). */
int table_read(const char *path, enum table_mode mode, struct table **t);
/* As table_read, keeping only the columns named in keep (in the file's order; names the file lacks are
 * ignored; n_keep < 0: every column): a reader that needs a few columns of a million-row table holds those.
 */
int table_read_columns(const char *path, enum table_mode mode, int n_keep, const char *const *keep,
                       struct table **t);
/* An empty table with these columns (for building one in memory). */
struct table *table_create(int ncol, const char *const *names);
/* Appends a row (fields copied); 0 on success (1: out of memory, or over 4 GiB of text). */
int table_append(struct table *t, const char *const *fields);
/* Replaces one field (the text is copied); 0 on success. */
int table_set(struct table *t, int row, int col, const char *value);
/* The fields of row into fields[0..ncol-1] (pointers into t, valid until t changes). */
void table_row(const struct table *t, int row, const char **fields);
void table_destroy(struct table **t);
/* Removes the rows whose column col holds value; returns how many. */
int table_drop_rows(struct table *t, int col, const char *value);

/* A CSV file read a row at a time, by the rules of table_read (the merge of a million-task run reads its
 * ledgers so and keeps only where each row is). */
struct table_stream {
  FILE *fp;
  const char *path;
  enum table_mode mode;
  int ncol;
  char **col;   /* the header's names (ncol) */
  char **field; /* the current row's fields (ncol), into line */
  char *line;   /* the current row, its commas turned into NULs */
  size_t line_len, line_cap;
  long offset;  /* byte offset of the current row's line in the file */
  long next;    /* byte offset of the line after it */
  int lineno;   /* the current row's line number */
  int bad_line; /* a bad line seen (TABLE_TORN_LAST): dropped when it is the last */
  const char *bad_why;
  int n_dropped, dropped_line;
};
/* Opens path and reads its header: 0; 1 when the file does not exist (no message); 2 after a message. */
int table_stream_open(struct table_stream *s, const char *path, enum table_mode mode);
/* The next row into s->field: 1; 0 at the end (a torn last line dropped in TABLE_TORN_LAST mode: n_dropped);
 * 2 after a message naming the file and line. */
int table_stream_next(struct table_stream *s);
/* A column's index in the stream's header, -1 if absent. */
int table_stream_column(const struct table_stream *s, const char *name);
/* The current row as it was in the file (its commas put back; s->field is no longer valid): s->line. */
const char *table_stream_text(struct table_stream *s);
void table_stream_close(struct table_stream *s);

/* Column index by name, -1 if absent. */
int table_column(const struct table *t, const char *name);
static inline const char *table_get(const struct table *t, int row, int col)
{
  return t->text + t->cell[(size_t)row * (size_t)t->ncol + (size_t)col];
}
/* A field as a number: NAN when empty or not a number. */
double table_number(const struct table *t, int row, int col);
/* The same of a field's text (a streamed row's). */
double table_field_number(const char *s);
/* Writes header and rows; 0 on success. */
int table_write(const struct table *t, FILE *out);

#endif
