/* test_joint_block.c — bilateral joints in the velocity-eliminated formulations (joint_block.h: the joint
 * impulses as the free block of a mixed LCP, Anitescu & Hart eq. 6 rows): a 5-link chain released at 60
 * degrees (no contacts) follows the same trajectory under stewart_trinkle, corrective, peg and lnc as under
 * anitescu_potra, whose mixed LCP keeps the velocities as unknowns (the same equations solved another way,
 * so the states agree to round-off), with every joint within 1e-3 of closed over 2 s and no energy gained;
 * a simple pendulum under stewart_trinkle has the small-angle period 2 pi sqrt(L/g) within 1 %; and a link
 * pinned to the world resting on a box (joints and contacts in one problem) stays put with the contact
 * impulse and the joint reaction splitting the weight as statics says. */
#include "check.h"
#include "formulation.h"
#include "scenes.h"
#include "stepper.h"

#include <math.h>
#include <petscsys.h>
#include <string.h>

struct sim {
  struct formulation *f;
  struct solver *s;
  struct stepper *st;
};

static int sim_open(struct sim *m, const char *form)
{
  m->f = NULL, m->s = NULL, m->st = NULL;
  return formulation_create(form, &m->f, NULL, 0) || solver_create("lemke", &m->s, NULL, 0) ||
         stepper_create(&m->st);
}

static void sim_close(struct sim *m)
{
  stepper_destroy(&m->st);
  solver_destroy(&m->s);
  formulation_destroy(&m->f);
}

/* Runs the chain for `steps` steps; the final state in q (3 per body: x, y, theta). */
static int run_chain(const char *form, int steps, double *q, double *drift, double *e0, double *e1,
                     int *failed)
{
  struct world *w = scene_chain_2d(5, 0.5, 1.0, M_PI / 3);
  struct sim m;
  int rc = 1;
  *drift = 0.0, *failed = 0;
  if (!w || sim_open(&m, form)) goto cleanup;
  if (!formulation_supports(m.f, w)) goto cleanup;
  *e0 = world_energy(w);
  for (int i = 0; i < steps; i++) {
    struct step_record rec;
    if (stepper_step(m.st, w, m.f, m.s, 1e-3, &rec)) goto cleanup;
    *failed += rec.failed;
    double e = world_joint_gap(w);
    if (e > *drift) *drift = e;
    if (i == 0 && rec.rows.joint != 10) goto cleanup; /* 5 revolute joints, 2 rows each */
  }
  *e1 = world_energy(w);
  for (int b = 0; b < w->nb; b++)
    q[3 * b] = w->bodies[b].x[0], q[3 * b + 1] = w->bodies[b].x[1], q[3 * b + 2] = w->bodies[b].theta;
  rc = 0;
cleanup:
  sim_close(&m);
  world_destroy(&w);
  return rc;
}

static void test_chain(void)
{
  const int steps = 2000;
  double ref[15], q[15], drift, e0, e1;
  int failed;
  int bad = run_chain("anitescu_potra", steps, ref, &drift, &e0, &e1, &failed);
  CHECK(!bad && failed == 0, "chain: the anitescu_potra reference ran (%d failed solves)", failed);
  if (bad) return;
  const char *forms[] = {"stewart_trinkle", "corrective", "peg", "lnc"};
  for (int i = 0; i < 4; i++) {
    bad = run_chain(forms[i], steps, q, &drift, &e0, &e1, &failed);
    CHECK(!bad, "chain %s: ran with 10 joint rows per step", forms[i]);
    if (bad) continue;
    double dq = 0.0;
    for (int k = 0; k < 15; k++)
      dq = fmax(dq, fabs(q[k] - ref[k]));
    CHECK(failed == 0, "chain %s: every solve converged (%d failed)", forms[i], failed);
    CHECK(drift < 1e-3, "chain %s: joints within 1e-3 of closed over 2 s (max %g)", forms[i], drift);
    CHECK(e1 <= e0 + 1e-6 * fabs(e0) + 1e-9, "chain %s: energy does not grow (%g -> %g)", forms[i], e0, e1);
    CHECK(dq < 1e-8, "chain %s: the state after 2 s equals anitescu_potra's (max difference %.2e)", forms[i],
          dq);
  }
}

