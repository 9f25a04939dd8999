/* compare_load.c — see compare_load.h. A sorted line is
 *   GGGGGGGG PAIRKEY \x1e RRRRRRRRRR \x1d OUTCOME \x1f STATUS (\x1f VALUE)* [\x1d FLIPS (\x1f SPREAD)*]
 * (G the group in hex, PAIRKEY the canonical pairing fields each closed by \x1f, R the data row; the part in
 * brackets on a side with a spread): fixed widths and separators below every printable character make strcmp
 * order them by (group, key, row). */
#include "compare_load.h"

#include "extsort.h"
#include "run_files.h"
#include "spread.h"
#include "strmap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { GROUP_HEX = 8, ROW_DIGITS = 10 };

/* ---- growable text ---- */
struct text {
  char *s;
  size_t len, cap;
};

/* Room for n more bytes and a NUL. */
static int text_room(struct text *t, size_t n)
{
  if (t->len + n + 1 <= t->cap) return 0;
  size_t cap = t->cap ? 2 * t->cap : 256;
  while (cap < t->len + n + 1)
    cap *= 2;
  char *b = realloc(t->s, cap);
  if (!b) return 1;
  t->s = b, t->cap = cap;
  return 0;
}

static int text_put(struct text *t, const char *s, size_t n)
{
  if (text_room(t, n)) return 1;
  memcpy(t->s + t->len, s, n);
  t->len += n;
  t->s[t->len] = '\0';
  return 0;
}

static int text_str(struct text *t, const char *s) { return text_put(t, s, strlen(s)); }

/* v in base (10 or 16) as exactly width digits (leading zeros) into t: a row's fixed-width fields, written
 * without printf (a million rows make several million of them). */
static int text_fixed(struct text *t, unsigned long v, int width, unsigned base)
{
  char d[32];
  for (int k = width - 1; k >= 0; k--, v /= base)
    d[k] = "0123456789abcdef"[v % base];
  return text_put(t, d, (size_t)width);
}

/* Empties t (an empty string, allocated). */
static int text_clear(struct text *t)
{
  t->len = 0;
  return text_put(t, "", 0);
}

static int text_canonical(struct text *t, const char *s)
{
  size_t n = strlen(s) + 32; /* room for a number's %.17g or the text */
  if (text_room(t, n)) return 1;
  rundir_canonical(s, t->s + t->len, n);
  t->len += strlen(t->s + t->len);
  return 0;
}

int compare_fields_equal(const char *a, const char *b)
{
  if (strcmp(a, b) == 0) return 1;
  char *ea, *eb;
  if (!a[0] || !b[0]) return 0;
  double x = strtod(a, &ea), y = strtod(b, &eb);
  return !*ea && !*eb && x == y;
}

/* ---- statuses ---- */
static struct strmap status_ids;
static char **status_names;
static int n_status, cap_status;

static int status_id(const char *s)
{
  int k = strmap_find(&status_ids, s);
  if (k >= 0) return k;
  if (n_status == cap_status) {
    int cap = cap_status ? 2 * cap_status : 16;
    char **b = realloc(status_names, (size_t)cap * sizeof *b);
    if (!b) return -1;
    status_names = b, cap_status = cap;
  }
  if (!(status_names[n_status] = strdup(s)) || strmap_put(&status_ids, s, n_status)) return -1;
  return n_status++;
}

const char *compare_status_name(int k) { return status_names[k]; }

void compare_status_reset(void)
{
  for (int k = 0; k < n_status; k++)
    free(status_names[k]);
  free(status_names);
  strmap_free(&status_ids);
  status_names = NULL, n_status = cap_status = 0;
}

/* ---- -map ---- */

/* Row fields f after the maps up to step (k, c) exclusive (active flags known there): the group key values
 * into kv, 1 when a map drops the row. side 0 baseline (dropped where it holds from), 1 new (renamed). */
