/* test_anitescu_hart.c — Anitescu-Hart Sec. 4: LCP1 (anitescu_hart_lcp1) and LCP2 (anitescu_hart_lcp2)
 * against LCP0 (anitescu_potra, eq. 6-7). Known answers, on the 21-disc cannonball (6 on the bottom,
 * h = 0.05): at mu = 0.05 LCP1 converges in a handful of fixed-point rounds (Theorem 4.1) and its answer,
 * written as [v; c_n; beta = mu y; lambda = Lambda(v)], satisfies (6)-(7) up to mu * TOL (only the normal
 * rows can be off, by mu |Lambda(k) - Lambda(k-1)|); LCP2's normal velocity error on every pushing contact
 * is mu Lambda_j(v) and the nv_error observer reports it; at mu = 0 it is 0 and LCP0, LCP1, LCP2 give the
 * same trajectory. LCP1 answers agree across solvers (lemke, tao_bqpip, pgs); the iteration cap gives status
 * max_iterations, as does LCP0's -cp_max_it pivot limit; joints (5-link chain) match LCP0; the 3D pyramid
 * of Sec. 3 stays at rest. */
#include "check.h"
#include "formulation.h"
#include "jacobian.h"
#include "observers.h"
#include "scenes.h"

#include <math.h>
#include <petscsys.h>
#include <stdlib.h>
#include <string.h>

static const double h = 0.05;

struct sim {
  struct world *w;
  struct formulation *f;
  struct solver *s;
  struct stepper *st;
};

static int sim_open(struct sim *m, struct world *w, const char *formulation, const char *solver)
{
  m->w = w, m->f = NULL, m->s = NULL, m->st = NULL;
  if (w) w->threshold = 0.01;
  return !w || formulation_create(formulation, &m->f, NULL, 0) || solver_create(solver, &m->s, NULL, 0) ||
         stepper_create(&m->st);
}

static void sim_close(struct sim *m)
{
  stepper_destroy(&m->st);
  solver_destroy(&m->s);
  formulation_destroy(&m->f);
  world_destroy(&m->w);
}

/* One step with the normal-velocity-error observer around it (what the run loop does); its stats then
 * hold the step's nv_error_mean / nv_error_max. */
static int step_nv(struct sim *m, struct run_observer *o, long k, struct step_record *rec)
{
  struct simulation s = {.w = m->w, .f = m->f, .s = m->s, .st = m->st};
  if (o->before_step(o->ctx, &s, k, h) != RUN_CONTINUE || stepper_step(m->st, m->w, m->f, m->s, h, rec))
    return 1;
  return o->after_step(o->ctx, &s, k, rec) != RUN_CONTINUE;
}

/* dst takes src's state (same scene, so the same bodies and shapes). */
static void world_copy_state(struct world *dst, const struct world *src)
{
  for (int i = 0; i < src->nb; i++)
    dst->bodies[i] = src->bodies[i];
  dst->t = src->t;
}

/* Lambda_j(v) = max(0, max_l -d_jl' v) (eq. 17) with anitescu_potra's directions, at w's state. */
static double contact_lambda(const struct world *w, const struct contact *c, int kf, const double *nu)
{
  double dirs[3 * 16], lam = 0.0;
  formulation_tangents(w->dim, c->n, kf, dirs);
  for (int l = 0; l < kf; l++) {
    struct jcol col;
    jcol_contact(w, c, dirs + 3 * l, &col);
    lam = fmax(lam, -jcol_dot(&col, nu));
  }
  return lam;
}

/* The residual in eq. 6-7 (anitescu_potra at w0, the step-start state) of an anitescu_hart answer y with
 * velocities nu: c_n = sum_l y_jl, beta_jl = mu_j y_jl, lambda = Lambda(nu). Checker scale included. */
static double residual_in_ap(const struct world *w0, const struct contact_set *cs, const double *y,
                             const double *nu)
{
  struct formulation *ap = NULL;
  struct cp_problem *p = NULL;
  double *z = NULL, res = INFINITY;
  int kf = 2, nd = w0->ndof, nc = cs->n;
  if (formulation_create("anitescu_potra", &ap, NULL, 0) || ap->type->assemble(ap, w0, cs, h, &p))
    goto cleanup;
  z = calloc((size_t)p->n, sizeof *z);
  if (!z) goto cleanup;
  memcpy(z, nu, (size_t)nd * sizeof *z);
  for (int j = 0; j < nc; j++) {
    double mu = cs->c[j].mu;
    for (int l = 0; l < kf; l++) {
      z[nd + j] += y[j * kf + l];
      z[nd + nc + j * kf + l] = mu * y[j * kf + l];
    }
    z[nd + nc + nc * kf + j] = contact_lambda(w0, &cs->c[j], kf, nu);
  }
  struct cp_check c;
  if (cp_check(p, z, NULL, &c) == 0 && !c.nonfinite) res = fmax(c.natural, c.equality) / c.scale;
cleanup:
  free(z);
  cp_destroy(&p);
  formulation_destroy(&ap);
  return res;
}

