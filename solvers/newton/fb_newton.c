/* fb_newton.c — semismooth Newton on the Fischer-Burmeister reformulation (solver `fb_newton`), driven by
 * the generic Newton of newton.h. phi(a, b) = a + b - sqrt(a^2 + b^2) is zero iff a >= 0, b >= 0, ab = 0.
 * Per component, by its bounds (cp.h stores every kind as a box MCP with F(z) = Mz + q or callbacks):
 *   free            Phi_i = F_i                                   (mixed LCP equality rows)
 *   lower only      Phi_i = phi(z_i - l_i, F_i)                   (LCP, NCP)
 *   upper only      Phi_i = phi(u_i - z_i, -F_i)
 *   both finite     Phi_i = phi(z_i - l_i, -phi(u_i - z_i, -F_i))  (Billups 1995, Ph.D. thesis, eq. 2.9)
 * Every Phi_i is zero exactly where row i of the MCP holds, and nonsmooth only where Phi_i = 0, so the merit
 * 1/2 ||Phi||^2 is C^1 with gradient H^T Phi (De Luca-Facchinei-Kanzow 1996). Where both arguments of a
 * lower-bound phi vanish we take the B-subdifferential element of DLFK 1996 Procedure 3.1 (direction e_beta);
 * Billups rows use (1 - 1/sqrt 2) for each vanishing pair. Stops on the natural-map residual, never on Phi.
 * Options (defaults): -fb_newton_sigma 1e-4 (Armijo), -fb_newton_beta 0.5 (backtracking ratio),
 * -fb_newton_max_backtracks 40, -fb_newton_rho 1e-8 and -fb_newton_p 2.1 (descent test),
 * -fb_newton_lm true (Levenberg-Marquardt step when the Newton matrix is singular, the step is rejected or
 * Armijo cuts it below -fb_newton_lm_below 0.02) with parameter |Phi|^1.5 (-fb_newton_lm_power 1.5) times
 * diag(H^T H) (-fb_newton_lm_scaled true: Marquardt's scaling; with the identity instead, a column that is
 * small only because of the state, e.g. a friction multiplier's near separation, is damped to a standstill:
 * the sphere between two spheres stalled at |Phi| ~ 1e-5 on 7 of 400 steps), -cp_max_it 200 iterations.
 * -fb_newton_retry_plain true: when a run with Levenberg-Marquardt fails, it is run again from the same
 * start without it (Newton, then the gradient step) and the better answer kept; the two share -cp_max_it
 * (the first gets 3/4 of it, at most 50 iterations kept back). The LM step's lower merit
 * can lead into a valley of the merit where it crawls for hundreds of iterations to a stationary point
 * that is not a solution, where the plain method converges in 7-11 iterations (two rolling-N-gon steps of
 * the geometrically implicit formulation that TAO, SNES and Siconos solve).
 * -fb_newton_active_set (auto): 1: each iteration first tries the active-set Newton step of the natural map
 * (fb_active_direction), judged by the FB merit, until -fb_newton_active_set_refusals (2) refusals in a
 * row; auto, the default: on for a nonlinear (callback) problem, off for a linear one (faster on every NCP
 * class measured, 0.25-0.96x; on the linear classes it splits both ways, 0.64-1.42x); 0: never. A run with
 * it that fails, or whose merit has not halved over -fb_newton_active_set_stall (10) iterations, is run
 * again from the start without it (fb_rerun_plain_newton): a path through active-set steps can end where
 * the FB step crawls (the grasp study's geometric_implicit: 200 iterations there, the plain run's 5). */
#include "fb.h"

