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
  set->direction_refusals = 2;
  set->stall_window = 0;
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
  case NEWTON_STALLED: return "stalled";
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

/* How newton_try judges a direction: by the merit's slope g^T d alone (Levenberg-Marquardt), with DLFK's
 * descent test grad^T d <= -rho |d|^p (the Newton step), or with that test on the decrease the step was made
 * for, -Phi^T Phi (the proximal Newton step (H + diag_shift) d = -Phi; for the unshifted step it is g^T d):
 * then Armijo reads Psi(z + t d) <= (1 - 2 sigma t) Psi(z). Its true slope -Phi^T Phi - Phi^T diag_shift d
 * may be positive along a statically indeterminate direction (the long step that unloads a corner of a box
 * resting on four), where the merit is flat to first order; LM and the gradient step, which use the true
 * slope, remain the fallback. */
enum newton_test { NEWTON_TEST_SLOPE, NEWTON_TEST_DESCENT, NEWTON_TEST_MODEL };

/* Accepts direction d if it passes the test and the Armijo line search. */
static int newton_try(const struct newton_problem *prob, const struct newton_settings *set, double *z,
                      double *phi, double *psi, const double *d, const double *g, double *zt, double *phit,
                      enum newton_test test, double *t_out)
{
  int n = prob->n;
  double gd = test == NEWTON_TEST_MODEL ? -cblas_ddot(n, phi, 1, phi, 1) : cblas_ddot(n, g, 1, d, 1),
         dn = cblas_dnrm2(n, d, 1);
  if (!isfinite(gd) || !isfinite(dn) || !(gd < 0.0)) return 0;
  if (test != NEWTON_TEST_SLOPE && gd > -set->rho * pow(dn, set->p)) return 0;
  return newton_line_search(prob, set, z, phi, psi, d, gd, zt, phit, t_out);
}

/* The arrays of one solve. Hc exists iff Levenberg-Marquardt or the proximal step is on, z0 and phi0 iff
 * one of them or the backend's direction is; with a backend's linear algebra H and ipiv are one-element
 * placeholders (no n x n array). */
struct newton_work {
  size_t nn; /* n, at least 1 */
  double *phi, *phit, *zt, *d, *g, *H;
  double *Hc, *z0, *phi0;
  lapack_int *ipiv;
  int refusals; /* consecutive refusals of the backend's direction (newton_backend_step) */
};

static void newton_work_destroy(struct newton_work *w)
{
  free(w->phi);
  free(w->phit);
  free(w->zt);
  free(w->d);
  free(w->g);
  free(w->H);
  free(w->Hc);
  free(w->z0);
  free(w->phi0);
  free(w->ipiv);
}

/* 0, or 1 when an allocation failed (w is then still safe to destroy). lm: Hc is needed; start: z0 and
 * phi0 are. */
static int newton_work_create(struct newton_work *w, const struct newton_problem *prob, int lm, int start)
{
  int n = prob->n;
  size_t nn = n > 0 ? (size_t)n : 1, nh = prob->linalg ? 1 : nn * nn;
  memset(w, 0, sizeof *w);
  w->nn = nn;
  w->phi = malloc(nn * sizeof *w->phi);
  w->phit = malloc(nn * sizeof *w->phit);
  w->zt = malloc(nn * sizeof *w->zt);
  w->d = malloc(nn * sizeof *w->d);
  w->g = malloc(nn * sizeof *w->g);
  w->H = malloc(nh * sizeof *w->H);
  if (lm) w->Hc = malloc(nh * sizeof *w->Hc);
  if (lm || start) {
    w->z0 = malloc(nn * sizeof *w->z0);
    w->phi0 = malloc(nn * sizeof *w->phi0);
  }
  w->ipiv = malloc((prob->linalg ? 1 : nn) * sizeof *w->ipiv);
  return !w->phi || !w->phit || !w->zt || !w->d || !w->g || !w->H || !w->ipiv || (lm && !w->Hc) ||
         ((lm || start) && (!w->z0 || !w->phi0));
}

/* H at z (dense into w->H, or the backend's) and the merit's gradient g = H^T Phi, with *gg = g^T g.
 * NEWTON_MAX_ITERATIONS: no reason to stop (the loop's own end is that reason). */
