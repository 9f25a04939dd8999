/* grasp_fixture.h — the hand-placed grasp trials' fixed model (test_grasp.c, test_step_halving.c): the
 * bench_grasp defaults with both friction coefficients mu, a symmetric tripod of radius 12 mm (its normal
 * forces from statics), the trial options, and one trial on scene grasp with a registered formulation by
 * the run loop (as bench_grasp runs it). */
#ifndef CB_GRASP_FIXTURE_H
#define CB_GRASP_FIXTURE_H

#include "check.h"
#include "grasp.h"
#include "grasp_run.h"
#include "grasp_world.h"
#include "solver_fixture.h"

#include <math.h>
#include <petscsys.h>

static inline struct grasp_params grasp_fixture_params(double mu, double support_damping)
{
  struct grasp_params p = {.mass = 0.03,
                           .inertia = 0.5 * 0.03 * GRASP_DISC_RADIUS * GRASP_DISC_RADIUS,
                           .jaw_mass = 0.05,
                           .close_speed = 0.02,
                           .close_force = 1.0,
                           .mu_support = mu,
                           .mu_grip = mu,
                           .support_damping = support_damping,
                           .g = 9.81,
                           .n_dirs = 8};
  for (int i = 0; i < 3; i++) {
    p.tripod[i][0] = 0.012 * cos(2 * M_PI * i / 3 + 0.5);
    p.tripod[i][1] = 0.012 * sin(2 * M_PI * i / 3 + 0.5);
  }
  grasp_tripod_statics(p.tripod, p.mass, p.g, p.normal);
  return p;
}

static inline struct grasp_trial_opts grasp_fixture_opts(void)
{
  return (struct grasp_trial_opts){.h = 1e-3,
                                   .t_max = 2.0,
                                   .rest_speed = 1e-5,
                                   .rest_steps = 10,
                                   .margin = 5e-4,
                                   .s_min = 5e-4,
                                   .start_clear = 2e-4};
}

/* One drawn trial (test_step_halving, test_implicit_cone_row): scene grasp at (-9.5, -17.5) mm, medium
 * friction, a tripod and coefficients as bench_grasp drew them. */
static inline struct grasp_world_settings grasp_fixture_drawn(void)
{
  return (struct grasp_world_settings){.x = -9.5,
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
}

/* What bench_grasp gives geometric_implicit on this world (its GRASP_DEFAULTS), option / value pairs. */
static const char *const grasp_fixture_implicit[] = {"-geometric_implicit_equilibrate",
                                                     "1",
                                                     "-geometric_implicit_creep",
                                                     "2e-5",
                                                     "-step_halvings",
                                                     "8",
                                                     "-step_cold_retry",
                                                     "1",
                                                     NULL};

/* One trial on scene grasp with the settings sc and the fixture's trial options, formulation and solver by
 * name with the option / value pairs opts (NULL-terminated, or NULL), by the run loop. 0, or 1 (a failed
 * CHECK says why) when it could not be set up. */
static inline int grasp_fixture_run(const struct grasp_world_settings *sc, const char *formulation,
                                    const char *solver, const char *const *opts, struct grasp_result *r)
{
  const struct grasp_trial_opts o = grasp_fixture_opts();
  struct world *w = NULL;
  char msg[256];
  if (grasp_world_build(sc, &w, msg, sizeof msg)) {
    CHECK(0, "grasp world: %s", msg);
    return 1;
  }
  PetscOptions po = test_options_object(opts);
  struct simulation sim;
  int rc = simulation_open(&sim, w, formulation, solver, po) || grasp_run_trial(&sim, sc, &o, NULL, 0, r);
  if (rc)
    CHECK(0, "%s / %s trial at (%g, %g) mm could not run: %s", formulation, solver, sc->x, sc->y, r->message);
  simulation_close(&sim);
  PetscOptionsDestroy(&po);
  return rc;
}

/* One trial of the fixture's model with both coefficients mu, the gripper centre at (x, y) [m] from the
 * part's centre (grasp_fixture_run). */
static inline int grasp_fixture_trial(const char *formulation, const char *solver, const char *const *opts,
                                      double mu, double x, double y, struct grasp_result *r)
{
  const struct grasp_params p = grasp_fixture_params(mu, 0.0);
  const struct grasp_trial_opts o = grasp_fixture_opts();
  struct grasp_world_settings sc = {.x = 1e3 * x,
                                    .y = 1e3 * y,
                                    .mass = p.mass,
                                    .jaw_mass = p.jaw_mass,
                                    .close_speed = p.close_speed,
                                    .close_force = p.close_force,
                                    .damping = p.support_damping,
                                    .g = p.g,
                                    .dirs = p.n_dirs,
                                    .mu_support = p.mu_support,
                                    .mu_grip = p.mu_grip,
                                    .start_clear = o.start_clear,
                                    .margin = o.margin};
  for (int i = 0; i < 3; i++)
    sc.tripod[i][0] = 1e3 * p.tripod[i][0], sc.tripod[i][1] = 1e3 * p.tripod[i][1];
  return grasp_fixture_run(&sc, formulation, solver, opts, r);
}

#endif
