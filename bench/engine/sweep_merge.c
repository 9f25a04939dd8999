/* sweep_merge.c — the ledgers of a run (one per slice, or one shared) merged into tasks.csv: rows matched
 * and numbered by their axis values (experiment.txt's value lists), so that a sweep extended with new
 * values keeps every finished row; missing tasks and slices named (bench_merge exits 1 on them). */
#include "sweep_impl.h"
#include "table.h"

#include <errno.h>
#include <glob.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

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

static int axis_lists_read(const char *path, const struct table_stream *t, struct axis_lists *l)
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
    l->col[k] = table_stream_column(t, names[k]);
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

/* The id of the stream's row in the sweep the lists describe (last axis fastest), -1 when a value is not
 * in it. */
static long axis_lists_id(const struct axis_lists *l, const struct table_stream *t)
{
  long id = 0;
  for (int k = 0; k < l->n; k++) {
    const int found = axis_position(l, k, t->field[l->col[k]]);
    if (found < 0) return -1;
    id = id * l->count[k] + found;
  }
  return id;
}

/* Where the row that counts for each task is: (ledger index + 1) << WHERE_SHIFT | byte offset of its line;
 * 0 when the task has none. 8 bytes per task of the sweep: the one part of the merge that grows with the
 * sweep; the rows themselves are copied through a buffer of fixed size (merge_block). */
#define WHERE_SHIFT 40
static uint64_t where_of(size_t ledger, long offset)
{
  return (uint64_t)(ledger + 1) << WHERE_SHIFT | (uint64_t)offset;
}

/* Names what a merge lacks: the ids of the missing tasks (as ranges, the first few) and, when the
 * directory holds slice ledgers (ledger.K-of-N.csv), the slices those ids belong to, which are the job
 * array elements to run again. */
static void report_missing(const char *run_dir, const uint64_t *where, long total, long missing)
{
  char path[SWEEP_PATH_MAX + 64];
  long slices = 0;
  glob_t g = {0};
  sweep_path(path, sizeof path, "%s/ledger.*-of-*.csv", run_dir);
  if (glob(path, 0, NULL, &g) == 0 && g.gl_pathc > 0) {
    const char *of = strstr(strrchr(g.gl_pathv[0], '/'), "-of-");
    slices = of ? strtol(of + 4, NULL, 10) : 0;
  }
  fprintf(stderr, "[merge] %s: %ld of %ld tasks present (%ld missing); the missing ids:", run_dir,
          total - missing, total, missing);
  int ranges = 0;
  for (long id = 0; id < total; id++) {
    if (where[id]) continue;
    long end = id;
    while (end + 1 < total && !where[end + 1])
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
        n += !where[id];
      if (n) fprintf(stderr, " %ld/%ld (%ld)", k, slices, n);
    }
    fputc('\n', stderr);
  } else {
    fprintf(stderr, "[merge] run again with -resume to complete it\n");
  }
  globfree(&g);
}

/* The ledgers of a run and what the merge knows of them. */
struct merge {
  const char *run_dir;
  glob_t g;   /* the ledger*.csv, in name order */
  char **col; /* the first ledger's columns (ncol) */
  int ncol;
  struct axis_lists lists; /* experiment.txt's axes */
  long total;              /* tasks of the sweep */
  uint64_t *where;         /* total */
  long rows;               /* tasks with a row that counts */
  long bytes, seen;        /* text and number of the rows read (for the block size) */
};

/* Opens ledger i as a stream with the first ledger's columns: 0, or 2 with a message. */
static int open_ledger(struct merge *m, size_t i, struct table_stream *ts)
{
  if (table_stream_open(ts, m->g.gl_pathv[i], TABLE_TORN_LAST)) return 2;
  int same = ts->ncol == m->ncol && ts->ncol > 0 && strcmp(ts->col[0], "task_id") == 0;
  for (int j = 0; same && j < ts->ncol; j++)
    same = strcmp(ts->col[j], m->col[j]) == 0;
  if (!same) {
    fprintf(stderr, "error: %s and %s have different columns\n", m->g.gl_pathv[0], m->g.gl_pathv[i]);
    return 2;
  }
  return 0;
}

