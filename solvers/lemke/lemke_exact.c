/* lemke_exact.c — Lemke's complementary pivoting method (Lemke 1965; Cottle-Pang-Stone, The LCP, Sec. 4.4)
 * in exact arithmetic, with the lexicographic degeneracy rule of Sec. 4.9 decided exactly, so that it
 * terminates on every LCP (a solution, or a secondary ray — which proves infeasibility when M is
 * copositive-plus, Theorem 4.4.13) whatever the ties.
 *
 * Data: every double is m 2^e with an integer m, so row i of  w - M z - d z0 = q  (d = e on the
 * complementary rows, 0 on a mixed LCP's free rows) times 2^{s_i} is integer; w'_i = 2^{s_i} w_i keeps the
 * identity in front of w (a positive scaling of w_i changes neither sign nor complementarity). The problem
 * solved is the one the doubles represent, not a rounded neighbour.
 * Tableau: fraction-free (Bareiss / Edmonds) pivoting on the n x (2n + 2) integer tableau [W | Z | z0 | rhs]:
 * every entry is det times the rational tableau's, det the current basis's determinant (kept > 0), and a
 * pivot on (r, c) is A_ij <- (A_ij A_rc - A_ic A_rj) / det exactly (von Stengel's integer pivoting in his
 * Lemke for games uses the same scheme). The W columns are det B^-1, the rows the lexicographic rule
 * compares. Mixed LCPs (cp.h layout): the free unknowns are pivoted into the rows of their equalities first
 * and never leave; their w's never enter. Cost: O(n^2) big-integer operations per pivot on entries of O(n)
 * times the data's bits, so it is the end game for small problems (lemke's -lemke_exact_max_n), not a general
 * solver. */
#include "lemke_exact.h"

#include <gmp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct exact_tableau {
  int n, cols; /* cols = 2n + 2: W (0..n-1), Z (n..2n-1), z0 (2n), rhs (2n+1) */
  mpz_t *a;    /* n x cols, row-major */
  mpz_t det, t1, t2;
  int *basic;     /* basic[row] = the variable (column index) basic in that row */
  char *is_basic; /* per column */
};

static mpz_t *at(struct exact_tableau *t, int i, int j) { return &t->a[(size_t)i * t->cols + j]; }

/* x = m 2^e with m an odd integer (|m| < 2^53); returns e, m in *m. x must be finite and nonzero. */
static int split_double(double x, long long *m)
{
  int e;
  double f = frexp(x, &e);
  long long k = (long long)ldexp(f, 53);
  e -= 53;
  while ((k & 1) == 0) {
    k /= 2;
    e++;
  }
  *m = k;
  return e;
}

/* Row i's entries (-M_i., -d_i, q_i) times 2^{s_i}, the least power that makes them all integers. */
static void load_row(struct exact_tableau *t, int i, const double *Mi, double di, double qi)
{
  int n = t->n, emin = 0, have = 0;
  long long m;
  for (int j = 0; j <= n + 1; j++) {
    double x = j < n ? Mi[j] : (j == n ? di : qi);
    if (x == 0.0) continue;
    int e = split_double(x, &m);
    if (!have || e < emin) emin = e;
    have = 1;
  }
  mpz_set_ui(*at(t, i, i), 1);
  for (int j = 0; j <= n + 1; j++) {
    double x = j < n ? -Mi[j] : (j == n ? -di : qi);
    mpz_t *dst = at(t, i, j < n ? n + j : (j == n ? 2 * n : 2 * n + 1));
    if (x == 0.0) continue;
    int e = split_double(x, &m);
    mpz_set_si(*dst, (long)m);
    mpz_mul_2exp(*dst, *dst, (mp_bitcnt_t)(e - emin));
  }
}

static void tableau_free(struct exact_tableau *t)
{
  if (t->a) {
    for (size_t k = 0; k < (size_t)t->n * t->cols; k++)
      mpz_clear(t->a[k]);
    mpz_clears(t->det, t->t1, t->t2, NULL);
  }
  free(t->a);
  free(t->basic);
  free(t->is_basic);
}

