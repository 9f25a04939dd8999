/* grasp_fixture.h — the hand-placed grasp trials' fixed model (test_grasp.c, test_grasp_implicit.c): the
 * bench_grasp defaults with both friction coefficients mu, a symmetric tripod of radius 12 mm (its normal
 * forces from statics), and the trial options. */
#ifndef CB_GRASP_FIXTURE_H
#define CB_GRASP_FIXTURE_H

#include "grasp.h"

#include <math.h>

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
                                   .start_clear = 2e-4,
                                   .creep = 1e-3,
                                   .halvings = 8,
                                   .warm_start = 1};
}

#endif
