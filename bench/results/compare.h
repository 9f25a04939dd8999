/* compare.h — regression verdicts between a baseline and a new run directory (design.md contract 10),
 * behind bin/bench_compare. The column roles (metrics, higher_better, costs, counts, floors) are the new
 * run's; every column they name must exist in both tasks.csv. Groups are matched by their key values
 * (equal as text, or as numbers when both parse), after -map has renamed values of the new run. Within a
 * group, tasks are paired by their other axes (seed, ...), and metrics, counts and timings are compared
 * over the pairs where BOTH runs succeeded, so a task that failed in one run does not move a median.
 *  - coverage: a group of the baseline missing from the new run is a regression;
 *  - the success rate (successes / applicable tasks): a drop is a regression, unless every extra failure
 *    is time_limit — a wall-clock status that load alone can cause — which is verdict "time_limit" and
 *    fails only with fail_time_limit; the status change itself is shown (converged → time_limit);
 *  - a share column (0/1 per task, sweep.h): the shares over the pairs both runs solved; a regression when
 *    the Newcombe 95 % interval of their difference (share.h) lies wholly on the worse side, improved when
 *    wholly on the better side (then the spread and the paired test below, as for any outcome);
 *  - each other accuracy metric: medians; two values both at or under the column's noise floor are never a
 *    verdict ("under floor"); otherwise a move for the worse (a rise, or a fall for higher_better metrics)
 *    by more than max(tol_abs, tol_rel * |baseline|, floor) is a regression, for the better improved;
 *    a value the baseline had and the new run lost is a regression;
 *  - each count (deterministic cost: iterations, pivots): ratio of medians above count_ratio (and by more
 *    than 1) is a regression, below 1 / count_ratio improved — cost evidence that needs no repeats;
 *  - each timing cost, with >= min_repeats pairs: ratio of medians beyond max(time_ratio, A-vs-A spread)
 *    AND the one-sided Wilcoxon rank-sum (Mann-Whitney U) test at level alpha. Only runs timed interleaved
 *    (bench/ab; option interleaved) get verdicts: the A-vs-A spread is the ratio of the medians of the
 *    baseline's alternate pairs (1st, 3rd, ... against 2nd, 4th, ...). Timings of two runs made at
 *    different times share no measured spread, so there a significant move is only "slower?"/"faster?":
 *    evidence to confirm with bench/ab, never a failure.
 *  - per-step quantities and trajectory outcomes (experiment.txt "per_step"; sweep.h): a per-step metric is
 *    judged as above against the BASELINE's floor (its solve tolerance: a variant with a looser -cp_tol
 *    does not loosen its own verdict). A trajectory outcome (every other metric and count) is judged
 *    against the spread the baseline measured under -perturb_initial (spread.h, spread.csv beside the
 *    baseline): a group's median may move by spread_factor times the largest spread of the group's tasks
 *    (a median moves no further than its largest element), or by the tolerances above, whichever is larger
 *    — a move beyond the tolerances but within that is verdict "within spread", not a failure; a count
 *    must also move by more than that to fail; a success-rate drop no larger than the number of the
 *    group's tasks whose status the perturbed runs changed is "within spread". Beyond that an outcome
 *    fails when its paired differences over the group's instances (the tasks paired by their non-group
 *    axes: seeds, sets, targets) shift for the worse: one-sided Wilcoxon signed-rank test, p below
 *    shift_alpha / (number of such tests in the comparison) (Bonferroni), the p-value reported on the
 *    row. Pooled over every group, one row per outcome: the pairs that moved beyond their tolerance (a
 *    share's flip, a count's count_ratio, a metric's tolerances and floor) for the worse against those for
 *    the better, one-sided sign test (binomial with p = 1/2), in the same Bonferroni family: a shift too
 *    small for any one group of a quick preset's 1-4 instances but common to the groups. Without spread.csv
 * (an older baseline, or a driver that cannot be perturbed) outcomes get the tolerances and the test only.
 *  - a baseline group whose value of a group axis lies outside the new run's sweep of that axis
 *    (values_<axis> in experiment.txt: a run of a few solvers) was not asked for: it is counted, not
 *    missing.
 * The signed-rank test is exact (the distribution of W+ over the 2^n signs, midranks doubled to integers
 * for ties, zero differences dropped) for up to 50 nonzero differences, else the normal approximation
 * with the tie-corrected variance n(n+1)(2n+1)/24 - sum(t^3 - t)/48 and a continuity correction of 1/2.
 * The rank-sum test uses the normal approximation of U with the tie-corrected variance
 * n1 n2 / 12 ((N + 1) - sum(t^3 - t) / (N (N - 1))) and a continuity correction of 1/2.
 * Neither table is held: compare_runs streams both tasks.csv through external sorts and judges one group pair
 * at a time (compare_load.h), so the rundirs need only their headers (rundir_read_header); spread.csv is
 * streamed too, joined onto the baseline's rows by ascending task id. A group pair is held in memory when it
 * fits sort_bytes; a larger one is judged as it streams past (compare_stream.c): its medians read off an
 * external sort of its values, the signed-rank test's ranks and ties off a sort of the paired differences by
 * magnitude, the rank-sum test's off the same sort of the values, the A-vs-A halves off a sort by baseline
 * row — the same numbers, so the same report, in memory bounded by the budget whatever a group's size. */
#ifndef CB_COMPARE_H
#define CB_COMPARE_H

#include "rundir.h"
#include "spread.h"

