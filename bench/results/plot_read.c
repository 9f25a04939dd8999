/* plot_read.c — the tasks of a run as its plots read them, in memory bounded by what the plots draw, not by
 * the tasks. The plots of a run as it is (no view options) need of each task its cell (series values, x
 * value), its outcome and its metric and cost values; of the tasks together only which values each column
 * takes (labels, keys, what a plot aggregates over). So tasks.csv is read twice as a stream:
 *   1. the skeleton: one row per distinct (status, series values, x value, and per other axis whether it
 *      equals that axis's value in the first row and in the first applicable row) — the first such row,
 *      in file order. Every grouping the plots make of it has the table's groups, in the same order, with
 *      the same first rows; an axis is one value over the skeleton's rows (the applicable ones) exactly when
 *      it is over the table's, so "at c = v" and "aggregated over c" read the same.
 *   2. the cells (cellstats.h): each task's values, sorted externally by (column, cell, value).
 * A solver benchmark's performance profiles (plot_profile.c) compare each task with the best of its problem,
 * which is per-task data: such a run (and any view, overlay or filter of bench_plot) is read as a table of
 * its role columns, ~150 bytes per task. */
#include "cellstats.h"
#include "plot_impl.h"
#include "run_files.h"
#include "strmap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- a growable key: fields joined by \x1f ---- */
struct key {
  char *s;
  size_t len, cap;
};

static int key_add(struct key *k, const char *field, size_t n)
{
  if (k->len + n + 2 > k->cap) {
    size_t cap = k->cap ? 2 * k->cap : 256;
    while (cap < k->len + n + 2)
      cap *= 2;
    char *s = realloc(k->s, cap);
    if (!s) return 1;
    k->s = s, k->cap = cap;
  }
  memcpy(k->s + k->len, field, n);
  k->len += n;
  k->s[k->len++] = '\x1f';
  k->s[k->len] = '\0';
  return 0;
}

/* The key of a row: its fields in columns cols (n of them). */
static int key_of(struct key *k, const char *const *f, const int *cols, int n)
{
  k->len = 0;
  for (int j = 0; j < n; j++)
    if (key_add(k, f[cols[j]], strlen(f[cols[j]]))) return 1;
  return 0;
}

static int outcome_of(const char *status)
{
  return sweep_status_is_success(status) ? 1 : sweep_status_is_failure(status) ? 0 : -1;
}

/* The columns that key a task's cell, by name (status, the series axes, plot_x), into cols (indices in
 * names); n. */
static int cell_columns(const struct rundir *r, char *const *names, int ncol, int *cols)
{
  int n = 0;
  for (int j = 0; j < ncol; j++)
    if (strcmp(names[j], "status") == 0 || rundir_list_find(&r->series, names[j]) >= 0 ||
        (r->plot_x[0] && strcmp(names[j], r->plot_x) == 0))
      cols[n++] = j;
  return n;
}

/* A column with a role in experiment.txt (rundir_read_roles keeps those). */
static int has_role(const struct rundir *r, const char *name)
{
  const struct rundir_list *l[] = {&r->axes, &r->group, &r->metrics, &r->costs, &r->series};
  if (strcmp(name, "status") == 0 || strcmp(name, r->plot_x) == 0) return 1;
  for (size_t i = 0; i < sizeof l / sizeof l[0]; i++)
    if (rundir_list_find(l[i], name) >= 0) return 1;
  return 0;
}

/* Pass 1 (see the top): the skeleton of ts's rows into t, whose columns are the stream's keep[0..nk). */
struct skeleton {
  int n_cell, *cell;   /* stream columns keying the cell */
  int n_other, *other; /* stream columns of the other axes */
  char **first, **app; /* each other axis's value in the first row and the first applicable row */
  int n_keep, *keep;   /* stream columns of the skeleton's columns */
  const char **fields; /* a row's kept fields */
  struct key key;
  struct strmap seen;
};

static void skeleton_free(struct skeleton *s)
{
  for (int j = 0; j < s->n_other; j++) {
    free(s->first ? s->first[j] : NULL);
    free(s->app ? s->app[j] : NULL);
  }
  free(s->cell), free(s->other), free((void *)s->first), free((void *)s->app), free(s->keep);
  free((void *)s->fields), free(s->key.s);
  strmap_free(&s->seen);
}