static enum newton_reason newton_gradient(const struct newton_problem *prob, const double *z,
                                          struct newton_work *w, double *gg)
{
  const struct newton_linalg *la = prob->linalg;
  int n = prob->n;
  if (la ? la->assemble(prob->ctx, z, w->phi) != 0 : prob->jacobian(prob->ctx, z, w->phi, w->H) != 0)
    return NEWTON_EVAL_FAILURE;
  if (la)
    la->mult_transpose(prob->ctx, w->phi, w->g);
  else
    cblas_dgemv(CblasRowMajor, CblasTrans, n, n, 1.0, w->H, n, w->phi, 1, 0.0, w->g, 1);
  *gg = cblas_ddot(n, w->g, 1, w->g, 1);
  return isfinite(*gg) ? NEWTON_MAX_ITERATIONS : NEWTON_NAN_OR_INF;
}

/* The semismooth Newton step H d = -Phi into w->d (the dense LU overwrites H); 1 when there is one. */
static int newton_direction(const struct newton_problem *prob, struct newton_work *w,
                            struct newton_stats *stats)
{
  const struct newton_linalg *la = prob->linalg;
  int n = prob->n;
  for (int i = 0; i < n; i++)
    w->d[i] = -w->phi[i];
  if (la) {
    int info = la->solve(prob->ctx, w->d);
    if (info > 0) stats->singular++;
    return info == 0;
  }
  lapack_int info = LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, n, n, w->H, n, w->ipiv);
  if (info > 0) stats->singular++;
  return info == 0 && LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'T', n, 1, w->H, n, w->ipiv, w->d, n) == 0;
}

/* A fallback step searched from the iteration's start won: z, phi and *psi take its point (z0, phi0). */
static void newton_take_trial(struct newton_work *w, double *z, double *psi, double psi_trial)
{
  memcpy(z, w->z0, w->nn * sizeof *z);
  memcpy(w->phi, w->phi0, w->nn * sizeof *w->phi);
  *psi = psi_trial;
}

/* The dense Levenberg-Marquardt system (H^T H + lambda D) d = -H^T Phi at z0 (d holds -g on entry), D = I
 * or diag(H^T H), by Cholesky. 1 solved, 0 not, -1 when H could not be evaluated. */
static int newton_lm_dense(const struct newton_problem *prob, const struct newton_settings *set,
                           struct newton_work *w, double lambda)
{
  int n = prob->n;
  if (prob->jacobian(prob->ctx, w->z0, w->phi0, w->Hc) != 0) return -1;
  cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, n, n, 1.0, w->Hc, n, 0.0, w->H, n);
  double dmax = 0.0; /* a zero column still gets a (tiny) damping: relative to the largest */
  for (int i = 0; i < n; i++)
    dmax = fmax(dmax, w->H[(size_t)i * n + i]);
  for (int i = 0; i < n; i++) {
    double *hii = &w->H[(size_t)i * n + i];
    *hii += set->lm_scaled ? lambda * fmax(*hii, DBL_EPSILON * dmax) : lambda;
  }
  return LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', n, w->H, n) == 0 &&
         LAPACKE_dpotrs_work(LAPACK_COL_MAJOR, 'L', n, 1, w->H, n, w->d, n) == 0;
}

/* Levenberg-Marquardt (H^T H + |Phi|^lm_power D) d = -H^T Phi, D = I or diag(H^T H) (Marquardt 1963),
 * from the iteration's start (z0, phi0, merit psi0), tried when the Newton step failed or had to be cut
 * below lm_below: a descent direction even where H is singular, and well scaled near nonisolated solutions
 * (Yamashita-Fukushima 2001), where H is nearly singular and the Newton step huge along its null space.
 * The lower merit wins: z, phi and *psi take its point when it does. The LU overwrote H, so it is evaluated
 * again into Hc (cheaper than copying it every iteration: this path is rare). 1 when z moved here or
 * accepted already was, -1 when H could not be evaluated. */
