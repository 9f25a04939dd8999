/* prox_newton.c — a stabilized semismooth Newton method for the (mixed) LCP in the spirit of PATH (Dirkse &
 * Ferris 1995, Optim. Methods Softw. 5: Newton steps on a nonsmooth reformulation, globalised by a
 * non-monotone watchdog and a path search; PATH 4 measures progress by the Fischer-Burmeister merit, Ferris &
 * Munson 1999). The Newton steps are those of the min map
 *   Phi_i(z) = min(z_i, w_i) (complementary rows),  Phi_i(z) = w_i (free rows of a mixed LCP),  w = M z + q,
 * i.e. the primal-dual active-set step (Hintermueller, Ito & Kunisch 2002, SIAM J. Optim. 13, Sec. 3): with
 * J = {free rows} u {i : w_i < z_i} and I the rest, the next point has z_I = 0 and
 *   (M_JJ + lambda I) z_J = -q_J + lambda z_J^k,
 * one proximal-point step (Rockafellar 1976) of the problem restricted to J. lambda = kappa rho min(1,
 * ||min(z, w)||_inf / scale) max_i M_ii stabilises singular M_JJ (redundant contacts of resting stacks) and
 * vanishes at the solution, so the local rate is Newton's.
 * Globalisation: full steps are taken unchecked for up to -prox_newton_watchdog iterations; if the FB merit
 * 1/2 ||Phi_FB||^2 has not fallen below (1 - sigma) of the best seen, the method returns to the best point,
 * raises kappa tenfold and searches the projected path z(t) = Pi(z_best + t d) (Pi: onto z >= 0 on the
 * complementary rows), t = 1, 1/2, ...; if that fails, an Armijo search along the Levenberg-Marquardt
 * direction of the FB equation (Yamashita & Fukushima 2001; a descent direction of the merit), or steepest
 * descent. Stops on the checker's natural residual. Dense LAPACKE (dgetrf on M_JJ; dpotrf for the
 * Levenberg-Marquardt system); -cp_warm_start starts from z on entry. */
#include "solver.h"

#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* Defaults -prox_newton_watchdog 3, -prox_newton_rho 0.1: measured on test_prox_newton's box classes (5 seeds
 * each of resting24/120, sliding24/120): watchdog 5 / rho 1e-3 solved sliding120 4 of 5 in 366 steps in all,
 * watchdog 3 / rho 1e-3 4 of 5 in 284, watchdog 3 / rho 0.1 5 of 5 in 136 (rho 0.03: 181, rho 0.3: 135 but
 * resting120 237 against 147, rho 1: 197). */
struct prox_data {
  int watchdog;       /* -prox_newton_watchdog: unchecked full steps before the watchdog returns */
  double sigma;       /* -prox_newton_sigma: sufficient decrease of the merit */
  double rho;         /* -prox_newton_rho: proximal weight relative to max M_ii and the scaled residual */
  int max_backtracks; /* -prox_newton_max_backtracks: path-search halvings */
  int islands;        /* -prox_newton_islands: independent blocks solved one by one (cp_islands) */
  /* workspace, sized by setup */
  int cap;
  double *G, *A, *w, *phi, *zbest, *wbest, *zt, *y, *d, *g;
  int *J, *ipiv;
};

static const struct option_decl prox_options[] = {
    {"watchdog", OPT_INT, offsetof(struct prox_data, watchdog), "3", "[0,1000]",
     "full Newton steps taken without a merit test before the watchdog returns to the best point"},
    {"sigma", OPT_REAL, offsetof(struct prox_data, sigma), "1e-4", "(0,0.5)",
     "sufficient decrease: merit <= (1 - sigma t) best merit"},
    {"rho", OPT_REAL, offsetof(struct prox_data, rho), "1e-1", "[0,inf)",
     "proximal weight lambda = kappa rho min(1, ||Phi||/scale) max M_ii (plus 1e-12 max M_ii)"},
    {"max_backtracks", OPT_INT, offsetof(struct prox_data, max_backtracks), "8", "[0,200]",
     "halvings of the watchdog's Newton path search before a steepest-descent step"},
    {"islands", OPT_BOOL, offsetof(struct prox_data, islands), "1", NULL,
     "a problem whose M is block diagonal up to a permutation (independent contact groups) is solved block "
     "by "
     "block (cp_islands)"},
};

