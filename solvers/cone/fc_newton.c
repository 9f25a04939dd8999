/* fc_newton.c — semismooth Newton on the stacked Alart-Curnier function of a frictional-contact problem
 * (cone.h; Alart & Curnier 1991; Christensen, Klarbring, Pang & Strömberg 1998): Phi(r) = (phi_c(r_c, u_c))
 * with u = W r + q, its generalized Jacobian J = A + B W (A, B block diagonal: cone_ac_function), the step
 * J dr = -Phi by LAPACK's LU (dgesv), then an Armijo backtracking search on theta = 1/2 ||Phi||^2. Where
 * the search fails or J is singular — the nonsmooth points where a Newton step is no descent direction —
 * -fc_newton_fallback_sweeps NSGS sweeps (cone_nsgs_sweep) move r and Newton resumes from there: the
 * globalisation that fb_newton / path_crash taught on the LCPs (a local method needs a robust fallback).
 * A run whose residual has not halved in -fc_newton_stall iterations restarts from its best point with
 * another AC parameter rho (newton_set_rho); the best point is what it returns when it does not converge.
 * Stops on the checker's residual (tol * scale, confirmed by cp_check), at -cp_max_it Newton iterations
 * (default 1000: BoxesStack1 takes 549) or the time limit. Dense: O(n^3) per iteration. */
#include "cone.h"
#include "cp_fc.h"
#include "solver.h"

#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

struct newton_data {
  int fallback_sweeps, backtracks, local_max_it, memory, stall;
  int regularize;        /* this solve has met an exactly singular J: shift every later one at once */
  double theta_hist[64]; /* the last `memory` merit values, the non-monotone search's reference */
  double armijo, regularization, rho_factor;
  size_t cap;                                      /* n the buffers are sized for */
  double *J, *phi, *dr, *wdr, *u, *rt, *ut, *best; /* n x n, then n each */
  double *A, *B, *Wcc, *rho;                       /* per contact: d x d (x3 for A, B, Wcc), 1 */
  lapack_int *ipiv;
};

static const struct option_decl newton_options[] = {
    {"fallback_sweeps", OPT_INT, offsetof(struct newton_data, fallback_sweeps), "10", "[1,100000]",
     "NSGS sweeps when the line search fails or the Jacobian is singular"},
    {"backtracks", OPT_INT, offsetof(struct newton_data, backtracks), "30", "[1,60]",
     "step halvings of the line search before it fails"},
    {"armijo", OPT_REAL, offsetof(struct newton_data, armijo), "1e-4", "(0,0.5)",
     "sufficient decrease: theta(r + t dr) <= (1 - 2 armijo t) theta(r)"},
    {"regularization", OPT_REAL, offsetof(struct newton_data, regularization), "1e-10", "(0,1)",
     "diagonal shift (relative to max |J_ii|) when the Jacobian is singular"},
    {"rho_factor", OPT_REAL, offsetof(struct newton_data, rho_factor), "1", "(0,inf)",
     "the AC parameter rho of a contact is this over the largest diagonal entry of its W block"},
    {"stall", OPT_INT, offsetof(struct newton_data, stall), "50", "[1,100000]",
     "iterations without halving the residual before a restart from the best point with the next rho"},
    {"memory", OPT_INT, offsetof(struct newton_data, memory), "10", "[1,64]",
     "non-monotone search: a step must decrease the largest of the last memory merit values (1: monotone)"},
    {"local_max_it", OPT_INT, offsetof(struct newton_data, local_max_it), "20", "[1,10000]",
     "Newton iterations of a contact's local solve in the fallback sweeps"},
};

static int newton_create(struct solver *s)
{
  s->data = calloc(1, sizeof(struct newton_data));
  return s->data == NULL;
}