/* The first pass: where the last row of each task is (an interrupted row is no result: its task counts as
 * missing until a -resume has run it; rows of values the sweep no longer has are left out, said on
 * stderr). 0, or 2 with a message. */
static int index_rows(struct merge *m)
{
  long dropped = 0;
  for (size_t i = 0; i < m->g.gl_pathc; i++) {
    struct table_stream ts;
    int rc = open_ledger(m, i, &ts), got = 0, cst = table_stream_column(&ts, "status");
    while (!rc && (got = table_stream_next(&ts)) == 1) {
      if (cst >= 0 && strcmp(ts.field[cst], SWEEP_INTERRUPTED) == 0) continue;
      long id = axis_lists_id(&m->lists, &ts);
      if (id < 0 || id >= m->total) {
        dropped++;
        continue;
      }
      m->where[id] = where_of(i, ts.offset);
      m->bytes += (long)ts.line_len + 1;
      m->seen++;
    }
    table_stream_close(&ts);
    if (rc || got) return 2;
  }
  for (long id = 0; id < m->total; id++)
    m->rows += m->where[id] != 0;
  if (dropped)
    fprintf(stderr,
            "[merge] %s: %ld ledger rows have axis values this sweep no longer has; not in tasks.csv\n",
            m->run_dir, dropped);
  return 0;
}

/* The rows of tasks [lo, hi) that count, copied into buf (at[id - lo]: where in buf; their order in the
 * ledgers does not matter) by one more read of every ledger. 0, or 2 with a message. */
static int gather_block(struct merge *m, long lo, long hi, char **buf, size_t *cap, size_t *at)
{
  size_t len = 0;
  for (size_t i = 0; i < m->g.gl_pathc; i++) {
    struct table_stream ts;
    int rc = open_ledger(m, i, &ts), got = 0;
    while (!rc && (got = table_stream_next(&ts)) == 1) {
      long id = axis_lists_id(&m->lists, &ts);
      if (id < lo || id >= hi || m->where[id] != where_of(i, ts.offset)) continue;
      const char *line = table_stream_text(&ts), *rest = strchr(line, ',');
      if (!rest) rest = "";
      size_t n = strlen(rest) + 1;
      if (len + n > *cap) {
        size_t c = 2 * (len + n);
        char *b = realloc(*buf, c);
        if (!b)
          rc = 2;
        else
          *buf = b, *cap = c;
      }
      if (rc) break;
      memcpy(*buf + len, rest, n); /* the fields after the id: the id is the one of this sweep */
      at[id - lo] = len;
      len += n;
    }
    table_stream_close(&ts);
    if (rc || got) return 2;
  }
  return 0;
}

/* Bytes of rows one block of the merge holds at most (it grows only for a row longer than this). */
static const size_t merge_block = (size_t)32 << 20;

/* tasks.csv from the rows that count, by id, a block of ids at a time: the ledgers are read once more per
 * block, and memory stays merge_block plus the index. 0, or nonzero when a write or read failed. */
