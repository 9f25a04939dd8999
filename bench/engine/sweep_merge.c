/* sweep_merge.c — the ledgers of a run (one per slice, or one shared) merged into tasks.csv: rows matched
 * and numbered by their axis values (experiment.txt's value lists), so that a sweep extended with new
 * values keeps every finished row; missing tasks and slices named (bench_merge exits 1 on them). */
#include "sweep_impl.h"
#include "table.h"

#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

struct id_row {
  long id;
  int table, row;
};

static int by_id(const void *a, const void *b)
{
  const struct id_row *x = a, *y = b;
  return (x->id > y->id) - (x->id < y->id);
}

/* An axis value and its position in the axis' list, sorted by value then position: a row's value is found
 * by binary search (a linear search per row made a merge of N tasks with N seeds quadratic in N). */
struct value_at {
  const char *value;
  int i;
};

static int by_value_then_position(const void *a, const void *b)
{
  const struct value_at *x = a, *y = b;
  int c = strcmp(x->value, y->value);
  return c ? c : (x->i > y->i) - (x->i < y->i);
}

/* The axis value lists of a run (experiment.txt: axes, values_<axis>), to number tasks by their values. */
struct axis_lists {
  int n;
  int *col;                 /* column of each axis in the ledger */
  int *count;               /* values per axis */
  char ***values;           /* values[k][i] */
  struct value_at **sorted; /* sorted[k]: values[k] by value (by_value_then_position) */
};

static void axis_lists_free(struct axis_lists *l)
{
  for (int k = 0; l->values && k < l->n; k++) {
    for (int i = 0; l->values[k] && i < l->count[k]; i++)
      free(l->values[k][i]);
    free(l->values[k]);
    if (l->sorted) free(l->sorted[k]);
  }
  free(l->values);
  free(l->sorted);
  free(l->count);
  free(l->col);
  memset(l, 0, sizeof *l);
}

static int split_list(const char *text, char ***out, int *n)
{
  *n = 0;
  *out = NULL;
  if (!text || !text[0]) return 0;
  char *copy = strdup(text), *save = NULL;
  if (!copy) return 1;
  for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    char **nv = realloc(*out, (size_t)(*n + 1) * sizeof *nv);
    if (!nv) break;
    *out = nv;
    if (!((*out)[*n] = strdup(tok))) break;
    (*n)++;
  }
  free(copy);
  return 0;
}

static int axis_lists_read(const char *path, const struct table *t, struct axis_lists *l)
{
  char *axes = sweep_experiment_value(path, "axes");
  char **names = NULL;
  int n = 0, rc = 2;
  memset(l, 0, sizeof *l);
  if (!axes || split_list(axes, &names, &n)) {
    fprintf(stderr, "error: %s: no 'axes' line\n", path);
    goto cleanup;
  }
  l->n = n;
  l->col = calloc((size_t)n + 1, sizeof *l->col);
  l->count = calloc((size_t)n + 1, sizeof *l->count);
  l->values = calloc((size_t)n + 1, sizeof *l->values);
  l->sorted = calloc((size_t)n + 1, sizeof(struct value_at *));
  if (!l->col || !l->count || !l->values || !l->sorted) goto cleanup;
  for (int k = 0; k < n; k++) {
    char key[256];
    snprintf(key, sizeof key, "values_%s", names[k]);
    char *v = sweep_experiment_value(path, key);
    l->col[k] = table_column(t, names[k]);
    if (!v || l->col[k] < 0) {
      fprintf(stderr, "error: %s: no '%s' line, or the ledger has no column %s\n", path, key, names[k]);
      free(v);
      goto cleanup;
    }
    split_list(v, &l->values[k], &l->count[k]);
    free(v);
    if (!(l->sorted[k] = malloc(((size_t)l->count[k] + 1) * sizeof *l->sorted[k]))) goto cleanup;
    for (int i = 0; i < l->count[k]; i++)
      l->sorted[k][i] = (struct value_at){l->values[k][i], i};
    qsort(l->sorted[k], (size_t)l->count[k], sizeof *l->sorted[k], by_value_then_position);
  }
  rc = 0;
cleanup:
  for (int k = 0; k < n; k++)
    free(names[k]);
  free(names);
  free(axes);
  if (rc) axis_lists_free(l);
  return rc;
}