static int prox_create(struct solver *s)
{
  s->data = calloc(1, sizeof(struct prox_data));
  return s->data == NULL;
}

static void prox_free_work(struct prox_data *pd)
{
  free(pd->G);
  free(pd->A);
  free(pd->w);
  free(pd->phi);
  free(pd->zbest);
  free(pd->wbest);
  free(pd->zt);
  free(pd->y);
  free(pd->d);
  free(pd->g);
  free(pd->J);
  free(pd->ipiv);
  pd->G = pd->A = pd->w = pd->phi = pd->zbest = pd->wbest = pd->zt = pd->y = pd->d = pd->g = NULL;
  pd->J = pd->ipiv = NULL;
  pd->cap = 0;
}

static int prox_setup(struct solver *s, const struct cp_problem *p)
{
  struct prox_data *pd = s->data;
  if (p->n <= pd->cap) return 0;
  prox_free_work(pd);
  size_t n = (size_t)p->n;
  pd->G = calloc(n * n, sizeof *pd->G);
  pd->A = calloc(n * n, sizeof *pd->A);
  pd->w = calloc(n, sizeof *pd->w);
  pd->phi = calloc(n, sizeof *pd->phi);
  pd->zbest = calloc(n, sizeof *pd->zbest);
  pd->wbest = calloc(n, sizeof *pd->wbest);
  pd->zt = calloc(n, sizeof *pd->zt);
  pd->y = calloc(n, sizeof *pd->y);
  pd->d = calloc(n, sizeof *pd->d);
  pd->g = calloc(n, sizeof *pd->g);
  pd->J = calloc(n, sizeof *pd->J);
  pd->ipiv = calloc(n, sizeof *pd->ipiv);
  if (!pd->G || !pd->A || !pd->w || !pd->phi || !pd->zbest || !pd->wbest || !pd->zt || !pd->y || !pd->d ||
      !pd->g || !pd->J || !pd->ipiv) {
    prox_free_work(pd);
    return 1;
  }
  pd->cap = p->n;
  return 0;
}

/* w = M z + q and the Fischer-Burmeister merit 1/2 ||Phi_FB||^2 (C^1; PATH 4's merit, Ferris & Munson 1999),
 * Phi_FB,i = z_i + w_i - sqrt(z_i^2 + w_i^2) (w_i on free rows); *res = ||min(z, w)||_inf with w_i on free
 * rows: the checker's natural and equality residuals, on which the method stops. NaN-propagating. */
static double prox_eval(const struct cp_problem *p, const double *z, double *w, double *res)
{
  int n = p->n;
  memcpy(w, p->q, (size_t)n * sizeof *w);
  cblas_dgemv(CblasRowMajor, CblasNoTrans, n, n, 1.0, p->M, n, z, 1, 1.0, w, 1);
  double merit = 0.0, mx = 0.0;
  for (int i = 0; i < n; i++) {
    int free_row = i < p->n_eq;
    double ph = free_row ? w[i] : z[i] + w[i] - hypot(z[i], w[i]), nat = free_row ? w[i] : fmin(z[i], w[i]);
    if (isnan(w[i]) || isnan(z[i])) ph = nat = NAN;
    merit += ph * ph;
    if (!(fabs(nat) <= mx)) mx = fabs(nat);
  }
  *res = mx;
  return 0.5 * merit;
}

/* g = grad 1/2 ||Phi_FB||^2 = D_a Phi + M^T (D_b Phi) at (z, w), D_a = 1 - z / r, D_b = 1 - w / r, r =
 * hypot(z, w) (1 - 1/sqrt 2 each where r = 0); free rows D_a = 0, D_b = 1. u: n doubles of scratch. */