static void test_pendulum(void)
{
  const double L = 1.0, g = 9.81, h = 1e-3;
  struct world *w = scene_pendulum_2d(L, 1.0, 0.05);
  struct sim m;
  int failed = 0, crossings = 0;
  double t_first = 0.0, t_last = 0.0, prev = w->bodies[0].x[0];
  if (sim_open(&m, "stewart_trinkle")) {
    CHECK(0, "pendulum: set up");
    goto cleanup;
  }
  for (int i = 0; i < 8000; i++) {
    struct step_record rec;
    if (stepper_step(m.st, w, m.f, m.s, h, &rec)) break;
    failed += rec.failed;
    double x = w->bodies[0].x[0];
    if (prev > 0.0 && x <= 0.0) {
      double t = w->t - h * x / (x - prev);
      if (crossings == 0) t_first = t;
      t_last = t;
      crossings++;
    }
    prev = x;
  }
  double period = crossings > 1 ? (t_last - t_first) / (crossings - 1) : 0.0,
         exact = 2.0 * M_PI * sqrt(L / g);
  CHECK(failed == 0, "pendulum stewart_trinkle: every solve converged (%d failed)", failed);
  CHECK(fabs(period - exact) < 0.01 * exact, "pendulum stewart_trinkle: period %.6f vs 2 pi sqrt(L/g) = %.6f",
        period, exact);
cleanup:
  sim_close(&m);
  world_destroy(&w);
}

/* A uniform bar of length 2 (mass 1) pinned to the world at its left end (x = -1), resting on the top corner
 * of a static diamond at x = 0.5: the moments about the pin give the support m g 1 / 1.5 (averaged over the
 * run's second half), the pin the rest of the weight.
 * rest_tol: how far the bar may move, support_rtol: the support's relative tolerance (corrective pushes only
 * once the parts overlap, by about g h^2, and its push-out leaves a decaying bounce in the average). */
static void test_pinned_bar(const char *form, double rest_tol, double support_rtol)
{
  struct world *w = world_create(2);
  const double bar[8] = {-1.0, -0.05, 1.0, -0.05, 1.0, 0.05, -1.0, 0.05};
  const double box[8] = {0.5, -0.05, 0.0, -0.55, 0.5, -1.05, 1.0, -0.55};
  /* a body's shapes follow it: the static box first, then the bar */
  int s = world_add_body(w, 1, 0.0, 0.0);
  int ok = s >= 0 && world_add_polygon(w, s, 4, box) >= 0;
  int b = ok ? world_add_body(w, 0, 1.0, 1.0 * (4.0 + 0.01) / 12.0) : -1;
  ok = ok && b >= 0 && world_add_polygon(w, b, 4, bar) >= 0;
  double pa[3] = {-1.0, 0.0, 0.0}, pb[3] = {-1.0, 0.0, 0.0};
  ok = ok && world_add_joint(w, JOINT_REVOLUTE_2D, b, -1, pa, pb) >= 0;
  w->gravity[1] = -9.81;
  w->threshold = 0.01;
  ok = ok && world_finalize(w) == 0;
  struct sim m = {0};
  if (!ok || sim_open(&m, form)) {
    CHECK(0, "pinned bar %s: set up", form);
    goto cleanup;
  }
  int failed = 0;
  double pn_sum = 0.0;
  const int steps = 1000;
  for (int i = 0; i < steps; i++) {
    struct step_record rec;
    if (stepper_step(m.st, w, m.f, m.s, 1e-3, &rec)) break;
    failed += rec.failed;
    const struct contact_set *cs = stepper_contacts(m.st);
    const double *pn = stepper_impulses(m.st);
    for (int c = 0; c < cs->n && i >= steps / 2; c++)
      pn_sum += pn[c] * fabs(cs->c[c].n[1]); /* vertical part: corrective's normal is the overlap's axis */
  }
  const struct body *bd = &w->bodies[b];
  const int counted = steps - steps / 2; /* the second half */
  double support = pn_sum / ((double)counted * 1e-3);
  CHECK(failed == 0, "pinned bar %s: every solve converged (%d failed)", form, failed);
  CHECK(fabs(bd->x[0]) < rest_tol && fabs(bd->x[1]) < rest_tol && fabs(bd->theta) < rest_tol,
        "pinned bar %s: stays at rest (x %.2e, y %.2e, theta %.2e)", form, bd->x[0], bd->x[1], bd->theta);
  CHECK(fabs(support - 9.81 / 1.5) < support_rtol * 9.81 / 1.5,
        "pinned bar %s: mean vertical support %.6f vs m g / 1.5 = %.6f", form, support, 9.81 / 1.5);
cleanup:
  sim_close(&m);
  world_destroy(&w);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  test_chain();
  test_pendulum();
  test_pinned_bar("stewart_trinkle", 1e-9, 1e-9);
  test_pinned_bar("peg", 1e-9, 1e-9);
  test_pinned_bar("corrective", 2e-5, 1e-2);
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