#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The proximal Newton step, the lesson of prox_newton.c, for when the Newton step fails or is cut short
 * (newton.c, newton_prox_step): (H + lambda D_b) d = -Phi, the semismooth Newton matrix D_a + D_b (J +
 * lambda I) of Phi for F + lambda (z - z_k) (a proximal-point step, Rockafellar 1976), lambda = prox
 * max_i |J_ii| min(1, r / scale) as prox_newton's, r the natural residual: it vanishes at the solution.
 * Why: on a box resting on four corners (bench_solvers' resting classes) the normal rows of M have rank 3,
 * and when the gaps make only three corners touch, the iterate sits with all four loaded and a residual
 * along the rocking mode (1, -1, -1, 1) that no normal impulse changes; the way out is to unload a corner
 * to 0, a move of the size of z along M's null space, where the merit's slope is O((F_i / z_i)^2 F_i): a
 * plateau. The Newton step there is O(z^2 / F) long (or H exactly singular once 1 - z_i / hypot(z_i, F_i)
 * rounds to 0), DLFK's descent test rejects it and Levenberg-Marquardt crawls: fb_newton failed every
 * resting600 instance at 200 iterations (merit ~1e-11, residual ~1e-6). The shift bounds the step along the
 * null space; it is judged by the decrease it was made for (newton.c, NEWTON_TEST_MODEL). Linear problems
 * only: on the corpus's geometrically implicit NCPs (rolling disc, sphere between two spheres) the step won
 * the merit comparison early and cost 2-3x the iterations, and one step failed that converged without it. */
static inline double fb_prox_weight(double prox, double natural, double scale)
{
  double r = natural / scale;
  return prox > 0.0 ? prox * (r < 1.0 ? r : 1.0) : 0.0;
}

/* What one solve needs; allocated once per solve. */
struct fb_ctx {
  const struct cp_problem *p;
  double tol_abs; /* tol * scale of the checker */
  double *F;      /* F at the most recent successful phi call ... */
  double *zF;     /* ... and the point it belongs to */
  int F_valid;
  double natural; /* natural-map residual at zF */
  double scale;   /* the checker's scale (tol_abs / tol) */
  double prox;    /* -fb_newton_prox */
  double *shift;  /* the Newton matrix's diagonal shift lambda D_b D (fb_prox_weight) */
  double *y;      /* J e_beta for the degenerate rows */
  int *beta;      /* degenerate rows of the lower-bound kind */
  /* the active-set direction (fb_active_direction), allocated iff -fb_newton_active_set: */
  double *J;        /* J at zF for a nonlinear problem (a linear one's is M) */
  double *A;        /* J_II, then its LU */
  double *rhs;      /* -F_I - J_IA d_A */
  int *inactive;    /* I */
  lapack_int *ipiv; /* the LU's pivots */
};

static int fb_eval_phi(void *vctx, const double *z, double *phi)
{
  struct fb_ctx *c = vctx;
  const struct cp_problem *p = c->p;
  int n = p->n;
  c->F_valid = 0;
  if (cp_is_linear(p)) { /* F = M z + q through BLAS: the phi evaluations of the line search add up */
    memcpy(c->F, p->q, (size_t)n * sizeof *c->F);
    cblas_dgemv(CblasRowMajor, CblasNoTrans, n, n, 1.0, p->M, n, z, 1, 1.0, c->F, 1);
  } else if (cp_eval_F(p, z, c->F) != 0) {
    return 1;
  }
  double res = 0.0;
  for (int i = 0; i < n; i++) {
    double l = p->lo[i], u = p->hi[i], Fi = c->F[i];
    phi[i] = fb_row_phi(l, u, z[i], Fi);
    double r = fabs(z[i] - cp_mid(l, u, z[i] - Fi));
    if (!(r <= res)) res = r; /* NaN propagates */
  }
  memcpy(c->zF, z, (size_t)n * sizeof *z);
  c->natural = res;
  c->F_valid = 1;
  return 0;
}

static int fb_refresh(struct fb_ctx *c, const double *z)
{
  if (c->F_valid && memcmp(c->zF, z, (size_t)c->p->n * sizeof *z) == 0) return 0;
  double *scratch = c->y; /* phi values are not needed here */
  return fb_eval_phi(c, z, scratch);
}

static int fb_eval_jacobian(void *vctx, const double *z, const double *phi, double *H)
{
  (void)phi;
  struct fb_ctx *c = vctx;
  const struct cp_problem *p = c->p;
  int n = p->n;
  /* J: M itself for linear problems (rows are scaled into H in one pass below), else evaluated into H, or
   * into c->J when the active-set direction reads it after */
  double *Jeval = c->J ? c->J : H;
  if (fb_refresh(c, z) != 0 || (!cp_is_linear(p) && cp_eval_J(p, z, Jeval) != 0)) return 1;
  const double *J = cp_is_linear(p) ? p->M : Jeval;
  /* DLFK Procedure 3.1: degenerate lower-bound rows get the limit along y = e_beta. */
  int nb = 0;
  for (int i = 0; i < n; i++)
    if (fb_row_degenerate(p->lo[i], p->hi[i], z[i], c->F[i])) c->beta[nb++] = i;
  for (int k = 0; k < nb; k++) {
    const double *row = J + (size_t)c->beta[k] * n;
    double s = 0.0;
    for (int m = 0; m < nb; m++)
      s += row[c->beta[m]];
    c->y[k] = s;
  }
  double max_diag = 0.0;
  for (int i = 0; i < n; i++)
    max_diag = fmax(max_diag, fabs(J[(size_t)i * n + i]));
  const double lambda = fb_prox_weight(c->prox, c->natural, c->scale) * (max_diag > 0.0 ? max_diag : 1.0);
  int k = 0;
  for (int i = 0; i < n; i++) {
    double da, db;
    int degenerate = k < nb && c->beta[k] == i;
    fb_row_slopes(p->lo[i], p->hi[i], z[i], c->F[i], degenerate, degenerate ? c->y[k] : 0.0, &da, &db);
    k += degenerate;
    double *row = H + (size_t)i * n;
    const double *jrow = J + (size_t)i * n;
    for (int j = 0; j < n; j++)
      row[j] = db * jrow[j];
    row[i] += da;
    c->shift[i] = lambda * db; /* H + shift = D_a + D_b (J + lambda D) */
  }
  return 0;
}

/* The active-set Newton step of the natural map z - mid(l, u, z - F) (the primal-dual active-set step of
 * Hintermueller, Ito & Kunisch 2002, SIAM J. Optim. 13; the step of SNES' vinewtonrsls and TAO's asfls): a
 * row whose z - F lies at or beyond a bound keeps z there, d_i = bound - z_i; the others, the set I, solve
 * F_I + J_I d = 0, i.e. J_II d_I = -F_I - J_IA d_A. newton.c judges it by the FB merit (descent test and
 * Armijo) and takes the FB Newton step where it fails. Why: where a third of the complementary rows are
 * degenerate at the solution (z_i = F_i = 0: ncp_mixed300), the FB Newton step converges linearly for
 * several iterations before its superlinear end (11-12 iterations); the active-set step identifies the
 * active set and then is Newton's on the smooth system F_I = 0, and its system is the inactive rows only.
 * 1 (no direction) when J_II is singular: the FB step decides there. */
static int fb_active_direction(void *vctx, const double *z, const double *phi, double *d)
{
  (void)phi;
  struct fb_ctx *c = vctx;
  const struct cp_problem *p = c->p;
  int n = p->n, m = 0;
  if (fb_refresh(c, z) != 0) return 1;
  const double *J = cp_is_linear(p) ? p->M : c->J;
  for (int i = 0; i < n; i++) {
    double l = p->lo[i], u = p->hi[i], x = z[i] - c->F[i];
    d[i] = x <= l ? l - z[i] : (x >= u ? u - z[i] : 0.0);
    if (!(x <= l) && !(x >= u)) c->inactive[m++] = i;
  }
  if (m == 0) return 0;
  /* d is 0 on I, so J_I d = J_IA d_A; J_II row-major is (J_II)^T column-major: solve with 'T' (newton.c) */
  for (int a = 0; a < m; a++) {
    const double *row = J + (size_t)c->inactive[a] * n;
    double *arow = c->A + (size_t)a * m, s = c->F[c->inactive[a]];
    for (int j = 0; j < n; j++)
      s += row[j] * d[j];
    c->rhs[a] = -s;
    for (int b = 0; b < m; b++)
      arow[b] = row[c->inactive[b]];
  }
  if (LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, m, m, c->A, m, c->ipiv) != 0 ||
      LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'T', m, 1, c->A, m, c->ipiv, c->rhs, m) != 0)
    return 1;
  for (int a = 0; a < m; a++)
    d[c->inactive[a]] = c->rhs[a];
  return 0;
}

