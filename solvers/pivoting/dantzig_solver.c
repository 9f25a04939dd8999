/* dantzig_solver.c — solver `dantzig`: the principal pivoting method of pivoting.h on LCPs, mixed LCPs (the
 * free rows are boxes (-inf, inf)) and box MCPs with a symmetric M. A matrix that is not symmetric (within
 * -dantzig_symmetry_tol of the larger entry of each pair) is not_applicable: the method's LDL^T factor needs
 * symmetry. Iterations are pivots (-cp_max_it, default 50 n + 1000); the workspace is sized by setup, so a
 * timed solve allocates nothing. */
#include "pivoting.h"
#include "solver.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>

struct dantzig_data {
  double pivot_tol;    /* -dantzig_pivot_tol */
  double symmetry_tol; /* -dantzig_symmetry_tol */
  struct pivot_work ws;
};

static const struct option_decl dantzig_options[] = {
    {"pivot_tol", OPT_REAL, offsetof(struct dantzig_data, pivot_tol), "1e-12", "(0,1)",
     "a factor pivot below this times |M_jj| means the clamped block is singular (numerical_failure)"},
    {"symmetry_tol", OPT_REAL, offsetof(struct dantzig_data, symmetry_tol), "1e-12", "[0,1)",
     "|M_ij - M_ji| above this times max(|M_ij|, |M_ji|): not symmetric, not_applicable"},
};

static int dantzig_create(struct solver *s)
{
  s->data = calloc(1, sizeof(struct dantzig_data));
  return s->data == NULL;
}

static int dantzig_setup(struct solver *s, const struct cp_problem *p)
{
  struct dantzig_data *d = s->data;
  return pivot_work_reserve(&d->ws, p->n > 0 ? p->n : 1);
}

/* 1 when every pair differs by at most tol times the larger of the two (*bad: the worst pair's ratio). */
static int dantzig_symmetric(const double *M, int n, double tol, double *bad)
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++) {
      double a = M[(size_t)i * n + j], b = M[(size_t)j * n + i], d = fabs(a - b);
      double big = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
      if (!(d <= tol * big)) {
        *bad = d / big;
        return 0;
      }
    }
  return 1;
}

static int dantzig_out_of_time(const void *ctx) { return solver_out_of_time(ctx); }

static int dantzig_solve(struct solver *s, const struct cp_problem *p, double *z, struct solve_result *r)
{
  struct dantzig_data *d = s->data;
  int n = p->n;
  double asym = 0.0;
  if (!dantzig_symmetric(p->M, n, d->symmetry_tol, &asym)) {
    r->status = SOLVE_NOT_APPLICABLE;
    snprintf(r->message, sizeof r->message, "M is not symmetric (|M_ij - M_ji| / max(|M_ij|, |M_ji|) = %.3g)",
             asym);
    return 0;
  }
  if (pivot_work_reserve(&d->ws, n > 0 ? n : 1)) return 1;
  struct pivot_problem pp = {n, p->M, p->q, p->lo, p->hi, NULL};
  struct pivot_settings set = {s->set.max_it > 0 ? s->set.max_it : 50 * n + 1000, d->pivot_tol,
                               dantzig_out_of_time, s};
  enum pivot_status st = pivot_dantzig(&pp, &set, &d->ws, z, &r->iterations);
  static const enum solve_status map[] = {
      [PIVOT_SOLVED] = SOLVE_CONVERGED,           [PIVOT_UNBOUNDED] = SOLVE_RAY_TERMINATION,
      [PIVOT_SINGULAR] = SOLVE_NUMERICAL_FAILURE, [PIVOT_MAX_PIVOTS] = SOLVE_MAX_ITERATIONS,
      [PIVOT_TIME_LIMIT] = SOLVE_TIME_LIMIT,
  };
  r->status = map[st];
  /* a stop before every index is placed leaves no complementary z */
  r->no_answer = st != PIVOT_SOLVED;
  if (st == PIVOT_SINGULAR)
    snprintf(r->message, sizeof r->message, "a clamped block is singular (pivot below %g |M_jj|)",
             d->pivot_tol);
  else if (st == PIVOT_UNBOUNDED)
    snprintf(r->message, sizeof r->message, "the driven index is unbounded: no blocking variable");
  return 0;
}

static void dantzig_destroy(struct solver *s)
{
  struct dantzig_data *d = s->data;
  if (d) pivot_work_free(&d->ws);
  free(s->data);
  s->data = NULL;
}

static void dantzig_view(const struct solver *s, FILE *out)
{
  const struct dantzig_data *d = s->data;
  fprintf(out, "  pivot_tol %g, symmetry_tol %g, workspace for n <= %d\n", d->pivot_tol, d->symmetry_tol,
          d->ws.cap);
}

const struct solver_type solver_type_dantzig = {
    .name = "dantzig",
    .summary = "principal pivoting (Dantzig-Cottle / Baraff, as ODE's and Bullet's) for symmetric M",
    .kinds = CP_LCP | CP_MLCP | CP_BOX_MCP,
    .options = dantzig_options,
    .n_options = 2,
    .create = dantzig_create,
    .setup = dantzig_setup,
    .solve = dantzig_solve,
    .destroy = dantzig_destroy,
    .view = dantzig_view,
};
