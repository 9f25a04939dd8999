/* grasp_run.h — one trial of the grasp study (Chakraborty et al. Sec. 6.4) stepped by the one run loop
 * (run.h) with a registered formulation and solver, on the world of scene "grasp" (grasp_world.h). The
 * experiment's rules hang on the loop as one observer: the free closing before the first touch is skipped
 * (the part still, the jaws at their commanded speed, no pair within the margin: the jaws advance in one go
 * to half the margin from the part); a step whose solve does not converge ends the trial (solver_failure);
 * the trial ends when the fingers meet (nothing held), at rest (every speed below rest_speed for
 * rest_steps steps with a finger loaded) or at t_max; the final grasp is classified from the last step's
 * loaded contacts (grasp_classify). */
#ifndef CB_GRASP_RUN_H
#define CB_GRASP_RUN_H

#include "grasp_world.h"
#include "run.h"

/* Runs the trial on sim (its world made by grasp_world_build with scene settings sc) and fills r (steps,
 * time, skipped time, the final state as (x_g, y_g, theta_g, s), the loaded contacts, solver costs). The
 * observers more[0 .. n_more) (a driver's trace, physics checks; n_more at most GRASP_RUN_MORE) follow the
 * trial's own. 0, or 1 on an internal error (the message is in r->message). */
#define GRASP_RUN_MORE 4
int grasp_run_trial(struct simulation *sim, const struct grasp_world_settings *sc,
                    const struct grasp_trial_opts *o, const struct run_observer *more, int n_more,
                    struct grasp_result *r);

#endif