static int map_row(const struct compare_maps *m, int side, const int *key_col, char *const *f,
                   const char **kv, int upto, long *drops)
{
  for (int c = 0; c < m->n_keys; c++)
    kv[c] = f[key_col[c]];
  for (int s = 0; s < upto; s++) {
    int k = s / m->n_keys, c = s % m->n_keys;
    const char *drop = side ? m->to[k] : m->from[k];
    if (!m->active[s] || !drop || !kv[c]) continue;
    if (strcmp(kv[c], drop) == 0) {
      if (drops) drops[s]++;
      return 1;
    }
    if (side && strcmp(kv[c], m->from[k]) == 0) kv[c] = m->to[k];
  }
  return 0;
}

static int key_columns(const struct rundir *r, int **cols)
{
  *cols = calloc((size_t)r->group.n + 1, sizeof **cols);
  if (!*cols) return 1;
  for (int c = 0; c < r->group.n; c++)
    (*cols)[c] = table_column(r->tasks, r->group.name[c]);
  return 0;
}

int compare_maps_make(const struct rundir *n, const struct compare_options *o, struct compare_maps *m)
{
  char path[SWEEP_PATH_MAX + 32];
  int nk = n->group.n, rc = 2, *key_col = NULL;
  const char **kv = calloc((size_t)nk + 1, sizeof *kv);
  memset(m, 0, sizeof *m);
  m->n = o->n_map, m->n_keys = nk, m->from = o->map_from, m->to = o->map_to;
  size_t steps = (size_t)m->n * (size_t)nk + 1;
  m->active = calloc(steps, 1);
  m->drop_new = calloc(steps, sizeof *m->drop_new);
  m->drop_base = calloc(steps, sizeof *m->drop_base);
  if (!kv || !m->active || !m->drop_new || !m->drop_base || key_columns(n, &key_col)) goto cleanup;
  if (sweep_path(path, sizeof path, "%s/tasks.csv", n->dir)) goto cleanup;
  for (int k = 0; k < m->n; k++) {
    int found = 0;
    for (int c = 0; c < nk; c++) { /* does the new run, mapped so far, hold from[k] in column c? */
      struct table_stream ts;
      int got = 0, s = k * nk + c;
      if (table_stream_open(&ts, path, TABLE_STRICT)) goto cleanup;
      while (!m->active[s] && (got = table_stream_next(&ts)) == 1)
        if (!map_row(m, 1, key_col, ts.field, kv, s, NULL) && strcmp(kv[c], m->from[k]) == 0)
          m->active[s] = 1;
      table_stream_close(&ts);
      if (got == 2) goto cleanup;
      found |= m->active[s];
    }
    if (!found) {
      fprintf(stderr, "error: -map %s=%s: no group column of %s holds '%s'\n", m->from[k], m->to[k], n->dir,
              m->from[k]);
      goto cleanup;
    }
  }
  rc = 0;
cleanup:
  free(kv);
  free(key_col);
  return rc;
}

void compare_maps_free(struct compare_maps *m)
{
  free(m->active);
  free(m->drop_new);
  free(m->drop_base);
  memset(m, 0, sizeof *m);
}

/* ---- the checks of a table ---- */

/* Duplicate rows by a key (task_id, or every axis): a line per row "KEY \x1e ROW \x1d RAW,..." sorted; the
 * duplicated key whose first row comes first is reported, as a grouping in order of first appearance
 * would find it. */
struct dup_check {
  const char *what;
  int n_keys, *col;
  char *const *names;
  struct extsort *sort;
  long best_i, best_j;
  char *best; /* the raw values of row best_i */
};

static int dup_add(struct dup_check *d, char *const *f, long row, struct text *t)
{
  if (text_clear(t)) return 1;
  for (int c = 0; c < d->n_keys; c++)
    if (text_canonical(t, f[d->col[c]]) || text_put(t, "\x1f", 1)) return 1;
  if (text_put(t, "\x1e", 1) || text_fixed(t, (unsigned long)row, ROW_DIGITS, 10) || text_put(t, "\x1d", 1))
    return 1;
  for (int c = 0; c < d->n_keys; c++)
    if ((c && text_put(t, "\x1f", 1)) || text_str(t, f[d->col[c]])) return 1;
  return extsort_add(d->sort, t->s);
}

