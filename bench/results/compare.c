/* compare.c — the verdicts of bench_compare (compare.h has the rules): groups both runs have, accuracy
 * medians against tolerances, success rates, and costs by ratio of medians plus a one-sided Wilcoxon
 * rank-sum test (normal approximation, tie-corrected variance, continuity correction; compare.h). */
#include "compare.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *compare_verdict_name(enum compare_verdict v)
{
  static const char *const names[] = {"same", "ok", "improved", "REGRESSION", "untested"};
  return names[v];
}

struct ranked {
  double v;
  int from_y;
};

static int ranked_cmp(const void *a, const void *b)
{
  double x = ((const struct ranked *)a)->v, y = ((const struct ranked *)b)->v;
  return (x > y) - (x < y);
}

double compare_rank_sum_p(const double *x, int nx, const double *y, int ny)
{
  int n = nx + ny;
  if (nx < 1 || ny < 1) return NAN;
  struct ranked *a = malloc((size_t)n * sizeof *a);
  if (!a) return NAN;
  for (int i = 0; i < nx; i++)
    a[i] = (struct ranked){x[i], 0};
  for (int i = 0; i < ny; i++)
    a[nx + i] = (struct ranked){y[i], 1};
  qsort(a, (size_t)n, sizeof *a, ranked_cmp);
  double rank_sum_y = 0.0, ties = 0.0;
  for (int i = 0; i < n;) {
    int j = i;
    while (j < n && a[j].v == a[i].v)
      j++;
    double mid = 0.5 * (i + 1 + j), t = j - i; /* ranks i+1..j share their mean */
    ties += t * t * t - t;
    for (int k = i; k < j; k++)
      if (a[k].from_y) rank_sum_y += mid;
    i = j;
  }
  free(a);
  double u = rank_sum_y - 0.5 * ny * (ny + 1.0), mean = 0.5 * nx * ny;
  double var = nx * (double)ny / 12.0 * ((n + 1.0) - ties / ((double)n * (n - 1.0)));
  if (!(var > 0.0)) return 1.0; /* every value tied: no evidence either way */
  return gsl_cdf_ugaussian_Q((u - mean - 0.5) / sqrt(var));
}

void compare_result_destroy(struct compare_result **rp)
{
  if (!rp || !*rp) return;
  rundir_groups_destroy(&(*rp)->gb);
  rundir_groups_destroy(&(*rp)->gn);
  free((*rp)->rows);
  free(*rp);
  *rp = NULL;
}

static int same_list(const struct rundir_list *a, const struct rundir_list *b)
{
  if (a->n != b->n) return 0;
  for (int i = 0; i < a->n; i++)
    if (strcmp(a->name[i], b->name[i]) != 0) return 0;
  return 1;
}

static void print_list(const struct rundir_list *l)
{
  for (int i = 0; i < l->n; i++)
    fprintf(stderr, "%s%s", i ? "," : "", l->name[i]);
  if (!l->n) fprintf(stderr, "(none)");
}

/* The runs must be the same experiment with the same group, metric and cost columns. */
static int check_compatible(const struct rundir *b, const struct rundir *n, const struct compare_options *o)
{
  if (strcmp(b->experiment, n->experiment) != 0) {
    fprintf(stderr, "error: different experiments: %s holds '%s', %s holds '%s'\n", b->dir, b->experiment,
            n->dir, n->experiment);
    return 2;
  }
  const char *what[] = {"group", "metrics", "costs"};
  const struct rundir_list *lb[] = {&b->group, &b->metrics, &b->costs},
                           *ln[] = {&n->group, &n->metrics, &n->costs};
  for (int k = 0; k < 3; k++)
    if (!same_list(lb[k], ln[k])) {
      fprintf(stderr, "error: mismatched columns: '%s' is ", what[k]);
      print_list(lb[k]);
      fprintf(stderr, " in %s but ", b->dir);
      print_list(ln[k]);
      fprintf(stderr, " in %s\n", n->dir);
      return 2;
    }
  for (int k = 0; k < o->n_metric_tol; k++)
    if (rundir_list_find(&b->metrics, o->metric_tol_name[k]) < 0) {
      fprintf(stderr,
              "error: -metric_tol names '%s', which is not a metric of %s (metrics: ", o->metric_tol_name[k],
              b->experiment);
      print_list(&b->metrics);
      fprintf(stderr, ")\n");
      return 2;
    }
  return 0;
}

static double median_of(const double *v, int n)
{
  return n > 0 ? gsl_stats_median_from_sorted_data(v, 1, (size_t)n) : NAN;
}

static void success_counts(const struct rundir *r, const struct rundir_groups *g, int grp, int *app, int *suc)
{
  *app = *suc = 0;
  for (int k = g->start[grp]; k < g->start[grp + 1]; k++) {
    int o = rundir_outcome(r, g->rows[k]);
    *app += o >= 0;
    *suc += o == 1;
  }
}

/* The verdict of a lower-is-better value moving from b to n with tolerance tol. */
static enum compare_verdict judge(double b, double n, double tol)
{
  if (isnan(b) && isnan(n)) return COMPARE_UNTESTED;
  if (isnan(n)) return COMPARE_REGRESSION; /* lost */
  if (isnan(b)) return COMPARE_OK;         /* new in this run */
  if (b == n) return COMPARE_SAME;
  if (n - b > tol) return COMPARE_REGRESSION;
  if (b - n > tol) return COMPARE_IMPROVED;
  return COMPARE_OK;
}

