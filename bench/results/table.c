/* table.c — CSV tables for the sweep engine (see table.h for the format, the torn-line rule and why the
 * fields live in one text block). */
#include "table.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static char *dup_str(const char *s)
{
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

/* Splits line (modified in place) at commas; returns the field count, fields in f (up to max). */
static int split(char *line, char **f, int max)
{
  int n = 0;
  char *p = line;
  for (;;) {
    char *c = strchr(p, ',');
    if (n < max) f[n] = p;
    n++;
    if (!c) break;
    *c = '\0';
    p = c + 1;
  }
  return n;
}

struct table *table_create(int ncol, const char *const *names)
{
  struct table *t = calloc(1, sizeof *t);
  if (!t) return NULL;
  t->ncol = ncol;
  t->col = calloc((size_t)ncol + 1, sizeof *t->col);
  if (!t->col) goto fail;
  for (int j = 0; j < ncol; j++)
    if (!(t->col[j] = dup_str(names[j]))) goto fail;
  return t;
fail:
  table_destroy(&t);
  return NULL;
}

/* Room for n more bytes of text; the offset where they go, or -1 (out of memory, or past what a 4-byte
 * offset reaches). */
static long long text_reserve(struct table *t, size_t n)
{
  if (t->text_len + n > UINT32_MAX) {
    fprintf(stderr, "error: a table of over 4 GiB of text\n");
    return -1;
  }
  if (t->text_len + n > t->text_cap) {
    size_t cap = t->text_cap ? 2 * t->text_cap : 4096;
    while (cap < t->text_len + n)
      cap *= 2;
    char *b = realloc(t->text, cap);
    if (!b) return -1;
    t->text = b;
    t->text_cap = cap;
  }
  long long at = (long long)t->text_len;
  t->text_len += n;
  return at;
}

/* Room for one more row of offsets: its first cell, or NULL. */
static uint32_t *row_reserve(struct table *t)
{
  if (t->nrow == t->cap) {
    int cap = t->cap ? 2 * t->cap : 64;
    uint32_t *c = realloc(t->cell, (size_t)cap * (size_t)t->ncol * sizeof *c);
    if (!c) return NULL;
    t->cell = c;
    t->cap = cap;
  }
  return t->cell + (size_t)t->nrow * (size_t)t->ncol;
}

int table_append(struct table *t, const char *const *fields)
{
  uint32_t *row = row_reserve(t);
  if (!row) return 1;
  for (int j = 0; j < t->ncol; j++) {
    const char *v = fields[j] ? fields[j] : "";
    size_t n = strlen(v) + 1;
    long long at = text_reserve(t, n);
    if (at < 0) return 1;
    memcpy(t->text + at, v, n);
    row[j] = (uint32_t)at;
  }
  t->nrow++;
  return 0;
}

/* Appends a row whose fields lie side by side in [line, line + len] (split in place): one copy. */
static int append_split(struct table *t, const char *line, size_t len, char *const *fields)
{
  uint32_t *row = row_reserve(t);
  long long at = row ? text_reserve(t, len + 1) : -1;
  if (at < 0) return 1;
  memcpy(t->text + at, line, len + 1);
  for (int j = 0; j < t->ncol; j++)
    row[j] = (uint32_t)(at + (fields[j] - line));
  t->nrow++;
  return 0;
}

int table_set(struct table *t, int row, int col, const char *value)
{
  size_t n = strlen(value) + 1;
  long long at = text_reserve(t, n);
  if (at < 0) return 1;
  memcpy(t->text + at, value, n);
  t->cell[(size_t)row * (size_t)t->ncol + (size_t)col] = (uint32_t)at;
  return 0;
}

void table_row(const struct table *t, int row, const char **fields)
{
  for (int j = 0; j < t->ncol; j++)
    fields[j] = table_get(t, row, j);
}

int table_drop_rows(struct table *t, int col, const char *value)
{
  int kept = 0, dropped = 0;
  size_t w = (size_t)t->ncol;
  for (int i = 0; i < t->nrow; i++) {
    if (strcmp(table_get(t, i, col), value) == 0) {
      dropped++;
      continue;
    }
    if (kept != i) memmove(&t->cell[(size_t)kept * w], &t->cell[(size_t)i * w], w * sizeof *t->cell);
    kept++;
  }
  t->nrow = kept;
  return dropped;
}

void table_destroy(struct table **tp)
{
  if (!tp || !*tp) return;
  struct table *t = *tp;
  free(t->cell);
  free(t->text);
  if (t->col)
    for (int j = 0; j < t->ncol; j++)
      free(t->col[j]);
  free(t->col);
  free(t);
  *tp = NULL;
}

/* Reads one line of any length into s->line; returns its length (0 at end of file, -1 for an empty line);
 * *newline says whether it ended with '\n' (which is removed, as is a '\r' before it). Advances s->next. */
static long read_line(struct table_stream *s, int *newline)
{
  long n = (long)getline(&s->line, &s->line_cap, s->fp);
  *newline = 0;
  if (n <= 0) return 0;
  s->offset = s->next;
  s->next += n;
  if (s->line[n - 1] == '\n') {
    s->line[--n] = '\0';
    *newline = 1;
    if (n > 0 && s->line[n - 1] == '\r') s->line[--n] = '\0';
  }
  s->line_len = (size_t)n;
  return n == 0 ? -1 : n;
}

int table_stream_open(struct table_stream *s, const char *path, enum table_mode mode)
{
  memset(s, 0, sizeof *s);
  s->path = path;
  s->mode = mode;
  if (!(s->fp = fopen(path, "r"))) {
    if (errno == ENOENT) return 1;
    fprintf(stderr, "error: cannot read %s: %s\n", path, strerror(errno));
    return 2;
  }
  int newline;
  long len;
  while ((len = read_line(s, &newline)) != 0) {
    s->lineno++;
    if (len < 0 || s->line[0] == '#') continue;
    int n = 1;
    for (const char *c = s->line; *c; c++)
      n += *c == ',';
    s->ncol = n;
    s->col = calloc((size_t)n, sizeof *s->col);
    s->field = calloc((size_t)n, sizeof *s->field);
    if (!s->col || !s->field) break;
    if (split(s->line, s->field, n) != n) break;
    for (int j = 0; j < n; j++)
      if (!(s->col[j] = dup_str(s->field[j] ? s->field[j] : ""))) return 2;
    return 0;
  }
  if (ferror(s->fp))
    fprintf(stderr, "error: reading %s failed\n", path);
  else
    fprintf(stderr, "error: %s has no header line\n", path);
  return 2;
}

int table_stream_next(struct table_stream *s)
{
  int newline;
  long len;
  while ((len = read_line(s, &newline)) != 0) {
    s->lineno++;
    if (len < 0 || s->line[0] == '#') continue;
    if (s->bad_line) break; /* a bad line with rows after it: corruption, not a torn end */
    int n = split(s->line, s->field, s->ncol);
    if (n == s->ncol && newline) return 1;
    s->bad_line = s->lineno;
    s->bad_why = newline ? "wrong number of fields" : "truncated line (no newline)";
    if (s->mode == TABLE_STRICT) break;
  }
  if (s->bad_line && (s->mode == TABLE_STRICT || len != 0)) {
    fprintf(stderr, "error: %s line %d: %s (expected %d comma-separated fields)\n", s->path, s->bad_line,
            s->bad_why, s->ncol);
    return 2;
  }
  if (ferror(s->fp)) {
    fprintf(stderr, "error: reading %s failed\n", s->path);
    return 2;
  }
  if (s->bad_line) {
    s->n_dropped = 1;
    s->dropped_line = s->bad_line;
  }
  return 0;
}

int table_stream_column(const struct table_stream *s, const char *name)
{
  for (int j = 0; j < s->ncol; j++)
    if (strcmp(s->col[j], name) == 0) return j;
  return -1;
}

const char *table_stream_text(struct table_stream *s)
{
  for (int j = 1; j < s->ncol; j++)
    s->field[j][-1] = ',';
  return s->line;
}

void table_stream_close(struct table_stream *s)
{
  if (s->fp) fclose(s->fp);
  for (int j = 0; s->col && j < s->ncol; j++)
    free(s->col[j]);
  free(s->col);
  free(s->field);
  free(s->line);
  memset(s, 0, sizeof *s);
}

int table_read(const char *path, enum table_mode mode, struct table **out)
{
  return table_read_columns(path, mode, -1, NULL, out);
}

/* The columns of s to keep (n_keep < 0: all) into col, their names into kept; their number. */
static int kept_columns(const struct table_stream *s, int n_keep, const char *const *keep, int *col,
                        const char **kept)
{
  int ncol = 0;
  for (int j = 0; j < s->ncol; j++) /* in the file's order */
    for (int k = 0; k < (n_keep < 0 ? 1 : n_keep); k++)
      if (n_keep < 0 || strcmp(s->col[j], keep[k]) == 0) {
        col[ncol] = j, kept[ncol++] = s->col[j];
        break;
      }
  return ncol;
}

int table_read_columns(const char *path, enum table_mode mode, int n_keep, const char *const *keep,
                       struct table **out)
{
  struct table_stream s;
  struct table *t = NULL;
  int *col = NULL, ncol = 0;
  const char **kept = NULL, **f = NULL;
  *out = NULL;
  int rc = table_stream_open(&s, path, mode), got = 2;
  if (rc) goto cleanup;
  rc = 2;
  col = calloc((size_t)s.ncol + 1, sizeof *col);
  kept = calloc((size_t)s.ncol + 1, sizeof *kept);
  f = calloc((size_t)s.ncol + 1, sizeof *f);
  if (!col || !kept || !f || !(t = table_create(ncol = kept_columns(&s, n_keep, keep, col, kept), kept)))
    goto cleanup;
  while ((got = table_stream_next(&s)) == 1) {
    if (n_keep < 0) { /* every column: the line as it lies, one copy */
      if (append_split(t, s.line, s.line_len, s.field)) goto cleanup;
      continue;
    }
    for (int k = 0; k < ncol; k++)
      f[k] = s.field[col[k]];
    if (table_append(t, f)) goto cleanup;
  }
  if (got) goto cleanup;
  t->n_dropped = s.n_dropped;
  t->dropped_line = s.dropped_line;
  *out = t;
  t = NULL;
  rc = 0;
cleanup:
  table_destroy(&t);
  table_stream_close(&s);
  free(col);
  free(kept);
  free(f);
  return rc;
}

int table_column(const struct table *t, const char *name)
{
  for (int j = 0; j < t->ncol; j++)
    if (strcmp(t->col[j], name) == 0) return j;
  return -1;
}

double table_number(const struct table *t, int row, int col)
{
  return table_field_number(table_get(t, row, col));
}

double table_field_number(const char *s)
{
  char *end;
  if (!s[0]) return NAN;
  double v = strtod(s, &end);
  return *end ? NAN : v;
}

int table_write(const struct table *t, FILE *out)
{
  for (int j = 0; j < t->ncol; j++)
    fprintf(out, "%s%s", j ? "," : "", t->col[j]);
  fputc('\n', out);
  for (int i = 0; i < t->nrow; i++) {
    for (int j = 0; j < t->ncol; j++) {
      if (j) fputc(',', out);
      fputs(table_get(t, i, j), out);
    }
    fputc('\n', out);
  }
  return ferror(out) ? 1 : 0;
}