/* Scans the sorted lines for the first duplicate; 0 none, 2 reported, 1 failure. */
static int dup_scan(struct dup_check *d, const char *dir)
{
  char *prev = NULL;
  size_t prev_cap = 0;
  int rc = 1, run = 0;
  const char *l;
  if (extsort_finish(d->sort)) return 1;
  d->best_i = -1;
  while ((l = extsort_next(d->sort))) {
    size_t key = (size_t)(strchr(l, '\x1e') - l);
    int same = prev && strncmp(prev, l, key) == 0 && prev[key] == '\x1e';
    if (same && !run && (d->best_i < 0 || atol(prev + key + 1) < d->best_i)) {
      d->best_i = atol(prev + key + 1), d->best_j = atol(l + key + 1);
      free(d->best);
      if (!(d->best = strdup(strchr(prev, '\x1d') + 1))) goto cleanup;
    }
    run = same;
    size_t n = strlen(l) + 1;
    if (n > prev_cap) {
      char *b = realloc(prev, n);
      if (!b) goto cleanup;
      prev = b, prev_cap = n;
    }
    memcpy(prev, l, n);
  }
  if (extsort_failed(d->sort)) goto cleanup;
  rc = 0;
  if (d->best_i >= 0) {
    fprintf(stderr, "error: corrupt table %s/tasks.csv: data rows %ld and %ld have the same %s", dir,
            d->best_i + 1, d->best_j + 1, d->what);
    char *v = d->best;
    for (int c = 0; c < d->n_keys; c++) {
      char *e = strchr(v, '\x1f');
      if (e) *e = '\0';
      fprintf(stderr, "%s%s=%s", c ? "," : " (", d->names[c], v);
      v = e ? e + 1 : v + strlen(v);
    }
    fprintf(stderr, "%s\n", d->n_keys ? ")" : "");
    rc = 2;
  }
cleanup:
  free(prev);
  return rc;
}

/* A cell of a metric or cost that is neither empty nor a number: the first one per column is kept. */
struct num_check {
  int n, *col;
  long *row;
  char **text, **tid;
};

static int num_add(struct num_check *c, char *const *f, long row, int id_col)
{
  for (int k = 0; k < c->n; k++) {
    const char *s = f[c->col[k]];
    char *end = NULL;
    if (!s[0] || c->row[k] >= 0) continue;
    (void)strtod(s, &end);
    if (!*end) continue;
    c->row[k] = row;
    if (!(c->text[k] = strdup(s)) || !(c->tid[k] = strdup(id_col >= 0 ? f[id_col] : "?"))) return 1;
  }
  return 0;
}

/* The checks of one table, in compare_check_table's order. */
struct checks {
  struct dup_check dup[2];
  struct num_check num; /* metrics then costs of the table's own roles */
  int n_metrics;
  const struct rundir *r;
};

static void checks_free(struct checks *k)
{
  for (int d = 0; d < 2; d++) {
    free(k->dup[d].col);
    free(k->dup[d].best);
    extsort_destroy(&k->dup[d].sort);
  }
  for (int j = 0; j < k->num.n; j++) {
    free(k->num.text[j]);
    free(k->num.tid[j]);
  }
  free(k->num.col), free(k->num.row), free(k->num.text), free(k->num.tid);
  memset(k, 0, sizeof *k);
}

static char *const task_id_name[] = {"task_id"};

