/* test_lemke_lazy.c — lazy columns of the blocked Lemke tableau (solvers/lemke/lemke_lazy.c): a tableau that
 * leaves the columns of B^-1 out of its flushes and replays the missed updates when one is needed gives
 * the same columns, rows and basic values as one that updates every column, through single wakes in the
 * middle of a block, the eviction of the oldest block when the history is full, the automatic end of
 * dormancy when columns come back often, and the wake of every column that a lexicographic tie asks for.
 * The two tableaus are driven by the same pivots on a random LCP (any nonzero pivot is valid tableau
 * algebra, so the rows are chosen at random among the large entries, with the rows of basic z's taken
 * with a set probability: that is what wakes dormant columns). */
#include "check.h"
#include "lemke.h"
#include "solver_fixture.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>

struct drive {
  struct lemke_tableau *a, *b; /* a: every column updated; b: lazy */
  double *ca, *cb, *ra, *rb;
  double worst_col, worst_row, worst_x;
  int max_hist_lo, wakes_mid_block;
  int e; /* the next entering variable */
};

/* Largest |a_i - b_i| / max(1, ||a||_inf) */
static double rel_diff(const double *a, const double *b, int n)
{
  double scale = 1.0;
  for (int i = 0; i < n; i++)
    scale = fmax(scale, fabs(a[i]));
  return max_abs_diff(a, b, n) / scale;
}

/* Row entries of b's active columns against a's, by variable. */
static double row_diff(const struct drive *d)
{
  double worst = 0.0, scale = 1.0;
  for (int p = 0; p < d->a->ncols; p++)
    scale = fmax(scale, fabs(d->ra[p]));
  for (int p = 0; p < d->a->ncols; p++) {
    int pb = -1 - d->b->where[d->a->nonbasic[p]];
    if (pb < d->b->na) worst = fmax(worst, fabs(d->ra[p] - d->rb[pb]) / scale);
  }
  return worst;
}

/* One pivot on both tableaus: the entering variable e, a row chosen among the entries of at least a tenth
 * of the column's largest (a basic z's row with probability pz, z0's never). Returns the leaving variable,
 * or -1 if no row qualifies. */
static int drive_pivot(struct drive *d, gsl_rng *rng, int e, double pz)
{
  struct lemke_tableau *a = d->a, *b = d->b;
  int n = a->n, ma = -1 - a->where[e], mb = -1 - b->where[e];
  if (mb >= b->na && b->k > 0) d->wakes_mid_block++;
  mb = lemke_tableau_wake(b, mb);
  lemke_tableau_column(a, ma, d->ca);
  lemke_tableau_column(b, mb, d->cb);
  d->worst_col = fmax(d->worst_col, rel_diff(d->ca, d->cb, n));
  double cmax = 0.0;
  for (int i = 0; i < n; i++)
    cmax = fmax(cmax, fabs(d->ca[i]));
  int want_z = gsl_rng_uniform(rng) < pz, cand[1024], nc = 0;
  for (int pass = 0; pass < 2 && nc == 0; pass++, want_z = !want_z)
    for (int i = 0; i < n; i++) {
      int v = a->basic[i], is_z = v >= n && v < 2 * n;
      if (v != 2 * n && fabs(d->ca[i]) >= 0.1 * cmax && is_z == want_z) cand[nc++] = i;
    }
  if (nc == 0) return -1;
  int r = cand[gsl_rng_uniform_int(rng, (unsigned long)nc)], leaving = a->basic[r];
  lemke_tableau_row(a, r, d->ra);
  lemke_tableau_row(b, r, d->rb);
  d->worst_row = fmax(d->worst_row, row_diff(d));
  lemke_tableau_pivot(a, r, ma, d->ca, d->ra);
  lemke_tableau_pivot(b, r, mb, d->cb, d->rb);
  d->worst_x = fmax(d->worst_x, rel_diff(a->x, b->x, n));
  d->max_hist_lo = b->hist_lo > d->max_hist_lo ? b->hist_lo : d->max_hist_lo;
  return leaving;
}

/* Every nonbasic variable's column of b (woken) against a's. */
static double all_columns_diff(struct drive *d)
{
  double worst = 0.0;
  for (int p = 0; p < d->a->ncols; p++) {
    int v = d->a->nonbasic[p], mb = lemke_tableau_wake(d->b, -1 - d->b->where[v]);
    lemke_tableau_column(d->a, p, d->ca);
    lemke_tableau_column(d->b, mb, d->cb);
    worst = fmax(worst, rel_diff(d->ca, d->cb, d->a->n));
  }
  return worst;
}