int compare_runs(const struct rundir *b, const struct rundir *n, const struct compare_options *o,
                 struct compare_result **out)
{
  *out = NULL;
  if (check_compatible(b, n, o)) return 2;
  struct compare_result *res = calloc(1, sizeof *res);
  double *vb = malloc(((size_t)b->tasks->nrow + 1) * sizeof *vb),
         *vn = malloc(((size_t)n->tasks->nrow + 1) * sizeof *vn);
  int rc = 2;
  if (!res || !vb || !vn) goto oom;
  if (rundir_group(b, b->group.n, b->group.name, &res->gb) ||
      rundir_group(n, n->group.n, n->group.name, &res->gn))
    goto cleanup;
  struct rundir_groups *gb = res->gb, *gn = res->gn;
  int per_group = 1 + b->metrics.n + b->costs.n;
  res->rows = calloc((size_t)gb->n * per_group + 1, sizeof *res->rows);
  char *matched = calloc((size_t)gn->n + 1, 1);
  if (!res->rows || !matched) {
    free(matched);
    goto oom;
  }
  for (int g = 0; g < gb->n; g++) {
    int m = -1;
    for (int k = 0; k < gn->n && m < 0; k++)
      if (!matched[k] && rundir_same_keys(b->tasks, gb->first[g], gb->key_col, n->tasks, gn->first[k],
                                          gn->key_col, gb->n_keys))
        m = k;
    if (m < 0) {
      res->only_base++;
      continue;
    }
    matched[m] = 1;
    res->n_common++;
    struct compare_row *row = &res->rows[res->n_rows++];
    int ab, sb, an, sn;
    success_counts(b, gb, g, &ab, &sb);
    success_counts(n, gn, m, &an, &sn);
    *row = (struct compare_row){g,
                                m,
                                COMPARE_SUCCESS,
                                "success_rate",
                                ab ? (double)sb / ab : NAN,
                                an ? (double)sn / an : NAN,
                                ab,
                                an,
                                NAN,
                                NAN,
                                COMPARE_UNTESTED};
    if (ab && an) row->verdict = judge(-row->base, -row->now, 0.0); /* higher is better: negate */
    for (int k = 0; k < b->metrics.n; k++) {
      const char *name = b->metrics.name[k];
      int nb = rundir_values(b, gb, g, table_column(b->tasks, name), 1, vb);
      int nn = rundir_values(n, gn, m, table_column(n->tasks, name), 1, vn);
      double tol_rel = o->tol_rel;
      for (int j = 0; j < o->n_metric_tol; j++)
        if (strcmp(o->metric_tol_name[j], name) == 0) tol_rel = o->metric_tol[j];
      row = &res->rows[res->n_rows++];
      *row =
          (struct compare_row){g,   m,   COMPARE_METRIC,  name, median_of(vb, nb), median_of(vn, nn), nb, nn,
                               NAN, NAN, COMPARE_UNTESTED};
      double tol = fmax(o->tol_abs, tol_rel * fabs(row->base));
      if (rundir_list_find(&n->higher_better, name) >= 0) /* higher is better: judge the negated values */
        row->verdict = judge(-row->base, -row->now, tol);
      else
        row->verdict = judge(row->base, row->now, tol);
    }
    for (int k = 0; k < b->costs.n; k++) {
      const char *name = b->costs.name[k];
      int nb = rundir_values(b, gb, g, table_column(b->tasks, name), 1, vb);
      int nn = rundir_values(n, gn, m, table_column(n->tasks, name), 1, vn);
      row = &res->rows[res->n_rows++];
      *row = (struct compare_row){g,  m,  COMPARE_COST, name, median_of(vb, nb), median_of(vn, nn),
                                  nb, nn, NAN,          NAN,  COMPARE_UNTESTED};
      if (nb < o->min_repeats || nn < o->min_repeats) {
        res->n_untested_costs++;
        continue;
      }
      row->ratio = row->now / row->base;
      if (row->now == row->base) {
        row->verdict = COMPARE_SAME;
        continue;
      }
      double up = compare_rank_sum_p(vb, nb, vn, nn), down = compare_rank_sum_p(vn, nn, vb, nb);
      row->verdict = COMPARE_OK;
      if (row->ratio > o->time_ratio && up < o->alpha)
        row->verdict = COMPARE_REGRESSION, row->p = up;
      else if (row->ratio * o->time_ratio < 1.0 && down < o->alpha)
        row->verdict = COMPARE_IMPROVED, row->p = down;
      else
        row->p = row->ratio >= 1.0 ? up : down;
    }
  }
  for (int k = 0; k < gn->n; k++)
    res->only_new += !matched[k];
  free(matched);
  for (int i = 0; i < res->n_rows; i++) {
    res->n_regressions += res->rows[i].verdict == COMPARE_REGRESSION;
    res->n_improved += res->rows[i].verdict == COMPARE_IMPROVED;
  }
  if (!res->n_common) {
    fprintf(stderr,
            "error: %s and %s have no group in common (group by %s: the sweeps cover different values)\n",
            b->dir, n->dir, b->group.n ? "the axes in experiment.txt 'group'" : "nothing");
    goto cleanup;
  }
  *out = res;
  res = NULL;
  rc = 0;
  goto cleanup;
oom:
  fprintf(stderr, "error: out of memory comparing %s and %s\n", b->dir, n->dir);
cleanup:
  compare_result_destroy(&res);
  free(vb);
  free(vn);
  return rc;
}