static void test_lcp1_cannonball(void)
{
  const double mu = 0.05, tol = 1e-5;
  struct sim m;
  struct world *w0 = scene_cannonball(6, 1.0, mu, 0);
  double *nu = NULL;
  int steps = 4, failed = 0, fp_min = 1 << 30, fp_max = 0;
  double worst = 0.0, nv_max = 0.0;
  struct run_observer o = {0};
  struct run_nv_stats nv;
  if (!w0 || sim_open(&m, scene_cannonball(6, 1.0, mu, 0), "anitescu_hart_lcp1", "lemke") ||
      run_observer_nv_error(&o, &nv) || !(nu = malloc((size_t)w0->ndof * sizeof *nu))) {
    CHECK(0, "LCP1 cannonball: set up");
    goto cleanup;
  }
  w0->threshold = 0.01;
  for (int k = 0; k < steps; k++) {
    struct step_record rec;
    world_copy_state(w0, m.w);
    if (step_nv(&m, &o, k + 1, &rec)) break;
    failed += rec.failed;
    fp_min = rec.fp_iterations < fp_min ? rec.fp_iterations : fp_min;
    fp_max = rec.fp_iterations > fp_max ? rec.fp_iterations : fp_max;
    nv_max = fmax(nv_max, nv.last_max);
    int nz;
    const double *y = stepper_solution(m.st, &nz);
    world_get_velocity(m.w, nu);
    worst = fmax(worst, residual_in_ap(w0, stepper_contacts(m.st), y, nu));
  }
  CHECK(failed == 0, "LCP1 cannonball 21, mu 0.05: every step converged (%d failed)", failed);
  CHECK(fp_min >= 2 && fp_max <= 12, "LCP1: a handful of fixed-point rounds per step (%d .. %d)", fp_min,
        fp_max);
  CHECK(worst <= mu * tol, "LCP1: its answer satisfies (6)-(7) to mu TOL = %g (worst residual %.2e)",
        mu * tol, worst);
  CHECK(nv_max <= mu * tol, "LCP1: normal velocity error <= mu TOL (max %.2e)", nv_max);
cleanup:
  run_observers_destroy(&o, 1);
  free(nu);
  world_destroy(&w0);
  sim_close(&m);
}

/* LCP2: error of contact j = mu Lambda_j(v), recomputed here from the step-start state. */
static void test_lcp2_error(double mu)
{
  struct sim m;
  struct world *w0 = scene_cannonball(6, 1.0, mu, 0);
  double *nu = NULL, worst_gap = 0.0, max_mu_lambda = 0.0, max_rec = 0.0, rec_max = 0.0;
  int failed = 0, counted = 0;
  struct run_observer o = {0};
  struct run_nv_stats nv;
  if (!w0 || sim_open(&m, scene_cannonball(6, 1.0, mu, 0), "anitescu_hart_lcp2", "lemke") ||
      run_observer_nv_error(&o, &nv) || !(nu = malloc((size_t)w0->ndof * sizeof *nu))) {
    CHECK(0, "LCP2 mu %g: set up", mu);
    goto cleanup;
  }
  w0->threshold = 0.01;
  for (int k = 0; k < 4; k++) {
    struct step_record rec;
    world_copy_state(w0, m.w);
    if (step_nv(&m, &o, k + 1, &rec)) break;
    failed += rec.failed + (rec.fp_iterations != 1);
    world_get_velocity(m.w, nu);
    const struct contact_set *cs = stepper_contacts(m.st);
    const double *pn = stepper_impulses(m.st);
    double step_max = 0.0;
    for (int j = 0; j < cs->n; j++) {
      if (!(pn[j] > 1e-8 * rec.solve.scale)) continue;
      struct jcol col;
      jcol_contact(w0, &cs->c[j], cs->c[j].n, &col);
      double err = jcol_dot(&col, nu) + cs->c[j].gap / h, ml = mu * contact_lambda(w0, &cs->c[j], 2, nu);
      worst_gap = fmax(worst_gap, fabs(err - ml));
      step_max = fmax(step_max, ml);
      counted++;
    }
    max_mu_lambda = fmax(max_mu_lambda, step_max);
    max_rec = fmax(max_rec, fabs(nv.last_max - step_max));
    rec_max = fmax(rec_max, nv.last_max);
  }
  CHECK(failed == 0 && counted > 0, "LCP2 mu %g: 4 steps converged in one round each (%d pushing contacts)",
        mu, counted);
  CHECK(worst_gap <= 1e-12,
        "LCP2 mu %g: normal velocity error n'v + gap/h = mu Lambda(v) on pushing contacts "
        "(max deviation %.1e; max mu lambda %.3e)",
        mu, worst_gap, max_mu_lambda);
  CHECK(max_rec <= 1e-12, "LCP2 mu %g: the nv_error observer's step max is that max (deviation %.1e)", mu,
        max_rec);
  if (mu == 0.0)
    CHECK(rec_max <= 1e-12, "LCP2 mu 0: the error is 0 (nv_error_max %.1e)", rec_max);
  else
    CHECK(max_mu_lambda > 1e-3, "LCP2 mu %g: the error is visible (%.3e)", mu, max_mu_lambda);
cleanup:
  run_observers_destroy(&o, 1);
  free(nu);
  world_destroy(&w0);
  sim_close(&m);
}

