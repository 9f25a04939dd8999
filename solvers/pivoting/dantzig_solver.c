/* dantzig_solver.c — solver `dantzig`: the principal pivoting method of pivoting.h on LCPs, mixed LCPs (the
 * free rows are boxes (-inf, inf)) and box MCPs. A symmetric M (within -dantzig_symmetry_tol of the larger
 * entry of each pair) is factored LDL^T; one that is not is taken as a P-matrix (Cottle-Pang-Stone Sec. 4.5:
 * the method solves those too) and factored LDU, after the one test of that property that costs nothing: a
 * positive diagonal (a diagonal entry <= 0 — every Stewart-Trinkle or Anitescu-Potra LCP's, whose
 * multiplier rows have M_jj = 0 — is not_applicable). A block whose pivot is not positive stops it
 * (numerical_failure: M is not a P-matrix there). Boxed LCPs with a friction index (cp.h CP_BOXED): the
 * kernel's pass takes the friction rows last with the boxes +-mu_i z_k of the normals' z then (ODE's dLCP);
 * as z_k may still move while later rows are driven, an outer loop (ODE's and Bullet's callers repeat the
 * solve the same way when they iterate) solves again with the boxes of the last z as fixed bounds, until z is
 * an answer in the boxes it gives (the friction rows' natural residual within half the tolerance;
 * -dantzig_findex_sweeps solves at most; status max_iterations beyond, its last z an approximate answer).
 * Those solves start warm from the last one's placement (pivot_dantzig_warm): the boxes move a little from
 * one solve to the next, and most indices stay where they were (boxed_cannonball: 173 pivots in 6 solves
 * against 537 cold). Iterations are pivots, over all solves (-cp_max_it, default 50 n + 1000 per solve); the
 * workspace is sized by setup, so a timed solve allocates nothing. */
#include "pivoting.h"
#include "solver.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>

struct dantzig_data {
  double pivot_tol;    /* -dantzig_pivot_tol */
  double symmetry_tol; /* -dantzig_symmetry_tol */
  int findex_sweeps;   /* -dantzig_findex_sweeps */
  struct pivot_work ws;
  double *lo, *hi; /* the outer loop's fixed boxes (n each) */
  int cap;
};

static const struct option_decl dantzig_options[] = {
    {"pivot_tol", OPT_REAL, offsetof(struct dantzig_data, pivot_tol), "1e-12", "(0,1)",
     "a factor pivot below this times |M_jj| means the clamped block is singular (numerical_failure)"},
    {"symmetry_tol", OPT_REAL, offsetof(struct dantzig_data, symmetry_tol), "1e-12", "[0,1)",
     "|M_ij - M_ji| above this times max(|M_ij|, |M_ji|): not symmetric (an LDU factor; M taken as a "
     "P-matrix)"},
    {"findex_sweeps", OPT_INT, offsetof(struct dantzig_data, findex_sweeps), "20", "[1,100000]",
     "boxed LCP with friction index: solves at most, each with the friction boxes of the last z fixed"},
};

static int dantzig_create(struct solver *s)
{
  s->data = calloc(1, sizeof(struct dantzig_data));
  return s->data == NULL;
}

static int dantzig_setup(struct solver *s, const struct cp_problem *p)
{
  struct dantzig_data *d = s->data;
  int n = p->n > 0 ? p->n : 1;
  if (p->kind == CP_BOXED && n > d->cap) {
    free(d->lo);
    free(d->hi);
    d->cap = 0;
    d->lo = malloc((size_t)n * sizeof *d->lo);
    d->hi = malloc((size_t)n * sizeof *d->hi);
    if (!d->lo || !d->hi) return 1;
    d->cap = n;
  }
  return pivot_work_reserve(&d->ws, n);
}

/* 1 when every pair differs by at most tol times the larger of the two. The check is inside the timed solve:
 * a first pass asks only whether every pair is equal (what an assembled symmetric M is: no branch, no
 * division, about half the time of the tolerance test), the tolerance test runs only when one is not, from
 * the first row with a differing pair. */