static int checks_init(struct checks *k, const struct rundir *r, size_t budget)
{
  const struct table *t = r->tasks;
  memset(k, 0, sizeof *k);
  k->r = r;
  k->dup[0] =
      (struct dup_check){.what = "task_id", .n_keys = table_column(t, "task_id") >= 0, .names = task_id_name};
  k->dup[1] = (struct dup_check){.what = "axis values", .n_keys = r->axes.n, .names = r->axes.name};
  for (int d = 0; d < 2; d++) {
    if (!k->dup[d].n_keys) continue;
    k->dup[d].col = calloc((size_t)k->dup[d].n_keys, sizeof *k->dup[d].col);
    if (!k->dup[d].col || !(k->dup[d].sort = extsort_create(budget))) return 1;
    for (int c = 0; c < k->dup[d].n_keys; c++)
      k->dup[d].col[c] = table_column(t, k->dup[d].names[c]);
  }
  int n = r->metrics.n + r->costs.n;
  k->n_metrics = r->metrics.n;
  k->num.n = n;
  k->num.col = calloc((size_t)n + 1, sizeof *k->num.col);
  k->num.row = calloc((size_t)n + 1, sizeof *k->num.row);
  k->num.text = calloc((size_t)n + 1, sizeof *k->num.text);
  k->num.tid = calloc((size_t)n + 1, sizeof *k->num.tid);
  if (!k->num.col || !k->num.row || !k->num.text || !k->num.tid) return 1;
  for (int j = 0; j < n; j++) {
    k->num.col[j] = table_column(t, j < r->metrics.n ? r->metrics.name[j] : r->costs.name[j - r->metrics.n]);
    k->num.row[j] = -1;
  }
  return 0;
}

static int checks_add(struct checks *k, char *const *f, long row, struct text *t)
{
  for (int d = 0; d < 2; d++)
    if (k->dup[d].sort && dup_add(&k->dup[d], f, row, t)) return 1;
  return num_add(&k->num, f, row, table_column(k->r->tasks, "task_id"));
}

/* 0 clean, 2 reported, 1 failure. */
static int checks_report(struct checks *k)
{
  for (int d = 0; d < 2; d++) {
    int rc = k->dup[d].sort ? dup_scan(&k->dup[d], k->r->dir) : 0;
    if (rc) return rc;
  }
  for (int j = 0; j < k->num.n; j++)
    if (k->num.row[j] >= 0) {
      const char *name = j < k->n_metrics ? k->r->metrics.name[j] : k->r->costs.name[j - k->n_metrics];
      fprintf(stderr,
              "error: corrupt table %s/tasks.csv: data row %ld (task_id %s): column '%s' holds '%s', not a "
              "number\n",
              k->r->dir, k->num.row[j] + 1, k->num.tid[j], name, k->num.text[j]);
      return 2;
    }
  return 0;
}

/* ---- loading a side ---- */

/* A new group with key values kv (copied): its index, -1 when out of memory. */
static int new_group(struct compare_side *s, const char **kv)
{
  if (s->n_groups == s->cap_groups) {
    int cap = s->cap_groups ? 2 * s->cap_groups : 16;
    char **k = realloc(s->key, ((size_t)cap * (size_t)s->n_keys + 1) * sizeof *k);
    long *z = k ? realloc(s->size, (size_t)cap * sizeof *z) : NULL;
    if (k) s->key = k;
    if (!z) return -1;
    s->size = z, s->cap_groups = cap;
  }
  int g = s->n_groups;
  s->size[g] = 0;
  for (int c = 0; c < s->n_keys; c++)
    s->key[(size_t)g * s->n_keys + c] = NULL;
  s->n_groups++; /* freed with the others whatever fails below */
  for (int c = 0; c < s->n_keys; c++)
    if (!(s->key[(size_t)g * s->n_keys + c] = strdup(kv[c]))) return -1;
  return g;
}

/* The group of key values kv, made at its first row: found by the keys' text as written (one lookup), and
 * only a text not seen before is put in canonical form, so that 1e-3 and 0.001 still share a group. -1 when
 * out of memory. */
static int group_of(struct compare_side *s, struct strmap *raw, struct strmap *canon, const char **kv,
                    struct text *t)
{
  if (text_clear(t)) return -1;
  for (int c = 0; c < s->n_keys; c++)
    if (text_str(t, kv[c]) || text_put(t, "\x1f", 1)) return -1;
  int g = strmap_find(raw, t->s);
  if (g >= 0) return g;
  char *as_written = strdup(t->s);
  if (!as_written || text_clear(t)) goto fail;
  for (int c = 0; c < s->n_keys; c++)
    if (text_canonical(t, kv[c]) || text_put(t, "\x1f", 1)) goto fail;
  if ((g = strmap_find(canon, t->s)) < 0) {
    if ((g = new_group(s, kv)) < 0 || strmap_put(canon, t->s, g)) goto fail;
  }
  if (strmap_put(raw, as_written, g)) goto fail;
  free(as_written);
  return g;
fail:
  free(as_written);
  return -1;
}