static void prox_gradient(const struct cp_problem *p, const double *z, const double *w, double *g, double *u)
{
  int n = p->n;
  for (int i = 0; i < n; i++) {
    if (i < p->n_eq) {
      g[i] = 0.0;
      u[i] = w[i];
      continue;
    }
    double r = hypot(z[i], w[i]), ph = z[i] + w[i] - r;
    double da = r > 0.0 ? 1.0 - z[i] / r : 1.0 - M_SQRT1_2, db = r > 0.0 ? 1.0 - w[i] / r : 1.0 - M_SQRT1_2;
    g[i] = da * ph;
    u[i] = db * ph;
  }
  cblas_dgemv(CblasRowMajor, CblasTrans, n, n, 1.0, p->M, n, u, 1, 1.0, g, 1);
}

/* The proximal active-set Newton point from (z, w) into y: y_I = 0, (M_JJ + lambda I) y_J = -q_J + lambda
 * z_J. Returns 0, or 1 if the matrix is singular. */
static int prox_newton_point(struct prox_data *pd, const struct cp_problem *p, const double *z,
                             const double *w, double lambda, double *y)
{
  int n = p->n, kj = 0;
  size_t nn = (size_t)n;
  for (int i = 0; i < n; i++)
    if (i < p->n_eq || w[i] < z[i]) pd->J[kj++] = i;
  memset(y, 0, nn * sizeof *y);
  if (kj == 0) return 0;
  size_t k = (size_t)kj;
  for (size_t a = 0; a < k; a++) {
    const double *row = p->M + (size_t)pd->J[a] * nn;
    double *g = pd->G + a * k; /* row-major k x k */
    for (size_t b = 0; b < k; b++)
      g[b] = row[pd->J[b]];
    g[a] += lambda;
  }
  double *rhs = pd->d; /* scratch until the caller forms the direction */
  for (int a = 0; a < kj; a++)
    rhs[a] = -p->q[pd->J[a]] + lambda * z[pd->J[a]];
  if (LAPACKE_dgetrf_work(LAPACK_ROW_MAJOR, kj, kj, pd->G, kj, pd->ipiv) != 0) return 1;
  if (LAPACKE_dgetrs_work(LAPACK_ROW_MAJOR, 'N', kj, 1, pd->G, kj, pd->ipiv, rhs, 1) != 0) return 1;
  for (int a = 0; a < kj; a++)
    y[pd->J[a]] = rhs[a];
  return 0;
}

/* The Levenberg-Marquardt direction of the Fischer-Burmeister equation at (z, w): H = D_a + D_b M by rows
 * (free rows: M), the generalised Jacobian of De Luca, Facchinei & Kanzow 1996; always a descent direction of
 * the FB merit. Returns 0, or 1 if the factorization fails. */
static int prox_fb_direction(struct prox_data *pd, const struct cp_problem *p, const double *z,
                             const double *w, double *d)
{
  int n = p->n;
  size_t nn = (size_t)n;
  for (int i = 0; i < n; i++) {
    double *h = pd->G + (size_t)i * nn, da = 0.0, db = 1.0, ph = w[i];
    if (i >= p->n_eq) {
      double r = hypot(z[i], w[i]);
      da = r > 0.0 ? 1.0 - z[i] / r : 1.0 - M_SQRT1_2;
      db = r > 0.0 ? 1.0 - w[i] / r : 1.0 - M_SQRT1_2;
      ph = z[i] + w[i] - r;
    }
    const double *row = p->M + (size_t)i * nn;
    for (size_t j = 0; j < nn; j++)
      h[j] = db * row[j];
    h[i] += da;
    d[i] = -ph;
  }
  /* H is singular where contacts are redundant (the four corners of a resting box): Levenberg-Marquardt,
   * (H^T H + nu I) d = -H^T Phi with nu = ||Phi||^2 (Yamashita & Fukushima 2001), by Cholesky */
  cblas_dsyrk(CblasRowMajor, CblasUpper, CblasTrans, n, n, 1.0, pd->G, n, 0.0, pd->A, n);
  double nu = 0.0, hmax = 0.0;
  for (int i = 0; i < n; i++) {
    nu += d[i] * d[i];
    hmax = fmax(hmax, pd->A[(size_t)i * nn + (size_t)i]);
  }
  nu += 1e-12 * hmax;
  for (int i = 0; i < n; i++)
    pd->A[(size_t)i * nn + (size_t)i] += nu;
  cblas_dgemv(CblasRowMajor, CblasTrans, n, n, 1.0, pd->G, n, d, 1, 0.0, pd->phi, 1); /* H^T (-Phi) */
  memcpy(d, pd->phi, nn * sizeof *d);
  if (LAPACKE_dpotrf_work(LAPACK_ROW_MAJOR, 'U', n, pd->A, n) != 0) return 1;
  return LAPACKE_dpotrs_work(LAPACK_ROW_MAJOR, 'U', n, 1, pd->A, n, d, 1) != 0;
}