/* The first position of value in axis k's list, -1 when it is not there. */
static int axis_position(const struct axis_lists *l, int k, const char *value)
{
  int lo = 0, hi = l->count[k]; /* the first sorted entry whose value is >= value */
  while (lo < hi) {
    const int mid = lo + (hi - lo) / 2;
    if (strcmp(l->sorted[k][mid].value, value) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < l->count[k] && strcmp(l->sorted[k][lo].value, value) == 0 ? l->sorted[k][lo].i : -1;
}

/* The id of row r in the sweep the lists describe (last axis fastest), -1 when a value is not in it. */
static long axis_lists_id(const struct axis_lists *l, const struct table *t, int r)
{
  long id = 0;
  for (int k = 0; k < l->n; k++) {
    const int found = axis_position(l, k, table_get(t, r, l->col[k]));
    if (found < 0) return -1;
    id = id * l->count[k] + found;
  }
  return id;
}

/* Names what a merge lacks: the ids of the missing tasks (as ranges, the first few) and, when the
 * directory holds slice ledgers (ledger.K-of-N.csv), the slices those ids belong to, which are the job
 * array elements to run again. */
static void report_missing(const char *run_dir, const struct table *out, long total, long missing)
{
  char *present = calloc((size_t)total + 1, 1), path[SWEEP_PATH_MAX + 64];
  long slices = 0;
  glob_t g = {0};
  if (!present) return;
  for (int i = 0; i < out->nrow; i++) {
    long id = strtol(table_get(out, i, 0), NULL, 10);
    if (id >= 0 && id < total) present[id] = 1;
  }
  sweep_path(path, sizeof path, "%s/ledger.*-of-*.csv", run_dir);
  if (glob(path, 0, NULL, &g) == 0 && g.gl_pathc > 0) {
    const char *of = strstr(strrchr(g.gl_pathv[0], '/'), "-of-");
    slices = of ? strtol(of + 4, NULL, 10) : 0;
  }
  fprintf(stderr, "[merge] %s: %ld of %ld tasks present (%ld missing); the missing ids:", run_dir,
          total - missing, total, missing);
  int ranges = 0;
  for (long id = 0; id < total; id++) {
    if (present[id]) continue;
    long end = id;
    while (end + 1 < total && !present[end + 1])
      end++;
    if (++ranges > 20) {
      fprintf(stderr, " ...");
      break;
    }
    if (end > id)
      fprintf(stderr, " %ld-%ld", id, end);
    else
      fprintf(stderr, " %ld", id);
    id = end;
  }
  fputc('\n', stderr);
  if (slices > 0) {
    fprintf(stderr, "[merge] slices with missing tasks (run them again with -slice K/%ld -resume):", slices);
    for (long k = 0; k < slices; k++) {
      long n = 0;
      for (long id = k; id < total; id += slices)
        n += !present[id];
      if (n) fprintf(stderr, " %ld/%ld (%ld)", k, slices, n);
    }
    fputc('\n', stderr);
  } else {
    fprintf(stderr, "[merge] run again with -resume to complete it\n");
  }
  globfree(&g);
  free(present);
}

/* Every ledger*.csv of run_dir, in name order, each with the first one's columns: *t (nt tables), *nrows
 * rows in all. 0, or 2 with a message. */
static int read_ledgers(const char *run_dir, glob_t *g, struct table ***t, size_t *nt, long *nrows)
{
  char path[SWEEP_PATH_MAX + 64];
  sweep_path(path, sizeof path, "%s/ledger*.csv", run_dir);
  if (glob(path, 0, NULL, g) != 0 || g->gl_pathc == 0) {
    fprintf(stderr, "error: %s has no ledger*.csv to merge\n", run_dir);
    return 2;
  }
  qsort(g->gl_pathv, g->gl_pathc, sizeof *g->gl_pathv, by_name);
  if (!(*t = calloc(g->gl_pathc, sizeof(struct table *)))) return 2;
  for (*nt = 0; *nt < g->gl_pathc; (*nt)++) {
    struct table *ti;
    if (table_read(g->gl_pathv[*nt], TABLE_TORN_LAST, &(*t)[*nt])) return 2;
    ti = (*t)[*nt];
    int same = ti->ncol == (*t)[0]->ncol;
    for (int j = 0; same && j < ti->ncol; j++)
      same = strcmp(ti->col[j], (*t)[0]->col[j]) == 0;
    if (!same || table_column(ti, "task_id") != 0) {
      fprintf(stderr, "error: %s and %s have different columns\n", g->gl_pathv[0], g->gl_pathv[*nt]);
      (*nt)++;
      return 2;
    }
    *nrows += ti->nrow;
  }
  return 0;
}

/* The rows sorted by id (numbered by their axis values in this sweep; rows of values the sweep no longer
 * has are left out, said on stderr; an interrupted row is no result: its task counts as missing until a
 * -resume has run it). Returns their count. */
static long number_rows(const char *run_dir, const struct axis_lists *lists, struct table **t, size_t nt,
                        struct id_row *rows)
{
  long k = 0, dropped = 0;
  for (size_t i = 0; i < nt; i++)
    for (int r = 0, cst = table_column(t[i], "status"); r < t[i]->nrow; r++) {
      if (cst >= 0 && strcmp(table_get(t[i], r, cst), SWEEP_INTERRUPTED) == 0) continue;
      long id = axis_lists_id(lists, t[i], r);
      if (id < 0) {
        dropped++;
        continue;
      }
      rows[k++] = (struct id_row){id, (int)i, r};
    }
  if (dropped)
    fprintf(stderr,
            "[merge] %s: %ld ledger rows have axis values this sweep no longer has; not in tasks.csv\n",
            run_dir, dropped);
  /* by id; of a repeated id (rerun_failed, resume) the last written row wins: highest (file, row) */
  qsort(rows, (size_t)k, sizeof *rows, by_id);
  return k;
}

/* One row per id, the last written, with its id in this sweep (the ledger's may be from before an axis
 * grew). NULL when out of memory. */
static struct table *latest_rows(struct table **t, const struct id_row *rows, long nrows)
{
  struct table *out = table_create(t[0]->ncol, (const char *const *)t[0]->col);
  for (long i = 0; out && i < nrows; i++) {
    long j = i; /* the last row of this id in write order */
    while (j + 1 < nrows && rows[j + 1].id == rows[i].id)
      j++;
    long best = i;
    for (long m = i; m <= j; m++)
      if (rows[m].table > rows[best].table ||
          (rows[m].table == rows[best].table && rows[m].row > rows[best].row))
        best = m;
    const struct table *src = t[rows[best].table];
    char **fields = &src->cell[(size_t)rows[best].row * (size_t)src->ncol], idtxt[32];
    char *saved = fields[0];
    snprintf(idtxt, sizeof idtxt, "%ld", rows[best].id);
    fields[0] = idtxt;
    int bad_row = table_append(out, (const char *const *)fields);
    fields[0] = saved;
    if (bad_row) table_destroy(&out);
    i = j;
  }
  return out;
}

int sweep_merge(const char *run_dir, long *n_missing)
{
  struct axis_lists lists = {0};
  char path[SWEEP_PATH_MAX + 64], final[SWEEP_PATH_MAX + 64];
  glob_t g = {0};
  struct table **t = NULL, *out = NULL;
  struct id_row *rows = NULL;
  int rc = 2;
  size_t nt = 0;
  long nrows = 0;
  if (read_ledgers(run_dir, &g, &t, &nt, &nrows)) goto cleanup;
  rows = malloc((size_t)nrows * sizeof *rows + 1);
  if (!rows) goto cleanup;
  sweep_path(path, sizeof path, "%s/experiment.txt", run_dir);
  if (axis_lists_read(path, t[0], &lists)) goto cleanup;
  nrows = number_rows(run_dir, &lists, t, nt, rows);
  sweep_path(path, sizeof path, "%s/tasks.csv.tmp", run_dir);
  sweep_path(final, sizeof final, "%s/tasks.csv", run_dir);
  FILE *fp = fopen(path, "w");
  if (!fp) {
    fprintf(stderr, "error: cannot write %s: %s\n", path, strerror(errno));
    goto cleanup;
  }
  out = latest_rows(t, rows, nrows);
  errno = 0;
  int bad = !out || table_write(out, fp);
  bad |= fclose(fp) != 0;
  if (bad || rename(path, final)) {
    fprintf(stderr, "error: cannot write %s: %s\n", final, errno ? strerror(errno) : "out of memory");
    unlink(path); /* no half-written tasks.csv.tmp left behind (a full disk) */
    goto cleanup;
  }
  sweep_path(path, sizeof path, "%s/experiment.txt", run_dir);
  char *tasks = sweep_experiment_value(path, "tasks");
  long total = tasks ? strtol(tasks, NULL, 10) : 0, missing = total > out->nrow ? total - out->nrow : 0;
  if (n_missing) *n_missing = missing;
  if (missing) report_missing(run_dir, out, total, missing);
  free(tasks);
  rc = 0;
cleanup:
  table_destroy(&out);
  for (size_t i = 0; t && i < nt; i++)
    table_destroy(&t[i]);
  free(t);
  free(rows);
  globfree(&g);
  axis_lists_free(&lists);
  return rc;
}