static int fb_converged(void *vctx, const double *z, const double *phi, double *residual)
{
  (void)phi;
  struct fb_ctx *c = vctx;
  if (fb_refresh(c, z) != 0) return 0;
  *residual = c->natural;
  return c->natural <= c->tol_abs;
}

/* fb_newton's state: the options it shares with fb_newton_sparse (whose KLU finds the blocks itself, in
 * its block triangular form) and the islands. */
struct fb_dense {
  struct fb_data fb;
  int islands;          /* -fb_newton_islands: a linear problem's independent blocks solved one by one */
  double prox;          /* -fb_newton_prox: the proximal weight of the Newton step (fb_prox_weight) */
  int active_set;       /* -fb_newton_active_set (enum fb_active_set): the active-set direction first */
  int active_set_stall; /* -fb_newton_active_set_stall: the stall window of a run with it */
};

/* -fb_newton_active_set's choices, in the order of its "auto|0|1" list */
enum fb_active_set { FB_ACTIVE_AUTO, FB_ACTIVE_OFF, FB_ACTIVE_ON };

/* Whether p's iterations try the active-set direction: auto takes it on nonlinear (callback) problems only.
 */
static int fb_use_active_set(const struct fb_dense *d, const struct cp_problem *p)
{
  return d->active_set == FB_ACTIVE_ON || (d->active_set == FB_ACTIVE_AUTO && !cp_is_linear(p));
}

