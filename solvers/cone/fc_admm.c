/* fc_admm.c — ADMM for frictional contact (cone.h; Acary, Brémond & Huber 2018 Sec. 5.4, Siconos'
 * fc3d_admm): with s = (mu_c ||u_T,c||, 0, ...) frozen, the problem is the convex QP
 * min 1/2 r'Wr + (q + s)'r over r in K (its KKT conditions: K ∋ r ⟂ W r + q + s ∈ K*, Coulomb with De
 * Saxcé's term), split as r = z, z in K (Boyd et al. 2011, scaled form), from extrapolated zh, xih:
 *   r <- (W + rho I)^-1 (rho (zh - xih) - q - s),   z <- P_K(r + xih),   xi <- xih + r - z,
 * s taken from the velocity W r + q of the last r (the fixed point on the De Saxcé term), and the
 * extrapolation with restart of Goldstein et al. 2014 (admm_accelerate). The penalty rho starts at
 * trace(W) / n and is balanced (Boyd et al. Sec. 3.4.1: doubled when the primal residual ||r - z|| is above
 * -fc_admm_balance times the dual rho ||z - zh||, halved in the opposite case, xi rescaled); each change is a
 * new LU factorisation of W + rho I (LAPACK dgetrf: the captured W are not all exactly symmetric, and a
 * Cholesky factor reading one triangle solves another problem — it stalled on the rovers at 1.7e-5).
 * Measured on the Siconos data: without the extrapolation 8 of 13 converge, with it and a fixed rho 12,
 * with both 12 (BoxesStack1 in 257 iterations; Confeti then stalls at 3.6e-6, as Siconos' ADMM does).
 * Stops on the checker's residual at z, at -cp_max_it iterations (default 20000) or the time limit. The
 * relaxed variant (cp.h fc_relaxed, Anitescu's cone complementarity) is that QP with s = 0. */
#include "cone.h"
#include "cp_fc.h"
#include "solver.h"

#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

struct admm_data {
  double rho0, balance; /* -fc_admm_rho (0: trace(W) / n), -fc_admm_balance (0: fixed rho) */
  double eta;           /* -fc_admm_restart: accelerate while e < eta e_prev, else restart */
  double tau, e_prev;   /* the acceleration's state */
  size_t cap;           /* n the buffers are sized for */
  /* LU of (W + rho I)' (n x n, column-major); r, its velocity W r + q, xi, the previous and extrapolated z
   * and xi, u at z */
  double *L, *r, *ur, *xi, *xik, *xih, *zk, *zh, *u, *rhs;
  lapack_int *ipiv;
};

static const struct option_decl admm_options[] = {
    {"rho", OPT_REAL, offsetof(struct admm_data, rho0), "0", "[0,inf)", "initial penalty; 0 = trace(W) / n"},
    {"restart", OPT_REAL, offsetof(struct admm_data, eta), "0.999", "(0,1]",
     "accelerate while the combined residual falls below this times the last; 1 with no fall: restart"},
    {"balance", OPT_REAL, offsetof(struct admm_data, balance), "10", "[0,inf)",
     "residual balancing: rho changes when one residual exceeds this times the other (0: never)"},
};

static int admm_create(struct solver *s)
{
  s->data = calloc(1, sizeof(struct admm_data));
  return s->data == NULL;
}

static void admm_free(struct admm_data *d)
{
  double **const bufs[] = {&d->L, &d->r, &d->ur, &d->xi, &d->xik, &d->xih, &d->zk, &d->zh, &d->u, &d->rhs};
  cone_buffers_free(bufs, (int)(sizeof bufs / sizeof bufs[0]));
  free(d->ipiv);
  d->ipiv = NULL;
  d->cap = 0;
}

static int admm_setup(struct solver *s, const struct cp_problem *p)
{
  struct admm_data *d = s->data;
  size_t n = p->n > 0 ? (size_t)p->n : 1;
  if (n <= d->cap) return 0;
  admm_free(d);
  double **const bufs[] = {&d->L, &d->r, &d->ur, &d->xi, &d->xik, &d->xih, &d->zk, &d->zh, &d->u, &d->rhs};
  const size_t len[] = {n * n, n, n, n, n, n, n, n, n, n};
  int bad = cone_buffers_alloc(bufs, len, (int)(sizeof bufs / sizeof bufs[0]));
  d->ipiv = malloc(n * sizeof *d->ipiv);
  if (bad || !d->ipiv) {
    admm_free(d);
    return 1;
  }
  d->cap = n;
  return 0;
}

