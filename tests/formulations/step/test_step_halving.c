/* test_step_halving.c — the stepper's retry of a failed step as two half steps (-step_halvings, stepper.c)
 * and the geometrically implicit options that let the registered formulation step the grasp study's world
 * (-geometric_implicit_equilibrate, -geometric_implicit_creep). One grasp trial (scene grasp at (-9.5,
 * -17.5) mm, medium friction, a tripod and coefficients drawn by bench_grasp): fb_newton on the step's NCP in
 * SI units stalls at the first finger contact (impulses of 1e-5 N s beside centimetre lengths); equilibrated,
 * it stalls later without halving and the trial ends as solver_failure; with 8 halvings every step is solved
 * and the trial ends classified, the halved steps counted in the run summary; the contacts' impulses of a
 * halved step are scaled to a step of h (grasp_run.c). The explicit step (stewart_trinkle, Lemke) never
 * fails there, so -step_halvings 8 leaves its trial bit for bit as it was. The cold retry
 * (-step_cold_retry, stepper.c): a second trial (scene grasp at (0.5, -15.5) mm) whose first finger contact
 * no halving lets Newton solve from the warm start (the last step's answers) is solved from the cold one.
 * The physics checks judge a halved step half by half (stepper_on_substep), a step not halved as before. */
#include "check.h"
#include "grasp_fixture.h"
#include "physics_check.h"
#include "stepper.h"

#include <math.h>
#include <petscsys.h>
#include <stdlib.h>
#include <string.h>

static struct grasp_world_settings settings; /* grasp_fixture_drawn(), moved by test_cold_retry */

/* One trial of settings (grasp_fixture_run). */
static int run_trial(const char *formulation, const char *solver, const char *const *opts,
                     struct grasp_result *r)
{
  return grasp_fixture_run(&settings, formulation, solver, opts, r);
}

static void test_implicit(void)
{
  struct grasp_result raw = {0}, plain = {0}, halved = {0};
  const char *const si[] = {"-step_halvings", "8", NULL};
  const char *const eq[] = {"-geometric_implicit_equilibrate", "1", NULL};
  const char *const eq8[] = {"-geometric_implicit_equilibrate", "1", "-step_halvings", "8", NULL};
  int rc = run_trial("geometric_implicit", "fb_newton", si, &raw);
  CHECK(
      rc == 0 && raw.outcome == GRASP_SOLVER_FAILURE && raw.t < 0.5,
      "geometric_implicit in SI units: fb_newton stalls near the first contact even with 8 halvings (t %g s, "
      "outcome %s)",
      raw.t, grasp_outcome_name(raw.outcome));
  rc = run_trial("geometric_implicit", "fb_newton", eq, &plain);
  CHECK(rc == 0 && plain.outcome == GRASP_SOLVER_FAILURE && plain.halved == 0 && plain.t > raw.t,
        "equilibrated without halving: later, still a failed step (t %g s, outcome %s)", plain.t,
        grasp_outcome_name(plain.outcome));
  rc = run_trial("geometric_implicit", "fb_newton", eq8, &halved);
  CHECK(rc == 0 && halved.outcome != GRASP_SOLVER_FAILURE && halved.halved > 0 && halved.t > plain.t,
        "equilibrated with 8 halvings: every step solved, the trial classified (%s at t %g s, %d halved)",
        grasp_outcome_name(halved.outcome), halved.t, halved.halved);
  CHECK(halved.steps > plain.steps, "the halved trial takes more steps than the one that failed (%ld > %ld)",
        halved.steps, plain.steps);
}

/* The first finger contact at (0.5, -15.5) mm (medium friction; draws of bench_grasp's quick grid, task 60,
 * the tripod rounded to 4 digits): with 8 halvings alone the trial ends as solver_failure at t ~ 0.34 s;
 * with the cold retry every step is solved and the trial ends with the fingertips on the outer teeth. */
static void test_cold_retry(void)
{
  const struct grasp_world_settings keep = settings;
  settings.x = 0.5, settings.y = -15.5;
  settings.mu_support = 0.51855894592590634, settings.mu_grip = 0.63473999492358413;
  const double tripod[3][2] = {{-13.88, -1.488}, {8.589, -9.14}, {7.662, 5.255}};
  memcpy(settings.tripod, tripod, sizeof tripod);
  struct grasp_result warm = {0}, cold = {0};
  const char *const eq8[] = {"-geometric_implicit_equilibrate",
                             "1",
                             "-geometric_implicit_creep",
                             "2e-5",
                             "-step_halvings",
                             "8",
                             NULL};
  const char *const *eq8c = grasp_fixture_implicit; /* the same with -step_cold_retry 1 */
  int rc = run_trial("geometric_implicit", "fb_newton", eq8, &warm);
  CHECK(rc == 0 && warm.outcome == GRASP_SOLVER_FAILURE && warm.retries == 0 && fabs(warm.t - 0.34) < 0.01,
        "8 halvings from the warm start: the first finger contact fails (%s at t %g s)",
        grasp_outcome_name(warm.outcome), warm.t);
  rc = run_trial("geometric_implicit", "fb_newton", eq8c, &cold);
  CHECK(rc == 0 && cold.outcome == GRASP_OUTER_TEETH && cold.retries > 0 && cold.at_rest,
        "with the cold retry: every step solved, at rest on the outer teeth (%s, %d cold retries, %d halved)",
        grasp_outcome_name(cold.outcome), cold.retries, cold.halved);
  settings = keep;
}