static const struct option_decl fb_options[] = {
    FB_NEWTON_OPTION_ROWS(offsetof(struct fb_dense, fb)),
    {"prox", OPT_REAL, offsetof(struct fb_dense, prox), "1", "[0,inf)",
     "proximal Newton step (H + lambda D_b) d = -Phi where the Newton step fails, lambda = prox max|J_ii| "
     "min(1, residual / scale); linear problems; 0: none"},
    {"islands", OPT_BOOL, offsetof(struct fb_dense, islands), "1", NULL,
     "a linear problem whose M is block diagonal up to a permutation (independent contact groups) is solved "
     "block by block (cp_islands)"},
    {"active_set", OPT_CHOICE, offsetof(struct fb_dense, active_set), "auto", "auto|0|1",
     "try the active-set Newton step of the natural map (J_II d_I = -F_I - J_IA d_A) before the FB Newton "
     "step, judged by the FB merit; auto: on nonlinear (callback) problems, off on linear ones"},
    {"active_set_refusals", OPT_INT, offsetof(struct fb_dense, fb.ns.direction_refusals), "2", "[1,inf)",
     "consecutive refusals of the active-set step after which a run stops trying it"},
    {"active_set_stall", OPT_INT, offsetof(struct fb_dense, active_set_stall), "10", "[0,inf)",
     "a run with the active-set step whose FB merit has not halved over this many iterations stops and is "
     "run again from its start without the step; 0: never"},
};

/* newton_settings_default fills what the table does not own (max_it, tol, clock). */
static int fb_create(struct solver *s)
{
  struct fb_dense *d = calloc(1, sizeof *d);
  if (!d) return 1;
  newton_settings_default(&d->fb.ns);
  s->data = d;
  return 0;
}