/* z(t) = Pi(z + t d): projected onto z >= 0 on the complementary rows. */
static void prox_path_point(const struct cp_problem *p, const double *z, const double *d, double t,
                            double *out)
{
  for (int i = 0; i < p->n; i++) {
    double v = z[i] + t * d[i];
    out[i] = i < p->n_eq ? v : fmax(v, 0.0);
  }
}

/* Where the method stands: the current point's merit and residual (the point in z and pd->w), the best
 * point's (in pd->zbest, pd->wbest), the proximal factor kappa, the unchecked steps since the best point,
 * and the counts of the final message. */
struct prox_state {
  double merit, res, mbest, resbest, kappa;
  int nbad, restarts, singular, gradient_steps, fb_steps;
};

/* max |M_ii| (1 when the diagonal vanishes): the scale of the proximal weight. */
static double prox_max_diagonal(const struct cp_problem *p)
{
  double mdiag = 0.0;
  for (int i = 0; i < p->n; i++)
    mdiag = fmax(mdiag, fabs(p->M[(size_t)i * p->n + i]));
  return mdiag == 0.0 ? 1.0 : mdiag;
}

/* The first point: z on entry under -cp_warm_start, else 0; projected onto z >= 0 on the complementary
 * rows. */
static void prox_start_point(const struct solver *s, const struct cp_problem *p, double *z)
{
  int n = p->n, warm = s->set.warm_start;
  for (int i = 0; warm && i < n; i++) /* a previous failure's NaN is no guess */
    warm = isfinite(z[i]);
  if (!warm) memset(z, 0, (size_t)n * sizeof *z);
  for (int i = p->n_eq; i < n; i++) /* a warm start's negative entries are projected */
    z[i] = fmax(z[i], 0.0);
}

/* The current point becomes the best one. */
static void prox_keep_best(struct prox_data *pd, struct prox_state *st, const double *z, size_t bytes)
{
  memcpy(pd->zbest, z, bytes);
  memcpy(pd->wbest, pd->w, bytes);
  st->mbest = st->merit;
  st->resbest = st->res;
}

/* The watchdog fired: back to the best point, with more proximal weight. */
static void prox_return_to_best(struct prox_data *pd, struct prox_state *st, double *z, size_t bytes)
{
  memcpy(z, pd->zbest, bytes);
  memcpy(pd->w, pd->wbest, bytes);
  st->merit = st->mbest;
  st->res = st->resbest;
  st->kappa = fmin(st->kappa * 10.0, 1e6);
  st->restarts++;
  st->nbad = 0;
}

/* The path z(t) = Pi(z + t pd->d): t = 1 only, or once the watchdog fired t = 1, 1/2, ... (a monotone
 * search) until the merit falls below (1 - sigma t) of the best. The last trial point is in pd->zt, pd->y,
 * its merit and residual in *mt, *rt; 1 when it was accepted, at step *t. */
static int prox_newton_path(struct prox_data *pd, const struct cp_problem *p, const double *z,
                            int watchdog_fired, double mbest, double *t, double *mt, double *rt)
{
  *t = 1.0;
  for (int b = 0; b <= (watchdog_fired ? pd->max_backtracks : 0); b++, *t *= 0.5) {
    prox_path_point(p, z, pd->d, *t, pd->zt);
    *mt = prox_eval(p, pd->zt, pd->y, rt);
    if (*mt <= (1.0 - pd->sigma * *t) * mbest) return 1;
    if (!watchdog_fired) break;
  }
  return 0;
}