/* A random LCP (M and q uniform in [-1, 1)), cold-started on both tableaus. */
static void drive_start(struct drive *d, gsl_rng *rng, int n, int bmax)
{
  double *M = malloc((size_t)n * (size_t)n * sizeof *M), *q = malloc((size_t)n * sizeof *q),
         *dv = malloc((size_t)n * sizeof *dv);
  lemke_tableau_create(n, bmax, 0, 0, &d->a);
  lemke_tableau_create(n, bmax, 0, 1, &d->b);
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++)
      M[i * n + j] = 2.0 * gsl_rng_uniform(rng) - 1.0;
    q[i] = 2.0 * gsl_rng_uniform(rng) - 1.0;
    dv[i] = 1.0;
  }
  lemke_tableau_cold(d->a, M, q, dv);
  lemke_tableau_cold(d->b, M, q, dv);
  free(M);
  free(q);
  free(dv);
  d->ca = malloc((size_t)n * sizeof *d->ca);
  d->cb = malloc((size_t)n * sizeof *d->cb);
  d->ra = malloc((size_t)(n + 1) * sizeof *d->ra);
  d->rb = malloc((size_t)(n + 1) * sizeof *d->rb);
  d->worst_col = d->worst_row = d->worst_x = 0.0;
  d->max_hist_lo = d->wakes_mid_block = 0;
  d->e = 2 * n; /* z0 enters first */
}

static void drive_end(struct drive *d)
{
  lemke_tableau_destroy(&d->a);
  lemke_tableau_destroy(&d->b);
  free(d->ca);
  free(d->cb);
  free(d->ra);
  free(d->rb);
}

/* Up to `pivots` pivots, each entering the complement of the last leaving; returns how many were made. */
static int drive_run(struct drive *d, gsl_rng *rng, int pivots, double pz)
{
  int n = d->a->n, done = 0;
  for (; done < pivots; done++) {
    int leaving = drive_pivot(d, rng, d->e, pz);
    if (leaving < 0) break;
    d->e = leaving < n ? leaving + n : leaving - n;
  }
  return done;
}

static const double tol = 1e-10;

/* Few re-entries: dormancy stays on, the history (60 / 3 = 20 blocks) fills and evicts. */
static void test_rare_wakes(gsl_rng *rng)
{
  const int n = 200, bmax = 2;
  struct drive d;
  drive_start(&d, rng, n, bmax);
  int done = drive_run(&d, rng, 180, 0.05);
  struct lemke_tableau *b = d.b;
  CHECK(done == 180, "180 pivots made (%d)", done);
  CHECK(b->lazy == 1 && b->retired > 50 && b->woken > 0 && d.wakes_mid_block > 0,
        "dormancy on to the end: %d columns retired, %d woken (%d in the middle of a block)", b->retired,
        b->woken, d.wakes_mid_block);
  CHECK(d.max_hist_lo > 0, "the history filled and its oldest blocks were replayed (up to block %d)",
        d.max_hist_lo);
  CHECK(d.worst_col <= tol && d.worst_row <= tol && d.worst_x <= tol,
        "entering columns, pivot rows and x as the eager tableau's: %.1e %.1e %.1e (<= %.0e)", d.worst_col,
        d.worst_row, d.worst_x, tol);
  int dormant = b->ncols - b->na;
  double all = all_columns_diff(&d);
  CHECK(dormant > 10 && all <= tol && b->na == b->ncols,
        "every column woken one at a time (%d were dormant) equals the eager one: %.1e", dormant, all);
  drive_end(&d);
}

/* Columns come back often: dormancy ends by itself, the answer unchanged. */
static void test_frequent_wakes(gsl_rng *rng)
{
  const int n = 60, bmax = 4;
  struct drive d;
  drive_start(&d, rng, n, bmax);
  drive_run(&d, rng, 200, 0.4);
  CHECK(d.b->lazy == 0 && d.b->woken > 0, "dormancy ended after %d wakes of %d retirements", d.b->woken,
        d.b->retired);
  double all = all_columns_diff(&d);
  CHECK(d.worst_col <= tol && d.worst_row <= tol && d.worst_x <= tol && all <= tol,
        "columns, rows, x and every column at the end as the eager tableau's: %.1e %.1e %.1e %.1e",
        d.worst_col, d.worst_row, d.worst_x, all);
  drive_end(&d);
}

/* lemke_tableau_lazy_off in the middle of a block (a tie): every column current without a wake. */
static void test_off_mid_block(gsl_rng *rng)
{
  const int n = 60, bmax = 5;
  struct drive d;
  drive_start(&d, rng, n, bmax);
  drive_run(&d, rng, 43, 0.0);
  struct lemke_tableau *b = d.b;
  int dormant = b->ncols - b->na, k = b->k;
  lemke_tableau_lazy_off(b);
  double worst = 0.0;
  for (int p = 0; p < b->ncols; p++) {
    lemke_tableau_column(b, p, d.cb);
    lemke_tableau_column(d.a, -1 - d.a->where[b->nonbasic[p]], d.ca);
    worst = fmax(worst, rel_diff(d.ca, d.cb, n));
  }
  CHECK(dormant > 10 && k > 0 && b->na == b->ncols && b->lazy == 0 && worst <= tol,
        "%d dormant columns made current with %d pivots held back: every column as the eager one's (%.1e)",
        dormant, k, worst);
  int more = drive_run(&d, rng, 30, 0.2);
  CHECK(more == 30 && b->na == b->ncols && d.worst_col <= tol && d.worst_row <= tol,
        "30 pivots after: no column dormant again, columns and rows equal (%.1e, %.1e)", d.worst_col,
        d.worst_row);
  drive_end(&d);
}

int main(void)
{
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 7);
  test_rare_wakes(rng);
  test_frequent_wakes(rng);
  test_off_mid_block(rng);
  gsl_rng_free(rng);
  return check_finish();
}
