/* test_cellstats.c — exact medians, quartiles, shares and totals per cell (cellstats.c), held in memory and
 * through the external sort (a budget so small that every value goes to many chunks on disk): each against
 * GSL on the same values (gsl_sort, gsl_stats_median_from_sorted_data, gsl_stats_quantile_from_sorted_data),
 * bit for bit. Cells of 0, 1, 2, 3, 4, 5, 7, 8 and 1001 values (odd and even counts), ties (values from a
 * set of five), negative values, NaN and infinite values and failed or not-applicable tasks (left out of the
 * quartiles, a failed task's cost kept in its total), a cell no task reaches, a share column. */
#include "cellstats.h"
#include "check.h"
#include "share.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>

enum { N_CELLS = 10, N_COLS = 3 }; /* columns: a quartile column, a share column, a total column */

static const int sizes[N_CELLS] = {0, 1, 2, 3, 4, 5, 7, 8, 1001, 0}; /* cell 9: reserved, no task */

/* Task i of cell c: its outcome and values (a fixed LCG; ties from a set of five; some NaN and inf). */
static void task(int c, int i, unsigned long *x, int *outcome, double v[N_COLS])
{
  static const double set[5] = {-2.5, 0.125, 1.0, 3.75, 1e-300};
  *x = *x * 6364136223846793005UL + 1442695040888963407UL;
  unsigned long r = *x >> 33;
  *outcome = i == 0 ? 1 : r % 11 == 0 ? 0 : r % 13 == 0 ? -1 : 1; /* the first always a success */
  v[0] = c % 2 ? set[r % 5] : (double)(long)(r % 100000) / 7.0 - 5000.0;
  if (r % 17 == 0 && i) v[0] = NAN;
  if (r % 19 == 0 && i) v[0] = INFINITY;
  v[1] = (double)(r >> 7 & 1);
  v[2] = 1e-3 * (double)(r % 1000) + 1e5 * (r % 3 == 0);
}

static void run_case(size_t budget, const char *what)
{
  static const unsigned char kind[N_COLS] = {CELLSTATS_QUARTILES, CELLSTATS_SHARE, CELLSTATS_TOTAL};
  struct cellstats st;
  int ok = cellstats_init(&st, N_COLS, kind, budget) == 0 && cellstats_reserve(&st, N_CELLS) == 0;
  double *ref[N_COLS];
  int n_ref[N_CELLS][N_COLS] = {{0}}, fail[N_CELLS] = {0}, app[N_CELLS] = {0};
  for (int k = 0; k < N_COLS; k++)
    ref[k] = calloc(1001 * N_CELLS, sizeof *ref[k]);
  unsigned long x = 42;
  /* the tasks of the cells interleaved, as a table's rows come */
  for (int i = 0; i < 1001; i++)
    for (int c = 0; ok && c < N_CELLS; c++) {
      if (i >= sizes[c]) continue;
      int o;
      double v[N_COLS];
      task(c, i, &x, &o, v);
      ok = cellstats_add(&st, c, o, v) == 0;
      fail[c] += o == 0, app[c] += o >= 0;
      for (int k = 0; k < N_COLS; k++)
        if (isfinite(v[k]) && (o == 1 || k == 2)) ref[k][c * 1001 + n_ref[c][k]++] = v[k];
    }
  ok = ok && cellstats_finish(&st) == 0;
  CHECK(ok, "%s: every task added and the statistics read", what);
  CHECK(st.n_cells == N_CELLS, "%s: %d cells (one reached by no task)", what, st.n_cells);
  int bad_q = 0, bad_share = 0, bad_total = 0, bad_count = 0;
  for (int c = 0; ok && c < N_CELLS; c++) {
    double *v0 = ref[0] + c * 1001, *v2 = ref[2] + c * 1001;
    size_t n0 = (size_t)n_ref[c][0], n2 = (size_t)n_ref[c][2];
    gsl_sort(v0, 1, n0);
    gsl_sort(v2, 1, n2);
    const double *q = cellstats_q(&st, c, 0);
    if (n0) {
      bad_q += q[0] != gsl_stats_median_from_sorted_data(v0, 1, n0);
      bad_q += q[1] != gsl_stats_quantile_from_sorted_data(v0, 1, n0, 0.25);
      bad_q += q[2] != gsl_stats_quantile_from_sorted_data(v0, 1, n0, 0.75);
    } else
      bad_q += !isnan(q[0]) || !isnan(q[1]) || !isnan(q[2]);
    double s[3], total = 0.0;
    share_of_values(ref[1] + c * 1001, n_ref[c][1], s);
    for (int j = 0; j < 3; j++)
      bad_share += !(cellstats_q(&st, c, 1)[j] == s[j] || (isnan(s[j]) && isnan(cellstats_q(&st, c, 1)[j])));
    for (size_t i = 0; i < n2; i++)
      total += v2[i];
    bad_total += n2 ? cellstats_q(&st, c, 2)[0] != total : !isnan(cellstats_q(&st, c, 2)[0]);
    bad_count += cellstats_count(&st, c, 0) != (int)n0 || st.failed[c] != fail[c] ||
                 st.applicable[c] != app[c] || st.tasks[c] != sizes[c];
  }
  CHECK(bad_q == 0, "%s: medians and quartiles equal GSL's bit for bit (%d differ)", what, bad_q);
  CHECK(bad_share == 0, "%s: shares and Wilson intervals equal share_of_values (%d differ)", what, bad_share);
  CHECK(bad_total == 0, "%s: totals are the ascending sums of every task's finite value (%d differ)", what,
        bad_total);
  CHECK(bad_count == 0, "%s: counts of values, failures, applicable tasks and tasks per cell (%d differ)",
        what, bad_count);
  CHECK(st.spilled == (budget < 4096), "%s: the values %s", what,
        st.spilled ? "went to the sort" : "stayed in memory");
  for (int k = 0; k < N_COLS; k++)
    free(ref[k]);
  cellstats_free(&st);
}

int main(void)
{
  run_case((size_t)64 << 20, "held in memory");
  run_case(1024, "through the external sort");
  /* one value in a cell, through the sort: median and quartiles are that value */
  struct cellstats st;
  double v = 2.5;
  int ok = cellstats_init(&st, 1, NULL, 16) == 0 && cellstats_add(&st, 0, 1, &v) == 0;
  v = 7.0;
  ok = ok && cellstats_add(&st, 1, 1, &v) == 0 && cellstats_finish(&st) == 0;
  const double *q = ok ? cellstats_q(&st, 0, 0) : NULL;
  CHECK(ok && st.spilled && q[0] == 2.5 && q[1] == 2.5 && q[2] == 2.5 && cellstats_q(&st, 1, 0)[0] == 7.0,
        "one-task cells through the sort: median and quartiles are the task's value");
  cellstats_free(&st);
  return check_finish();
}