static int dantzig_symmetric(const double *M, int n, double tol)
{
  int first = n;
  for (int i = 0; i < n && first == n; i++) { /* row by row: a contact LCP's M differs in its first rows */
    int differ = 0;
    for (int j = 0; j < i; j++)
      differ |= M[(size_t)i * n + j] != M[(size_t)j * n + i];
    if (differ) first = i;
  }
  for (int i = first; i < n; i++)
    for (int j = 0; j < i; j++) {
      double a = M[(size_t)i * n + j], b = M[(size_t)j * n + i], d = fabs(a - b);
      double big = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
      if (!(d <= tol * big)) return 0;
    }
  return 1;
}

/* The first diagonal entry that is not positive (-1: none): M is then not a P-matrix. */
static int dantzig_nonpositive_diagonal(const double *M, int n)
{
  for (int i = 0; i < n; i++)
    if (!(M[(size_t)i * n + i] > 0.0)) return i;
  return -1;
}

static int dantzig_out_of_time(const void *ctx) { return solver_out_of_time(ctx); }

/* The friction boxes of z into d->lo, d->hi (the other rows' bounds as given); returns the largest natural
 * residual |z_i - mid(lo_i, hi_i, z_i - w_i)| of the friction rows in those boxes, w = M z + q as the last
 * solve left it (d->ws.w). Not how far the boxes moved: a box that moved while its row stays inside it (a
 * stack's upper friction rows, interior while a lower normal grows) leaves z an answer, and a solve again
 * would only repeat it (boxed_box_stack: 2 solves, 41 pivots, where ODE's single pass already holds). */
static double dantzig_fix_boxes(struct dantzig_data *d, const struct cp_problem *p, const double *z)
{
  double residual = 0.0;
  for (int i = 0; i < p->n; i++) {
    double lo, hi;
    cp_boxed_bounds(p, z, i, &lo, &hi);
    if (p->findex[i] >= 0) {
      double u = z[i] - d->ws.w[i];
      residual = fmax(residual, fabs(z[i] - fmin(hi, fmax(lo, u))));
    }
    d->lo[i] = lo;
    d->hi[i] = hi;
  }
  return residual;
}

/* ODE's single pass with the friction index, then solves with the boxes of the last z fixed until z is an
 * answer in the boxes it gives (the friction rows' natural residual within tol * scale / 2). *moving: 1 when
 * it is not after -dantzig_findex_sweeps solves (each solved). */
static enum pivot_status dantzig_findex(struct solver *s, const struct cp_problem *p, int nonsymmetric,
                                        const struct pivot_settings *set, double *z, int *pivots, int *solves,
                                        int *moving)
{
  struct dantzig_data *d = s->data;
  double stop = 0.5 * s->set.tol * cp_scale(p, NULL);
  struct pivot_problem pp = {p->n, p->M, p->q, p->lo, p->hi, p->findex, nonsymmetric};
  int k = 0;
  *moving = 0;
  enum pivot_status st = pivot_dantzig(&pp, set, &d->ws, z, &k);
  *pivots = k;
  *solves = 1;
  if (st != PIVOT_SOLVED || dantzig_fix_boxes(d, p, z) <= stop) return st;
  struct pivot_problem fixed = {p->n, p->M, p->q, d->lo, d->hi, NULL, nonsymmetric};
  for (*solves = 2; *solves <= d->findex_sweeps; ++*solves) {
    st = pivot_dantzig_warm(&fixed, set, &d->ws, p->n, z, &k);
    *pivots += k;
    if (st != PIVOT_SOLVED || dantzig_fix_boxes(d, p, z) <= stop) return st;
  }
  --*solves;
  *moving = 1;
  return st;
}

