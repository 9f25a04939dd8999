/* NAME    bench_block_hole — Egan, Berard & Trinkle Fig. 1: a block sliding over a hole whose right side has
 * a diagonal edge. PURPOSE for each (speed, h, formulation, solver) slide the block of scene_block_hole
 * (frictionless, its lower right corner passing 0.005 above the top of the diagonal) for -distance / speed
 * seconds. The standard model extends the diagonal beyond its top: when a step carries the corner across that
 * phantom line the block is knocked up and loses speed; the nonconvex forms let it pass. passed = 1 iff the
 * block's left end is beyond the hole at the end, its horizontal speed never fell below 90 % of the initial
 * one (frictionless: any loss is a collision) and its energy never rose (by more than 1e-3 of the initial
 * kinetic energy: contacts are inelastic). The detection threshold is max(0.1, 2 speed h) so a step's travel
 * stays within the potential contacts. USAGE   bench_block_hole [-options_file
 * bench/experiments/block_hole.opts] [-speed 1,2,4] [-h 1e-2,1e-3]
 *         [-formulation stewart_trinkle,nonconvex_max,nonconvex_sum] [-cp_solver lemke,milp]
 *         [-distance 6] [sweep options]
 * PAPER   Egan, Berard & Trinkle, Fig. 1, Secs. IV-VII (eqs. 32-35); Stewart & Trinkle (eqs. 5-7). */
#include "engine/sweep_observers.h"
#include "run.h"
#include "scenes.h"
#include "simulation.h"

#include <math.h>
#include <petscsys.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

static const struct sweep_axis axes[] = {
    {"speed", NULL, SWEEP_REAL, "1,2,4", "initial speed of the block [m/s]", 0, SWEEP_INSTANCE, "(0,inf)"},
    {"h", NULL, SWEEP_REAL, "0.01,0.005", "time step [s]", 0, SWEEP_METHOD, "(0,inf)"},
    {"formulation", NULL, SWEEP_FORMULATION, "stewart_trinkle,nonconvex_max,nonconvex_sum", "formulations", 0,
     SWEEP_METHOD, NULL},
    {"solver", "-cp_solver", SWEEP_SOLVER, "lemke,milp,fb_newton", "solvers", 0, SWEEP_METHOD, NULL},
};

static const struct sweep_column columns[] = {
    {"passed", SWEEP_METRIC_HIGHER,
     "1: past the hole at the end, never below 90 % of the initial speed, no energy gain", .floor = 0,
     .share = 1},
    {"final_x", SWEEP_METRIC_HIGHER,
     "block centre x at the end [m] (the hole spans 0 < x < 1; passed needs x > 2.2)", .floor = 0},
    {"max_penetration", SWEEP_METRIC, "max over steps of the deepest detected contact at the step start [m]",
     .floor = 1e-9},
    {"min_speed_ratio", SWEEP_METRIC_HIGHER, "min over steps of the horizontal speed / initial speed",
     .floor = 0},
    {"energy_gain", SWEEP_METRIC, "max over steps of (energy - initial energy) / initial kinetic energy",
     .floor = 1e-9},
    {"failed_steps", SWEEP_INFO, "steps whose solve did not converge", .floor = 0},
    {"failed_at", SWEEP_INFO, "simulated time at the start of the first failed step [s] (empty: none)",
     .floor = 0},
    {"steps", SWEEP_INFO, "steps taken (the last one may have failed)", .floor = 0},
    {"rows_mean", SWEEP_COST, "mean rows of the complementarity problem per step", .count = 1},
    {"step_seconds", SWEEP_COST,
     "wall time per step, whole step (detect + assemble + solve + recover), mean over the run's steps [s]",
     .floor = 0},
};

struct hole_ctx {
  double distance;
};

/* The block's geometry in scene_block_hole: width 2.4, the hole's right edge at x = 1. */
static const double half_width = 1.2, hole_right = 1.0;

/* The block's slowest horizontal speed and largest energy gain over the steps that advanced. */
struct slide_ctx {
  double e0, k0, vmin, gain;
};

static int slide_begin(void *vctx, struct simulation *sim, double h, long steps)
{
  (void)h, (void)steps;
  struct slide_ctx *c = vctx;
  c->e0 = world_energy(sim->w);
  c->k0 = world_kinetic_energy(sim->w);
  c->vmin = INFINITY;
  c->gain = 0.0;
  return RUN_CONTINUE;
}

static int slide_after(void *vctx, const struct simulation *sim, long k, const struct step_record *rec)
{
  (void)k;
  struct slide_ctx *c = vctx;
  if (!rec->advanced) return RUN_CONTINUE;
  c->vmin = fmin(c->vmin, sim->w->bodies[1].v[0]);
  c->gain = fmax(c->gain, (rec->energy - c->e0) / c->k0);
  return RUN_CONTINUE;
}

static void slide_values(void *vctx, double *v)
{
  const struct slide_ctx *c = vctx;
  v[0] = c->vmin;
  v[1] = c->gain;
}

