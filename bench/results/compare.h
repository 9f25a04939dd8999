/* compare.h — regression verdicts between a baseline and a new run directory (design.md contract 10),
 * behind bin/bench_compare. Only groups both runs have are compared (group keys equal as text, or as
 * numbers when both parse). Per common group:
 *  - each accuracy metric: medians over successful tasks; a move for the worse (a rise, or a fall for
 *    the metrics experiment.txt lists under higher_better; the new run's list counts) by more than
 *    max(tol_abs, tol_rel * |baseline|) is a regression, a move for the better by as much an improvement;
 *    a metric the baseline had and the new run lost (no successful task with a value) is a regression;
 *  - the success rate (successes / applicable tasks): any drop is a regression;
 *  - each cost, only when both runs have >= min_repeats successful tasks with a value in the group: a
 *    regression when median(new) / median(baseline) > time_ratio AND the one-sided Wilcoxon rank-sum
 *    (Mann-Whitney U) test says new > baseline at level alpha; an improvement symmetrically.
 * The rank-sum test uses the normal approximation of U with the tie-corrected variance
 * n1 n2 / 12 ((N + 1) - sum(t^3 - t) / (N (N - 1))) and a continuity correction of 1/2. */
#ifndef CB_COMPARE_H
#define CB_COMPARE_H

#include "rundir.h"

struct compare_options {
  double tol_rel, tol_abs; /* accuracy tolerances */
  int n_metric_tol;        /* per-metric tol_rel overrides */
  char **metric_tol_name;
  double *metric_tol;
  double time_ratio; /* cost: ratio of medians that may count as a change */
  double alpha;      /* cost: level of the one-sided rank-sum test */
  int min_repeats;   /* cost: successful tasks needed in both runs */
};

enum compare_verdict {
  COMPARE_SAME,       /* identical values */
  COMPARE_OK,         /* moved within tolerance (or not significantly) */
  COMPARE_IMPROVED,   /* better beyond tolerance */
  COMPARE_REGRESSION, /* worse beyond tolerance */
  COMPARE_UNTESTED,   /* cost with too few repeats, or nothing to compare */
};

enum compare_kind { COMPARE_METRIC, COMPARE_SUCCESS, COMPARE_COST };

struct compare_row {
  int group; /* index into the baseline's groups */
  int new_group;
  enum compare_kind kind;
  const char *name;  /* metric or cost column; "success_rate" */
  double base, now;  /* medians, or success rates in [0, 1]; NAN when none */
  int n_base, n_now; /* values behind them (applicable tasks for the success rate) */
  double ratio, p;   /* cost: ratio of medians and the one-sided p-value (NAN when untested) */
  enum compare_verdict verdict;
};

struct compare_result {
  struct rundir_groups *gb, *gn; /* groups of the baseline and new runs */
  int n_common, only_base, only_new;
  int n_rows;
  struct compare_row *rows;
  int n_regressions, n_improved, n_untested_costs;
};

/* Fills *res. 0 on success; 2 (with a message naming the problem) when the runs cannot be compared:
 * different experiments, different group, metric or cost columns, no common group, a -metric_tol
 * name that is not a metric. */
int compare_runs(const struct rundir *base, const struct rundir *now, const struct compare_options *o,
                 struct compare_result **res);
void compare_result_destroy(struct compare_result **res);
const char *compare_verdict_name(enum compare_verdict v);

/* One-sided p-value of the rank-sum test that the values y tend to be larger than the values x. */
double compare_rank_sum_p(const double *x, int nx, const double *y, int ny);

#endif