static void newton_free(struct newton_data *d)
{
  double **const bufs[] = {&d->J,  &d->phi,  &d->dr, &d->wdr, &d->u,   &d->rt,
                           &d->ut, &d->best, &d->A,  &d->B,   &d->Wcc, &d->rho};
  cone_buffers_free(bufs, (int)(sizeof bufs / sizeof bufs[0]));
  free(d->ipiv);
  d->ipiv = NULL;
  d->cap = 0;
}

static int newton_setup(struct solver *s, const struct cp_problem *p)
{
  struct newton_data *d = s->data;
  size_t n = p->n > 0 ? (size_t)p->n : 1;
  if (n <= d->cap) return 0;
  newton_free(d);
  d->J = malloc(n * n * sizeof(double));
  double **vecs[] = {&d->phi, &d->dr, &d->wdr, &d->u, &d->rt, &d->ut, &d->best, &d->rho};
  for (size_t k = 0; k < sizeof vecs / sizeof vecs[0]; k++)
    *vecs[k] = malloc(n * sizeof(double));
  d->A = malloc(3 * n * sizeof(double)); /* nc d^2 = n d <= 3 n */
  d->B = malloc(3 * n * sizeof(double));
  d->Wcc = malloc(3 * n * sizeof(double));
  d->ipiv = malloc(n * sizeof *d->ipiv);
  if (!d->J || !d->phi || !d->dr || !d->wdr || !d->u || !d->rt || !d->ut || !d->best || !d->rho || !d->A ||
      !d->B || !d->Wcc || !d->ipiv) {
    newton_free(d);
    return 1;
  }
  d->cap = n;
  return 0;
}

/* Phi at (r, u) into phi, and theta = 1/2 ||Phi||^2; with jac, the blocks A and B too. */
static double newton_phi(const struct cp_problem *p, struct newton_data *d, const double *r, const double *u,
                         double *phi, int jac)
{
  int dim = p->fc_dim, nc = p->n / dim;
  double theta = 0.0;
  for (int c = 0; c < nc; c++) {
    size_t o = (size_t)c * dim, b = (size_t)c * dim * dim;
    cone_ac_function(dim, p->mu[c], d->rho[c], d->rho[c], r + o, u + o, phi + o, jac ? d->A + b : NULL,
                     jac ? d->B + b : NULL);
    for (int k = 0; k < dim; k++)
      theta += 0.5 * phi[o + k] * phi[o + k];
  }
  return theta;
}

/* J = A + B W, block row by block row (B_c times W's rows of contact c, A_c on the diagonal block). */
static void newton_jacobian(const struct cp_problem *p, struct newton_data *d)
{
  int dim = p->fc_dim, n = p->n, nc = n / dim;
  for (int c = 0; c < nc; c++) {
    size_t row = (size_t)c * dim, b = (size_t)c * dim * dim;
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, dim, n, dim, 1.0, d->B + b, dim, p->M + row * n, n,
                0.0, d->J + row * n, n);
    for (int i = 0; i < dim; i++)
      for (int j = 0; j < dim; j++)
        d->J[(row + i) * n + row + j] += d->A[b + i * dim + j];
  }
}

/* The Newton direction dr = -J^-1 Phi. Where W is rank deficient (more contact unknowns than the bodies'
 * freedoms, duplicated contacts) the rows of sticking and open contacts, rho W's rows, make J exactly
 * singular (Capsules: every iteration); J + delta I with delta = -fc_newton_regularization x max(1,
 * max |J_ii|) then gives a direction of the nearby regularised system. Once a solve has met a singular J it
 * shifts every later one without trying the plain one first (dgetrf finds the zero pivot only after the
 * whole factorisation: on Capsules the failed one doubled the cost of an iteration). 0, or 1 when even
 * the shifted system fails. */