static int skeleton_init(struct skeleton *s, const struct rundir *r, const struct table_stream *ts)
{
  size_t n = (size_t)ts->ncol + 1;
  s->cell = calloc(n, sizeof *s->cell), s->other = calloc(n, sizeof *s->other);
  s->first = calloc(n, sizeof *s->first), s->app = calloc(n, sizeof *s->app);
  s->keep = calloc(n, sizeof *s->keep), s->fields = calloc(n, sizeof *s->fields);
  if (!s->cell || !s->other || !s->first || !s->app || !s->keep || !s->fields) return 1;
  s->n_cell = cell_columns(r, ts->col, ts->ncol, s->cell);
  for (int j = 0; j < ts->ncol; j++) {
    const char *c = ts->col[j];
    if (has_role(r, c)) s->keep[s->n_keep++] = j;
    if (rundir_list_find(&r->axes, c) >= 0 && rundir_list_find(&r->series, c) < 0 &&
        strcmp(c, r->plot_x) != 0)
      s->other[s->n_other++] = j;
  }
  return 0;
}

/* The current row of ts: a skeleton row when its key is new. 0, or 1 when out of memory. */
static int skeleton_row(struct skeleton *s, const struct table_stream *ts, struct table *t, long row)
{
  char *const *f = ts->field;
  int applicable = outcome_of(f[table_stream_column(ts, "status")]) >= 0;
  if (key_of(&s->key, (const char *const *)f, s->cell, s->n_cell)) return 1;
  for (int j = 0; j < s->n_other; j++) {
    const char *v = f[s->other[j]];
    if (row == 0 && !(s->first[j] = strdup(v))) return 1;
    if (applicable && !s->app[j] && !(s->app[j] = strdup(v))) return 1;
    char flags[2] = {strcmp(v, s->first[j]) == 0 ? 'f' : '-',
                     s->app[j] && strcmp(v, s->app[j]) == 0 ? 'a' : '-'};
    if (key_add(&s->key, flags, 2)) return 1;
  }
  if (strmap_find(&s->seen, s->key.s) >= 0) return 0;
  for (int j = 0; j < s->n_keep; j++)
    s->fields[j] = f[s->keep[j]];
  return strmap_put(&s->seen, s->key.s, t->nrow) || table_append(t, s->fields);
}

/* r->tasks: the skeleton of dir/tasks.csv (r from rundir_read_header). 0, or 2 with a message. */
static int read_skeleton(struct rundir *r, const char *dir)
{
  char path[SWEEP_PATH_MAX + 32];
  struct table_stream ts;
  struct skeleton s = {0};
  struct table *t = NULL;
  int rc = 2, got;
  if (sweep_path(path, sizeof path, "%s/tasks.csv", dir)) return 2;
  if (table_stream_open(&ts, path, TABLE_STRICT)) return 2;
  if (skeleton_init(&s, r, &ts)) goto oom;
  for (int j = 0; j < s.n_keep; j++)
    s.fields[j] = ts.col[s.keep[j]];
  if (!(t = table_create(s.n_keep, s.fields))) goto oom;
  long row = 0;
  while ((got = table_stream_next(&ts)) == 1)
    if (skeleton_row(&s, &ts, t, row++)) goto oom;
  if (got == 0) {
    table_destroy(&r->tasks);
    r->tasks = t, t = NULL;
    r->status_col = table_column(r->tasks, "status");
    rc = 0;
  }
  goto cleanup;
oom:
  fprintf(stderr, "error: out of memory reading %s\n", path);
cleanup:
  table_stream_close(&ts);
  table_destroy(&t);
  skeleton_free(&s);
  return rc;
}

int plot_read_run(const char *dir, struct rundir **r, int *skeleton)
{
  *skeleton = 0;
  int rc = rundir_read_header(dir, r);
  if (rc) return rc;
  /* the performance profiles need every task of a solver benchmark (see the top) */
  if (rundir_list_find(&(*r)->axes, "problem") >= 0 && rundir_list_find(&(*r)->series, "solver") >= 0) {
    rundir_destroy(r);
    return rundir_read_roles(dir, r);
  }
  if ((rc = read_skeleton(*r, dir))) rundir_destroy(r);
  *skeleton = !rc;
  return rc;
}

/* The cells' columns (metrics, then costs) into c, sized for ps and x. 0, or 1. */
static int cells_init(const struct rundir *r, const struct plot_series *ps, const struct plot_x *x,
                      struct cellstats *c, int **val_col, char *const *names, int ncol)
{
  int nv = r->metrics.n + r->costs.n;
  unsigned char *kind = calloc((size_t)nv + 1, 1);
  *val_col = calloc((size_t)nv + 1, sizeof **val_col);
  if (!kind || !*val_col) {
    free(kind);
    return 1;
  }
  for (int k = 0; k < nv; k++) {
    const char *name = k < r->metrics.n ? r->metrics.name[k] : r->costs.name[k - r->metrics.n];
    kind[k] = rundir_list_find(&r->shares, name) >= 0 ? CELLSTATS_SHARE : CELLSTATS_QUARTILES;
    (*val_col)[k] = -1;
    for (int j = 0; j < ncol; j++)
      if (strcmp(names[j], name) == 0) (*val_col)[k] = j;
  }
  int rc = cellstats_init(c, nv, kind, CELLSTATS_BUDGET) || cellstats_reserve(c, ps->g->n * x->g->n);
  free(kind);
  return rc;
}

