/* pgs.c — projected Gauss-Seidel and projected SOR for linear problems with bounds (LCP, box MCP, and
 * mixed LCP whose free rows have a positive diagonal, boxed LCP with friction index). Cottle-Pang-Stone,
 * The LCP, Sec. 5.2:
 *   z_i <- mid(lo_i, hi_i, z_i - omega * F_i(z) / M_ii),  F(z) = M z + q, sweeping i = 0..n-1;
 * a friction row's box is +-mu_i z_k at the sweep's current normal z_k (ODE's quickstep, Smith's "Open
 * Dynamics Engine" manual: the friction bounds follow the normal impulse as the sweep goes).
 * A zero or negative diagonal makes the sweep undefined: status not_applicable, never a division.
 * Stops when a sweep's natural residual (measured as the sweep passes) drops below tol * scale and the
 * exact check confirms it, at -cp_max_it sweeps (default 10000), or at the time limit. Rows are dense or
 * compressed (splitting.h; -pgs_storage auto picks compressed rows below n = -pgs_dense_min_n, and when at
 * most -pgs_csr_density of M's off-diagonal entries are nonzero). The time limit is read every 64 sweeps. */
#include "solver.h"
#include "splitting.h"

#include <cblas.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

enum pgs_storage { PGS_AUTO, PGS_DENSE, PGS_CSR };

struct pgs_data {
  double omega;    /* -pgs_omega / -psor_omega */
  int storage;     /* -pgs_storage: enum pgs_storage */
  double density;  /* -pgs_csr_density */
  int dense_min_n; /* -pgs_dense_min_n */
  int use_csr;     /* setup's choice for the problem at hand */
  struct pgs_csr csr;
};

#define PGS_STORAGE_OPTIONS                                                                                  \
  {"storage",                                                                                                \
   OPT_CHOICE,                                                                                               \
   offsetof(struct pgs_data, storage),                                                                       \
   "auto",                                                                                                   \
   "auto|dense|csr",                                                                                         \
   "rows of M: dense, compressed (off-diagonal nonzeros), or auto (compressed when small or sparse)"},       \
      {"csr_density",                                                                                        \
       OPT_REAL,                                                                                             \
       offsetof(struct pgs_data, density),                                                                   \
       "0.25",                                                                                               \
       "[0,1]",                                                                                              \
       "auto: compressed rows when at most this fraction of M's off-diagonal entries is nonzero"},           \
      {"dense_min_n",                                                                                        \
       OPT_INT,                                                                                              \
       offsetof(struct pgs_data, dense_min_n),                                                               \
       "33",                                                                                                 \
       "[0,1000000]",                                                                                        \
       "auto: compressed rows below this n whatever the density (a BLAS call per row costs more there)"},

/* The same fields, two defaults of omega: pgs is plain Gauss-Seidel, psor over-relaxes. */
static const struct option_decl pgs_options[] = {
    {"omega", OPT_REAL, offsetof(struct pgs_data, omega), "1", "(0,2)", "relaxation factor"},
    PGS_STORAGE_OPTIONS};
static const struct option_decl psor_options[] = {
    {"omega", OPT_REAL, offsetof(struct pgs_data, omega), "1.3", "(0,2)", "relaxation factor"},
    PGS_STORAGE_OPTIONS};

static int pgs_create(struct solver *s)
{
  s->data = calloc(1, sizeof(struct pgs_data));
  return s->data == NULL;
}

/* Counts M's nonzeros (outside the clock) to choose the storage and size the compressed rows. */
static int pgs_setup(struct solver *s, const struct cp_problem *p)
{
  struct pgs_data *d = s->data;
  int n = p->n;
  d->use_csr = 0;
  if (d->storage == PGS_DENSE) return 0;
  long nnz = pgs_offdiag_nonzeros(p->M, n);
  d->use_csr =
      d->storage == PGS_CSR || n < d->dense_min_n || (double)nnz <= d->density * (double)n * (double)(n - 1);
  return d->use_csr ? pgs_csr_reserve(&d->csr, n, nnz) : 0;
}