/* The sorted line of a row into t; sv: the row's spread (flips, then nv values) on a side with one. */
static int row_line(const struct compare_side *s, char *const *f, int g, long row, int status_col,
                    const double *sv, struct text *t)
{
  if (text_clear(t) || text_fixed(t, (unsigned long)g, GROUP_HEX, 16)) return 1;
  for (int c = 0; c < s->n_pair; c++)
    if (text_canonical(t, f[s->pair_col[c]]) || text_put(t, "\x1f", 1)) return 1;
  const char *st = f[status_col];
  int o = sweep_status_is_success(st) ? 1 : sweep_status_is_failure(st) ? 0 : -1;
  char head[3] = {'\x1d', o == 1 ? '1' : o == 0 ? '0' : '-', '\x1f'};
  if (text_put(t, "\x1e", 1) || text_fixed(t, (unsigned long)row, ROW_DIGITS, 10) || text_put(t, head, 3))
    return 1;
  if (text_str(t, st)) return 1;
  for (int j = 0; j < s->nv; j++)
    if (text_put(t, "\x1f", 1) || text_str(t, f[s->val_col[j]])) return 1;
  if (!sv) return 0;
  char num[40];
  snprintf(num, sizeof num, "\x1d%d", (int)sv[0]);
  if (text_str(t, num)) return 1;
  for (int j = 0; j < s->nv; j++) { /* %.17g gives the double back exactly */
    if (isnan(sv[1 + j]))
      num[0] = '\x1f', num[1] = '\0';
    else
      snprintf(num, sizeof num, "\x1f%.17g", sv[1 + j]);
    if (text_str(t, num)) return 1;
  }
  return 0;
}

/* The columns s reads from r: keys, pairing axes (pair's axes that are no group key and in both tables),
 * compared values (roles' metrics then costs). */
static int side_columns(struct compare_side *s, const struct rundir *r, const struct rundir *roles,
                        const struct rundir *pair, const struct rundir *other)
{
  s->n_keys = r->group.n, s->nv = roles->metrics.n + roles->costs.n;
  s->pair_col = calloc((size_t)pair->axes.n + 1, sizeof *s->pair_col);
  s->val_col = calloc((size_t)s->nv + 1, sizeof *s->val_col);
  if (key_columns(r, &s->key_col) || !s->pair_col || !s->val_col) return 1;
  for (int k = 0; k < pair->axes.n; k++) {
    const char *a = pair->axes.name[k];
    int c = table_column(r->tasks, a);
    if (rundir_list_find(&pair->group, a) >= 0 || c < 0 || table_column(other->tasks, a) < 0) continue;
    s->pair_col[s->n_pair++] = c;
  }
  for (int j = 0; j < s->nv; j++)
    s->val_col[j] = table_column(r->tasks, j < roles->metrics.n ? roles->metrics.name[j]
                                                                : roles->costs.name[j - roles->metrics.n]);
  s->id_col = table_column(r->tasks, "task_id");
  return 0;
}

/* The sorted lines into s->sorted, noting where each group starts. */
static int write_sorted(struct compare_side *s, struct extsort *sort)
{
  const char *l;
  int prev = -1;
  if (extsort_finish(sort) || !(s->offset = calloc((size_t)s->n_groups + 1, sizeof *s->offset))) return 1;
  FILE *fp = tmpfile();
  if (!fp) {
    fprintf(stderr, "error: cannot create a temporary file for %s\n", s->r->dir);
    return 1;
  }
  s->sorted = fp;
  while ((l = extsort_next(sort))) {
    char hex[GROUP_HEX + 1] = {0};
    memcpy(hex, l, GROUP_HEX);
    int g = (int)strtol(hex, NULL, 16);
    if (g != prev) s->offset[g] = ftell(fp), prev = g;
    if (fputs(l, fp) < 0 || fputc('\n', fp) == EOF) break;
  }
  if (extsort_failed(sort) || ferror(fp) || fflush(fp)) {
    fprintf(stderr, "error: cannot write a temporary file for %s\n", s->r->dir);
    return 1;
  }
  return 0;
}