/* LU factors of W + rho I into d->L; 0, or LAPACK's info (W + rho I singular). */
static int admm_factor(const struct cp_problem *p, struct admm_data *d, double rho)
{
  int n = p->n;
  memcpy(d->L, p->M, (size_t)n * n * sizeof(double));
  for (int i = 0; i < n; i++)
    d->L[(size_t)i * n + i] += rho;
  /* Read column-major, the row-major buffer is (W + rho I)': factor that, and solve with its transpose
   * (admm_iterate), so LAPACKE never transposes a copy (its row-major path allocates and copies n^2 doubles
   * on every call), and through the _work entry points, which skip LAPACKE's NaN scan of the n^2 factors
   * (15% of BoxesStack1's solve; a NaN in W shows in the checker's residual). */
  return (int)LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, n, n, d->L, n, d->ipiv);
}

/* The extrapolation of Goldstein, O'Donoghue, Setzer & Baraniuk 2014 (fast ADMM with restart, as Siconos'
 * fc3d_admm has it): while the combined residual e keeps falling below eta e_prev, z and xi are
 * extrapolated Nesterov-fashion; when it does not, the extrapolation restarts from the previous iterates. */
static void admm_accelerate(struct admm_data *d, int n, const double *z, double e)
{
  if (e < d->eta * d->e_prev) {
    double tau = 0.5 * (1.0 + sqrt(1.0 + 4.0 * d->tau * d->tau)), a = (d->tau - 1.0) / tau;
    for (int i = 0; i < n; i++) {
      d->zh[i] = z[i] + a * (z[i] - d->zk[i]);
      d->xih[i] = d->xi[i] + a * (d->xi[i] - d->xik[i]);
    }
    d->tau = tau;
    d->e_prev = e;
  } else {
    d->tau = 1.0;
    d->e_prev /= d->eta;
    memcpy(d->zh, d->zk, (size_t)n * sizeof(double));
    memcpy(d->xih, d->xik, (size_t)n * sizeof(double));
  }
  memcpy(d->zk, z, (size_t)n * sizeof(double));
  memcpy(d->xik, d->xi, (size_t)n * sizeof(double));
}

/* One iteration from the extrapolated zh, xih into z; the De Saxcé term from the velocity at the last r.
 * Returns the primal ||r - z|| and dual rho ||z - zh|| residuals. */
static void admm_iterate(const struct cp_problem *p, struct admm_data *d, double rho, double *z,
                         double *primal, double *dual)
{
  int dim = p->fc_dim, n = p->n, nc = n / dim;
  for (int i = 0; i < n; i++)
    d->rhs[i] = rho * (d->zh[i] - d->xih[i]) - p->q[i];
  for (int c = 0; c < nc && !p->fc_relaxed; c++) { /* the relaxation is the QP itself: no De Saxcé term */
    const double *uc = d->ur + (size_t)c * dim;
    d->rhs[c * dim] -= p->mu[c] * (dim == 3 ? hypot(uc[1], uc[2]) : fabs(uc[1]));
  }
  memcpy(d->r, d->rhs, (size_t)n * sizeof(double));
  LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'T', n, 1, d->L, n, d->ipiv, d->r, n);
  for (int i = 0; i < n; i++) /* the next De Saxcé term's velocity: W r = rhs - rho r, no product with W */
    d->ur[i] = d->rhs[i] - rho * d->r[i] + p->q[i];
  double pr = 0.0, du = 0.0;
  for (int c = 0; c < nc; c++) {
    size_t o = (size_t)c * dim;
    for (int k = 0; k < dim; k++)
      z[o + k] = d->r[o + k] + d->xih[o + k];
    cp_fc_project(dim, p->mu[c], z + o);
  }
  for (int i = 0; i < n; i++) {
    d->xi[i] = d->xih[i] + d->r[i] - z[i];
    pr += (d->r[i] - z[i]) * (d->r[i] - z[i]);
    du += (z[i] - d->zh[i]) * (z[i] - d->zh[i]);
  }
  *primal = sqrt(pr);
  *dual = rho * sqrt(du);
  admm_accelerate(d, n, z, pr + rho * rho * du);
}

