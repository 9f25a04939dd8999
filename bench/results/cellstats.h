/* cellstats.h — exact order statistics of many cells (the groups of summary.csv, the (series, x) cells of
 * the plots) from tasks fed a row at a time, in memory bounded by the cells, not the tasks. Per cell: its
 * tasks, failed, applicable and successful ones; per cell and column, by the column's kind:
 *   CELLSTATS_QUARTILES  the median and quartiles of the successful tasks' finite values as
 *                        gsl_stats_median_from_sorted_data and gsl_stats_quantile_from_sorted_data give them
 *                        (quantile f of n sorted values: the value at f (n - 1), linearly between
 * neighbours); CELLSTATS_SHARE      of a 0/1 column (sweep.h) over the successful tasks: the share and its
 * Wilson interval (share.h), counted, not sorted; CELLSTATS_TOTAL      the sum of every task's finite value
 * (whatever its outcome), added in ascending order (as summary.csv's totals always were, so that they keep
 * their last digits). The values are held in memory up to a budget (and sorted there, as the summary always
 * did); past it they all go through an external sort (extsort.h) by (cell, column, value) and the statistics
 * are read off the sorted stream, which brings each cell's values in ascending order: only the values at the
 * indices the median and quartiles take are kept. Memory: the cells' numbers, the budget of held values and
 * half of it for the sort, whatever the number of tasks. */
#ifndef CB_CELLSTATS_H
#define CB_CELLSTATS_H

#include <stddef.h>
#include <stdint.h>

/* The memory of held values for the summary and the plots (sweep_summarize, bench_plot, the end of a
 * sweep): 8 M values (a million tasks of 5 metrics and costs stay in memory). */
#define CELLSTATS_BUDGET ((size_t)64 << 20)

enum cellstats_kind { CELLSTATS_QUARTILES, CELLSTATS_SHARE, CELLSTATS_TOTAL };

struct extsort;

struct cellstats_values {
  double *v;
  size_t n, cap;
};

struct cellstats {
  int n_cols, n_cells, cap;
  unsigned char *kind; /* per column (enum cellstats_kind) */
  /* per cell and column, at cell * n_cols + col: */
  int *count; /* the values counted: finite ones of successful tasks (TOTAL: of every task) */
  long *ones; /* SHARE: values >= 0.5 among them */
  double *q;  /* 3 per (cell, col): median, q1, q3; SHARE: share, Wilson low, high; TOTAL: the sum, -, -;
               * NAN, NAN, NAN without a value */
  int *tasks, *failed, *applicable, *success; /* per cell */
  struct cellstats_values *held;              /* per cell and column: the values, until spilled */
  size_t budget, held_bytes;
  int spilled; /* the held values went to the sort */
  struct extsort *sort;
};

/* Statistics of n_cols columns of these kinds (NULL: every column QUARTILES), holding at most budget bytes
 * of values in memory (then budget / 2 in the sort); cells are made as tasks name them. 0, or 1 when out of
 * memory. */
int cellstats_init(struct cellstats *c, int n_cols, const unsigned char *kind, size_t budget);
/* Cells 0 .. n - 1 made, with no task yet (the plots' cells that no task reaches). 0, or 1. */
int cellstats_reserve(struct cellstats *c, int n);
/* One task of cell (0 <= cell < 2^31): its outcome (1 success, 0 failure, -1 not applicable) and its n_cols
 * values (NAN where none). 0, or 1 with a message (out of memory, the sort failed). */
int cellstats_add(struct cellstats *c, int cell, int outcome, const double *v);
/* Every task added: reads the statistics off the sorted values. 0, or 1 with a message. */
int cellstats_finish(struct cellstats *c);
/* The 3 numbers of (cell, col) (after cellstats_finish). */
static inline const double *cellstats_q(const struct cellstats *c, int cell, int col)
{
  return c->q + 3 * ((size_t)cell * (size_t)c->n_cols + (size_t)col);
}
static inline int cellstats_count(const struct cellstats *c, int cell, int col)
{
  return c->count[(size_t)cell * (size_t)c->n_cols + (size_t)col];
}
void cellstats_free(struct cellstats *c);

/* One column's n sorted values as they stream past (cellstats_finish's reading of the sorted stream; also
 * bench_compare's streamed groups): the values at the indices the median ((n - 1) / 2 and n / 2) and the
 * quartiles (f (n - 1) and the next) take, as GSL indexes them, or their running sum. */
struct cellstats_picks {
  long n, at[6];
  double delta[2]; /* the quartiles' fractional parts */
  double got[6], sum;
};
void cellstats_picks_start(struct cellstats_picks *p, long n);
/* The i-th (0-based) of the n values in ascending order. */
void cellstats_picks_take(struct cellstats_picks *p, long i, double v);
/* gsl_stats_median_from_sorted_data and gsl_stats_quantile_from_sorted_data's formulas (median, q1, q3), or
 * for CELLSTATS_TOTAL the sum in q[0]. */
void cellstats_picks_result(const struct cellstats_picks *p, int kind, double q[3]);

/* The sorts' text keys: the bits of x in an order that unsigned comparison keeps (-0.0 just below +0.0, as
 * the bits say) and back; v as width lowercase hex digits (no NUL) and back. */
uint64_t cellstats_order_bits(double x);
double cellstats_from_order_bits(uint64_t u);
void cellstats_put_hex(char *s, uint64_t v, int width);
uint64_t cellstats_get_hex(const char *s, int width);

#endif
