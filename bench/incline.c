/* NAME    bench_incline — block on an incline: a validation users can point at their own numbers.
 * PURPOSE for each (dim, theta, mu, h, formulation, solver) simulate a block released at rest on an
 *         incline for -t_end seconds and compare with Coulomb's answer: it sticks when tan theta <= mu
 *         (measured = drift along the slope, analytic 0) and otherwise slides with
 *         a = g (sin theta - mu cos theta) (measured = mean acceleration). Known answers: drift
 *         < 1e-9 after 1 s, a within 1e-6 relative at h = 1e-3 (status ok, else fail). In 3D the slide runs
 *         along a friction direction of the pyramid cone (formulation_tangents), where the pyramid bound
 *         equals mu p_n.
 * USAGE   bench_incline [-options_file bench/experiments/incline.opts] [-theta 10,30 (degrees)]
 *         [-mu 0.3,0.6] [-h 1e-3,1e-2] [-formulation stewart_trinkle,anitescu_potra] [-cp_solver lemke]
 *         [-dim 2,3] [-t_end 1] [sweep options: -out, -resume, ... see -help]
 * PAPER   Stewart & Trinkle 1996 / Egan et al. eqs. 5-7; Anitescu-Hart eq. 6 (the formulations tested).
 * Runs on the sweep engine: results/incline/<run>/tasks.csv, summary, plots. */
#include "engine/sweep_observers.h"
#include "scenes.h"
#include "simulation.h"

#include <math.h>
#include <petscsys.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const struct sweep_axis axes[] = {
    {"dim", NULL, SWEEP_INT, "2,3", "dimension: 2 (box on a line) or 3 (box on a plane)", 0, SWEEP_INSTANCE,
     "[2,3]"},
    {"theta", NULL, SWEEP_REAL, "10,15,20,30", "incline angle [degrees]", 0, SWEEP_INSTANCE, "[0,90)"},
    {"mu", NULL, SWEEP_REAL, "0.3", "Coulomb friction coefficient", 0, SWEEP_INSTANCE, "[0,inf)"},
    {"h", NULL, SWEEP_REAL, "1e-3", "time step [s]", 0, SWEEP_METHOD, "(0,inf)"},
    {"formulation", NULL, SWEEP_FORMULATION, "stewart_trinkle,anitescu_potra", "formulations", 0,
     SWEEP_METHOD, NULL},
    {"solver", "-cp_solver", SWEEP_SOLVER, "lemke", "solvers", 0, SWEEP_METHOD, NULL},
};

static const struct sweep_column columns[] = {
    {"measured", SWEEP_INFO, "drift along the slope when sticking [m], else mean acceleration [m/s^2]",
     .floor = 0},
    {"analytic", SWEEP_INFO, "Coulomb's value: 0 when sticking, g (sin theta - mu cos theta) when sliding",
     .floor = 0},
    {"stick_drift", SWEEP_METRIC,
     "|drift| along the slope when Coulomb's law says it sticks (else empty) [m]", .floor = 1e-12},
    {"rel_error", SWEEP_METRIC, "|a - a_exact| / a_exact when Coulomb's law says it slides (else empty)",
     .floor = 1e-12},
    {"step_seconds", SWEEP_COST,
     "wall time per step, whole step (detect + assemble + solve + recover), mean over the run's steps [s]",
     .floor = 0},
    {"failed_at", SWEEP_INFO, "simulated time at the start of the first failed step [s] (empty: none)",
     .floor = 0},
};

struct incline_ctx {
  double T;
};

/* Position along the downhill direction and the body's speed along it. */
static void downhill(const struct world *w, double theta, double *s, double *v)
{
  const struct body *b = &w->bodies[1];
  if (w->dim == 2) { /* incline normal (-sin, cos): downhill (-cos, -sin) */
    *s = -(b->x[0] * cos(theta) + b->x[1] * sin(theta));
    *v = -(b->v[0] * cos(theta) + b->v[1] * sin(theta));
  } else { /* normal (-sin, 0, cos): downhill (-cos, 0, -sin) */
    *s = -(b->x[0] * cos(theta) + b->x[2] * sin(theta));
    *v = -(b->v[0] * cos(theta) + b->v[2] * sin(theta));
  }
}