struct compare_options {
  double tol_rel, tol_abs; /* accuracy tolerances */
  int n_metric_tol;        /* per-metric tol_rel overrides */
  char **metric_tol_name;
  double *metric_tol;
  double time_ratio;     /* timings: ratio of medians that may count as a change */
  double alpha;          /* timings: level of the one-sided rank-sum test */
  int min_repeats;       /* timings: pairs needed in a group */
  int interleaved;       /* 1: the runs were timed interleaved (bench/ab): timing moves are verdicts */
  double count_ratio;    /* counts: ratio of medians that is a change */
  int fail_time_limit;   /* 1: a success-rate drop made of time_limit tasks fails the comparison */
  struct spread *spread; /* the baseline's measured spread of its outcomes (joined as read), NULL: none */
  double spread_factor;  /* outcomes: how many times the measured spread a median may move */
  double shift_alpha;    /* outcomes: family-wise level of the paired signed-rank tests */
  /* -map: the new run's group value from[k] judged as to[k] (a variant against what it replaces). Where
   * a run holds both values (one value of an axis against another, the same run on both sides), the new
   * run's rows of to[k] and the baseline's rows of from[k] are left out first (a '#' line on stderr says how
   * many), so that no two methods become one; a from value in no group column of the new run is an error. */
  int n_map;
  char *const *map_from, *const *map_to;
  size_t sort_bytes; /* memory of the sorts that bring a group's tasks together, and of a group pair held in
                      * memory: a larger one is judged from the sorted stream (0: COMPARE_SORT_BYTES) */
};

/* The sorts' default memory: the tables are streamed into external sorts of this many bytes (extsort.h). */
#define COMPARE_SORT_BYTES ((size_t)64 << 20)

enum compare_verdict {
  COMPARE_SAME,       /* identical values */
  COMPARE_OK,         /* moved within tolerance (or not significantly) */
  COMPARE_IMPROVED,   /* better beyond tolerance */
  COMPARE_REGRESSION, /* worse beyond tolerance, or a group missing */
  COMPARE_UNTESTED,   /* timing with too few repeats, or nothing to compare */
  COMPARE_FLOOR,      /* both values at or under the metric's noise floor */
  COMPARE_TIME_LIMIT, /* fewer successes, every extra failure time_limit (wall-clock dependent) */
  COMPARE_SLOWER,     /* timing: significant rise in runs not timed interleaved (evidence only) */
  COMPARE_FASTER,     /* timing: significant fall in runs not timed interleaved (evidence only) */
  COMPARE_SPREAD,     /* outcome: moved beyond the tolerances, within the baseline's measured spread */
};

enum compare_kind { COMPARE_METRIC, COMPARE_SUCCESS, COMPARE_COST, COMPARE_COUNT, COMPARE_COVERAGE };

struct compare_row {
  int group; /* index into the baseline's groups; -1: every group (the pooled sign test) */
  int new_group;
  enum compare_kind kind;
  const char *name;  /* metric or cost column; "success_rate"; "coverage" */
  double base, now;  /* medians, or success rates in [0, 1]; NAN when none */
  int n_base, n_now; /* values behind them (applicable tasks for the success rate) */
  double ratio, p;   /* costs: ratio of medians; timings: the one-sided p-value (NAN when untested) */
  double spread;     /* interleaved timings: the A-vs-A ratio the change had to exceed (NAN otherwise) */
  /* trajectory outcomes: the move the measured spread allows (spread_factor x the group's largest; NAN:
   * not measured), how many of the pairs moved beyond their own allowance, and the paired test (p holds
   * its one-sided p-value, NAN when no pair differs); shift: the test failed the row */
  double allowed;
  int n_beyond, n_pairs, shift;
  int share;               /* a share column: base and now are shares, judged by ... */
  double diff_lo, diff_hi; /* ... the Newcombe 95 % interval of now - base (share.h) */
  enum compare_verdict verdict;
  char note[160]; /* success rate: the status change, e.g. "converged → time_limit (1)" */
};

struct compare_result {
  int n_groups, n_keys;
  char **group_key; /* the baseline's groups' key values (n_groups * n_keys), as their first rows hold them */
  int n_common, only_base, only_new;
  int n_rows;
  struct compare_row *rows;
  int n_regressions, n_improved, n_untested_costs, n_time_limit, n_timing_evidence;
  int n_within_spread, n_shift_tests, outside_sweep; /* outside_sweep: baseline groups not asked for */
  long *pooled; /* per metric and count column: pairs moved beyond tolerance for the worse, for the better */
};

/* Checks that a table can be trusted: no two rows with the same task_id or the same axis values, no
 * metric or cost cell that is neither empty nor a number. Streams tasks.csv (r may hold only the header).
 * 0, or 2 with a message naming file and row. */
int compare_check_table(const struct rundir *r);
/* Fills *res. 0 on success; 2 (with a message naming the problem) when the runs cannot be compared:
 * different experiments or group columns, a column the new run names missing from the baseline's table,
 * no common group, a -metric_tol name that is not a metric. */
int compare_runs(const struct rundir *base, const struct rundir *now, const struct compare_options *o,
                 struct compare_result **res);
/* The text of baseline group g: its key values joined by spaces, "(all)" without keys, "(all groups, pooled)"
 * for g = -1 (the pooled sign test). */
void compare_group_text(const struct compare_result *res, int g, char *buf, size_t n);
void compare_result_destroy(struct compare_result **res);
const char *compare_verdict_name(enum compare_verdict v);
/* 1 when the result fails the comparison under o (regressions; time_limit verdicts with fail_time_limit). */
int compare_failed(const struct compare_result *res, const struct compare_options *o);

/* One-sided p-value of the Wilcoxon signed-rank test that the paired differences d tend to be positive
 * (exact up to 50 nonzero differences, normal approximation above; rules above). 1 when every d is 0. */
double compare_signed_rank_p(const double *d, int n);
/* One-sided p-value of the rank-sum test that the values y tend to be larger than the values x. */
double compare_rank_sum_p(const double *x, int nx, const double *y, int ny);

#endif
