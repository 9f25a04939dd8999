/* plot_view.c — bench_plot's view of a run: another x, other series, a facet column, a row filter
 * (-where), and the overlay of several runs (baseline and variants) as one table with a "run" column. */
#include "plot_impl.h"
#include "results.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The x, series and row filter of the options applied to r (experiment.txt's choice where an option is
 * not given). 0 on success, 2 with a message when an option names no column or a -where item is not
 * name=value. */
int plot_apply_options(struct rundir *r, const struct plot_options *o)
{
  if (o->x && o->x[0]) {
    if (strcmp(o->x, "none") != 0 && table_column(r->tasks, o->x) < 0) {
      fprintf(stderr, "error: -x %s: %s/tasks.csv has no such column\n", o->x, r->dir);
      return 2;
    }
    /* a new x is logarithmic when positive numbers spanning two decades or more */
    if (strcmp(o->x, r->plot_x) != 0) {
      int col = table_column(r->tasks, o->x);
      double mn = INFINITY, mx = 0.0;
      for (int i = 0; col >= 0 && i < r->tasks->nrow; i++) {
        double v = table_number(r->tasks, i, col);
        mn = v > 0.0 ? fmin(mn, v) : -INFINITY, mx = fmax(mx, v);
      }
      r->log_x = col >= 0 && mn > 0.0 && mx / mn >= 100.0;
    }
    free(r->plot_x);
    if (!(r->plot_x = strdup(strcmp(o->x, "none") == 0 ? "" : o->x))) return 2;
  }
  if (o->series) {
    if (rundir_list_set(&r->series, strcmp(o->series, "none") == 0 ? "" : o->series)) return 2;
    for (int k = 0; k < r->series.n; k++)
      if (table_column(r->tasks, r->series.name[k]) < 0) {
        fprintf(stderr, "error: -series %s: %s/tasks.csv has no column %s\n", o->series, r->dir,
                r->series.name[k]);
        return 2;
      }
  }
  /* a facet that is not a series axis splits the series by it: it goes first */
  if (o->facet && o->facet[0] && rundir_list_find(&r->series, o->facet) < 0) {
    if (table_column(r->tasks, o->facet) < 0) {
      fprintf(stderr, "error: -facet %s: %s/tasks.csv has no such column\n", o->facet, r->dir);
      return 2;
    }
    size_t len = strlen(o->facet) + 2;
    for (int k = 0; k < r->series.n; k++)
      len += strlen(r->series.name[k]) + 1;
    char *list = malloc(len);
    if (!list) return 2;
    strcpy(list, o->facet);
    for (int k = 0; k < r->series.n; k++)
      strcat(strcat(list, ","), r->series.name[k]);
    int bad = rundir_list_set(&r->series, list);
    free(list);
    if (bad) return 2;
  }
  if (!o->where || !o->where[0]) return 0;
  /* -where name=value,...: the rows matching every item (values compared as rundir_group does: text, or
   * equal numbers); several items on one name are alternatives */
  struct rundir_list w = {0, NULL};
  struct table *kept = NULL;
  int rc = 2, *wc = NULL;
  const char **row = calloc((size_t)r->tasks->ncol + 1, sizeof *row);
  if (!row || rundir_list_set(&w, o->where)) goto cleanup;
  if (!(wc = calloc((size_t)w.n + 1, sizeof *wc))) goto cleanup;
  for (int k = 0; k < w.n; k++) {
    char *eq = strchr(w.name[k], '=');
    if (eq) *eq = '\0';
    if (!eq || (wc[k] = table_column(r->tasks, w.name[k])) < 0) {
      fprintf(stderr, "error: -where %s: %s\n", o->where,
              eq ? "no such column in tasks.csv" : "items are name=value");
      goto cleanup;
    }
  }
  if (!(kept = table_create(r->tasks->ncol, (const char *const *)r->tasks->col))) goto cleanup;
  for (int i = 0; i < r->tasks->nrow; i++) {
    int keep = 1;
    for (int k = 0; k < w.n && keep; k++) {
      int hit = 0;
      for (int j = 0; j < w.n; j++) {
        if (strcmp(w.name[j], w.name[k]) != 0) continue;
        const char *have = table_get(r->tasks, i, wc[j]), *want = w.name[j] + strlen(w.name[j]) + 1;
        char *e1, *e2;
        double a = strtod(have, &e1), b = strtod(want, &e2);
        hit |= strcmp(have, want) == 0 || (have[0] && want[0] && !*e1 && !*e2 && a == b);
      }
      keep = hit;
    }
    if (keep) table_row(r->tasks, i, row);
    if (keep && table_append(kept, row)) goto cleanup;
  }
  if (!kept->nrow) {
    fprintf(stderr, "error: -where %s leaves no task of %s\n", o->where, r->dir);
    goto cleanup;
  }
  table_destroy(&r->tasks);
  r->tasks = kept, kept = NULL;
  rc = 0;
cleanup:
  table_destroy(&kept);
  free(wc);
  free((void *)row);
  for (int k = 0; k < w.n; k++)
    free(w.name[k]);
  free(w.name);
  return rc;
}