/* The run shared with fb_newton_sparse (fb.h). */
int fb_run(const struct fb_data *d, struct newton_settings ns, const struct newton_problem *prob, double *z,
           struct solve_result *r, int *stalled)
{
  int n = prob->n, err = 0;
  size_t nn = n > 0 ? (size_t)n : 1;
  struct newton_stats st;
  double *z_start = NULL;
  int retry = d->retry_plain && ns.levenberg_marquardt;
  if (retry && !(z_start = malloc(nn * sizeof *z_start))) return 1;
  if (retry) memcpy(z_start, z, (size_t)n * sizeof *z);
  /* -cp_max_it bounds both runs together: the run with LM gets three quarters of it (at most 50 kept
   * back), the plain run what the first left */
  const int budget = ns.max_it, reserve = retry ? (budget / 4 < 50 ? budget / 4 : 50) : 0;
  ns.max_it = budget - reserve;
  enum newton_reason why = newton_solve(prob, &ns, z, &st);
  int retried = 0, iterations = st.iterations;
  ns.max_it = budget - iterations;
  if (retry && ns.max_it > 0 && (why == NEWTON_MAX_ITERATIONS || why == NEWTON_LINE_SEARCH_FAILURE)) {
    /* the plain method from the same start; kept if it converges or ends at a lower merit */
    double *z_lm = malloc(nn * sizeof *z_lm);
    struct newton_stats st2;
    if (z_lm) {
      memcpy(z_lm, z, (size_t)n * sizeof *z);
      memcpy(z, z_start, (size_t)n * sizeof *z);
      ns.levenberg_marquardt = 0;
      enum newton_reason why2 = newton_solve(prob, &ns, z, &st2);
      iterations += st2.iterations;
      retried = 1;
      if (why2 == NEWTON_CONVERGED || (why2 != NEWTON_ALLOCATION_FAILURE && st2.merit < st.merit)) {
        why = why2;
        st = st2;
      } else {
        memcpy(z, z_lm, (size_t)n * sizeof *z);
      }
      free(z_lm);
    }
  }
  free(z_start);
  r->iterations = iterations;
  if (stalled) *stalled = why == NEWTON_STALLED;
  switch (why) {
  case NEWTON_CONVERGED: r->status = SOLVE_CONVERGED; break;
  case NEWTON_MAX_ITERATIONS:
  case NEWTON_STALLED: r->status = SOLVE_MAX_ITERATIONS; break;
  case NEWTON_LINE_SEARCH_FAILURE: r->status = SOLVE_LINE_SEARCH_FAILURE; break;
  case NEWTON_NAN_OR_INF: r->status = SOLVE_NAN_OR_INF; break;
  case NEWTON_TIME_LIMIT: r->status = SOLVE_TIME_LIMIT; break;
  case NEWTON_EVAL_FAILURE: r->status = SOLVE_NUMERICAL_FAILURE; break;
  case NEWTON_ALLOCATION_FAILURE: err = 1; break;
  }
  if (why != NEWTON_CONVERGED)
    snprintf(r->message, sizeof r->message,
             "%s after %d iterations (%d proximal, %d Levenberg-Marquardt, %d gradient steps), merit %.3g%s",
             newton_reason_name(why), st.iterations, st.prox_steps, st.lm_steps, st.gradient_steps, st.merit,
             retried ? "; also run without Levenberg-Marquardt" : "");
  else if (retried)
    snprintf(r->message, sizeof r->message,
             "converged in the run without Levenberg-Marquardt (%d iterations)", st.iterations);
  return err;
}

/* Whether a run with the active-set step that ended so is run again without it (fb_rerun_plain_newton):
 * every failure to converge but the clock's and a failed evaluation (the plain run would meet them too). */
static int fb_retry_without_direction(enum solve_status status)
{
  return status == SOLVE_MAX_ITERATIONS || status == SOLVE_LINE_SEARCH_FAILURE || status == SOLVE_NAN_OR_INF;
}

/* A run with the active-set step that stalled (-fb_newton_active_set_stall) and whose plain rerun failed
 * too goes on from where it stalled, without the step, for the iterations it had left: its slow crawl can
 * still end nearer the answer than the plain run (box_drop3d rocking on an edge: 7.2e-8 against 7.3e-6).
 * z_as, *r_as and *natural_as are replaced when it ends converged or at a lower natural residual. */
static int fb_resume_stalled(const struct fb_data *d, struct newton_settings ns, struct newton_problem *prob,
                             double *z_as, struct solve_result *r_as, double *natural_as)
{
  struct fb_ctx *c = prob->ctx;
  const int n = prob->n;
  ns.max_it -= r_as->iterations;
  if (ns.max_it <= 0) return 0;
  double *z_on = malloc((n > 0 ? (size_t)n : 1) * sizeof *z_on);
  if (!z_on) return 1;
  memcpy(z_on, z_as, (size_t)n * sizeof *z_on);
  struct solve_result r_on = *r_as;
  r_on.message[0] = '\0';
  int err = fb_run(d, ns, prob, z_on, &r_on, NULL);
  if (!err && fb_refresh(c, z_on) == 0 && (r_on.status == SOLVE_CONVERGED || c->natural < *natural_as)) {
    r_on.iterations += r_as->iterations;
    *r_as = r_on;
    *natural_as = c->natural;
    memcpy(z_as, z_on, (size_t)n * sizeof *z_on);
  }
  free(z_on);
  return err;
}