/* Streams the rows: checks, maps, groups and (unless only checking) sorted lines. */
static int load_rows(struct compare_side *s, int side, const struct compare_maps *m, struct checks *k,
                     struct extsort *sort, struct spread *sp)
{
  char path[SWEEP_PATH_MAX + 32];
  struct table_stream ts;
  struct text t = {0};
  struct strmap raw = {0}, canon = {0};
  const char **kv = calloc((size_t)s->n_keys + 1, sizeof *kv);
  double *sv = calloc((size_t)s->nv + 2, sizeof *sv); /* the row's spread: flips, then each value's */
  int got = 2, rc = 2, steps = m ? m->n * m->n_keys : 0, flips = 0;
  if (!kv || !sv || sweep_path(path, sizeof path, "%s/tasks.csv", s->r->dir)) {
    free(kv);
    free(sv);
    return 2;
  }
  if (table_stream_open(&ts, path, TABLE_STRICT)) goto cleanup;
  for (long row = 0; (got = table_stream_next(&ts)) == 1; row++) {
    if (checks_add(k, ts.field, row, &t)) goto oom;
    if (!sort) continue;
    if (m && map_row(m, side, s->key_col, ts.field, kv, steps, side ? m->drop_new : m->drop_base)) continue;
    if (!m)
      for (int c = 0; c < s->n_keys; c++)
        kv[c] = ts.field[s->key_col[c]];
    if (s->has_spread) { /* the spread's join: an error (ids descending) is reported there */
      if (spread_join(sp, ts.field[s->id_col], &flips, sv + 1)) goto cleanup;
      sv[0] = flips;
    }
    int g = group_of(s, &raw, &canon, kv, &t);
    if (g < 0 || row_line(s, ts.field, g, row, s->r->status_col, s->has_spread ? sv : NULL, &t) ||
        extsort_add(sort, t.s))
      goto oom;
    s->size[g]++;
  }
  if (got) goto cleanup;
  rc = checks_report(k);
  if (rc == 1) goto oom;
  if (!rc && sort && write_sorted(s, sort)) rc = 2;
  goto cleanup;
oom:
  fprintf(stderr, "error: out of memory (or no room for the sort) reading %s\n", path);
  rc = 2;
cleanup:
  table_stream_close(&ts);
  free(kv);
  free(sv);
  free(t.s);
  strmap_free(&raw);
  strmap_free(&canon);
  return rc;
}

/* The spread's join onto the compared columns (roles' metrics then costs). 0, or 2 with a message. */
static int spread_start(struct compare_side *s, const struct rundir *roles, struct spread *sp)
{
  const char **names = calloc((size_t)s->nv + 1, sizeof *names);
  if (!names) return 2;
  for (int j = 0; j < s->nv; j++)
    names[j] = j < roles->metrics.n ? roles->metrics.name[j] : roles->costs.name[j - roles->metrics.n];
  int rc = spread_join_start(sp, names, s->nv);
  free(names);
  s->has_spread = !rc;
  return rc;
}

int compare_load(struct compare_side *s, const struct rundir *r, int side, const struct rundir *roles,
                 const struct rundir *pair, const struct rundir *other, const struct compare_maps *m,
                 struct spread *sp, size_t sort_bytes)
{
  struct checks k;
  struct extsort *sort = NULL;
  memset(s, 0, sizeof *s);
  s->r = r;
  int rc = 2;
  if (checks_init(&k, r, sort_bytes / 4)) goto oom;
  if (roles) {
    if (side_columns(s, r, roles, pair, other) || !(sort = extsort_create(sort_bytes / 2))) goto oom;
    if (sp && s->id_col >= 0 && spread_start(s, roles, sp)) goto cleanup;
  }
  rc = load_rows(s, side, m, &k, sort, sp);
  goto cleanup;
oom:
  fprintf(stderr, "error: out of memory reading %s\n", r->dir);
cleanup:
  checks_free(&k);
  extsort_destroy(&sort);
  return rc;
}