static int write_rows(struct merge *m, FILE *fp)
{
  for (int j = 0; j < m->ncol; j++)
    fprintf(fp, "%s%s", j ? "," : "", m->col[j]);
  fputc('\n', fp);
  long per = m->seen ? m->bytes / m->seen + 1 : 1, ids = (long)(merge_block / (size_t)per) + 1;
  size_t cap = 0, *at = malloc(((size_t)(ids < m->total ? ids : m->total) + 1) * sizeof *at);
  char *buf = NULL;
  int rc = at ? 0 : 2;
  for (long lo = 0; !rc && lo < m->total && m->rows; lo += ids) {
    long hi = lo + ids < m->total ? lo + ids : m->total;
    for (long id = lo; id < hi; id++)
      at[id - lo] = SIZE_MAX;
    if ((rc = gather_block(m, lo, hi, &buf, &cap, at))) break;
    for (long id = lo; id < hi && !rc; id++) {
      if (m->where[id] && at[id - lo] == SIZE_MAX) { /* a ledger changed between the two reads */
        fprintf(stderr, "error: %s: the row of task %ld moved while merging (is a run still writing?)\n",
                m->run_dir, id);
        rc = 2;
      } else if (m->where[id])
        fprintf(fp, "%ld%s\n", id, buf + at[id - lo]);
    }
  }
  free(buf);
  free(at);
  return rc || ferror(fp);
}

/* The ledgers in name order, the first one's columns, the axis lists and the index of every task: 0, or 2
 * with a message. */
static int merge_open(struct merge *m)
{
  char path[SWEEP_PATH_MAX + 64];
  struct table_stream first;
  sweep_path(path, sizeof path, "%s/ledger*.csv", m->run_dir);
  if (glob(path, 0, NULL, &m->g) != 0 || m->g.gl_pathc == 0) {
    fprintf(stderr, "error: %s has no ledger*.csv to merge\n", m->run_dir);
    return 2;
  }
  qsort(m->g.gl_pathv, m->g.gl_pathc, sizeof *m->g.gl_pathv, by_name);
  if (table_stream_open(&first, m->g.gl_pathv[0], TABLE_TORN_LAST)) return 2;
  int rc = 2;
  m->ncol = first.ncol;
  m->col = first.col; /* kept: the stream gives them up */
  first.col = NULL;
  first.ncol = 0;
  sweep_path(path, sizeof path, "%s/experiment.txt", m->run_dir);
  char *tasks = sweep_experiment_value(path, "tasks");
  m->total = tasks ? strtol(tasks, NULL, 10) : 0;
  free(tasks);
  struct table_stream cols = {.ncol = m->ncol, .col = m->col};
  if (axis_lists_read(path, &cols, &m->lists)) goto cleanup;
  if (m->total <= 0) {
    fprintf(stderr, "error: %s: no 'tasks' line\n", path);
    goto cleanup;
  }
  if (!(m->where = calloc((size_t)m->total, sizeof *m->where))) goto cleanup;
  rc = index_rows(m);
cleanup:
  table_stream_close(&first);
  return rc;
}

static void merge_close(struct merge *m)
{
  for (int j = 0; m->col && j < m->ncol; j++)
    free(m->col[j]);
  free(m->col);
  free(m->where);
  globfree(&m->g);
  axis_lists_free(&m->lists);
}

int sweep_merge(const char *run_dir, long *n_missing)
{
  char path[SWEEP_PATH_MAX + 64], final[SWEEP_PATH_MAX + 64];
  struct merge m = {.run_dir = run_dir};
  int rc = merge_open(&m);
  if (rc) goto cleanup;
  rc = 2;
  sweep_path(path, sizeof path, "%s/tasks.csv.tmp", run_dir);
  sweep_path(final, sizeof final, "%s/tasks.csv", run_dir);
  FILE *fp = fopen(path, "w");
  if (!fp) {
    fprintf(stderr, "error: cannot write %s: %s\n", path, strerror(errno));
    goto cleanup;
  }
  errno = 0;
  int bad = write_rows(&m, fp);
  bad |= fclose(fp) != 0;
  if (bad || rename(path, final)) {
    fprintf(stderr, "error: cannot write %s: %s\n", final, errno ? strerror(errno) : "out of memory");
    unlink(path); /* no half-written tasks.csv.tmp left behind (a full disk) */
    goto cleanup;
  }
  long missing = m.total - m.rows;
  if (n_missing) *n_missing = missing;
  if (missing) report_missing(run_dir, m.where, m.total, missing);
  rc = 0;
cleanup:
  merge_close(&m);
  return rc;
}