/* The Newton path failed from the best point: the Fischer-Burmeister Newton direction, a descent direction
 * of the merit, else steepest descent, searched by Armijo on the projected path; the point found becomes
 * the current and the best one, and the active-set steps go on from there. 0, or 1 when no step passed. */
static int prox_descent_step(struct prox_data *pd, const struct cp_problem *p, double *z,
                             struct prox_state *st, size_t bytes)
{
  int n = p->n, accepted = 0;
  prox_gradient(p, pd->zbest, pd->wbest, pd->g, pd->phi);
  double gg = cblas_ddot(n, pd->g, 1, pd->g, 1), gd = 0.0, t = 1.0, mt = 0.0, rt = 0.0;
  int fb = prox_fb_direction(pd, p, pd->zbest, pd->wbest, pd->d) == 0;
  if (fb) gd = cblas_ddot(n, pd->g, 1, pd->d, 1);
  if (!fb || !(gd < 0.0)) { /* d = -g, with a Gauss-Newton-sized first trial */
    double sc = gg > 0.0 ? fmin(1.0, st->mbest / gg) : 0.0;
    for (int i = 0; i < n; i++)
      pd->d[i] = -sc * pd->g[i];
    st->gradient_steps++;
  } else
    st->fb_steps++;
  for (int b = 0; b < 60 && gg > 0.0; b++, t *= 0.5) {
    prox_path_point(p, pd->zbest, pd->d, t, pd->zt);
    double dec = 0.0;
    for (int i = 0; i < n; i++)
      dec += pd->g[i] * (pd->zbest[i] - pd->zt[i]);
    mt = prox_eval(p, pd->zt, pd->y, &rt);
    if (mt <= st->mbest - pd->sigma * dec && mt < st->mbest) {
      accepted = 1;
      break;
    }
  }
  if (!accepted) return 1;
  memcpy(z, pd->zt, bytes);
  memcpy(pd->w, pd->y, bytes);
  st->merit = mt;
  st->res = rt;
  prox_keep_best(pd, st, z, bytes);
  st->nbad = 0;
  return 0;
}

/* One iteration from z: the proximal active-set Newton point, taken unchecked until the watchdog fires;
 * then searched from the best point, else a descent step. SOLVE_MAX_ITERATIONS: go on; else the status to
 * stop with. */
static enum solve_status prox_iteration(struct prox_data *pd, const struct cp_problem *p, double *z,
                                        struct prox_state *st, double mdiag, double scale)
{
  int n = p->n;
  size_t bytes = (size_t)n * sizeof *z;
  int watchdog_fired = st->nbad >= pd->watchdog;
  if (watchdog_fired) prox_return_to_best(pd, st, z, bytes);
  double lambda = mdiag * (st->kappa * pd->rho * fmin(1.0, st->res / scale) + 1e-12);
  if (prox_newton_point(pd, p, z, pd->w, lambda, pd->y) != 0) {
    st->singular++;
    st->kappa *= 10.0;
    return st->kappa > 1e16 ? SOLVE_NUMERICAL_FAILURE : SOLVE_MAX_ITERATIONS;
  }
  for (int i = 0; i < n; i++)
    pd->d[i] = pd->y[i] - z[i];
  double t = 1.0, mt = 0.0, rt = 0.0;
  int accepted = prox_newton_path(pd, p, z, watchdog_fired, st->mbest, &t, &mt, &rt);
  if (!watchdog_fired || accepted) { /* a watchdog step is taken whatever its merit */
    memcpy(z, pd->zt, bytes);
    memcpy(pd->w, pd->y, bytes);
    st->merit = mt;
    st->res = rt;
  }
  if (accepted) {
    prox_keep_best(pd, st, z, bytes);
    st->nbad = 0;
    if (t == 1.0) st->kappa = fmax(1.0, st->kappa * 0.1);
  } else if (watchdog_fired) {
    if (prox_descent_step(pd, p, z, st, bytes) != 0) return SOLVE_LINE_SEARCH_FAILURE;
  } else {
    st->nbad++;
    if (st->merit < st->mbest)
      prox_keep_best(pd, st, z, bytes); /* not a sufficient decrease, still the best */
  }
  return SOLVE_MAX_ITERATIONS;
}