static int newton_direction(const struct cp_problem *p, struct newton_data *d)
{
  int n = p->n;
  for (int attempt = d->regularize; attempt < 2; attempt++) {
    newton_jacobian(p, d);
    if (attempt) {
      double big = 1.0;
      for (int i = 0; i < n; i++)
        big = fmax(big, fabs(d->J[(size_t)i * n + i]));
      for (int i = 0; i < n; i++)
        d->J[(size_t)i * n + i] += d->regularization * big;
    }
    for (int i = 0; i < n; i++)
      d->dr[i] = -d->phi[i];
    /* The row-major J read column-major is J': its LU, then the transposed solve. LAPACKE's row-major
     * dgesv would scan J for NaN and copy it to a transposed buffer it allocates, on every iteration. */
    if (LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, n, n, d->J, n, d->ipiv) == 0 &&
        LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'T', n, 1, d->J, n, d->ipiv, d->dr, n) == 0) {
      d->regularize |= attempt;
      return 0;
    }
  }
  return 1;
}

/* One Newton step from z (u = W z + q current): 0 moved, 1 no descent (singular J or failed search). The
 * Armijo test is against theta_ref >= theta, the largest recent merit (Grippo, Lampariello & Lucidi 1986):
 * a full step that crosses a kink of the AC function may raise theta for a while and still converge. */
static int newton_step(const struct cp_problem *p, struct newton_data *d, double *z, double theta,
                       double theta_ref)
{
  int n = p->n;
  if (newton_direction(p, d) != 0) return 1;
  cblas_dgemv(CblasRowMajor, CblasNoTrans, n, n, 1.0, p->M, n, d->dr, 1, 0.0, d->wdr, 1);
  double t = 1.0;
  for (int b = 0; b < d->backtracks; b++, t *= 0.5) {
    for (int i = 0; i < n; i++) { /* u is affine in r: u(z + t dr) = u + t W dr */
      d->rt[i] = z[i] + t * d->dr[i];
      d->ut[i] = d->u[i] + t * d->wdr[i];
    }
    if (newton_phi(p, d, d->rt, d->ut, d->J, 0) <= theta_ref - 2.0 * d->armijo * t * theta) {
      memcpy(z, d->rt, (size_t)n * sizeof *z);
      return 0;
    }
  }
  return 1;
}

/* The AC parameters of restart k: each contact's 1 / (largest diagonal entry of its block), times
 * -fc_newton_rho_factor, times the k-th scaling of a cycle. Which rho lets Newton converge differs between
 * problems (measured on the Siconos data: BoxesStack1 converges with 10 and stalls at 2.7e-5 with 1,
 * Capsules the other way round), so a stalled run restarts from its best point with the next one. */
static const double newton_rho_cycle[] = {1.0, 10.0, 0.1, 3.0, 0.3, 30.0, 0.03};

static void newton_set_rho(const struct cp_problem *p, struct newton_data *d, int restart)
{
  int dim = p->fc_dim, nc = p->n / dim, k = restart % (int)(sizeof newton_rho_cycle / sizeof(double));
  for (int c = 0; c < nc; c++)
    d->rho[c] = d->rho_factor * newton_rho_cycle[k] * cone_rho(dim, d->Wcc + (size_t)c * dim * dim);
}

/* The merit the non-monotone search must beat: the largest of the last -fc_newton_memory values. */
static double newton_reference(struct newton_data *d, double theta, int *kept)
{
  double ref = theta;
  d->theta_hist[*kept % d->memory] = theta;
  (*kept)++;
  for (int k = 0; k < d->memory && k < *kept; k++)
    ref = fmax(ref, d->theta_hist[k]);
  return ref;
}

/* Progress of a run: the best point so far, and when the residual last halved. */
struct newton_progress {
  double best, mark;
  int mark_it, restarts, kept, sweeps;
};

/* Records res at iteration it; 1 when the run has stalled (no halving in -fc_newton_stall iterations) and
 * restarted from its best point with the next rho (z updated), else 0. */