/* The safeguard of the active-set step: its run failed, so the FB Newton method is run again from z_start
 * without it (its own -cp_max_it) and its answer kept when it converges or ends at a lower natural residual
 * (or a finite one where the first ended at NaN); r->iterations counts both runs. A first run that stalled
 * (stalled: fb_run's) and whose rerun failed goes on first (fb_resume_stalled). Why: the active-set step
 * leaves the FB Newton path; on the implicit 3D scenes that path is marginal where a contact rocks on an edge
 * or separates at a graze (a box on its face, the sphere between two spheres at 3.2 s: fb_newton alone needs
 * 40-110 Levenberg-Marquardt iterations at some steps), and a path through active-set steps can end in the
 * merit's valley where Levenberg-Marquardt crawls (residual stuck at 1e-5 to 1e-11) where the plain path
 * converges (the grasp study's geometric_implicit: 200 iterations of crawl, then the plain run's 5). */
static int fb_rerun_plain_newton(const struct fb_data *d, struct newton_settings ns,
                                 struct newton_problem *prob, const double *z_start, int stalled, double *z,
                                 struct solve_result *r)
{
  struct fb_ctx *c = prob->ctx;
  const int n = prob->n;
  size_t nn = n > 0 ? (size_t)n : 1;
  double *z_as = malloc(nn * sizeof *z_as), natural_as = 0.0;
  if (!z_as || fb_refresh(c, z) != 0) {
    free(z_as);
    return z_as ? 0 : 1; /* no evaluation at z: keep the failed answer */
  }
  natural_as = c->natural;
  memcpy(z_as, z, (size_t)n * sizeof *z);
  struct solve_result r_as = *r;
  memcpy(z, z_start, (size_t)n * sizeof *z);
  prob->direction = NULL;
  ns.stall_window = 0;
  r->message[0] = '\0';
  int err = fb_run(d, ns, prob, z, r, NULL);
  if (!err && stalled && r->status != SOLVE_CONVERGED)
    err = fb_resume_stalled(d, ns, prob, z_as, &r_as, &natural_as);
  if (!err && r->status != SOLVE_CONVERGED &&
      !(fb_refresh(c, z) == 0 && (c->natural < natural_as || (isnan(natural_as) && !isnan(c->natural))))) {
    memcpy(z, z_as, (size_t)n * sizeof *z);
    r_as.iterations += r->iterations;
    *r = r_as;
  } else if (!err) {
    r->iterations += r_as.iterations;
    char note[96];
    snprintf(note, sizeof note, "%swithout the active-set step (its run: %s after %d iterations)",
             r->message[0] ? "; " : "", stalled ? "stalled" : solve_status_name(r_as.status),
             r_as.iterations);
    if (strlen(r->message) + strlen(note) < sizeof r->message) strcat(r->message, note);
  }
  free(z_as);
  return err;
}

/* One Newton run on p from z; scale: the checker's scale of the problem the tolerance belongs to (an
 * island's is the whole problem's, so that every island meeting tol * scale makes the whole one meet it). */
