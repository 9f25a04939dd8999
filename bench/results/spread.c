/* spread.c — spread.csv beside a baseline (spread.h): measured from perturbed runs, written, and read back
 * as a stream joined onto the baseline's tasks by ascending task id. */
#include "spread.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int spread_is_outcome(const struct rundir *r, const char *name)
{
  int judged = rundir_list_find(&r->metrics, name) >= 0 || rundir_list_find(&r->counts, name) >= 0;
  return judged && rundir_list_find(&r->per_step, name) < 0;
}

/* The row of task id in r's table (ids ascending in tasks.csv), or -1. */
static int row_of(const struct rundir *r, int id_col, const char *id)
{
  for (int lo = 0, hi = r->tasks->nrow - 1; lo <= hi;) {
    int mid = lo + (hi - lo) / 2;
    long v = strtol(table_get(r->tasks, mid, id_col), NULL, 10), want = strtol(id, NULL, 10);
    if (v == want) return mid;
    if (v < want)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  return -1;
}

/* One line of spread.csv: the task's runs, status flips and each outcome's largest move. */
static void write_row(FILE *fp, const struct rundir *nominal, struct rundir *const *perturbed, int n, int i,
                      const char *const *outcome, int n_out)
{
  int id_col = table_column(nominal->tasks, "task_id"), runs = 0, flips = 0;
  const char *id = table_get(nominal->tasks, i, id_col),
             *status = table_get(nominal->tasks, i, nominal->status_col);
  int *rows = calloc((size_t)n + 1, sizeof *rows);
  for (int k = 0; rows && k < n; k++) {
    rows[k] = row_of(perturbed[k], table_column(perturbed[k]->tasks, "task_id"), id);
    if (rows[k] < 0) continue;
    runs++;
    flips += strcmp(table_get(perturbed[k]->tasks, rows[k], perturbed[k]->status_col), status) != 0;
  }
  fprintf(fp, "%s,%d,%d", id, runs, flips);
  for (int c = 0; c < n_out; c++) {
    double x = table_number(nominal->tasks, i, table_column(nominal->tasks, outcome[c])), worst = NAN;
    for (int k = 0; rows && k < n && rundir_outcome(nominal, i) == 1; k++) {
      if (rows[k] < 0 || rundir_outcome(perturbed[k], rows[k]) != 1) continue;
      double y = table_number(perturbed[k]->tasks, rows[k], table_column(perturbed[k]->tasks, outcome[c]));
      if (isfinite(x) && isfinite(y) && !(fabs(y - x) <= worst)) worst = fabs(y - x);
    }
    if (isnan(worst))
      fputs(",", fp);
    else
      fprintf(fp, ",%.17g", worst);
  }
  fputc('\n', fp);
  free(rows);
}

int spread_write(const struct rundir *nominal, struct rundir *const *perturbed, int n, double perturb)
{
  for (int k = 0; k < n; k++)
    if (strcmp(perturbed[k]->experiment, nominal->experiment) != 0 ||
        table_column(perturbed[k]->tasks, "task_id") < 0) {
      fprintf(stderr, "error: %s is not a run of %s\n", perturbed[k]->dir, nominal->experiment);
      return 2;
    }
  const char **outcome = calloc((size_t)(nominal->metrics.n + nominal->costs.n) + 1, sizeof *outcome);
  int n_out = 0;
  for (int k = 0; outcome && k < nominal->metrics.n + nominal->costs.n; k++) {
    const char *name =
        k < nominal->metrics.n ? nominal->metrics.name[k] : nominal->costs.name[k - nominal->metrics.n];
    if (spread_is_outcome(nominal, name)) outcome[n_out++] = name;
  }
  char path[4096];
  snprintf(path, sizeof path, "%s/spread.csv", nominal->dir);
  FILE *fp = outcome ? fopen(path, "w") : NULL;
  if (!fp) {
    fprintf(stderr, "error: cannot write %s\n", path);
    free(outcome);
    return 2;
  }
  fprintf(fp,
          "# largest |perturbed - baseline| per task over %d runs under -perturb_initial %g "
          "(bench/regress -baseline)\ntask_id,runs,status_flips",
          n, perturb);
  for (int c = 0; c < n_out; c++)
    fprintf(fp, ",%s", outcome[c]);
  fputc('\n', fp);
  for (int i = 0; i < nominal->tasks->nrow; i++)
    write_row(fp, nominal, perturbed, n, i, outcome, n_out);
  free(outcome);
  if (ferror(fp) | fclose(fp)) {
    fprintf(stderr, "error: cannot write %s\n", path);
    return 2;
  }
  return 0;
}

int spread_read(const char *dir, struct spread **out)
{
  *out = NULL;
  struct spread *sp = calloc(1, sizeof *sp);
  if (!sp) return 2;
  snprintf(sp->path, sizeof sp->path, "%s/spread.csv", dir);
  int rc = table_stream_open(&sp->ts, sp->path, TABLE_STRICT);
  if (rc) {
    free(sp);
    return rc;
  }
  sp->open = 1;
  if (table_stream_column(&sp->ts, "task_id") < 0 || table_stream_column(&sp->ts, "runs") < 0 ||
      table_stream_column(&sp->ts, "status_flips") < 0) {
    fprintf(stderr, "error: %s: needs columns task_id, runs, status_flips\n", sp->path);
    spread_destroy(&sp);
    return 2;
  }
  *out = sp;
  return 0;
}

int spread_join_start(struct spread *sp, const char *const *names, int n)
{
  if (sp->open) table_stream_close(&sp->ts);
  sp->open = sp->have = sp->asked = 0;
  free(sp->col);
  if (!(sp->col = calloc((size_t)n + 1, sizeof *sp->col))) return 2;
  if (table_stream_open(&sp->ts, sp->path, TABLE_STRICT)) return 2;
  sp->open = 1, sp->n = n;
  for (int k = 0; k < n; k++)
    sp->col[k] = names[k] ? table_stream_column(&sp->ts, names[k]) : -1;
  return 0;
}

/* Reads rows until the current one's id is at least want: 0, or 2 with a message. */
static int advance_to(struct spread *sp, long want)
{
  int id_col = table_stream_column(&sp->ts, "task_id");
  while (!sp->have || sp->id < want) {
    int got = table_stream_next(&sp->ts);
    if (got == 0) return 0; /* past the last row: nothing more is measured */
    if (got != 1) return 2;
    long id = strtol(sp->ts.field[id_col], NULL, 10);
    if (sp->have && id <= sp->id) {
      fprintf(stderr, "error: %s: task ids not ascending at line %d (%ld after %ld)\n", sp->path,
              sp->ts.lineno, id, sp->id);
      return 2;
    }
    sp->id = id, sp->have = 1;
  }
  return 0;
}

int spread_join(struct spread *sp, const char *id, int *flips, double *v)
{
  long want = strtol(id, NULL, 10);
  if (sp->asked && want < sp->last) {
    fprintf(
        stderr,
        "error: %s joins the baseline's tasks by ascending task_id, but its tasks.csv holds task %ld after "
        "%ld\n",
        sp->path, want, sp->last);
    return 2;
  }
  sp->asked = 1, sp->last = want;
  if (advance_to(sp, want)) return 2;
  const int at = sp->have && sp->id == want;
  *flips = at ? atoi(sp->ts.field[table_stream_column(&sp->ts, "status_flips")]) : 0;
  for (int k = 0; k < sp->n; k++)
    v[k] = at && sp->col[k] >= 0 ? table_field_number(sp->ts.field[sp->col[k]]) : NAN;
  return 0;
}

void spread_destroy(struct spread **sp)
{
  if (!sp || !*sp) return;
  if ((*sp)->open) table_stream_close(&(*sp)->ts);
  free((*sp)->col);
  free(*sp);
  *sp = NULL;
}