static int newton_track(const struct cp_problem *p, struct newton_data *d, struct newton_progress *g, int it,
                        double res, double *z)
{
  if (res < g->best) {
    g->best = res;
    memcpy(d->best, z, (size_t)p->n * sizeof *z);
  }
  if (res < 0.5 * g->mark) {
    g->mark = res;
    g->mark_it = it;
    return 0;
  }
  if (it - g->mark_it < d->stall) return 0;
  newton_set_rho(p, d, ++g->restarts);
  memcpy(z, d->best, (size_t)p->n * sizeof *z);
  g->mark = g->best;
  g->mark_it = it;
  g->kept = 0; /* a new rho is a new merit function */
  return 1;
}

static int newton_solve(struct solver *s, const struct cp_problem *p, double *z, struct solve_result *r)
{
  struct newton_data *d = s->data;
  int dim = p->fc_dim, nc = p->n / dim, max_it = s->set.max_it > 0 ? s->set.max_it : 1000;
  if (p->fc_relaxed) { /* Alart-Curnier's function is Coulomb's law; the relaxation's would be another */
    r->status = SOLVE_NOT_APPLICABLE;
    snprintf(r->message, sizeof r->message,
             "fc_newton's Alart-Curnier function encodes Coulomb's law, not the cone complementarity "
             "relaxation");
    return 0;
  }
  if ((size_t)p->n > d->cap && newton_setup(s, p) != 0) return 1;
  if (p->n == 0) { /* no contact: nothing to solve (BLAS and LAPACK refuse empty matrices) */
    r->status = SOLVE_CONVERGED;
    return 0;
  }
  struct cone_local loc = {.max_it = d->local_max_it, .tol = 1e-14};
  for (int c = 0; c < nc; c++)
    cone_block(p, c, d->Wcc + (size_t)c * dim * dim);
  newton_set_rho(p, d, 0);
  d->regularize = 0;
  int sym = cone_symmetric(p);
  double goal = s->set.tol * cp_scale(p, NULL), res = INFINITY; /* the checker's: the stop implies it */
  struct newton_progress g = {.best = INFINITY, .mark = INFINITY};
  struct cp_check chk;
  r->status = SOLVE_MAX_ITERATIONS;
  for (int it = 0;; it++) {
    res = cone_residual(p, z, d->u);
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
    if (newton_track(p, d, &g, it, res, z)) continue;
    double theta = newton_phi(p, d, z, d->u, d->phi, 1);
    if (newton_step(p, d, z, theta, newton_reference(d, theta, &g.kept)) != 0)
      for (int k = 0; k < d->fallback_sweeps; k++, g.sweeps++)
        cone_nsgs_sweep(p, &loc, d->Wcc, sym, z, d->u); /* u: W z + q, from the top */
  }
  if (r->status != SOLVE_CONVERGED && g.best < res) /* the best point, not the last, to the checker */
    memcpy(z, d->best, (size_t)p->n * sizeof *z);
  if (g.sweeps || g.restarts)
    snprintf(r->message, sizeof r->message, "%d NSGS fallback sweeps, %d rho restarts", g.sweeps, g.restarts);
  return 0;
}

static void newton_destroy(struct solver *s)
{
  if (s->data) newton_free(s->data);
  free(s->data);
  s->data = NULL;
}

static void newton_view(const struct solver *s, FILE *out)
{
  const struct newton_data *d = s->data;
  fprintf(out, "  fallback %d NSGS sweeps, %d backtracks, armijo %g, local_max_it %d\n", d->fallback_sweeps,
          d->backtracks, d->armijo, d->local_max_it);
}

const struct solver_type solver_type_fc_newton = {
    .name = "fc_newton",
    .summary = "semismooth Newton on Alart-Curnier, Armijo search, NSGS fallback",
    .kinds = CP_FC,
    .options = newton_options,
    .n_options = (int)(sizeof newton_options / sizeof newton_options[0]),
    .create = newton_create,
    .setup = newton_setup,
    .solve = newton_solve,
    .destroy = newton_destroy,
    .view = newton_view,
};