/* Pass 2: every task of dir/tasks.csv into its cell of the skeleton r (its grouping ps, x). 0, or 2. */
static int cells_stream(const struct rundir *r, const struct plot_series *ps, const struct plot_x *x,
                        const char *dir, struct cellstats *c, const int *val_col, double *v)
{
  char path[SWEEP_PATH_MAX + 32];
  struct table_stream ts;
  struct strmap at = {0};
  struct key k = {0};
  int *cols = calloc((size_t)r->tasks->ncol + 1, sizeof *cols), *scols = NULL, *vcols = NULL, n = 0, rc = 2,
      got;
  const char **sf = calloc((size_t)r->tasks->ncol + 1, sizeof *sf);
  if (sweep_path(path, sizeof path, "%s/tasks.csv", dir) || !cols || !sf) goto done;
  if (table_stream_open(&ts, path, TABLE_STRICT)) goto done;
  /* the skeleton's rows by the key of their cell (several rows may share one: the same cell) */
  n = cell_columns(r, r->tasks->col, r->tasks->ncol, cols);
  for (int i = 0; i < r->tasks->nrow; i++) {
    table_row(r->tasks, i, sf);
    if (key_of(&k, sf, cols, n) || (strmap_find(&at, k.s) < 0 && strmap_put(&at, k.s, i))) goto closed;
  }
  scols = calloc((size_t)ts.ncol + 1, sizeof *scols);
  vcols = calloc((size_t)c->n_cols + 1, sizeof *vcols);
  if (!scols || !vcols || cell_columns(r, ts.col, ts.ncol, scols) != n) goto closed;
  int status = table_stream_column(&ts, "status");
  for (int j = 0; j < c->n_cols; j++) /* the values' columns in the stream */
    vcols[j] = val_col[j] >= 0 ? table_stream_column(&ts, r->tasks->col[val_col[j]]) : -1;
  while ((got = table_stream_next(&ts)) == 1) {
    int o = outcome_of(ts.field[status]), row;
    if (o < 0) continue; /* not applicable: in no count, and perhaps left out of the skeleton */
    if (key_of(&k, (const char *const *)ts.field, scols, n)) goto closed;
    if ((row = strmap_find(&at, k.s)) < 0) {
      fprintf(stderr, "error: %s line %d: a task the first reading did not see (the file changed?)\n", path,
              ts.lineno);
      goto closed;
    }
    for (int j = 0; j < c->n_cols; j++)
      v[j] = vcols[j] >= 0 ? table_field_number(ts.field[vcols[j]]) : NAN;
    if (cellstats_add(c, ps->g->of_row[row] * x->g->n + x->pos[x->g->of_row[row]], o, v)) goto closed;
  }
  rc = got == 0 ? 0 : 2;
closed:
  table_stream_close(&ts);
done:
  free(cols), free(scols), free(vcols), free((void *)sf), free(k.s);
  strmap_free(&at);
  return rc;
}

int plot_cells_make(const struct rundir *r, const struct plot_series *ps, const struct plot_x *x,
                    const char *stream_dir, struct cellstats *c)
{
  int *val_col = NULL, rc = 2;
  double *v = NULL;
  if (cells_init(r, ps, x, c, &val_col, r->tasks->col, r->tasks->ncol) ||
      !(v = calloc((size_t)c->n_cols + 1, sizeof *v)))
    goto cleanup;
  if (stream_dir) {
    if (cells_stream(r, ps, x, stream_dir, c, val_col, v)) goto cleanup;
  } else
    for (int i = 0; i < r->tasks->nrow; i++) {
      for (int j = 0; j < c->n_cols; j++)
        v[j] = val_col[j] >= 0 ? table_number(r->tasks, i, val_col[j]) : NAN;
      if (cellstats_add(c, ps->g->of_row[i] * x->g->n + x->pos[x->g->of_row[i]], rundir_outcome(r, i), v))
        goto cleanup;
    }
  rc = cellstats_finish(c) ? 2 : 0;
cleanup:
  free(val_col);
  free(v);
  return rc;
}