/* The "run" value of run k (-1: the baseline) of an overlay: its role and the last two parts of its
 * folder, so that the key names the runs ("baseline (baseline/incline)", "variant (mine/incline)"). */
static void run_tag(int k, int n_other, const char *dir, char *tag, size_t n)
{
  size_t len = strlen(dir);
  while (len > 1 && dir[len - 1] == '/')
    len--;
  size_t start = len, slashes = 0;
  while (start > 0 && !(dir[start - 1] == '/' && ++slashes == 2))
    start--;
  if (k < 0)
    snprintf(tag, n, "%s (%.*s)", PLOT_BASELINE_TAG, (int)(len - start), dir + start);
  else if (n_other == 1)
    snprintf(tag, n, "variant (%.*s)", (int)(len - start), dir + start);
  else
    snprintf(tag, n, "variant%d (%.*s)", k + 1, (int)(len - start), dir + start);
}

/* Overlay: the tasks of the other runs appended to base's under a new first column "run" (baseline,
 * variant, variant2, ...), which becomes the first series axis, so that every figure draws the same
 * metric of each run. Columns are matched by name; one missing in a later run is left empty. */
int plot_overlay_runs(struct rundir *base, struct rundir **other, int n_other)
{
  const struct table *t = base->tasks;
  int nc = t->ncol + 1, rc = 2;
  const char **names = calloc((size_t)nc + 1, sizeof *names), **row = calloc((size_t)nc + 1, sizeof *row);
  int *map = calloc((size_t)nc + 1, sizeof *map);
  struct table *all = NULL;
  char tag[PLOT_TAG_MAX], *series = NULL;
  if (!names || !row || !map) goto cleanup;
  if (table_column(t, "run") >= 0) {
    fprintf(stderr, "error: -overlay: %s/tasks.csv already has a column 'run'\n", base->dir);
    goto cleanup;
  }
  names[0] = "run";
  for (int c = 0; c < t->ncol; c++)
    names[c + 1] = t->col[c];
  if (!(all = table_create(nc, names))) goto cleanup;
  for (int k = -1; k < n_other; k++) {
    const struct table *src = k < 0 ? t : other[k]->tasks;
    run_tag(k, n_other, k < 0 ? base->dir : other[k]->dir, tag, sizeof tag);
    for (int c = 0; c < t->ncol; c++)
      map[c] = table_column(src, t->col[c]);
    for (int i = 0; i < src->nrow; i++) {
      row[0] = tag;
      for (int c = 0; c < t->ncol; c++)
        row[c + 1] = map[c] >= 0 ? table_get(src, i, map[c]) : "";
      if (table_append(all, row)) goto cleanup;
    }
  }
  size_t len = 8;
  for (int k = 0; k < base->series.n; k++)
    len += strlen(base->series.name[k]) + 1;
  if (!(series = malloc(len))) goto cleanup;
  strcpy(series, "run");
  for (int k = 0; k < base->series.n; k++)
    strcat(strcat(series, ","), base->series.name[k]);
  if (rundir_list_set(&base->series, series)) goto cleanup;
  table_destroy(&base->tasks);
  base->tasks = all, all = NULL;
  base->status_col = table_column(base->tasks, "status");
  rc = 0;
cleanup:
  table_destroy(&all);
  free(names);
  free(row);
  free(map);
  free(series);
  return rc;
}

/* 1 when column c has one value in every row of t (as rundir_group compares: text, or equal numbers). */
static int one_value(const struct table *t, int c)
{
  char a[256], b[256];
  if (c < 0 || t->nrow == 0) return 0;
  rundir_canonical(table_get(t, 0, c), a, sizeof a);
  for (int i = 1; i < t->nrow; i++) {
    rundir_canonical(table_get(t, i, c), b, sizeof b);
    if (strcmp(a, b) != 0) return 0;
  }
  return 1;
}

int plot_leave_out_idle(struct rundir *r, const char *facet)
{
  struct table *kept = NULL;
  const char **row = calloc((size_t)r->tasks->ncol + 1, sizeof *row);
  int applicable = 0, rc = 2;
  if (!row) goto cleanup;
  for (int i = 0; i < r->tasks->nrow; i++)
    applicable += rundir_outcome(r, i) >= 0;
  if (applicable > 0 && applicable < r->tasks->nrow) { /* the rows that say something */
    if (!(kept = table_create(r->tasks->ncol, (const char *const *)r->tasks->col))) goto cleanup;
    for (int i = 0; i < r->tasks->nrow; i++) {
      if (rundir_outcome(r, i) < 0) continue;
      table_row(r->tasks, i, row);
      if (table_append(kept, row)) goto cleanup;
    }
    table_destroy(&r->tasks);
    r->tasks = kept, kept = NULL;
  }
  /* series axes with one value: named once in the title's "at ..." note (plot_aggregated_over) */
  int n = 0;
  for (int k = 0; k < r->series.n; k++) {
    const char *a = r->series.name[k];
    if ((!facet || strcmp(a, facet) != 0) && one_value(r->tasks, table_column(r->tasks, a)))
      free(r->series.name[k]);
    else
      r->series.name[n++] = r->series.name[k];
  }
  r->series.n = n;
  rc = 0;
cleanup:
  table_destroy(&kept);
  free((void *)row);
  return rc;
}