/* Residual balancing: a new rho (and xi rescaled, the unscaled dual rho xi kept) or the same. */
static double admm_balance(const struct admm_data *d, int n, double rho, double primal, double dual)
{
  double f = 1.0;
  if (d->balance > 0.0 && primal > d->balance * dual) f = 2.0;
  if (d->balance > 0.0 && dual > d->balance * primal) f = 0.5;
  if (f != 1.0)
    for (int i = 0; i < n; i++) {
      d->xi[i] /= f;
      d->xih[i] /= f;
      d->xik[i] /= f;
    }
  return rho * f;
}

static int admm_solve(struct solver *s, const struct cp_problem *p, double *z, struct solve_result *r)
{
  struct admm_data *d = s->data;
  int n = p->n, max_it = s->set.max_it > 0 ? s->set.max_it : 20000, factorisations = 1;
  if ((size_t)n > d->cap && admm_setup(s, p) != 0) return 1;
  if (p->n == 0) { /* no contact: nothing to solve (BLAS and LAPACK refuse empty matrices) */
    r->status = SOLVE_CONVERGED;
    return 0;
  }
  double rho = d->rho0, trace = 0.0;
  for (int i = 0; i < n; i++)
    trace += p->M[(size_t)i * n + i];
  if (rho <= 0.0) rho = trace > 0.0 ? trace / n : 1.0;
  if (admm_factor(p, d, rho) != 0) {
    r->status = SOLVE_NOT_APPLICABLE;
    snprintf(r->message, sizeof r->message, "W + rho I is singular at rho %g: W is not monotone", rho);
    return 0;
  }
  memset(d->xi, 0, (size_t)n * sizeof(double));
  memset(d->xih, 0, (size_t)n * sizeof(double));
  memset(d->xik, 0, (size_t)n * sizeof(double));
  memcpy(d->r, z, (size_t)n * sizeof(double));
  cone_residual(p, d->r, d->ur); /* the first De Saxcé term's velocity; then admm_iterate keeps it */
  memcpy(d->zh, z, (size_t)n * sizeof(double));
  memcpy(d->zk, z, (size_t)n * sizeof(double));
  d->tau = 1.0;
  d->e_prev = INFINITY;
  double goal = s->set.tol * cp_scale(p, NULL); /* the checker's: the stop below implies its verdict */
  struct cp_check chk;
  r->status = SOLVE_MAX_ITERATIONS;
  for (int it = 0;; it++) {
    double res = cone_residual(p, z, d->u), primal, dual;
    r->iterations = it;
    if (!isfinite(res)) {
      r->status = SOLVE_NAN_OR_INF;
      break;
    }
    if (res <= goal && cp_check(p, z, s->check_work, &chk) == 0 && cp_check_passes(&chk, s->set.tol)) {
      r->status = SOLVE_CONVERGED;
      break;
    }
    if (it == max_it) break;
    if (solver_out_of_time(s)) {
      r->status = SOLVE_TIME_LIMIT;
      break;
    }
    admm_iterate(p, d, rho, z, &primal, &dual);
    double next = admm_balance(d, n, rho, primal, dual);
    if (next != rho) {
      rho = next;
      factorisations++;
      if (admm_factor(p, d, rho) != 0) {
        r->status = SOLVE_NUMERICAL_FAILURE;
        snprintf(r->message, sizeof r->message, "W + rho I is singular at rho %g", rho);
        break;
      }
    }
  }
  if (!r->message[0])
    snprintf(r->message, sizeof r->message, "%d factorisations, final rho %g", factorisations, rho);
  return 0;
}

static void admm_destroy(struct solver *s)
{
  if (s->data) admm_free(s->data);
  free(s->data);
  s->data = NULL;
}

static void admm_view(const struct solver *s, FILE *out)
{
  const struct admm_data *d = s->data;
  fprintf(out, "  rho %g (0: trace(W) / n), balance %g\n", d->rho0, d->balance);
}

const struct solver_type solver_type_fc_admm = {
    .name = "fc_admm",
    .summary = "ADMM on the cones, De Saxcé term as a fixed point, balanced penalty",
    .kinds = CP_FC,
    .options = admm_options,
    .n_options = (int)(sizeof admm_options / sizeof admm_options[0]),
    .create = admm_create,
    .setup = admm_setup,
    .solve = admm_solve,
    .destroy = admm_destroy,
    .view = admm_view,
};