static int newton_lm_step(const struct newton_problem *prob, const struct newton_settings *set, double *z,
                          struct newton_work *w, double *psi, double psi0, int accepted,
                          struct newton_stats *stats)
{
  int n = prob->n, solved;
  double lambda = pow(2.0 * psi0, 0.5 * set->lm_power), psi_lm = psi0, t_lm = 0.0;
  for (int i = 0; i < n; i++)
    w->d[i] = -w->g[i];
  if (prob->linalg) /* the backend still holds H at z0: its factorization did not overwrite it */
    solved = prob->linalg->solve_lm(prob->ctx, lambda, set->lm_scaled, w->d) == 0;
  else if ((solved = newton_lm_dense(prob, set, w, lambda)) < 0)
    return -1;
  if (solved &&
      newton_try(prob, set, w->z0, w->phi0, &psi_lm, w->d, w->g, w->zt, w->phit, NEWTON_TEST_SLOPE, &t_lm) &&
      (!accepted || psi_lm < *psi)) {
    newton_take_trial(w, z, psi, psi_lm);
    accepted = 1;
    stats->lm_steps++;
  }
  return accepted;
}

/* The proximal Newton step (H + diag_shift) d = -Phi from the iteration's start (z0, phi0, merit psi0),
 * tried when the Newton step failed or had to be cut below lm_below (dense H only): where H is singular or
 * nearly so along a statically indeterminate direction, the shift bounds the step there (fb_newton.c's
 * fb_prox_weight). H is evaluated again into Hc (the LU overwrote H), which also refreshes diag_shift. As
 * newton_lm_step: the lower merit wins; 1 when z moved here or accepted already was, -1 when H could not be
 * evaluated; *t gets the step's length when it is taken. */
static int newton_prox_step(const struct newton_problem *prob, const struct newton_settings *set, double *z,
                            struct newton_work *w, double *psi, double psi0, int accepted, double *t,
                            struct newton_stats *stats)
{
  int n = prob->n;
  double psi_p = psi0, t_p = 0.0;
  if (!w->Hc || !w->z0 || !w->phi0) return accepted; /* allocated with the proximal step (newton_solve) */
  if (prob->jacobian(prob->ctx, w->z0, w->phi0, w->Hc) != 0) return -1;
  for (int i = 0; i < n; i++) {
    w->Hc[(size_t)i * n + i] += prob->diag_shift[i];
    w->d[i] = -w->phi0[i];
  }
  lapack_int info = LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, n, n, w->Hc, n, w->ipiv);
  if (info == 0 && LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'T', n, 1, w->Hc, n, w->ipiv, w->d, n) == 0 &&
      newton_try(prob, set, w->z0, w->phi0, &psi_p, w->d, w->g, w->zt, w->phit, NEWTON_TEST_MODEL, &t_p) &&
      (!accepted || psi_p < *psi)) {
    newton_take_trial(w, z, psi, psi_p);
    *t = t_p;
    accepted = 1;
    stats->prox_steps++;
  }
  return accepted;
}

/* The backend's direction (prob->direction) from the iteration's start z = z0: 1 when Armijo took it at a
 * step of at least lm_below (z, phi and *psi moved), else 0 with z, phi and *psi as they were (psi0). Where
 * its step is cut short the Newton step of the merit's own Jacobian is the better judge, so a short step is
 * undone rather than kept, and the search stops at lm_below. After direction_refusals refusals in a row the
 * run stops asking: on a box resting on four corners the active-set system is singular or nearly so at
 * every iteration and its huge steps only cost line searches (resting24-600: 1.1-1.2x the time without it
 * when it was asked at every iteration). */
static int newton_backend_step(const struct newton_problem *prob, const struct newton_settings *set,
                               double *z, struct newton_work *w, double *psi, double psi0, double *t,
                               struct newton_stats *stats)
{
  struct newton_settings capped = *set;
  if (!w->z0 || w->refusals >= set->direction_refusals) return 0; /* z0: allocated with a direction */
  if (set->lm_below > 0.0) {                                      /* trials t = 1, beta, ... >= lm_below */
    double trials = floor(log(set->lm_below) / log(set->beta)) + 1.0;
    if (trials < capped.max_backtracks) capped.max_backtracks = trials < 1.0 ? 1 : (int)trials;
  }
  w->refusals++;
  if (prob->direction(prob->ctx, z, w->phi, w->d) != 0 ||
      !newton_try(prob, &capped, z, w->phi, psi, w->d, w->g, w->zt, w->phit, NEWTON_TEST_DESCENT, t))
    return 0;
  if (*t >= set->lm_below) {
    w->refusals = 0;
    stats->direction_steps++;
    return 1;
  }
  newton_take_trial(w, z, psi, psi0);
  return 0;
}

/* One iteration from z (merit *psi): the backend's direction, else the Newton step, else or also the proximal
 * Newton step and Levenberg-Marquardt, else steepest descent. NEWTON_MAX_ITERATIONS: no reason to stop yet.
 */