/* Trajectories of several (formulation, solver) pairs from the same scene: max velocity difference. */
static double trajectory_gap(struct world *(*scene)(double), double param, const char *const *forms,
                             const char *const *solvers, int nmeth, int steps, int *failed, int *fp_max)
{
  struct sim m[4];
  double gap = -1.0, *nu0 = NULL, *nu = NULL;
  *failed = 0, *fp_max = 0;
  int opened = 0;
  for (; opened < nmeth; opened++)
    if (sim_open(&m[opened], scene(param), forms[opened], solvers[opened])) {
      opened++;
      goto cleanup;
    }
  nu0 = malloc((size_t)m[0].w->ndof * sizeof *nu0);
  nu = malloc((size_t)m[0].w->ndof * sizeof *nu);
  if (!nu0 || !nu) goto cleanup;
  gap = 0.0;
  for (int k = 0; k < steps; k++)
    for (int i = 0; i < nmeth; i++) {
      struct step_record rec;
      if (stepper_step(m[i].st, m[i].w, m[i].f, m[i].s, h, &rec)) {
        gap = -1.0;
        goto cleanup;
      }
      *failed += rec.failed;
      if (rec.fp_iterations > *fp_max) *fp_max = rec.fp_iterations;
      world_get_velocity(m[i].w, i == 0 ? nu0 : nu);
      for (int d = 0; i > 0 && d < m[0].w->ndof; d++)
        gap = fmax(gap, fabs(nu[d] - nu0[d]));
    }
cleanup:
  for (int i = 0; i < opened; i++)
    sim_close(&m[i]);
  free(nu0);
  free(nu);
  return gap;
}

static struct world *cannonball(double mu) { return scene_cannonball(6, 1.0, mu, 0); }
static struct world *chain(double theta0) { return scene_chain_2d(5, 0.5, 1.0, theta0); }
static struct world *pyramid(double mu) { return scene_hex_pyramid(1.0, 1.5, 1.0, mu); }