/* The tableau of p with the covering vector d = e on the complementary rows (0 on the free ones). */
static int tableau_init(struct exact_tableau *t, const struct cp_problem *p)
{
  int n = p->n;
  t->n = n;
  t->cols = 2 * n + 2;
  t->a = malloc((size_t)n * t->cols * sizeof *t->a);
  t->basic = malloc((size_t)n * sizeof *t->basic);
  t->is_basic = calloc((size_t)t->cols, 1);
  if (!t->a || !t->basic || !t->is_basic) {
    free(t->a);
    free(t->basic);
    free(t->is_basic);
    t->a = NULL;
    t->basic = NULL;
    t->is_basic = NULL;
    return 1;
  }
  for (size_t k = 0; k < (size_t)n * t->cols; k++)
    mpz_init(t->a[k]);
  mpz_inits(t->det, t->t1, t->t2, NULL);
  mpz_set_ui(t->det, 1);
  for (int i = 0; i < n; i++) {
    load_row(t, i, p->M + (size_t)i * n, i < p->n_eq ? 0.0 : 1.0, p->q[i]);
    t->basic[i] = i;
    t->is_basic[i] = 1;
  }
  return 0;
}

/* Fraction-free pivot on (r, c): the variable of column c becomes basic in row r. Only the nonbasic columns
 * are computed (half the tableau): a basic column is det e_row, so after the pivot the leaving variable's
 * column is -A(:, c) off row r, every other basic column piv e_row, and the entering one piv e_r. */
static void tableau_pivot(struct exact_tableau *t, int r, int c)
{
  int leaving = t->basic[r];
  mpz_t piv;
  mpz_init_set(piv, *at(t, r, c));
  for (int i = 0; i < t->n; i++) {
    if (i == r) continue;
    mpz_set(t->t2, *at(t, i, c));
    for (int j = 0; j < t->cols; j++) {
      if (t->is_basic[j]) continue;
      mpz_t *aij = at(t, i, j);
      mpz_mul(*aij, *aij, piv);
      if (mpz_sgn(t->t2) != 0 && mpz_sgn(*at(t, r, j)) != 0) mpz_submul(*aij, t->t2, *at(t, r, j));
      mpz_divexact(*aij, *aij, t->det); /* exact: every entry is a minor of the data (Bareiss) */
    }
    mpz_neg(*at(t, i, leaving), t->t2);
    mpz_set_ui(*at(t, i, c), 0);
    mpz_set(*at(t, i, t->basic[i]), piv);
  }
  mpz_set(t->det, piv);
  if (mpz_sgn(t->det) < 0) { /* keep det > 0: negate every equation */
    mpz_neg(t->det, t->det);
    for (size_t k = 0; k < (size_t)t->n * t->cols; k++)
      mpz_neg(t->a[k], t->a[k]);
  }
  mpz_clear(piv);
  t->basic[r] = c;
  t->is_basic[leaving] = 0;
  t->is_basic[c] = 1;
}

/* Compare rows a and b of [rhs | W] divided by their (positive) entries ca, cb, lexicographically, up to
 * `depth` entries (1: the ratio only). Returns <0, 0, >0. */
static int lex_compare(struct exact_tableau *t, int a, const mpz_t ca, int b, const mpz_t cb, int depth)
{
  for (int k = 0; k < depth; k++) {
    int j = k == 0 ? 2 * t->n + 1 : k - 1;
    mpz_mul(t->t1, *at(t, a, j), cb);
    mpz_mul(t->t2, *at(t, b, j), ca);
    int c = mpz_cmp(t->t1, t->t2);
    if (c) return c;
  }
  return 0;
}

/* The leaving row for the entering column c (entries > 0 on the complementary rows, rows n_eq..n-1), by the
 * lexicographic minimum ratio; z0's row wins a tie in the ratio itself (then the step ends at a solution).
 * sign = -1 for the first pivot (z0 entering with negative entries: the lexicographically most negative). */
static int ratio_test(struct exact_tableau *t, int n_eq, int c, int sign)
{
  int best = -1, z0_row = -1;
  mpz_t cb, cr;
  mpz_inits(cb, cr, NULL);
  for (int r = n_eq; r < t->n; r++) {
    mpz_mul_si(cr, *at(t, r, c), sign);
    if (mpz_sgn(cr) <= 0) continue;
    if (best < 0 || lex_compare(t, r, cr, best, cb, t->n + 1) < 0) {
      best = r;
      mpz_set(cb, cr);
    }
    if (t->basic[r] == 2 * t->n) z0_row = r;
  }
  if (best >= 0 && z0_row >= 0 && z0_row != best) {
    mpz_mul_si(cr, *at(t, z0_row, c), sign);
    if (lex_compare(t, z0_row, cr, best, cb, 1) == 0) best = z0_row;
  }
  mpz_clears(cb, cr, NULL);
  return best;
}