void compare_side_free(struct compare_side *s)
{
  for (size_t i = 0; s->key && i < (size_t)s->n_groups * (size_t)s->n_keys; i++)
    free(s->key[i]);
  free(s->key);
  free(s->size);
  free(s->offset);
  free(s->key_col);
  free(s->pair_col);
  free(s->val_col);
  if (s->sorted) fclose(s->sorted);
  memset(s, 0, sizeof *s);
}

/* ---- a group's rows ---- */

/* One side's lines of a group, read in order. */
struct reader {
  FILE *fp;
  long left;
  char *line;
  size_t cap;
  size_t key_len; /* the current line's "group + pairing key" length */
};

static int reader_next(struct reader *rd)
{
  if (rd->left <= 0) return 0;
  ssize_t got = getline(&rd->line, &rd->cap, rd->fp);
  if (got <= 0) return -1;
  rd->left--;
  if (rd->line[got - 1] == '\n') rd->line[got - 1] = '\0';
  char *e = strchr(rd->line, '\x1e');
  if (!e) return -1;
  rd->key_len = (size_t)(e - rd->line);
  return 1;
}

/* The field at *p, closed by \x1f, \x1d or the end: NUL-terminated in place, *p moved past it, the closing
 * character returned. */
static char field_end(char **p, char **field)
{
  *field = *p;
  size_t n = strcspn(*p, "\x1f\x1d");
  char c = (*p)[n];
  (*p)[n] = '\0';
  *p += n + (c != '\0');
  return c;
}

/* Parses the reader's line into t (its v and spread point at nv doubles each, spread NULL without one). */
static int task_parse(const struct reader *rd, int nv, struct compare_task *t, double *v, double *sv)
{
  char *p = rd->line + rd->key_len + 1, *f;
  t->row = (int)strtol(p, &p, 10);
  if (*p++ != '\x1d' || !*p) return 1;
  t->outcome = (signed char)(*p == '1' ? 1 : *p == '0' ? 0 : -1);
  p += 2;
  char c = field_end(&p, &f);
  if ((t->status = status_id(f)) < 0) return 1;
  for (int j = 0; j < nv; j++) {
    if (c != '\x1f') return 1;
    c = field_end(&p, &f);
    v[j] = table_field_number(f);
  }
  t->v = v, t->spread = NULL, t->flips = 0;
  if (!sv || c != '\x1d') return sv != NULL;
  c = field_end(&p, &f);
  t->flips = atoi(f);
  for (int j = 0; j < nv; j++) {
    if (c != '\x1f') return 1;
    c = field_end(&p, &f);
    sv[j] = table_field_number(f);
  }
  t->spread = sv;
  return 0;
}

/* Compares the pairing keys of the two readers' lines (after the group prefix). */
static int key_cmp(const struct reader *a, const struct reader *b)
{
  size_t la = a->key_len - GROUP_HEX, lb = b->key_len - GROUP_HEX;
  int c = memcmp(a->line + GROUP_HEX, b->line + GROUP_HEX, la < lb ? la : lb);
  return c ? c : (la > lb) - (la < lb);
}

/* The merge join: rows of equal pairing key, in row order on each side (the sort put them so), are paired
 * first with first, second with second. buf: 3 nv doubles. */
static int join(struct reader *rb, struct reader *rn, int nv, int spread_b, double *buf, compare_visit visit,
                void *ctx)
{
  struct compare_task tb = {0}, tn = {0};
  int hb = reader_next(rb), hn = reader_next(rn);
  while (hb == 1 || hn == 1) {
    int c = hb != 1 ? 1 : hn != 1 ? -1 : key_cmp(rb, rn);
    if (c <= 0 && task_parse(rb, nv, &tb, buf, spread_b ? buf + nv : NULL)) return 1;
    if (c >= 0 && task_parse(rn, nv, &tn, buf + 2 * nv, NULL)) return 1;
    if (visit(ctx, c <= 0 ? &tb : NULL, c >= 0 ? &tn : NULL)) return 1;
    /* a run of one key longer on one side: its extra rows meet the other side's next key and stay unpaired */
    if (c <= 0) hb = reader_next(rb);
    if (c >= 0) hn = reader_next(rn);
    if (hb < 0 || hn < 0) return 1;
  }
  return 0;
}