/* One sweep on dense rows; returns the natural residual measured as it passes. */
static double pgs_sweep_dense(const struct cp_problem *p, double omega, double *z)
{
  int n = p->n;
  double res = 0.0;
  for (int i = 0; i < n; i++) {
    const double *row = p->M + (size_t)i * n;
    double Fi = p->q[i] + cblas_ddot(n, row, 1, z, 1), lo, hi;
    cp_boxed_bounds(p, z, i, &lo, &hi);
    double ri = fabs(z[i] - cp_mid(lo, hi, z[i] - Fi));
    if (ri > res) res = ri;
    z[i] = cp_mid(lo, hi, z[i] - omega * Fi / row[i]);
  }
  return res;
}

/* The same on compressed rows. */
static double pgs_sweep_csr(const struct cp_problem *p, const struct pgs_csr *c, double omega, double *z)
{
  int n = p->n;
  double res = 0.0;
  const int *restrict col = c->col;
  const double *restrict val = c->val;
  for (int i = 0; i < n; i++) {
    double Fi = p->q[i] + c->diag[i] * z[i];
    for (int k = c->start[i]; k < c->start[i + 1]; k++)
      Fi += val[k] * z[col[k]];
    double lo, hi;
    cp_boxed_bounds(p, z, i, &lo, &hi);
    double ri = fabs(z[i] - cp_mid(lo, hi, z[i] - Fi));
    if (ri > res) res = ri;
    z[i] = cp_mid(lo, hi, z[i] - omega * Fi / c->diag[i]);
  }
  return res;
}

static int pgs_solve(struct solver *s, const struct cp_problem *p, double *z, struct solve_result *r)
{
  struct pgs_data *d = s->data;
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
  /* the structure, found once per problem and timed with the solve (setup only sized it) */
  if (d->use_csr) pgs_csr_fill(&d->csr, p->M, n);
  r->status = SOLVE_MAX_ITERATIONS;
  for (int sweep = 1; sweep <= max_sweeps; sweep++) {
    double res = d->use_csr ? pgs_sweep_csr(p, &d->csr, d->omega, z) : pgs_sweep_dense(p, d->omega, z);
    r->iterations = sweep;
    if (!isfinite(res)) {
      r->status = SOLVE_NAN_OR_INF;
      break;
    }
    if (res <= s->set.tol * scale) {
      cp_check(p, z, s->check_work, &c); /* sized by solver_setup */
      if (cp_check_passes(&c, s->set.tol)) {
        r->status = SOLVE_CONVERGED;
        break;
      }
    }
    /* the clock every 64 sweeps: read every sweep it cost more than a small problem's sweep */
    if ((sweep & 63) == 0 && solver_out_of_time(s)) {
      r->status = SOLVE_TIME_LIMIT;
      break;
    }
  }
  return 0;
}

static void pgs_destroy(struct solver *s)
{
  struct pgs_data *d = s->data;
  if (d) pgs_csr_free(&d->csr);
  free(s->data);
  s->data = NULL;
}

static void pgs_view(const struct solver *s, FILE *out)
{
  const struct pgs_data *d = s->data;
  static const char *const storage[] = {"auto", "dense", "csr"};
  fprintf(out, "  omega %g (-%s_omega), storage %s (csr at density <= %g; last problem's rows: %s)\n",
          d->omega, s->type->name, storage[d->storage], d->density, d->use_csr ? "csr" : "dense");
}

const struct solver_type solver_type_pgs = {
    .name = "pgs",
    .summary = "projected Gauss-Seidel (-pgs_omega, default 1)",
    .kinds = CP_LCP | CP_MLCP | CP_BOX_MCP | CP_BOXED,
    .options = pgs_options,
    .n_options = 4,
    .create = pgs_create,
    .setup = pgs_setup,
    .solve = pgs_solve,
    .destroy = pgs_destroy,
    .view = pgs_view,
};

const struct solver_type solver_type_psor = {
    .name = "psor",
    .summary = "projected SOR (-psor_omega, default 1.3)",
    .kinds = CP_LCP | CP_MLCP | CP_BOX_MCP | CP_BOXED,
    .options = psor_options,
    .n_options = 4,
    .create = pgs_create,
    .setup = pgs_setup,
    .solve = pgs_solve,
    .destroy = pgs_destroy,
    .view = pgs_view,
};