/* One run on p from z; scale: the checker's scale of the problem the tolerance belongs to (an island's is the
 * whole problem's, so that every island meeting tol * scale makes the whole one meet it). */
static int prox_solve_one(const struct solver *s, const struct cp_problem *p, double scale, double *z,
                          struct solve_result *r)
{
  struct prox_data *pd = s->data;
  int max_it = s->set.max_it > 0 ? s->set.max_it : 200, it = 0;
  size_t bytes = (size_t)p->n * sizeof *z;
  double mdiag = prox_max_diagonal(p), tol_abs = s->set.tol * scale;
  struct prox_state st = {.kappa = 1.0};
  prox_start_point(s, p, z);
  st.merit = prox_eval(p, z, pd->w, &st.res);
  prox_keep_best(pd, &st, z, bytes);
  r->status = SOLVE_MAX_ITERATIONS;
  for (; it < max_it; it++) {
    if (!isfinite(st.merit))
      r->status = SOLVE_NAN_OR_INF;
    else if (st.resbest <= tol_abs)
      r->status = SOLVE_CONVERGED;
    else if (solver_out_of_time(s))
      r->status = SOLVE_TIME_LIMIT;
    else
      r->status = prox_iteration(pd, p, z, &st, mdiag, scale);
    if (r->status != SOLVE_MAX_ITERATIONS) break;
  }
  memcpy(z, pd->zbest, bytes); /* the best point seen */
  if (r->status == SOLVE_MAX_ITERATIONS && st.resbest <= tol_abs) r->status = SOLVE_CONVERGED;
  r->iterations = it;
  snprintf(r->message, sizeof r->message,
           "%d watchdog returns, %d FB Levenberg-Marquardt and %d gradient steps, %d singular M_JJ, "
           "kappa %.0e, residual %.2e",
           st.restarts, st.fb_steps, st.gradient_steps, st.singular, st.kappa, st.resbest);
  return 0;
}

/* What an island's run needs besides its problem (solver_solve_islands). */
struct prox_island_ctx {
  const struct solver *s;
  double scale;
};

static int prox_island(void *vctx, const struct cp_problem *sub, double *z, struct solve_result *r)
{
  const struct prox_island_ctx *c = vctx;
  return prox_solve_one(c->s, sub, c->scale, z, r);
}

/* Islands (as fb_newton's): on a pile of independent boxes the watchdog and the proximal weight of one box's
 * redundant corners no longer hold back the others, and each block's LU is its own size. */
static int prox_solve(struct solver *s, const struct cp_problem *p, double *z, struct solve_result *r)
{
  struct prox_data *pd = s->data;
  if (prox_setup(s, p) != 0) return 1; /* a no-op after the harness's setup */
  struct prox_island_ctx c = {s, cp_scale(p, NULL)};
  return pd->islands ? solver_solve_islands(p, z, r, prox_island, &c) : prox_solve_one(s, p, c.scale, z, r);
}

static void prox_destroy(struct solver *s)
{
  if (s->data) prox_free_work(s->data);
  free(s->data);
  s->data = NULL;
}

static void prox_view(const struct solver *s, FILE *out)
{
  const struct prox_data *pd = s->data;
  fprintf(out, "  watchdog %d, sigma %g, rho %g, max_backtracks %d\n", pd->watchdog, pd->sigma, pd->rho,
          pd->max_backtracks);
}

const struct solver_type solver_type_prox_newton = {
    .name = "prox_newton",
    .summary =
        "semismooth Newton on the min map (active-set step), proximal stabilisation, watchdog path search",
    .kinds = CP_LCP | CP_MLCP,
    .options = prox_options,
    .n_options = (int)(sizeof prox_options / sizeof prox_options[0]),
    .create = prox_create,
    .setup = prox_setup,
    .solve = prox_solve,
    .destroy = prox_destroy,
    .view = prox_view,
};