static void test_agreement(void)
{
  const char *const forms[] = {"anitescu_potra", "anitescu_hart_lcp1", "anitescu_hart_lcp2"};
  const char *const lemke3[] = {"lemke", "lemke", "lemke"};
  int failed, fp;
  double gap = trajectory_gap(cannonball, 0.0, forms, lemke3, 3, 6, &failed, &fp);
  CHECK(gap >= 0.0 && gap <= 1e-9 && failed == 0 && fp == 1,
        "mu 0, cannonball 21, 6 steps: LCP0, LCP1, LCP2 give the same velocities (max diff %.1e, %d failed, "
        "LCP1 rounds <= %d)",
        gap, failed, fp);
  gap = trajectory_gap(cannonball, 0.05, forms, lemke3, 2, 1, &failed, &fp);
  CHECK(gap >= 0.0 && gap <= 1e-5 && failed == 0,
        "mu 0.05, cannonball 21, first step: LCP1's velocity is LCP0's (max diff %.1e)", gap);
  const char *const lcp1x3[] = {"anitescu_hart_lcp1", "anitescu_hart_lcp1", "anitescu_hart_lcp1"};
  const char *const solvers[] = {"lemke", "tao_bqpip", "pgs"};
  gap = trajectory_gap(cannonball, 0.05, lcp1x3, solvers, 3, 2, &failed, &fp);
  CHECK(gap >= 0.0 && gap <= 1e-5 && failed == 0,
        "mu 0.05: LCP1 through lemke, tao_bqpip and pgs agree over 2 steps (max diff %.1e, %d failed)", gap,
        failed);
  gap = trajectory_gap(chain, M_PI / 3, forms, lemke3, 3, 50, &failed, &fp);
  CHECK(gap >= 0.0 && gap <= 1e-9 && failed == 0,
        "5-link chain (joints, no contacts), 50 steps: LCP1 and LCP2 match LCP0 (max diff %.1e)", gap);
  gap = trajectory_gap(pyramid, 0.3, forms, lemke3, 3, 5, &failed, &fp);
  CHECK(gap >= 0.0 && gap <= 1e-9 && failed == 0,
        "3D hexagonal pyramid at rest, mu 0.3, 5 steps: LCP0, LCP1, LCP2 agree (max diff %.1e)", gap);
}

static void test_pyramid_rest(void)
{
  struct sim m;
  double vmax = 0.0;
  int failed = 0;
  if (sim_open(&m, pyramid(0.3), "anitescu_hart_lcp1", "lemke")) {
    CHECK(0, "pyramid LCP1: set up");
    sim_close(&m);
    return;
  }
  double z0 = m.w->bodies[1].x[2];
  for (int k = 0; k < 10; k++) {
    struct step_record rec;
    if (stepper_step(m.st, m.w, m.f, m.s, h, &rec)) break;
    failed += rec.failed;
    for (int d = 0; d < 3; d++)
      vmax = fmax(vmax, fmax(fabs(m.w->bodies[1].v[d]), fabs(m.w->bodies[1].w[d])));
  }
  CHECK(failed == 0 && vmax <= 1e-10 && fabs(m.w->bodies[1].x[2] - z0) <= 1e-10,
        "3D pyramid, LCP1, 10 steps: stays at rest (max velocity %.1e)", vmax);
  sim_close(&m);
}

static void test_cap(void)
{
  struct sim m;
  char msg[256] = "";
  int bad = sim_open(&m, cannonball(0.05), "anitescu_hart_lcp1", "lemke") ||
            formulation_set_option(m.f, "-anitescu_hart_max_iterations", "2", msg, sizeof msg);
  struct step_record rec;
  if (bad || stepper_step(m.st, m.w, m.f, m.s, h, &rec)) {
    CHECK(0, "LCP1 cap: set up %s", msg);
  } else {
    CHECK(
        rec.fp_iterations == 2 && rec.solve.status == SOLVE_MAX_ITERATIONS && rec.failed && rec.advanced,
        "LCP1 with -anitescu_hart_max_iterations 2: 2 rounds, status max_iterations, state advanced (%d, %s)",
        rec.fp_iterations, solve_status_name(rec.solve.status));
  }
  sim_close(&m);
}

/* LCP0's pivot limit is an option (-cp_max_it; the paper's MAX ITER is 10,000): with 50, Lemke stops there.
 */
static void test_lcp0_limit(void)
{
  struct sim m;
  char msg[256] = "";
  int bad = sim_open(&m, cannonball(0.05), "anitescu_potra", "lemke") ||
            solver_set_option(m.s, "-cp_max_it", "50", msg, sizeof msg);
  struct step_record rec;
  if (bad || stepper_step(m.st, m.w, m.f, m.s, h, &rec)) {
    CHECK(0, "LCP0 pivot limit: set up %s", msg);
  } else {
    CHECK(
        rec.solve.status == SOLVE_MAX_ITERATIONS && rec.solve.iterations == 50,
        "LCP0 with -cp_max_it 50 (21 discs need ~146 pivots): status max_iterations after 50 pivots (%s, %d)",
        solve_status_name(rec.solve.status), rec.solve.iterations);
  }
  sim_close(&m);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  test_lcp1_cannonball();
  test_lcp2_error(0.05);
  test_lcp2_error(0.0);
  test_agreement();
  test_pyramid_rest();
  test_cap();
  test_lcp0_limit();
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
