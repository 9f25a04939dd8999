/* newton.c — the generic semismooth Newton method of newton.h (De Luca-Facchinei-Kanzow 1996, Alg. 3.1).
 * H is built row-major by the callback; LAPACK, being column-major, then sees H^T, so we factor H^T and
 * solve with the transposed factors (dgetrs 'T'), which avoids a copy. The gradient H^T Phi is formed
 * before the factorization overwrites H. */
#include "newton.h"

#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void newton_settings_default(struct newton_settings *set)
{
  set->max_it = 200;
  set->sigma = 1e-4;
  set->beta = 0.5;
  set->max_backtracks = 40;
  set->rho = 1e-8;
  set->p = 2.1;
  set->levenberg_marquardt = 1;
  set->lm_below = 0.02;
  set->lm_power = 1.5;
  set->lm_scaled = 1;
  set->tol = 1e-8;
  set->clock = NULL;
}

const char *newton_reason_name(enum newton_reason r)
{
  switch (r) {
  case NEWTON_CONVERGED: return "converged";
  case NEWTON_MAX_ITERATIONS: return "max_iterations";
  case NEWTON_LINE_SEARCH_FAILURE: return "line_search_failure";
  case NEWTON_NAN_OR_INF: return "nan_or_inf";
  case NEWTON_TIME_LIMIT: return "time_limit";
  case NEWTON_EVAL_FAILURE: return "eval_failure";
  case NEWTON_ALLOCATION_FAILURE: return "allocation_failure";
  }
  return "unknown";
}

static double newton_merit(const struct newton_problem *prob, const double *phi)
{
  if (prob->merit) return prob->merit(prob->ctx, phi);
  double s = 0.0;
  for (int i = 0; i < prob->n; i++)
    s += phi[i] * phi[i];
  return 0.5 * s;
}

static int newton_done(const struct newton_problem *prob, const struct newton_settings *set, const double *z,
                       const double *phi, double psi, double *residual)
{
  if (prob->converged) return prob->converged(prob->ctx, z, phi, residual);
  *residual = sqrt(2.0 * psi);
  return *residual <= set->tol;
}

/* Armijo backtracking along d from z; on success z, phi and *psi hold the accepted point and *t_out the
 * step length. */
static int newton_line_search(const struct newton_problem *prob, const struct newton_settings *set, double *z,
                              double *phi, double *psi, const double *d, double gd, double *zt, double *phit,
                              double *t_out)
{
  int n = prob->n;
  double t = 1.0;
  for (int k = 0; k < set->max_backtracks; k++, t *= set->beta) {
    for (int i = 0; i < n; i++)
      zt[i] = z[i] + t * d[i];
    if (prob->phi(prob->ctx, zt, phit) != 0) continue;
    double psit = newton_merit(prob, phit);
    if (isfinite(psit) && psit <= *psi + set->sigma * t * gd) {
      memcpy(z, zt, (size_t)n * sizeof *z);
      memcpy(phi, phit, (size_t)n * sizeof *phi);
      *psi = psit;
      *t_out = t;
      return 1;
    }
  }
  return 0;
}

/* Accepts direction d if it passes the descent test (Newton steps only: DLFK's grad^T d <= -rho |d|^p)
 * and the Armijo line search. */
static int newton_try(const struct newton_problem *prob, const struct newton_settings *set, double *z,
                      double *phi, double *psi, const double *d, const double *g, double *zt, double *phit,
                      int descent_test, double *t_out)
{
  int n = prob->n;
  double gd = cblas_ddot(n, g, 1, d, 1), dn = cblas_dnrm2(n, d, 1);
  if (!isfinite(gd) || !isfinite(dn) || !(gd < 0.0)) return 0;
  if (descent_test && gd > -set->rho * pow(dn, set->p)) return 0;
  return newton_line_search(prob, set, z, phi, psi, d, gd, zt, phit, t_out);
}