/* z from the basis: basic z_j = rhs / det of its row, nonbasic 0. Returns max |z_j|. */
static double extract(struct exact_tableau *t, double *z)
{
  double zmax = 0.0;
  int n = t->n;
  mpq_t v;
  mpq_init(v);
  for (int j = 0; j < n; j++)
    z[j] = 0.0;
  for (int r = 0; r < n; r++) {
    int b = t->basic[r];
    if (b < n || b >= 2 * n) continue;
    mpq_set_num(v, *at(t, r, 2 * n + 1));
    mpq_set_den(v, t->det);
    mpq_canonicalize(v);
    z[b - n] = mpq_get_d(v);
    zmax = fmax(zmax, fabs(z[b - n]));
  }
  mpq_clear(v);
  return zmax;
}

/* Phase 0: each free z_j enters in a row still held by a free row's w (those w are fixed at 0 and never
 * return). 1 if some z_j finds only zeros there (the equality block is singular). */
static int pivot_free(struct exact_tableau *t, int n_eq, int *bad)
{
  for (int j = 0; j < n_eq; j++) {
    int r = -1;
    for (int i = 0; i < n_eq && r < 0; i++)
      if (t->basic[i] < t->n && mpz_sgn(*at(t, i, t->n + j)) != 0) r = i;
    if (r < 0) {
      *bad = j;
      return 1;
    }
    tableau_pivot(t, r, t->n + j);
  }
  return 0;
}

/* r->message gets "; " and the text when it already holds something. */
static void append(struct solve_result *r, const char *text)
{
  size_t len = strlen(r->message);
  snprintf(r->message + len, sizeof r->message - len, "%s%s", len ? "; " : "", text);
}

/* One Lemke path; *pivots accumulates. On a solution z and
 * *zmax are set. *bits: the final basis determinant's size. */
static enum solve_status exact_run(struct solver *s, const struct cp_problem *p, int max_pivots, int *pivots,
                                   double *z, double *zmax, size_t *bits, struct solve_result *r)
{
  struct exact_tableau t = {0};
  int n = p->n, bad = -1;
  enum solve_status st = SOLVE_NUMERICAL_FAILURE;
  if (tableau_init(&t, p) != 0) return SOLVE_STATUS_COUNT;
  if (pivot_free(&t, p->n_eq, &bad) != 0) {
    char text[120];
    snprintf(text, sizeof text, "exact Lemke: free unknown %d has no pivot (the equality block is singular)",
             bad);
    append(r, text);
    st = SOLVE_NOT_APPLICABLE;
    goto done;
  }
  int any_negative = 0;
  for (int i = p->n_eq; i < n; i++)
    any_negative |= mpz_sgn(*at(&t, i, 2 * n + 1)) < 0;
  if (!any_negative) { /* the free unknowns' basis already solves it */
    st = SOLVE_CONVERGED;
    goto done;
  }
  if (solver_out_of_time(s)) { /* the big-integer set-up alone can outlast a short limit */
    st = SOLVE_TIME_LIMIT;
    goto done;
  }
  /* z0 enters: its column is -det d < 0 on the complementary rows */
  int row = ratio_test(&t, p->n_eq, 2 * n, -1);
  tableau_pivot(&t, row, 2 * n);
  int entering = n + row; /* row's w left: z_row enters */
  for (;;) {
    if (*pivots >= max_pivots) {
      st = SOLVE_MAX_ITERATIONS;
      break;
    }
    if (solver_out_of_time(s)) {
      st = SOLVE_TIME_LIMIT;
      break;
    }
    row = ratio_test(&t, p->n_eq, entering, 1);
    if (row < 0) {
      st = SOLVE_RAY_TERMINATION;
      break;
    }
    int leaving = t.basic[row];
    tableau_pivot(&t, row, entering);
    (*pivots)++;
    if (leaving == 2 * n) {
      st = SOLVE_CONVERGED;
      break;
    }
    entering = leaving < n ? leaving + n : leaving - n;
  }
done:
  if (st == SOLVE_CONVERGED) *zmax = extract(&t, z);
  *bits = mpz_sizeinbase(t.det, 2);
  tableau_free(&t);
  return st;
}