/* What the physics checks read of a halved step, judged two ways by an observer beside the physics observer
 * (run_observer_physics, which judges each kept half by the stepper's substep hook): the whole step's state
 * change with the last half's contacts and impulses (the way they were judged before the hook), and the
 * physics observer's values for the step. */
struct whole_step_judge {
  struct run_observer *phys;
  struct body *start; /* the bodies at the step start (world_bodies_save) */
  int cap, nb;
  double h;
  long plain_steps, plain_equal, halved_steps;
  double halved_whole_coulomb, halved_coulomb; /* worst over the halved steps */
  double plain_coulomb;                        /* worst over the others */
};

static int judge_before(void *vctx, struct simulation *sim, long k, double h)
{
  (void)k;
  struct whole_step_judge *c = vctx;
  c->nb = sim->w->nb;
  c->h = h;
  return world_bodies_save(sim->w, &c->start, &c->cap) ? RUN_ERROR : RUN_CONTINUE;
}

static int judge_after(void *vctx, const struct simulation *sim, long k, const struct step_record *rec)
{
  (void)k;
  struct whole_step_judge *c = vctx;
  if (!rec->advanced) return RUN_CONTINUE;
  struct world w0 = *sim->w;
  w0.bodies = c->start;
  w0.nb = c->nb;
  struct physics_step whole;
  double v[PHYSICS_N_CHECKS];
  if (physics_check_step(&w0, sim->w, stepper_contacts(sim->st), stepper_impulses(sim->st),
                         stepper_drive_impulse(sim->st), stepper_velocity(sim->st), c->h, &whole))
    return RUN_ERROR;
  c->phys->values(c->phys->ctx, v);
  if (rec->halvings == 0) {
    c->plain_steps++;
    int equal = 1;
    for (int j = 0; j < PHYSICS_N_CHECKS; j++)
      equal = equal && v[j] == whole.v[j];
    c->plain_equal += equal;
    c->plain_coulomb = fmax(c->plain_coulomb, v[2]);
  } else {
    c->halved_steps++;
    c->halved_whole_coulomb = fmax(c->halved_whole_coulomb, whole.v[2]);
    c->halved_coulomb = fmax(c->halved_coulomb, v[2]);
  }
  return RUN_CONTINUE;
}

/* The physics checks of a halved step judge each half with its own start state, contacts, impulses and
 * length: the whole step's state change with the last half's impulses reads friction outside the cone that
 * no half has (the trial of test_implicit, equilibrated with 8 halvings), while a step not halved is
 * judged exactly as before. */
static void test_physics_of_halves(void)
{
  const struct grasp_trial_opts o = grasp_fixture_opts();
  struct world *w = NULL;
  char msg[256];
  struct run_physics_stats stats;
  struct run_observer obs[2];
  struct whole_step_judge judge = {.phys = &obs[0]};
  struct grasp_result r = {0};
  struct simulation sim;
  const char *const eq8[] = {"-geometric_implicit_equilibrate", "1", "-step_halvings", "8", NULL};
  PetscOptions po = test_options_object(eq8);
  int rc = grasp_world_build(&settings, &w, msg, sizeof msg) || run_observer_physics(&obs[0], &stats);
  obs[1] = (struct run_observer){
      .name = "whole step", .ctx = &judge, .before_step = judge_before, .after_step = judge_after};
  rc = rc || simulation_open(&sim, w, "geometric_implicit", "fb_newton", po) ||
       grasp_run_trial(&sim, &settings, &o, obs, 2, &r);
  CHECK(rc == 0 && r.halved > 0 && judge.halved_steps > 0 && judge.plain_steps > 100,
        "the trial runs with halved steps (%ld halved, %ld not; %s)", judge.halved_steps, judge.plain_steps,
        rc ? r.message : grasp_outcome_name(r.outcome));
  CHECK(judge.plain_equal == judge.plain_steps,
        "a step not halved: the same values as the whole step's (%ld of %ld)", judge.plain_equal,
        judge.plain_steps);
  CHECK(
      judge.halved_coulomb <= 2.0 * judge.plain_coulomb &&
          judge.halved_whole_coulomb > 1e2 * judge.halved_coulomb,
      "halved steps: worst Coulomb excess %.3g N s judged by halves (steps not halved: %.3g), %.3g judged as "
      "a whole with the last half's impulses",
      judge.halved_coulomb, judge.plain_coulomb, judge.halved_whole_coulomb);
  simulation_close(&sim);
  run_observers_destroy(obs, 1);
  free(judge.start);
  PetscOptionsDestroy(&po);
}

static void test_explicit_unchanged(void)
{
  struct grasp_result a = {0}, b = {0};
  const char *const h8[] = {"-step_halvings", "8", NULL};
  int rc = run_trial("stewart_trinkle", "lemke", NULL, &a) || run_trial("stewart_trinkle", "lemke", h8, &b);
  CHECK(rc == 0 && a.outcome != GRASP_SOLVER_FAILURE && b.halved == 0 && a.steps == b.steps &&
            max_abs_diff(a.q, b.q, 4) == 0.0 && a.outcome == b.outcome,
        "stewart_trinkle: no step fails, so -step_halvings 8 changes nothing (%s, %ld steps)",
        grasp_outcome_name(a.outcome), a.steps);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  settings = grasp_fixture_drawn();
  test_implicit();
  test_explicit_unchanged();
  test_cold_retry();
  test_physics_of_halves();
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
