/* pgs.c — projected Gauss-Seidel and projected SOR for linear problems with bounds (LCP, box MCP, and
 * mixed LCP whose free rows have a positive diagonal). Cottle-Pang-Stone, The LCP, Sec. 5.2:
 *   z_i <- mid(lo_i, hi_i, z_i - omega * F_i(z) / M_ii),  F(z) = M z + q, sweeping i = 0..n-1.
 * A zero or negative diagonal makes the sweep undefined: status not_applicable, never a division.
 * Stops when a sweep's natural residual (measured as the sweep passes) drops below tol * scale and the
 * exact check confirms it, at -cp_max_it sweeps (default 10000), or at the time limit. */
#include "solver.h"

#include <cblas.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

struct pgs_data {
  double omega; /* -pgs_omega / -psor_omega */
};

/* The same field, two defaults: pgs is plain Gauss-Seidel, psor over-relaxes. */
static const struct option_decl pgs_options[] = {
    {"omega", OPT_REAL, offsetof(struct pgs_data, omega), "1", "(0,2)", "relaxation factor"},
};
static const struct option_decl psor_options[] = {
    {"omega", OPT_REAL, offsetof(struct pgs_data, omega), "1.3", "(0,2)", "relaxation factor"},
};

static int pgs_create(struct solver *s)
{
  s->data = calloc(1, sizeof(struct pgs_data));
  return s->data == NULL;
}

static int pgs_solve(struct solver *s, const struct cp_problem *p, double *z, struct solve_result *r)
{
  const struct pgs_data *d = s->data;
  int n = p->n, max_sweeps = s->set.max_it > 0 ? s->set.max_it : 10000;
  for (int i = 0; i < n; i++) {
    double mii = p->M[(size_t)i * n + i];
    if (!(mii > 0.0)) {
      r->status = SOLVE_NOT_APPLICABLE;
      snprintf(r->message, sizeof r->message, "diagonal entry %d is %g (needs > 0)", i, mii);
      return 0;
    }
  }
  double scale = cp_scale(p, NULL); /* the checker's: the stop below implies its verdict */
  struct cp_check c;
  double *work = malloc(((size_t)n > 0 ? (size_t)n : 1) * sizeof *work);
  if (!work) return 1;
  r->status = SOLVE_MAX_ITERATIONS;
  for (int sweep = 1; sweep <= max_sweeps; sweep++) {
    double res = 0.0;
    for (int i = 0; i < n; i++) {
      const double *row = p->M + (size_t)i * n;
      double Fi = p->q[i] + cblas_ddot(n, row, 1, z, 1);
      double ri = fabs(z[i] - cp_mid(p->lo[i], p->hi[i], z[i] - Fi));
      if (ri > res) res = ri;
      z[i] = cp_mid(p->lo[i], p->hi[i], z[i] - d->omega * Fi / row[i]);
    }
    r->iterations = sweep;
    if (!isfinite(res)) {
      r->status = SOLVE_NAN_OR_INF;
      break;
    }
    if (res <= s->set.tol * scale) {
      cp_check(p, z, work, &c);
      if (cp_check_passes(&c, s->set.tol)) {
        r->status = SOLVE_CONVERGED;
        break;
      }
    }
    if (solver_out_of_time(s)) {
      r->status = SOLVE_TIME_LIMIT;
      break;
    }
  }
  free(work);
  return 0;
}

static void pgs_destroy(struct solver *s)
{
  free(s->data);
  s->data = NULL;
}

static void pgs_view(const struct solver *s, FILE *out)
{
  const struct pgs_data *d = s->data;
  fprintf(out, "  omega %g (-%s_omega)\n", d->omega, s->type->name);
}

const struct solver_type solver_type_pgs = {
    .name = "pgs",
    .summary = "projected Gauss-Seidel (-pgs_omega, default 1)",
    .kinds = CP_LCP | CP_MLCP | CP_BOX_MCP,
    .options = pgs_options,
    .n_options = 1,
    .create = pgs_create,
    .solve = pgs_solve,
    .destroy = pgs_destroy,
    .view = pgs_view,
};

const struct solver_type solver_type_psor = {
    .name = "psor",
    .summary = "projected SOR (-psor_omega, default 1.3)",
    .kinds = CP_LCP | CP_MLCP | CP_BOX_MCP,
    .options = psor_options,
    .n_options = 1,
    .create = pgs_create,
    .solve = pgs_solve,
    .destroy = pgs_destroy,
    .view = pgs_view,
};
