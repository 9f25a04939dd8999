/* compare_impl.h — private to compare.c and compare_stream.c: what a group pair is judged by. compare.c
 * holds a group pair below the sorts' budget and computes these from arrays; compare_stream.c streams a
 * larger one and computes the same numbers from the external sort's stream (the same formulas, the same
 * order of floating-point operations), so that the verdicts are the same whichever path judged them. */
#ifndef CB_COMPARE_IMPL_H
#define CB_COMPARE_IMPL_H

#include "compare.h"
#include "compare_load.h"

/* The success rate's counts per side and the statuses in order of first appearance. */
struct compare_status_count {
  const char *status;
  int nb, nn;
  int side, row; /* where it first appears: the baseline's rows in table order, then the new run's */
};
enum { COMPARE_MAX_STATUS = 16, COMPARE_MAX_SEEN = 256 };
struct compare_tally {
  struct compare_status_count seen[COMPARE_MAX_SEEN];
  int n_seen;
  int applicable[2], success[2], time_limit[2];
  long flips;     /* baseline tasks whose status a perturbed run changed */
  int has_spread; /* the baseline's rows carry a spread */
};
/* Counts one row of side 0 (baseline) or 1 (new). */
void compare_tally_add(struct compare_tally *t, int side, const struct compare_task *task);
/* The success-rate row from the tally: rate, status change, verdict, and "within spread" (compare.h). */
void compare_tally_judge(struct compare_tally *t, struct compare_row *row);

/* One value column of a group pair: what its row is judged by. */
struct compare_col {
  int k;                 /* the column (roles' metrics then costs) */
  int share, outcome;    /* a 0/1 share column; a trajectory outcome (its paired test, its spread) */
  int higher;            /* higher is better */
  double floor_v;        /* the baseline's noise floor (the new run's without one) */
  int nb, nn;            /* finite values over the pairs both runs solved */
  long kb, kn;           /* share columns: the 1s among them */
  double base, now;      /* medians; shares of share columns */
  int timed;             /* a timing with min_repeats values a side: */
  double aa, up, down;   /* median of the baseline's 1st, 3rd, ... over its 2nd, 4th, ... (interleaved),
                          * the rank-sum p-values (new above baseline, baseline above new) */
  int n_pairs, n_beyond; /* outcomes: pairs with both values, those beyond their spread allowance */
  double largest, p;     /* outcomes: the largest spread (NAN: none), signed-rank p-value (NAN: none moved) */
};

/* The rows of group pair (g, m), success rate then one per value column with its kind. The success row. */
struct compare_row *compare_group_rows(struct compare_result *res, const struct rundir *n, int g, int m);
/* Column k's constants (which kind of value, its floor) into c, its statistics NAN or 0. */
void compare_col_init(struct compare_col *c, const struct rundir *b, const struct rundir *n, int k);
/* A pair's tolerance (compare.h: the pooled sign test). */
double compare_pair_tolerance(const struct compare_options *o, const struct compare_col *c,
                              const struct compare_row *row, double x);
/* The row of column c from its statistics. */
void compare_judge_column(struct compare_result *res, const struct rundir *n, const struct compare_options *o,
                          const struct compare_col *c, struct compare_row *row);

/* The signed-rank test's one-sided p-value from the ranks: m nonzero differences, their doubled midranks r2
 * (read only when m <= COMPARE_EXACT_MAX), the doubled rank sum of the positive ones w2, sum(t^3 - t) of
 * the ties. */
enum { COMPARE_EXACT_MAX = 50 };
double compare_signed_rank_ranked(const int *r2, int m, long w2, double ties);
/* The rank-sum test's one-sided p-value that y tends to be larger from the rank sum of y among nx + ny
 * values and sum(t^3 - t) of their ties. */
double compare_rank_sum_ranked(double rank_sum_y, double ties, int nx, int ny);

/* Judges group pair (g, m) streamed: no more than about budget bytes held, whatever the groups' sizes. 0, or
 * 2 with a message. */
int compare_group_streamed(struct compare_result *res, const struct compare_side *sb, int g,
                           const struct compare_side *sn, int m, const struct compare_options *o,
                           size_t budget);

#endif