enum newton_reason newton_solve(const struct newton_problem *prob, const struct newton_settings *set,
                                double *z, struct newton_stats *stats)
{
  int n = prob->n, lm = set->levenberg_marquardt; /* read once: the LM buffers exist iff lm */
  size_t nn = n > 0 ? (size_t)n : 1;
  memset(stats, 0, sizeof *stats);
  double *phi = malloc(nn * sizeof *phi), *phit = malloc(nn * sizeof *phit), *zt = malloc(nn * sizeof *zt);
  const struct newton_linalg *la = prob->linalg; /* NULL: dense H here */
  size_t nh = la ? 1 : nn * nn;
  double *d = malloc(nn * sizeof *d), *g = malloc(nn * sizeof *g), *H = malloc(nh * sizeof *H);
  double *Hc = NULL, *z0 = NULL, *phi0 = NULL;
  if (lm) {
    Hc = malloc(nh * sizeof *Hc);
    z0 = malloc(nn * sizeof *z0);
    phi0 = malloc(nn * sizeof *phi0);
  }
  lapack_int *ipiv = malloc((la ? 1 : nn) * sizeof *ipiv);
  enum newton_reason reason = NEWTON_MAX_ITERATIONS;
  if (!phi || !phit || !zt || !d || !g || !H || !ipiv || (lm && (!Hc || !z0 || !phi0))) {
    reason = NEWTON_ALLOCATION_FAILURE;
    goto cleanup;
  }
  if (prob->phi(prob->ctx, z, phi) != 0) {
    reason = NEWTON_EVAL_FAILURE;
    goto cleanup;
  }
  double psi = newton_merit(prob, phi);
  stats->merit = psi;
  if (!isfinite(psi)) {
    reason = NEWTON_NAN_OR_INF;
    goto cleanup;
  }
  if (newton_done(prob, set, z, phi, psi, &stats->residual)) {
    reason = NEWTON_CONVERGED;
    goto cleanup;
  }
  for (int it = 1; it <= set->max_it; it++) {
    if (set->clock && solver_out_of_time(set->clock)) {
      reason = NEWTON_TIME_LIMIT;
      break;
    }
    stats->iterations = it;
    if (la ? la->assemble(prob->ctx, z, phi) != 0 : prob->jacobian(prob->ctx, z, phi, H) != 0) {
      reason = NEWTON_EVAL_FAILURE;
      break;
    }
    if (la)
      la->mult_transpose(prob->ctx, phi, g);
    else
      cblas_dgemv(CblasRowMajor, CblasTrans, n, n, 1.0, H, n, phi, 1, 0.0, g, 1);
    double gg = cblas_ddot(n, g, 1, g, 1);
    if (!isfinite(gg)) {
      reason = NEWTON_NAN_OR_INF;
      break;
    }
    /* 1. the semismooth Newton step H d = -Phi */
    for (int i = 0; i < n; i++)
      d[i] = -phi[i];
    int have_d = 1;
    if (la) {
      int info = la->solve(prob->ctx, d);
      if (info > 0) stats->singular++;
      if (info != 0) have_d = 0;
    } else {
      lapack_int info = LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, n, n, H, n, ipiv);
      if (info > 0) stats->singular++;
      if (info != 0 || LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'T', n, 1, H, n, ipiv, d, n) != 0) have_d = 0;
    }
    double t = 0.0, psi0 = psi;
    if (lm) {
      memcpy(z0, z, nn * sizeof *z);
      memcpy(phi0, phi, nn * sizeof *phi);
    }
    int accepted = have_d && newton_try(prob, set, z, phi, &psi, d, g, zt, phit, 1, &t);
    /* 2. Levenberg-Marquardt (H^T H + |Phi|^lm_power D) d = -H^T Phi, D = I or diag(H^T H) (Marquardt
     * 1963), from the same point when the Newton step failed
     * or had to be cut below lm_below: a descent direction even where H is singular, and well scaled near
     * nonisolated solutions (Yamashita-Fukushima 2001), where H is nearly singular and the Newton step huge
     * along its null space. The lower merit wins. The LU overwrote H, so it is evaluated again into Hc
     * (cheaper than copying it every iteration: this path is rare). */
    if ((!accepted || t < set->lm_below) && lm) {
      double lambda = pow(2.0 * psi0, 0.5 * set->lm_power), psi_lm = psi0, t_lm = 0.0;
      for (int i = 0; i < n; i++)
        d[i] = -g[i];
      int solved;
      if (la) /* the backend still holds H at z0: its factorization did not overwrite it */
        solved = la->solve_lm(prob->ctx, lambda, set->lm_scaled, d) == 0;
      else {
        if (prob->jacobian(prob->ctx, z0, phi0, Hc) != 0) {
          reason = NEWTON_EVAL_FAILURE;
          break;
        }
        cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, n, n, 1.0, Hc, n, 0.0, H, n);
        double dmax = 0.0; /* a zero column still gets a (tiny) damping: relative to the largest */
        for (int i = 0; i < n; i++)
          dmax = fmax(dmax, H[(size_t)i * n + i]);
        for (int i = 0; i < n; i++) {
          double *hii = &H[(size_t)i * n + i];
          *hii += set->lm_scaled ? lambda * fmax(*hii, DBL_EPSILON * dmax) : lambda;
        }
        solved = LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', n, H, n) == 0 &&
                 LAPACKE_dpotrs_work(LAPACK_COL_MAJOR, 'L', n, 1, H, n, d, n) == 0;
      }
      if (solved && newton_try(prob, set, z0, phi0, &psi_lm, d, g, zt, phit, 0, &t_lm) &&
          (!accepted || psi_lm < psi)) {
        memcpy(z, z0, nn * sizeof *z);
        memcpy(phi, phi0, nn * sizeof *phi);
        psi = psi_lm;
        accepted = 1;
        stats->lm_steps++;
      }
    }
    /* 3. steepest descent, the globalisation of last resort */
    if (!accepted) {
      if (gg == 0.0) {
        reason = NEWTON_LINE_SEARCH_FAILURE; /* a stationary point of the merit that is not a solution */
        break;
      }
      for (int i = 0; i < n; i++)
        d[i] = -g[i];
      if (!newton_line_search(prob, set, z, phi, &psi, d, -gg, zt, phit, &t)) {
        reason = NEWTON_LINE_SEARCH_FAILURE;
        break;
      }
      stats->gradient_steps++;
    }
    stats->merit = psi;
    if (newton_done(prob, set, z, phi, psi, &stats->residual)) {
      reason = NEWTON_CONVERGED;
      break;
    }
  }
cleanup:
  free(phi);
  free(phit);
  free(zt);
  free(d);
  free(g);
  free(H);
  free(Hc);
  free(z0);
  free(phi0);
  free(ipiv);
  return reason;
}