static int run(const struct sweep_task *task, void *vctx, struct sweep_row *row)
{
  const struct hole_ctx *ctx = vctx;
  const double speed = sweep_task_real(task, "speed"), h = sweep_task_real(task, "h");
  const char *form = sweep_task_string(task, "formulation"), *solver = sweep_task_string(task, "solver");
  int rc = 1;
  struct simulation sim;
  int sim_bad = simulation_open(&sim, sweep_task_world(task, "block_hole:speed=%.17g:mu=0", speed), form,
                                solver, task->options);
  struct run_observer obs[3];
  int n_obs = 0;
  if (sim_bad) goto cleanup;
  rc = 0;
  if (!formulation_supports(sim.f, sim.w)) {
    sweep_row_status(row, "not_applicable");
    goto cleanup;
  }
  sim.w->threshold = fmax(0.1, 2.0 * speed * h);
  const long steps = run_step_count(ctx->distance / speed, h); /* checked by check_axes */
  struct slide_ctx slide;
  obs[n_obs++] = (struct run_observer){.name = "slide",
                                       .ctx = &slide,
                                       .begin = slide_begin,
                                       .after_step = slide_after,
                                       .columns = "speed_min,energy_gain",
                                       .n_columns = 2,
                                       .values = slide_values};
  struct run_summary sum;
  if (sweep_observers_standard(task, obs, &n_obs, 3) || simulation_run(&sim, h, steps, obs, n_obs, &sum)) {
    rc = 1;
    goto cleanup;
  }
  /* no usable answer: the run stopped, as the same problem would come back at every step */
  const int stuck = sum.end == RUN_END_NO_ANSWER;
  const double x = sim.w->bodies[1].x[0];
  int passed = !stuck && x - half_width > hole_right && slide.vmin >= 0.9 * speed && slide.gain <= 1e-3;
  sweep_row_set_int(row, "passed", passed);
  sweep_row_set(row, "final_x", x);
  sweep_row_set(row, "max_penetration", sum.max_penetration);
  if (isfinite(slide.vmin)) sweep_row_set(row, "min_speed_ratio", slide.vmin / speed);
  sweep_row_set(row, "energy_gain", slide.gain);
  sweep_row_set_int(row, "steps", sum.steps);
  sweep_row_set_int(row, "failed_steps", sum.failed_steps);
  if (isfinite(sum.failed_at)) sweep_row_set(row, "failed_at", sum.failed_at);
  sweep_row_set(row, "rows_mean", sum.rows_mean);
  sweep_row_set(row, "step_seconds", sum.step_seconds);
  /* ok: every solve converged; approximate: some did not but gave a usable answer; solve_failed: stopped */
  sweep_row_status(row, stuck ? "solve_failed" : (sum.failed_steps ? "approximate" : "ok"));
cleanup:
  run_observers_destroy(obs, n_obs);
  simulation_close(&sim);
  return rc;
}

static const struct option_decl options[] = {
    {"distance", OPT_REAL, offsetof(struct hole_ctx, distance), "6", "(3.8,inf)",
     "simulated time is distance / speed (the hole is cleared after 3.8 m) [m]"},
};

/* The run's simulated time is distance / speed: its step count (run_step_count, the one rule of every
 * driver) for every (speed, h) of the sweep must be one a run can take, refused at the options before any
 * task otherwise. */
static int check_axes(void *vctx, const int *n_values, char *const *const *values)
{
  const struct hole_ctx *ctx = vctx;
  enum { SPEED, H }; /* the axes' order above */
  char why[256];
  for (int i = 0; i < n_values[SPEED]; i++)
    for (int j = 0; j < n_values[H]; j++)
      if (run_step_count_refused(ctx->distance / strtod(values[SPEED][i], NULL), strtod(values[H][j], NULL),
                                 why, sizeof why)) {
        fprintf(stderr, "error: -distance %g / -speed %s with -h %s: %s\n", ctx->distance, values[SPEED][i],
                values[H][j], why);
        return 1;
      }
  return 0;
}

static double cost(const struct sweep_task *t, void *vctx)
{
  const struct hole_ctx *ctx = vctx;
  return ctx->distance / sweep_task_real(t, "speed") / sweep_task_real(t, "h");
}

static const struct sweep_driver driver = {
    .experiment = "block_hole",
    .title =
        "block sliding over a hole with a diagonal edge: phantom collision (Egan, Berard & Trinkle Fig. 1)",
    .help = "Status ok: every solve converged; approximate: some did not (usable answers); solve_failed: a\n"
            "solve gave no usable answer (the run stops: the same problem would return).\n",
    .options = options,
    .steps_observed = 1,
    .n_options = sizeof options / sizeof options[0],
    .settings_size = sizeof(struct hole_ctx),
    .axes = axes,
    .n_axes = sizeof axes / sizeof axes[0],
    .columns = columns,
    .n_columns = sizeof columns / sizeof columns[0],
    .check_axes = check_axes,
    .cost = cost,
    .run = run,
};

int main(int argc, char **argv) { return sweep_main(&driver, argc, argv); }
