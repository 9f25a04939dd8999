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
 * no halving lets Newton solve from the warm start (the last step's answers) is solved from the cold one. */
#include "check.h"
#include "grasp_fixture.h"

#include <math.h>
#include <petscsys.h>
#include <string.h>

static struct grasp_world_settings settings = {.x = -9.5,
                                               .y = -17.5,
                                               .mass = 0.03,
                                               .jaw_mass = 0.05,
                                               .close_speed = 0.02,
                                               .close_force = 1.0,
                                               .damping = 0.0,
                                               .g = 9.81,
                                               .dirs = 8,
                                               .mu_support = 0.49059957392513753,
                                               .mu_grip = 0.62078055194579074,
                                               .tripod = {{10.59, -3.034}, {-8.015, 15.05}, {0.4318, -7.289}},
                                               .start_clear = 2e-4,
                                               .margin = 5e-4};

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
  test_implicit();
  test_explicit_unchanged();
  test_cold_retry();
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