int compare_rows_join(const struct compare_side *b, int g, const struct compare_side *n, int m,
                      compare_visit visit, void *ctx)
{
  struct reader r0 = {b->sorted, b->size[g], NULL, 0, 0}, r1 = {n->sorted, n->size[m], NULL, 0, 0};
  double *buf = malloc((3 * (size_t)b->nv + 1) * sizeof *buf);
  int rc = 2;
  if (!buf || fseek(b->sorted, b->offset[g], SEEK_SET)) goto cleanup;
  if (fseek(n->sorted, n->offset[m], SEEK_SET)) goto cleanup;
  if (join(&r0, &r1, b->nv, b->has_spread, buf, visit, ctx)) goto cleanup;
  rc = 0;
cleanup:
  if (rc) fprintf(stderr, "error: reading back the sorted rows of %s and %s failed\n", b->r->dir, n->r->dir);
  free(buf);
  free(r0.line);
  free(r1.line);
  return rc;
}

/* ---- a group's rows held ---- */

static int rows_grow(struct compare_rows *r, int spread)
{
  if (r->n < r->cap) return 0;
  long cap = r->cap ? 2 * r->cap : 64;
  size_t c = (size_t)cap, nv = (size_t)r->nv;
  int *row = realloc(r->row, c * sizeof *row);
  if (row) r->row = row;
  signed char *o = realloc(r->outcome, c);
  if (o) r->outcome = o;
  int *st = realloc(r->status, c * sizeof *st);
  if (st) r->status = st;
  double *v = realloc(r->v, (c * nv + 1) * sizeof *v);
  if (v) r->v = v;
  int *p = realloc(r->partner, c * sizeof *p);
  if (p) r->partner = p;
  double *sv = spread ? realloc(r->s, (c * nv + 1) * sizeof *sv) : NULL;
  if (sv) r->s = sv;
  int *fl = spread ? realloc(r->flips, c * sizeof *fl) : NULL;
  if (fl) r->flips = fl;
  if (!row || !o || !st || !v || !p || (spread && (!sv || !fl))) return 1;
  r->cap = cap;
  return 0;
}

static int rows_take(struct compare_rows *r, const struct compare_task *t)
{
  if (rows_grow(r, t->spread != NULL)) return 1;
  long i = r->n++;
  size_t nv = (size_t)r->nv;
  r->row[i] = t->row, r->outcome[i] = t->outcome, r->status[i] = t->status, r->partner[i] = -1;
  memcpy(r->v + (size_t)i * nv, t->v, nv * sizeof *t->v);
  if (t->spread) {
    memcpy(r->s + (size_t)i * nv, t->spread, nv * sizeof *t->spread);
    r->flips[i] = t->flips;
  }
  return 0;
}

static int keep_rows(void *ctx, const struct compare_task *b, const struct compare_task *n)
{
  struct compare_rows *r = ctx;
  if ((b && rows_take(&r[0], b)) || (n && rows_take(&r[1], n))) return 1;
  if (b && n) {
    r[0].partner[r[0].n - 1] = (int)(r[1].n - 1);
    r[1].partner[r[1].n - 1] = (int)(r[0].n - 1);
  }
  return 0;
}

int compare_rows_read(const struct compare_side *b, int g, const struct compare_side *n, int m,
                      struct compare_rows *rb, struct compare_rows *rn)
{
  struct compare_rows r[2] = {*rb, *rn};
  r[0].n = r[1].n = 0;
  r[0].nv = r[1].nv = b->nv;
  int rc = compare_rows_join(b, g, n, m, keep_rows, r);
  *rb = r[0], *rn = r[1];
  return rc;
}

void compare_rows_free(struct compare_rows *r)
{
  free(r->row), free(r->outcome), free(r->status), free(r->v), free(r->partner), free(r->s), free(r->flips);
  memset(r, 0, sizeof *r);
}
