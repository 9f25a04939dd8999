/* lemke.c — Lemke's complementary pivoting method (Lemke 1965; Cottle-Pang-Stone, The LCP, Sec. 4.4) with
 * lexicographic degeneracy resolution (Sec. 4.9) on the compact blocked tableau of lemke_tableau.c: from
 * w = M z + q + d z0 with z0 just large enough that w >= 0, keep the basis almost complementary, entering the
 * complement of whatever left, until z0 leaves (converged) or the entering column has no admissible pivot
 * (ray termination). Ties follow ../shared/notes/lemke.md (lemke_ratio.c); a basis visited twice (a cycle
 * that a tie decided by rounding started) restarts the run cold on a randomly perturbed q (lemke_cycle.c).
 * Mixed LCPs go through mlcp_reduce. Pivot counts exclude the initial pivot that brings z0 in (Murty's
 * n x n example: 2^n - 1) and include every restart's. */
#include "lemke.h"

#include "lemke_crash.h"
#include "lemke_exact.h"
#include "lemke_kernels.h"
#include "mlcp_reduce.h"
#include "solver.h"

#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* Options (lemke_options below; the harness adds the "lemke_" prefix):
 *   pivot_tol: entries c_i <= T * ||c||_inf of the entering column c are never pivots (1e-6; measured on
 *     192 box contact LCPs, n = 480 ... 1600: 1e-9 solves 189, 1e-8 and 1e-7 191, 1e-6 all; smaller
 *     tolerances let rounding-noise pivots start cycles or rays). 0 accepts any positive entry, as Siconos.
 *   cover e|qscaled: covering vector d: e = all ones (Murty's example takes 2^n - 1 pivots), qscaled =
 *     max(1, |q_i|) (balances rows of very different scales).
 *   block: pivots held back before one dgemm update of the tableau; 1 = plain rank-1 updates; 0 = n / 32
 *     clamped to [32, 128] (larger n wants larger blocks once the tableau leaves the caches; smaller blocks
 *     make the held-back products of each pivot cheaper. Measured on SPD LCPs, one thread, SkylakeX
 *     kernels, min of repeats: n = 1000 block 32 0.027 s, 48 0.027-0.028, 62 0.029, 96 0.031; n = 2000
 *     32 0.26-0.27 s, 64 0.27, 128 0.30-0.31; n = 4000 32 2.16 s, 64 1.5-2.0, 128 1.5-2.0, 256 2.1).
 *   small_n: problems with at most this many unknowns make the tableau's products (entering column, pivot
 *     row, norms, drift checks, final residual; the flushes stay dgemm) by plain loops instead of BLAS calls,
 *     whose fixed cost is most of a small product (lemke_kernels.h; the crossover measured in
 * results/reference/README.md, "Lemke's small-problem path"). check_every, drift_tol: every check_every
 * pivots (0: each pivot up to n = 16, else max(10, n / 10), the interval doubling up to 8 times that while
 * the drift stays below drift_tol / 1000) the entering column and x are checked against the data (backward
 * error of B c = a_m and B x = q); above drift_tol (1e-10) the basis is refactorized by LAPACK (measured: the
 * triangle drop's Stewart-Trinkle LCP with two nearly parallel contact columns took a wrong pivot without it
 * and ended at residual 1.3e-4). final_solve auto|always|never: the answer recomputed from a fresh LU of M_SS
 * with iterative refinement (auto: when the tableau's answer misses tol / 100). exact_max_n: a float run
 * without an answer the checker accepts is redone exactly up to this n (lemke_exact_end_game; measured there:
 * the robot-arm grasp's failed mixed LCPs 0 -> 49 of 55). lazy_columns: the columns of B^-1 B_0 left out of
 * the flushes until needed (lemke_lazy.c; measured on SPD LCPs, one thread, interleaved, the same pivots: n =
 * 1000 23 ms against 27 ms per solve, n = 4000 1.25 s against 1.45-1.48 s). Harness options: -cp_max_it pivot
 * limit (default 50 n + 1000); -cp_time_limit checked every 16 pivots; -cp_warm_start: the support {i : z_i >
 * 0} of z on entry is the starting basis (z_i basic there, w_i elsewhere), with d = B_0 e; a singular basis
 * (rcond of M_SS below 1e3 eps) or a warm run ending on a ray restarts cold; pivots of both runs are counted.
 */
enum lemke_cover { LEMKE_COVER_E, LEMKE_COVER_QSCALED };
static const char *const lemke_cover_names[] = {"e", "qscaled"};
static const char *const lemke_final_names[] = {"auto", "always", "never"};

struct lemke_data {
  double pivot_tol; /* -lemke_pivot_tol */
  int cover;        /* -lemke_cover: enum lemke_cover */
  int block;        /* -lemke_block: pivots held back before one dgemm update */
  int small_n;      /* -lemke_small_n: problems up to this size use plain loops, not BLAS (lemke_kernels.h) */
  int check_every;  /* -lemke_check_every: pivots between drift checks (0: automatic) */
  double
      drift_tol;   /* -lemke_drift_tol: backward error of an updated column that triggers a refactorization */
  int final_solve; /* -lemke_final_solve: enum lemke_final */
  int exact_max_n; /* -lemke_exact_max_n: largest problem given the exact end game (0: never) */
  int lazy_columns; /* -lemke_lazy_columns: B^-1 columns left out of the flushes (lemke_lazy.c) */
  int point_cover;  /* not an option: set by lemke_set_point_cover (lemke_crash.h) */
  int ray_no_cold;  /* not an option: lemke_set_ray_no_cold (lemke_crash.h) */
  struct lemke_work w;
};

static const struct option_decl lemke_options[] = {
    {"pivot_tol", OPT_REAL, offsetof(struct lemke_data, pivot_tol), "1e-6", "[0,1)",
     "entries <= tol * ||column||_inf of the entering column are never pivots"},
    {"cover", OPT_CHOICE, offsetof(struct lemke_data, cover), "e", "e|qscaled",
     "covering vector: all ones, or max(1, |q_i|)"},
    {"block", OPT_INT, offsetof(struct lemke_data, block), "0", "[0,4096]",
     "pivots held back before one dgemm tableau update; 0 = n/32 clamped to [32, 128]"},
    {"small_n", OPT_INT, offsetof(struct lemke_data, small_n), "16", "[0,100000]",
     "problems with at most this many unknowns make the tableau's products by plain loops, not BLAS calls "
     "(whose fixed cost dominates small products)"},
    {"check_every", OPT_INT, offsetof(struct lemke_data, check_every), "0", "[0,1000000]",
     "pivots between checks of the updated column and x against the data; 0 = 1 up to n = 16, else max(10, "
     "n/10), doubling (up to 8x) while the drift stays below drift_tol/1000"},
    {"drift_tol", OPT_REAL, offsetof(struct lemke_data, drift_tol), "1e-10", "(0,1)",
     "backward error of the updated column or x above which the basis is refactorized (LAPACK dgetrf)"},
    {"final_solve", OPT_CHOICE, offsetof(struct lemke_data, final_solve), "auto", "auto|always|never",
     "recompute the answer from a fresh LU of M_SS with refinement: auto = when the tableau's misses "
     "tol/100"},
    {"exact_max_n", OPT_INT, offsetof(struct lemke_data, exact_max_n), "150", "[0,100000]",
     "problems with at most this many unknowns that the float run leaves unsolved are solved again in exact "
     "rational arithmetic (0 = never)"},
    {"lazy_columns", OPT_BOOL, offsetof(struct lemke_data, lazy_columns), "1", NULL,
     "leave the columns of nonbasic w's whose z is basic out of the tableau updates, and bring one up to "
     "date by replaying the updates it missed when its w re-enters (every one at a lexicographic tie)"},
};

/* Tie thresholds from ../shared/notes/lemke.md (the lexicographic ones are in lemke_ratio.c). Basic values
 * below lemke_zero_x * max(||x||, ||q||) are zero (a tolerance relative to the entries themselves let
 * rounding decide ties on Siconos' lcp_tobenna). */
static const double lemke_zero_x = 1e-13;
/* z0 with z0 ||d||_inf below this times -cp_tol * max(1, ||q||_inf) counts as zero: the point is a solution
 * (measured: sliding-box LCPs with 40 boxes reach z0 ~ 1e-10 where the z0 row has no admissible pivot). */
static const double lemke_z0_negligible = 0.1;
/* After a cycle (lemke_cycle.c) the run starts again cold on q + xi, xi_i in [p, 2p), p = lemke_perturb_rel
 * * max(1, ||q||_inf) times 10 per earlier restart of the same solve, at most lemke_max_perturbs times. p
 * sits above the rounding of the basic values that misled the ties (1e-12 ... 1e-10 absolute on the 210-disc
 * piles' LCPs, ||x|| ~ 5) and below the tolerance, which the answer recomputed from the unperturbed data has
 * to meet anyway. */
static const double lemke_perturb_rel = 1e-9;
static const int lemke_max_perturbs = 3;

/* p of the k-th restart (k = 0, 1, ...) */
static double lemke_perturb_size(double qnorm, int k)
{
  double p = lemke_perturb_rel * fmax(1.0, qnorm);
  for (int i = 0; i < k; i++)
    p *= 10.0;
  return p;
}

static int lemke_create(struct solver *s)
{
  s->data = calloc(1, sizeof(struct lemke_data));
  return s->data == NULL;
}

static void lemke_work_free(struct lemke_work *w)
{
  lemke_tableau_destroy(&w->t);
  free(w->d);
  free(w->col);
  free(w->row);
  free(w->lex_best);
  free(w->lex_cand);
  free(w->tied);
  free(w->in_basis);
  free(w->qpert);
  lemke_visits_free(&w->visits);
  memset(w, 0, sizeof *w);
}

/* -lemke_check_every 0: every pivot up to n = 16 (the contact LCPs whose drift picked a wrong pivot were
 * 8 x 8), then every max(10, n / 10) pivots. A check costs about a pivot: checking every pivot at n = 100
 * made Lemke 3x slower on SPD n = 100 (0.62x siconos_lemke's time against 0.15-0.24x with a check every 10
 * pivots, one run); at n = 1000 a check (one read of M, ~1 ms) every 100 pivots costs ~1 %. */
static int lemke_check_every_for(const struct lemke_data *ld, int n)
{
  if (ld->check_every > 0) return ld->check_every;
  return n <= 16 ? 1 : (n / 10 > 10 ? n / 10 : 10);
}

/* The automatic schedule widens while the drift stays far below drift_tol: after a check at or below
 * 1e-3 drift_tol the next one comes twice as many pivots later, up to 8 check_every; any larger drift
 * brings the base interval back. Measured on SPD n = 1000 (507 pivots, drift ~1e-15 at every check): a
 * check reads M once (~1 ms on this machine, 16 pivots' worth), and the five fixed checks took 17 % of
 * the solve; with the widening, two. An explicit -lemke_check_every, and the every-pivot checks of
 * n <= 16, stay fixed. */
static int lemke_next_interval(const struct lemke_data *ld, int base, int interval, double drift)
{
  if (ld->check_every > 0 || base == 1 || !(drift <= 1e-3 * ld->drift_tol)) return base;
  return 2 * interval < 8 * base ? 2 * interval : 8 * base;
}

static int lemke_block_for(const struct lemke_data *ld, int n)
{
  return ld->block > 0 ? ld->block : (n / 32 < 32 ? 32 : (n / 32 > 128 ? 128 : n / 32));
}

/* Ensures a workspace for an LCP of size n (warm: with the warm-start scratch); reuses the current one
 * when it is large enough, so a stepper's problems of varying size allocate only when they grow. */
static int lemke_work_reserve(struct lemke_data *ld, int n, int warm)
{
  struct lemke_work *w = &ld->w;
  int block = lemke_block_for(ld, n);
  if (n < 1) return 0;
  int lazy = ld->lazy_columns;
  if (w->t && n <= w->cap_n && block <= w->t->cap_b && (!warm || w->t->wX) && lazy == (w->t->hist_cap > 1))
    return 0;
  int cap = n > w->cap_n ? n : w->cap_n, bcap = w->t && w->t->cap_b > block ? w->t->cap_b : block;
  int had_warm = w->t && w->t->wX;
  lemke_work_free(w);
  size_t nn = (size_t)cap, nc = nn + 1;
  if (lemke_tableau_create(cap, bcap, warm || had_warm, lazy, &w->t) != 0) return 1;
  w->d = calloc(nn, sizeof *w->d);
  w->col = malloc(nn * sizeof *w->col);
  w->row = malloc(nc * sizeof *w->row);
  w->lex_best = calloc(nn, sizeof *w->lex_best);
  w->lex_cand = calloc(nn, sizeof *w->lex_cand);
  w->tied = malloc(nn * sizeof *w->tied);
  w->in_basis = malloc(nn * sizeof *w->in_basis);
  w->qpert = malloc(nn * sizeof *w->qpert);
  if (!w->d || !w->col || !w->row || !w->lex_best || !w->lex_cand || !w->tied || !w->in_basis || !w->qpert) {
    lemke_work_free(w);
    return 1;
  }
  w->cap_n = cap;
  return 0;
}

/* A mixed LCP is solved on its reduced LCP in the complementary unknowns (mlcp_reduce), of size n - n_eq. */
static int lemke_setup(struct solver *s, const struct cp_problem *p)
{
  int m = p->kind == CP_LCP ? p->n : p->n - p->n_eq;
  return lemke_work_reserve(s->data, m, s->set.warm_start);
}

/* Zero the basic values that are zero up to rounding; return the threshold used. */
static double lemke_snap(struct lemke_tableau *t, double qnorm)
{
  /* x is checked for NaN elsewhere (only columns update it): BLAS idamax, vectorised, on large problems,
   * where the NaN-propagating loop costs ~2 ns an entry */
  double zx = lemke_zero_x * fmax(lemke_amax(t->plain, t->n, t->x), qnorm), *x = t->x;
  for (int i = 0; i < t->n; i++) /* a select, not a branch: the rare zeros cost no misprediction */
    x[i] = fabs(x[i]) <= zx ? 0.0 : x[i];
  return zx;
}

/* ||c||_inf of the entering column, or NaN when c holds a NaN (from a NaN in M): the plain loop propagates
 * a NaN; idamax may pass over one, the sum of |c_i| does not. */
static double lemke_column_norm(const struct lemke_tableau *t, const double *c)
{
  double cmax = lemke_amax(t->plain, t->n, c);
  return t->plain || !isnan(cblas_dasum(t->n, c, 1)) ? cmax : NAN;
}

/* The drift checks' view of the problem; call after w->d is set. bmax comes from the cold start's
 * transpose of M; after a warm start it is found at the first check (a pass over M that a run without
 * checks does not pay). */
static void lemke_set_ref(struct lemke_work *w, const double *M, const double *q)
{
  w->ref = (struct lemke_data_ref){.M = M, .q = q, .d = w->d, .bmax = -1.0};
}

static double lemke_drift(struct lemke_work *w, int m)
{
  if (w->ref.bmax < 0.0) {
    int n = w->t->n;
    double bmax = 1.0;
    size_t nn = (size_t)n * (size_t)n;
    for (size_t k = 0; k < nn; k++) { /* not fmax: a libm call per entry at -O2, 2 ms at n = 1000 */
      double a = fabs(w->ref.M[k]);
      bmax = a > bmax ? a : bmax;
    }
    for (int i = 0; i < n; i++)
      bmax = fmax(bmax, fabs(w->d[i]));
    w->ref.bmax = bmax;
  }
  return lemke_tableau_drift(w->t, &w->ref, m, w->col);
}

/* One run of Lemke's method from the tableau's current basis. Returns the status; *pivots counts. */
static enum solve_status lemke_run(struct solver *s, struct lemke_work *w, double qnorm, int max_pivots,
                                   int *pivots)
{
  const struct lemke_data *ld = s->data;
  struct lemke_tableau *t = w->t;
  int n = t->n, check_every = lemke_check_every_for(ld, n), interval = check_every, next_check = check_every;
  double zx = lemke_snap(t, qnorm), dnorm = lemke_norm_inf(n, w->d);
  double z0_negligible = lemke_z0_negligible * s->set.tol * fmax(1.0, qnorm);
  /* First pivot: z0 enters (column n, entries < 0) and replaces the most negative x_i / |c_i|; ties go
   * to the last row, which keeps every row of [x, B^-1 B_0] lexicographically positive afterwards. */
  lemke_tableau_column(t, n, w->col);
  double step = 0.0;
  int r = -1;
  for (int i = 0; i < n; i++)
    if (t->x[i] < 0.0) {
      if (!(w->col[i] < 0.0)) return SOLVE_NUMERICAL_FAILURE; /* covering vector not positive here */
      if (t->x[i] / w->col[i] > step) step = t->x[i] / w->col[i];
    }
  if (step == 0.0) return SOLVE_CONVERGED; /* x >= 0: the starting basis is a solution */
  for (int i = 0; i < n; i++)
    if (w->col[i] < 0.0 && t->x[i] - step * w->col[i] <= zx) r = i;
  lemke_tableau_row(t, r, w->row);
  lemke_tableau_pivot(t, r, n, w->col, w->row); /* not counted (see lemke_solve_lcp) */
  int entering = t->nonbasic[n] < n ? t->nonbasic[n] + n : t->nonbasic[n] - n;
  int ray_checked = 0;
  w->cycled = 0;
  if (lemke_visits_reset(&w->visits, t) != 0) return SOLVE_NUMERICAL_FAILURE;
  for (;;) {
    zx = lemke_snap(t, qnorm);
    if (*pivots >= max_pivots) return SOLVE_MAX_ITERATIONS;
    if (*pivots > 0 && *pivots % 16 == 0 && solver_out_of_time(s)) return SOLVE_TIME_LIMIT;
    int m = lemke_tableau_wake(t, -1 - t->where[entering]);
    lemke_tableau_column(t, m, w->col);
    double drift = 0.0;
    if (*pivots > 0 && *pivots >= next_check) {
      drift = lemke_drift(w, m);
      interval = lemke_next_interval(ld, check_every, interval, drift);
      next_check = *pivots + interval;
    }
    if (drift > ld->drift_tol || isnan(drift)) {
      /* the held-back updates drifted from the data: start again from a fresh factorization of B */
      if (lemke_tableau_refactor(t, &w->ref) != 0) return SOLVE_NUMERICAL_FAILURE;
      zx = lemke_snap(t, qnorm);
      lemke_tableau_column(t, m, w->col);
    }
    double cmax = lemke_column_norm(t, w->col);
    if (!isfinite(cmax)) return SOLVE_NAN_OR_INF;
    int z0_row = t->where[2 * n];
    if (t->x[z0_row] * dnorm <= z0_negligible) {
      /* z0 d is below the tolerance: the point solves the LCP. Pivot z0 out if the column allows it and
       * the step moves no basic variable by more than the tolerance, else stop here with z0 basic (the
       * remaining pivots would be decided by rounding). z0 negligible does not make the step negligible:
       * it moves row i by c_i x_z0 / c_z0, and with c_z0 small against the column (Chakraborty et al.
       * Fig. 1b's 1000-gon at h = 0.001, a degenerate step of 45 contacts: x_z0 = 2.1e-9, c_z0 = 7.7e-3,
       * max |c| = 2.0) the pivot drove a degenerate w_i = 0 to -2.8e-7, 2.9x the checker's tolerance. */
      double c0 = w->col[z0_row], move = fabs(t->x[z0_row] / c0) * fmax(cmax, 1.0);
      if ((c0 > ld->pivot_tol * cmax || c0 < -ld->pivot_tol * cmax) && move <= z0_negligible) {
        lemke_tableau_row(t, z0_row, w->row);
        lemke_tableau_pivot(t, z0_row, m, w->col, w->row);
        (*pivots)++;
      }
      return SOLVE_CONVERGED;
    }
    r = lemke_ratio_test(w, w->col, fmax(ld->pivot_tol * cmax, 0.0), zx);
    if (r < 0 && !ray_checked) {
      /* No admissible pivot: before a secondary ray is reported, the column and x are recomputed from a
       * fresh factorization of the basis and the same entering variable is tried again. The updates'
       * rounding in x (1e-8 and more) can hide that z0 is already negligible: on the box-contact classes
       * (sliding24 ... sliding120) every warm-start "ray" of 2000 random supports, and a 1600-unknown
       * sliding-box LCP's cold "ray" at z0 = 6e-8, were such points, which the refactorized basis ends. */
      if (lemke_tableau_refactor(t, &w->ref) != 0) return SOLVE_NUMERICAL_FAILURE;
      ray_checked = 1;
      continue;
    }
    if (r < 0) return SOLVE_RAY_TERMINATION;
    ray_checked = 0;
    int leaving = t->basic[r];
    lemke_tableau_row(t, r, w->row);
    lemke_tableau_pivot(t, r, m, w->col, w->row);
    (*pivots)++;
    if (leaving == 2 * n) return SOLVE_CONVERGED;
    int seen = lemke_visits_pivot(&w->visits, leaving, entering);
    if (seen < 0) return SOLVE_NUMERICAL_FAILURE;
    if (seen) { /* a basis repeated: a tie decided by rounding took the path onto a cycle */
      if (w->cycle_pivot < 0) w->cycle_pivot = *pivots;
      w->cycled = 1;
      return SOLVE_MAX_ITERATIONS;
    }
    entering = leaving < n ? leaving + n : leaving - n;
  }
}

/* Basic values of the point cover are at least this times max(1, max x~): a crash point of a resting pile
 * has hundreds of w_i = 0 rows, and from x~ with those zeros Lemke made 6000 degenerate pivots at z0 = 1
 * (210-disc pile, Anitescu-Hart Table 1, mu = 0.1). On bench_solvers' resting24/resting120/sliding120 (3
 * seeds, 2-step crash): floor 0 solved 8 of 9 in 1024 pivots, 1e-6 8 in 418, 1e-3 9 in 505, 1e-2 9 in 472. */
static const double lemke_point_floor = 1e-2;

/* The point cover of a warm start (lemke_crash.h), after lemke_tableau_warm: x~ = z_i on the rows of basic
 * z's, max(0, (M z_B + q)_i) on those of basic w's (z_B: z on the basis, 0 elsewhere), raised to the floor
 * above; the z0 column of the
 * tableau becomes -B_0^-1 d = x - x~, so that x - c z0 = x~ at z0 = 1, and d = B_0 (x~ - x) in the original
 * columns (e_i for w_i, -M e_j for z_j) for the drift checks. Rows with x_i < 0 have c_i = x_i - x~_i < 0,
 * as the first pivot needs; rows already right (x~_i = x_i) stay out of the path until a pivot moves them. */
static void lemke_point_cover(struct lemke_work *w, const double *M, const double *q, const double *z)
{
  struct lemke_tableau *t = w->t;
  int n = t->n;
  double *f = w->col, *delta = w->row, *c = t->T0 + (size_t)n * (size_t)n;
  for (int j = 0; j < n; j++)
    delta[j] = w->in_basis[j] ? z[j] : 0.0;
  memcpy(f, q, (size_t)n * sizeof *f);
  cblas_dgemv(CblasRowMajor, CblasNoTrans, n, n, 1.0, M, n, delta, 1, 1.0, f, 1);
  double xmax = 1.0;
  for (int i = 0; i < n; i++)
    xmax = fmax(xmax, w->in_basis[i] ? z[i] : f[i]);
  double floor_x = lemke_point_floor * xmax;
  for (int i = 0; i < n; i++) { /* row i holds z_i or w_i (lemke_tableau_label) */
    double xt = w->in_basis[i] ? fmax(z[i], floor_x) : fmax(f[i], floor_x);
    c[i] = t->x[i] - xt;
    delta[i] = -c[i];
  }
  for (int i = 0; i < n; i++)
    w->d[i] = w->in_basis[i] ? 0.0 : delta[i];
  for (int j = 0; j < n; j++)
    if (!w->in_basis[j]) delta[j] = 0.0;
  cblas_dgemv(CblasRowMajor, CblasNoTrans, n, n, -1.0, M, n, delta, 1, 1.0, w->d, 1);
}

void lemke_set_point_cover(struct solver *s, int on)
{
  ((struct lemke_data *)s->data)->point_cover = on != 0;
}

void lemke_set_ray_no_cold(struct solver *s, int on)
{
  ((struct lemke_data *)s->data)->ray_no_cold = on != 0;
}

/* A run from the cold start on the data (M, qrun): the covering vector from q (the unperturbed data, so that
 * a restart on q + xi covers alike). */
static enum solve_status lemke_cold_run(struct solver *s, struct lemke_work *w, const double *M,
                                        const double *q, const double *qrun, double qnorm, int max_pivots,
                                        int *pivots)
{
  const struct lemke_data *ld = s->data;
  int n = w->t->n;
  for (int i = 0; i < n; i++)
    w->d[i] = ld->cover == LEMKE_COVER_QSCALED ? fmax(1.0, fabs(q[i])) : 1.0;
  double mmax = lemke_tableau_cold(w->t, M, qrun, w->d);
  lemke_set_ref(w, M, qrun);
  w->ref.bmax = fmax(1.0, fmax(mmax, lemke_norm_inf(n, w->d))); /* lemke_drift's pass over M, done */
  return lemke_run(s, w, qnorm, max_pivots, pivots);
}

/* Solve the LCP (M, q) of size n; z holds the warm-start guess on entry when s->set.warm_start. */
static int lemke_solve_lcp(struct solver *s, const double *M, const double *q, int n, double *z,
                           struct solve_result *r)
{
  const struct lemke_data *ld = s->data;
  int max_pivots = s->set.max_it > 0 ? s->set.max_it : 50 * n + 1000, pivots = 0, nbasis = 0;
  r->iterations = 0;
  double qnorm = lemke_norm_inf(n, q), qmin = 0.0;
  for (int i = 0; i < n; i++)
    qmin = fmin(qmin, q[i]);
  if (!isfinite(qnorm) || qmin >= 0.0) { /* q >= 0: z = 0 solves it */
    for (int i = 0; i < n; i++)
      z[i] = 0.0;
    r->status = isfinite(qnorm) ? SOLVE_CONVERGED : SOLVE_NAN_OR_INF;
    return 0;
  }
  /* a no-op when the harness's setup sized the workspace, as it does before the clock starts */
  if (lemke_work_reserve(s->data, n, s->set.warm_start) != 0) return 1;
  struct lemke_work *w = &((struct lemke_data *)s->data)->w;
  if (lemke_tableau_use(w->t, n, lemke_block_for(ld, n)) != 0) return 1;
  w->t->plain = n <= ld->small_n;
  w->perturbs = 0;
  w->cycled = 0;
  w->cycle_pivot = -1;
  for (int i = 0; i < n; i++) {
    w->in_basis[i] = s->set.warm_start && z[i] > 0.0;
    nbasis += w->in_basis[i];
  }
  enum solve_status st = SOLVE_NUMERICAL_FAILURE;
  if (nbasis > 0 && lemke_tableau_warm(w->t, M, q, w->in_basis) != 0)
    snprintf(r->message, sizeof r->message, "warm-start basis (%d z's) singular; started cold", nbasis);
  else if (nbasis > 0) {
    if (ld->point_cover)
      lemke_point_cover(w, M, q, z);
    else {
      for (int i = 0; i < n; i++) /* the covering vector d = B_0 e of the warm start (for z0 ||d||) */
        w->d[i] = w->in_basis[i] ? 0.0 : 1.0;
      for (int j = 0; j < n; j++)
        if (w->in_basis[j])
          for (int i = 0; i < n; i++)
            w->d[i] -= M[(size_t)i * n + j];
    }
    lemke_set_ref(w, M, q);
    st = lemke_run(s, w, qnorm, max_pivots, &pivots);
    if (st == SOLVE_RAY_TERMINATION && ld->ray_no_cold)
      snprintf(r->message, sizeof r->message, "secondary ray from the warm basis after %d pivots", pivots);
    else if (st == SOLVE_RAY_TERMINATION || st == SOLVE_NUMERICAL_FAILURE || st == SOLVE_NAN_OR_INF) {
      snprintf(r->message, sizeof r->message, "warm start stopped (%s) after %d pivots; restarted cold",
               solve_status_name(st), pivots);
      st = SOLVE_NUMERICAL_FAILURE;
    }
  }
  if (st == SOLVE_NUMERICAL_FAILURE) st = lemke_cold_run(s, w, M, q, q, qnorm, max_pivots, &pivots);
  while (w->cycled && w->perturbs < lemke_max_perturbs) { /* restart on q + xi (lemke_cycle.c) */
    if (lemke_perturb_q(w, q, n, lemke_perturb_size(qnorm, w->perturbs)) != 0) return 1;
    w->perturbs++;
    st = lemke_cold_run(s, w, M, q, w->qpert, qnorm, max_pivots, &pivots);
  }
  lemke_extract(w->t, z);
  w->ref.q = q; /* the final solve's fallback refactorizes on the unperturbed data */
  if (w->cycle_pivot >= 0) {
    size_t len = strlen(r->message);
    snprintf(r->message + len, sizeof r->message - len,
             "%scycle (a basis repeated) at pivot %d: %d cold restart%s on q + xi (xi <= %.0e)",
             len ? "; " : "", w->cycle_pivot, w->perturbs, w->perturbs == 1 ? "" : "s",
             2.0 * lemke_perturb_size(qnorm, w->perturbs - 1));
  }
  if (w->t->refactors > 0) {
    size_t len = strlen(r->message);
    snprintf(r->message + len, sizeof r->message - len,
             "%s%d refactorizations (drift above %g, or a ray checked)", len ? "; " : "", w->t->refactors,
             ld->drift_tol);
  }
  double tol_abs = s->set.tol * cp_scale_q(n, q); /* the reduced LCP's q for a mixed LCP */
  if (st == SOLVE_CONVERGED) lemke_final_solve(ld->final_solve, w, M, q, n, tol_abs, z, r);
  int wi, wj;
  if (st == SOLVE_RAY_TERMINATION && cp_not_copositive(M, n, &wi, &wj)) {
    size_t len = strlen(r->message);
    snprintf(
        r->message + len, sizeof r->message - len,
        "%sM is not copositive (x >= 0 on rows %d, %d gives x^T M x < 0): the ray does not prove the LCP "
        "infeasible",
        len ? "; " : "", wi, wj);
  }
  r->status = st;
  r->no_answer = st != SOLVE_CONVERGED; /* an almost-complementary basis (z0 > 0) approximates nothing */
  r->iterations = pivots;
  return 0;
}

static int lemke_solve_float(struct solver *s, const struct cp_problem *p, double *z, struct solve_result *r)
{
  if (p->kind == CP_LCP) return lemke_solve_lcp(s, p->M, p->q, p->n, z, r);
  struct cp_problem *lcp = NULL;
  struct mlcp_reduction *red = NULL;
  int err = mlcp_reduce(p, &lcp, &red, r->message, sizeof r->message);
  if (err == 1) {
    r->status = SOLVE_NOT_APPLICABLE;
    return 0;
  }
  if (err) return 1;
  err = lemke_solve_lcp(s, lcp->M, lcp->q, lcp->n, z + p->n_eq, r);
  if (!err) mlcp_recover(red, z + p->n_eq, z);
  cp_destroy(&lcp);
  mlcp_reduction_destroy(&red);
  return err;
}

static int lemke_solve(struct solver *s, const struct cp_problem *p, double *z, struct solve_result *r)
{
  const struct lemke_data *ld = s->data;
  int err = lemke_solve_float(s, p, z, r);
  /* a caller that restarts from the ray's basis itself (path_crash, lemke_crash.h) wants the ray back */
  return err ? err : lemke_exact_end_game(s, p, ld->exact_max_n, ld->ray_no_cold, z, r);
}

static void lemke_destroy(struct solver *s)
{
  struct lemke_data *d = s->data;
  if (d) lemke_work_free(&d->w);
  free(s->data);
  s->data = NULL;
}

static void lemke_view(const struct solver *s, FILE *out)
{
  const struct lemke_data *d = s->data;
  fprintf(out, "  pivot_tol %g (relative to ||column||_inf), cover %s, block %d%s\n", d->pivot_tol,
          lemke_cover_names[d->cover], d->block, d->block == 0 ? " (automatic)" : "");
  fprintf(out, "  drift checks every %d pivots%s (drift_tol %g), final solve %s\n", d->check_every,
          d->check_every == 0 ? " (automatic)" : "", d->drift_tol, lemke_final_names[d->final_solve]);
  fprintf(out, "  exact end game up to n = %d, lazy columns %s, plain loops up to n = %d\n", d->exact_max_n,
          d->lazy_columns ? "on" : "off", d->small_n);
}

const struct solver_type solver_type_lemke = {
    .name = "lemke",
    .summary = "lexicographic Lemke, blocked tableau (-lemke_pivot_tol, -lemke_cover, -lemke_block)",
    .kinds = CP_LCP | CP_MLCP,
    .options = lemke_options,
    .n_options = (int)(sizeof lemke_options / sizeof lemke_options[0]),
    .create = lemke_create,
    .setup = lemke_setup,
    .solve = lemke_solve,
    .destroy = lemke_destroy,
    .view = lemke_view,
};
