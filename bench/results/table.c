/* table.c — CSV tables for the sweep engine (see table.h for the format and the torn-line rule). */
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

int table_append(struct table *t, const char *const *fields)
{
  if (t->nrow == t->cap) {
    int cap = t->cap ? 2 * t->cap : 64;
    char **c = realloc(t->cell, (size_t)cap * (size_t)t->ncol * sizeof *c);
    if (!c) return 1;
    t->cell = c;
    t->cap = cap;
  }
  char **row = t->cell + (size_t)t->nrow * (size_t)t->ncol;
  for (int j = 0; j < t->ncol; j++) {
    row[j] = dup_str(fields[j] ? fields[j] : "");
    if (!row[j]) {
      for (int k = 0; k < j; k++)
        free(row[k]);
      return 1;
    }
  }
  t->nrow++;
  return 0;
}

int table_drop_rows(struct table *t, int col, const char *value)
{
  int kept = 0, dropped = 0;
  for (int i = 0; i < t->nrow; i++) {
    char **row = &t->cell[(size_t)i * (size_t)t->ncol];
    if (strcmp(row[col], value) == 0) {
      for (int j = 0; j < t->ncol; j++)
        free(row[j]);
      dropped++;
      continue;
    }
    if (kept != i) memmove(&t->cell[(size_t)kept * (size_t)t->ncol], row, (size_t)t->ncol * sizeof *row);
    kept++;
  }
  t->nrow = kept;
  return dropped;
}

void table_destroy(struct table **tp)
{
  if (!tp || !*tp) return;
  struct table *t = *tp;
  for (size_t i = 0; i < (size_t)t->nrow * (size_t)t->ncol; i++)
    free(t->cell[i]);
  free(t->cell);
  if (t->col)
    for (int j = 0; j < t->ncol; j++)
      free(t->col[j]);
  free(t->col);
  free(t);
  *tp = NULL;
}

/* Reads one line of any length into *buf; returns its length (0 at end of file); *newline says whether
 * it ended with '\n' (which is removed, as is a '\r' before it). */
static long read_line(FILE *fp, char **buf, size_t *cap, int *newline)
{
  long n = (long)getline(buf, cap, fp);
  *newline = 0;
  if (n <= 0) return 0;
  if ((*buf)[n - 1] == '\n') {
    (*buf)[--n] = '\0';
    *newline = 1;
    if (n > 0 && (*buf)[n - 1] == '\r') (*buf)[--n] = '\0';
  }
  return n == 0 ? -1 : n; /* -1: an empty line (not the end) */
}

int table_read(const char *path, enum table_mode mode, struct table **out)
{
  *out = NULL;
  FILE *fp = fopen(path, "r");
  if (!fp) {
    if (errno == ENOENT) return 1;
    fprintf(stderr, "error: cannot read %s: %s\n", path, strerror(errno));
    return 2;
  }
  char *line = NULL, **f = NULL;
  size_t cap = 0;
  int newline, lineno = 0, rc = 2, bad_line = 0;
  const char *bad_why = NULL;
  long len;
  struct table *t = NULL;
  while ((len = read_line(fp, &line, &cap, &newline)) != 0) {
    lineno++;
    if (len < 0 || line[0] == '#') continue;
    if (!t) { /* the header */
      int n = 1;
      for (const char *c = line; *c; c++)
        n += *c == ',';
      f = calloc((size_t)n, sizeof *f);
      if (!f) goto cleanup;
      if (split(line, f, n) != n) goto cleanup;
      t = table_create(n, (const char *const *)f);
      if (!t) goto cleanup;
      continue;
    }
    if (bad_line) break; /* a bad line with rows after it: corruption, not a torn end */
    int n = split(line, f, t->ncol);
    if (n != t->ncol || !newline) {
      bad_line = lineno;
      bad_why = newline ? "wrong number of fields" : "truncated line (no newline)";
      if (mode == TABLE_STRICT) break;
      continue;
    }
    if (table_append(t, (const char *const *)f)) goto cleanup;
  }
  if (bad_line && (mode == TABLE_STRICT || len != 0)) {
    fprintf(stderr, "error: %s line %d: %s (expected %d comma-separated fields)\n", path, bad_line, bad_why,
            t->ncol);
    goto cleanup;
  }
  if (bad_line) {
    t->n_dropped = 1;
    t->dropped_line = bad_line;
  }
  if (ferror(fp)) {
    fprintf(stderr, "error: reading %s failed\n", path);
    goto cleanup;
  }
  if (!t) {
    fprintf(stderr, "error: %s has no header line\n", path);
    goto cleanup;
  }
  *out = t;
  t = NULL;
  rc = 0;
cleanup:
  table_destroy(&t);
  free(f);
  free(line);
  fclose(fp);
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
  const char *s = table_get(t, row, col);
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
    for (int j = 0; j < t->ncol; j++)
      fprintf(out, "%s%s", j ? "," : "", table_get(t, i, j));
    fputc('\n', out);
  }
  return ferror(out) ? 1 : 0;
}