static int dantzig_solve(struct solver *s, const struct cp_problem *p, double *z, struct solve_result *r)
{
  struct dantzig_data *d = s->data;
  int n = p->n;
  int nonsymmetric = !dantzig_symmetric(p->M, n, d->symmetry_tol), bad;
  if (nonsymmetric && (bad = dantzig_nonpositive_diagonal(p->M, n)) >= 0) {
    r->status = SOLVE_NOT_APPLICABLE;
    snprintf(r->message, sizeof r->message, "M is not symmetric and not a P-matrix (M_jj <= 0 at j = %d)",
             bad);
    return 0;
  }
  if (pivot_work_reserve(&d->ws, n > 0 ? n : 1) || (p->kind == CP_BOXED && d->cap < n)) return 1;
  struct pivot_problem pp = {n, p->M, p->q, p->lo, p->hi, NULL, nonsymmetric};
  struct pivot_settings set = {s->set.max_it > 0 ? s->set.max_it : 50 * n + 1000, d->pivot_tol,
                               dantzig_out_of_time, s};
  int solves = 1, moving = 0;
  enum pivot_status st = p->kind == CP_BOXED
                             ? dantzig_findex(s, p, nonsymmetric, &set, z, &r->iterations, &solves, &moving)
                             : pivot_dantzig(&pp, &set, &d->ws, z, &r->iterations);
  if (moving) {
    r->status = SOLVE_MAX_ITERATIONS; /* every solve placed every index: the last z is an answer */
    snprintf(r->message, sizeof r->message,
             "z not yet an answer in the friction boxes it gives after %d solves", solves);
    return 0;
  }
  static const enum solve_status map[] = {
      [PIVOT_SOLVED] = SOLVE_CONVERGED,           [PIVOT_UNBOUNDED] = SOLVE_RAY_TERMINATION,
      [PIVOT_SINGULAR] = SOLVE_NUMERICAL_FAILURE, [PIVOT_MAX_PIVOTS] = SOLVE_MAX_ITERATIONS,
      [PIVOT_TIME_LIMIT] = SOLVE_TIME_LIMIT,
  };
  r->status = map[st];
  /* a stop before every index is placed leaves no complementary z */
  r->no_answer = st != PIVOT_SOLVED;
  if (st == PIVOT_SINGULAR && nonsymmetric)
    snprintf(r->message, sizeof r->message,
             "a clamped block's pivot is not above %g |M_jj| (M is not symmetric and not a P-matrix there)",
             d->pivot_tol);
  else if (st == PIVOT_SINGULAR)
    snprintf(r->message, sizeof r->message, "a clamped block is singular (pivot below %g |M_jj|)",
             d->pivot_tol);
  else if (st == PIVOT_UNBOUNDED)
    snprintf(r->message, sizeof r->message, "the driven index is unbounded: no blocking variable");
  return 0;
}

static void dantzig_destroy(struct solver *s)
{
  struct dantzig_data *d = s->data;
  if (d) {
    pivot_work_free(&d->ws);
    free(d->lo);
    free(d->hi);
  }
  free(s->data);
  s->data = NULL;
}

static void dantzig_view(const struct solver *s, FILE *out)
{
  const struct dantzig_data *d = s->data;
  fprintf(out, "  pivot_tol %g, symmetry_tol %g, findex_sweeps %d, workspace for n <= %d\n", d->pivot_tol,
          d->symmetry_tol, d->findex_sweeps, d->ws.cap);
}

const struct solver_type solver_type_dantzig = {
    .name = "dantzig",
    .summary =
        "principal pivoting (Dantzig-Cottle / Baraff, as ODE's and Bullet's) for symmetric M and P-matrices",
    .kinds = CP_LCP | CP_MLCP | CP_BOX_MCP | CP_BOXED,
    .options = dantzig_options,
    .n_options = 3,
    .create = dantzig_create,
    .setup = dantzig_setup,
    .solve = dantzig_solve,
    .destroy = dantzig_destroy,
    .view = dantzig_view,
};