int lemke_exact_solve(struct solver *s, const struct cp_problem *p, int max_pivots, double *z,
                      struct solve_result *r)
{
  int pivots = 0;
  double zmax = 0.0;
  size_t bits = 0;
  char text[160];
  enum solve_status st = exact_run(s, p, max_pivots, &pivots, z, &zmax, &bits, r);
  if (st == SOLVE_STATUS_COUNT) return 1; /* allocation */
  r->iterations = pivots;
  r->no_answer = st != SOLVE_CONVERGED;
  r->status = st;
  if (st == SOLVE_NOT_APPLICABLE) return 0;
  /* max |z|: a huge exact answer may not survive rounding to double (the checker then rejects it) */
  int len = snprintf(text, sizeof text, "exact Lemke: %s after %d pivots, basis determinant of %zu bits",
                     solve_status_name(st), pivots, bits);
  if (st == SOLVE_CONVERGED && len > 0 && (size_t)len < sizeof text)
    snprintf(text + len, sizeof text - (size_t)len, ", max |z| %.3g", zmax);
  append(r, text);
  return 0;
}

/* The checker's scaled residual of z (+inf when it does not pass or cannot be evaluated). */
static double checked_residual(struct solver *s, const struct cp_problem *p, const double *z, int *passes)
{
  struct cp_check c;
  *passes = 0;
  if (cp_check(p, z, s->check_work, &c) != 0) return INFINITY;
  *passes = cp_check_passes(&c, s->set.tol);
  return c.nonfinite ? INFINITY : fmax(c.natural, c.equality) / c.scale;
}

/* Measured on the robot-arm grasp's 55 failed mixed LCPs (n = 20 ... 69, results/failed/robot_grasp): the
 * float run fails all 55, the end game solves 49 in at most 0.21 s; the others are 3 rays (one proven
 * infeasible by enumeration) and 3 exact answers (|z| up to 2e13) that do not survive rounding to double.
 * After lemke.c's float run: the exact end game unless the float answer passes the checker or
 * the run was stopped by a limit. The answer kept is the exact one when it converged and does not check
 * worse than the float one after rounding; the status is the exact run's (a ray or a solution decided
 * without rounding). */
int lemke_exact_end_game(struct solver *s, const struct cp_problem *p, int max_n, int keep_ray, double *z,
                         struct solve_result *r)
{
  int passes = 0;
  if (p->n > max_n || r->status == SOLVE_TIME_LIMIT) return 0;
  if (keep_ray && r->status == SOLVE_RAY_TERMINATION) return 0;
  double res_float = r->status == SOLVE_CONVERGED ? checked_residual(s, p, z, &passes) : INFINITY;
  if (passes) return 0;
  /* the pivot limit covers both runs */
  int float_pivots = r->iterations, max_pivots = s->set.max_it > 0 ? s->set.max_it : 50 * p->n + 1000;
  if (float_pivots >= max_pivots) return 0;
  double *ze = malloc((size_t)p->n * sizeof *ze);
  if (!ze) return 1;
  enum solve_status float_status = r->status;
  if (r->message[0] == '\0')
    snprintf(r->message, sizeof r->message, "float run: %s", solve_status_name(float_status));
  int err = lemke_exact_solve(s, p, max_pivots - float_pivots, ze, r);
  if (!err) {
    r->iterations += float_pivots;
    if (r->status == SOLVE_CONVERGED && checked_residual(s, p, ze, &passes) <= res_float)
      memcpy(z, ze, (size_t)p->n * sizeof *z);
    else if (r->status == SOLVE_CONVERGED)
      r->status = float_status; /* the float answer checks better than the rounded exact one */
    else if (r->status == SOLVE_NOT_APPLICABLE || r->status == SOLVE_TIME_LIMIT ||
             r->status == SOLVE_MAX_ITERATIONS)
      r->status = float_status, r->no_answer = float_status != SOLVE_CONVERGED;
  }
  free(ze);
  return err;
}

/* The registered solver: the exact method on its own (e.g. to certify another solver's answer or verdict). */
static int lemke_exact_solver_solve(struct solver *s, const struct cp_problem *p, double *z,
                                    struct solve_result *r)
{
  return lemke_exact_solve(s, p, s->set.max_it > 0 ? s->set.max_it : 50 * p->n + 1000, z, r);
}

const struct solver_type solver_type_lemke_exact = {
    .name = "lemke_exact",
    .summary = "Lemke in exact rational arithmetic (GMP, fraction-free), exact lexicographic rule; small "
               "problems",
    .kinds = CP_LCP | CP_MLCP,
    .solve = lemke_exact_solver_solve,
};