static int fb_solve_one(const struct solver *s, const struct cp_problem *p, double scale, double *z,
                        struct solve_result *r)
{
  const struct fb_dense *d = s->data;
  int n = p->n;
  size_t nn = n > 0 ? (size_t)n : 1;
  struct fb_ctx c = {.p = p, .scale = scale, .tol_abs = s->set.tol * scale, .prox = d->prox};
  c.F = malloc(nn * sizeof *c.F);
  c.zF = malloc(nn * sizeof *c.zF);
  c.y = malloc(nn * sizeof *c.y);
  c.beta = malloc(nn * sizeof *c.beta);
  c.shift = malloc(nn * sizeof *c.shift);
  int err = !c.F || !c.zF || !c.y || !c.beta || !c.shift;
  const int active_set = fb_use_active_set(d, p);
  double *z_start = NULL; /* the start, for the run again without the active-set step */
  if (active_set) {
    z_start = malloc(nn * sizeof *z_start);
    if (z_start) memcpy(z_start, z, (size_t)n * sizeof *z);
    if (!cp_is_linear(p)) c.J = malloc(nn * nn * sizeof *c.J);
    c.A = malloc(nn * nn * sizeof *c.A);
    c.rhs = malloc(nn * sizeof *c.rhs);
    c.inactive = malloc(nn * sizeof *c.inactive);
    c.ipiv = malloc(nn * sizeof *c.ipiv);
    err = err || (!cp_is_linear(p) && !c.J) || !c.A || !c.rhs || !c.inactive || !c.ipiv || !z_start;
  }
  if (!err) {
    struct newton_settings ns = d->fb.ns;
    ns.max_it = s->set.max_it > 0 ? s->set.max_it : d->fb.ns.max_it;
    ns.tol = c.tol_abs;
    ns.clock = (struct solver *)s;
    ns.stall_window = active_set ? d->active_set_stall : 0;
    struct newton_problem prob = {.n = n,
                                  .ctx = &c,
                                  .phi = fb_eval_phi,
                                  .jacobian = fb_eval_jacobian,
                                  .converged = fb_converged,
                                  .diag_shift = c.prox > 0.0 && cp_is_linear(p) ? c.shift : NULL,
                                  .direction = active_set ? fb_active_direction : NULL};
    int stalled = 0;
    err = fb_run(&d->fb, ns, &prob, z, r, &stalled);
    if (!err && active_set && fb_retry_without_direction(r->status))
      err = fb_rerun_plain_newton(&d->fb, ns, &prob, z_start, stalled, z, r);
  }
  free(c.F);
  free(c.zF);
  free(c.y);
  free(c.beta);
  free(c.shift);
  free(c.J);
  free(c.A);
  free(c.rhs);
  free(c.inactive);
  free(c.ipiv);
  free(z_start);
  return err;
}

/* What an island's run needs besides its problem (solver_solve_islands). */
struct fb_island_ctx {
  const struct solver *s;
  double scale;
};

static int fb_island(void *vctx, const struct cp_problem *sub, double *z, struct solve_result *r)
{
  const struct fb_island_ctx *c = vctx;
  return fb_solve_one(c->s, sub, c->scale, z, r);
}

static int fb_solve(struct solver *s, const struct cp_problem *p, double *z, struct solve_result *r)
{
  const struct fb_dense *d = s->data;
  int n = p->n, err = 0;
  size_t nn = n > 0 ? (size_t)n : 1;
  double *work = malloc(nn * sizeof *work);
  struct cp_check chk;
  if (!work || cp_check(p, z, work, &chk) != 0) {
    err = 1;
  } else if (chk.nonfinite) {
    r->status = SOLVE_NAN_OR_INF;
    snprintf(r->message, sizeof r->message, "NaN or Inf in the problem data or the initial point");
  } else {
    struct fb_island_ctx c = {s, chk.scale};
    err = d->islands ? solver_solve_islands(p, z, r, fb_island, &c) : fb_solve_one(s, p, chk.scale, z, r);
  }
  free(work);
  return err;
}

static void fb_destroy(struct solver *s)
{
  free(s->data);
  s->data = NULL;
}

static void fb_view(const struct solver *s, FILE *out)
{
  const struct fb_data *d = &((const struct fb_dense *)s->data)->fb;
  fprintf(out,
          "  Armijo sigma %g (-fb_newton_sigma), backtracking ratio %g (-fb_newton_beta), max backtracks %d "
          "(-fb_newton_max_backtracks), descent test rho %g p %g (-fb_newton_rho, -fb_newton_p), "
          "Levenberg-Marquardt fallback %d (-fb_newton_lm) below step %g (-fb_newton_lm_below), a failed run "
          "again without it %d (-fb_newton_retry_plain)\n",
          d->ns.sigma, d->ns.beta, d->ns.max_backtracks, d->ns.rho, d->ns.p, d->ns.levenberg_marquardt,
          d->ns.lm_below, d->retry_plain);
}

const struct solver_type solver_type_fb_newton = {
    .name = "fb_newton",
    .summary = "semismooth Newton on Fischer-Burmeister (Billups for boxes), Armijo + gradient fallback",
    .kinds = CP_LCP | CP_MLCP | CP_BOX_MCP | CP_NCP,
    .create = fb_create,
    .options = fb_options,
    .n_options = (int)(sizeof fb_options / sizeof fb_options[0]),
    .solve = fb_solve,
    .destroy = fb_destroy,
    .view = fb_view,
};