static enum newton_reason newton_iteration(const struct newton_problem *prob,
                                           const struct newton_settings *set, double *z,
                                           struct newton_work *w, double *psi, struct newton_stats *stats)
{
  int n = prob->n, lm = set->levenberg_marquardt, prox = prob->diag_shift != NULL && !prob->linalg;
  double gg = 0.0;
  enum newton_reason reason = newton_gradient(prob, z, w, &gg);
  if (reason != NEWTON_MAX_ITERATIONS) return reason;
  double t = 0.0, psi0 = *psi;
  if (w->z0) {
    memcpy(w->z0, z, w->nn * sizeof *z);
    memcpy(w->phi0, w->phi, w->nn * sizeof *w->phi);
  }
  /* 0. the backend's direction; 1. the semismooth Newton step H d = -Phi */
  int accepted = prob->direction && newton_backend_step(prob, set, z, w, psi, psi0, &t, stats);
  if (!accepted)
    accepted = newton_direction(prob, w, stats) &&
               newton_try(prob, set, z, w->phi, psi, w->d, w->g, w->zt, w->phit, NEWTON_TEST_DESCENT, &t);
  /* 2. the proximal Newton step, then Levenberg-Marquardt, from the same point */
  if ((!accepted || t < set->lm_below) && prox &&
      (accepted = newton_prox_step(prob, set, z, w, psi, psi0, accepted, &t, stats)) < 0)
    return NEWTON_EVAL_FAILURE;
  if ((!accepted || t < set->lm_below) && lm &&
      (accepted = newton_lm_step(prob, set, z, w, psi, psi0, accepted, stats)) < 0)
    return NEWTON_EVAL_FAILURE;
  /* 3. steepest descent, the globalisation of last resort */
  if (!accepted) {
    if (gg == 0.0) return NEWTON_LINE_SEARCH_FAILURE; /* a stationary point of the merit, not a solution */
    for (int i = 0; i < n; i++)
      w->d[i] = -w->g[i];
    if (!newton_line_search(prob, set, z, w->phi, psi, w->d, -gg, w->zt, w->phit, &t))
      return NEWTON_LINE_SEARCH_FAILURE;
    stats->gradient_steps++;
  }
  stats->merit = *psi;

  return newton_done(prob, set, z, w->phi, *psi, &stats->residual) ? NEWTON_CONVERGED : NEWTON_MAX_ITERATIONS;
}

enum newton_reason newton_solve(const struct newton_problem *prob, const struct newton_settings *set,
                                double *z, struct newton_stats *stats)
{
  struct newton_work w;
  enum newton_reason reason = NEWTON_MAX_ITERATIONS;
  memset(stats, 0, sizeof *stats);
  /* levenberg_marquardt is read once: the LM buffers exist iff it is on */
  if (newton_work_create(&w, prob, set->levenberg_marquardt || (prob->diag_shift && !prob->linalg),
                         prob->direction != NULL)) {
    reason = NEWTON_ALLOCATION_FAILURE;
    goto cleanup;
  }
  if (prob->phi(prob->ctx, z, w.phi) != 0) {
    reason = NEWTON_EVAL_FAILURE;
    goto cleanup;
  }
  double psi = newton_merit(prob, w.phi);
  stats->merit = psi;
  if (!isfinite(psi)) {
    reason = NEWTON_NAN_OR_INF;
    goto cleanup;
  }
  if (newton_done(prob, set, z, w.phi, psi, &stats->residual)) {
    reason = NEWTON_CONVERGED;
    goto cleanup;
  }
  double psi_window = psi; /* the merit at the start of the stall test's current window */
  for (int it = 1; it <= set->max_it && reason == NEWTON_MAX_ITERATIONS; it++) {
    if (set->clock && solver_out_of_time(set->clock)) {
      reason = NEWTON_TIME_LIMIT;
      break;
    }
    stats->iterations = it;
    reason = newton_iteration(prob, set, z, &w, &psi, stats);
    if (reason == NEWTON_MAX_ITERATIONS && set->stall_window > 0 && it % set->stall_window == 0) {
      if (psi > 0.5 * psi_window) reason = NEWTON_STALLED;
      psi_window = psi;
    }
  }
cleanup:
  newton_work_destroy(&w);
  return reason;
}