static int run(const struct sweep_task *task, void *vctx, struct sweep_row *row)
{
  (void)vctx; /* its t_end is the engine's step count (task->steps) */
  const int dim = (int)sweep_task_int(task, "dim");
  const double g = 9.81, theta = sweep_task_real(task, "theta") * M_PI / 180.0;
  const double mu = sweep_task_real(task, "mu"), h = sweep_task_real(task, "h");
  const char *form = sweep_task_string(task, "formulation"), *solver = sweep_task_string(task, "solver");
  int rc = 1;
  struct simulation sim;
  const char *deg = sweep_task_string(task, "theta"); /* the scene takes degrees */
  struct world *w0 = dim == 2 ? sweep_task_world(task, "incline:theta=%s:mu=%.17g", deg, mu)
                              : sweep_task_world(task, "incline_3d:theta=%s:mu=%.17g", deg, mu);
  int sim_bad = simulation_open(&sim, w0, form, solver, task->options);
  struct run_observer obs[3];
  int n_obs = 0;
  if (sim_bad) goto cleanup;
  rc = 0;
  struct world *w = sim.w;
  if (!formulation_supports(sim.f, w)) {
    sweep_row_status(row, "not_applicable");
    goto cleanup;
  }
  w->threshold = 0.01;
  const long steps = task->steps;
  double s0, v0, s1, v1;
  downhill(w, theta, &s0, &v0);
  /* a failed solve ends the validation: Coulomb's answer assumes every step solved */
  run_observer_stop_on_failure(&obs[n_obs++]);
  struct run_summary sum;
  if (sweep_observers_standard(task, obs, &n_obs, 3) || simulation_run(&sim, h, steps, obs, n_obs, &sum)) {
    rc = 1;
    goto cleanup;
  }
  sweep_row_set(row, "step_seconds", sum.step_seconds);
  if (sum.failed_steps) {
    sweep_row_status(row, run_failed_status(&sum));
    sweep_row_set(row, "failed_at", sum.failed_at);
    goto cleanup;
  }
  downhill(w, theta, &s1, &v1);
  double measured, analytic, err, tol;
  if (tan(theta) <= mu) { /* sticks: the error is the absolute drift, the analytic value being 0 */
    measured = s1 - s0;
    analytic = 0.0;
    err = fabs(measured);
    tol = 1e-9;
  } else {
    measured = (v1 - v0) / (steps * h);
    analytic = g * (sin(theta) - mu * cos(theta));
    err = fabs(measured - analytic) / analytic;
    tol = 1e-6;
  }
  sweep_row_set(row, "measured", measured);
  sweep_row_set(row, "analytic", analytic);
  sweep_row_set(row, analytic == 0.0 ? "stick_drift" : "rel_error", err); /* one meaning per column */
  sweep_row_status(row, err <= tol ? "ok" : "fail");
cleanup:
  run_observers_destroy(obs, n_obs);
  simulation_close(&sim);
  return rc;
}

static const struct option_decl options[] = {
    {"t_end", OPT_REAL, offsetof(struct incline_ctx, T), "1", "(0,inf)", "simulated seconds per run [s]"},
};

static double cost(const struct sweep_task *t, void *vctx)
{
  const struct incline_ctx *ctx = vctx;
  return ctx->T / sweep_task_real(t, "h") * (sweep_task_int(t, "dim") == 3 ? 3.0 : 1.0);
}

static const struct sweep_driver driver = {
    .experiment = "incline",
    .title = "block on an incline vs Coulomb's law (Stewart-Trinkle 1996; Anitescu-Potra)",
    .help =
        "Status ok: drift < 1e-9 (sticking) or relative acceleration error <= 1e-6 (sliding); else fail.\n",
    .options = options,
    .steps_observed = 1,
    .n_options = sizeof options / sizeof options[0],
    .settings_size = sizeof(struct incline_ctx),
    .axes = axes,
    .n_axes = sizeof axes / sizeof axes[0],
    .columns = columns,
    .n_columns = sizeof columns / sizeof columns[0],
    .cost = cost,
    .run = run,
};

int main(int argc, char **argv) { return sweep_main(&driver, argc, argv); }
