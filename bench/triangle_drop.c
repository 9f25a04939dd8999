/* NAME    bench_triangle_drop — a triangle dropped onto the slanted edge of a static triangle slides down it,
 *         past the corner, and falls off (1.5 s, frictionless).
 * PURPOSE for each (h, formulation, solver) simulate the drop and compare the falling triangle's position
 *         and rotation with a reference run (PEG at -ref_h 1e-4 with -ref_solver) at the same times: the
 *         sample before step k is t = (k - 1) h (the authors' convention), matched to reference step
 *         (k - 1) h / ref_h, so every h must be a multiple of ref_h. Errors: Euclidean position error and
 *         |rotation error|, mean over the samples and at the final state; plus the largest total overlap
 *         area and separating-axis penetration, traps, problem size and cost. A solve that gives no
 *         answer ends the run (status solve_failed, failed_at); an approximate one is counted and the run
 *         goes on.
 * USAGE   bench_triangle_drop [-options_file bench/experiments/triangle_drop.opts] [-h 0.001,0.002]
 *         [-formulation peg,stewart_trinkle] [-cp_solver lemke] [-t_end 1.5] [-ref_h 1e-4]
 *         [-ref_solver lemke] [-stewart_trinkle_detection closest,paper] [sweep options: -out, -resume, ...
 * see -help] PAPER   Williams, Lu & Trinkle 2016 (PEG), the triangle-drop experiment of the authors' code
 *         (../shared/notes/peg-experiments.md); formulations peg (eqs. 43-49), lnc, corrective, standard. */
#include "engine/sweep_observers.h"
#include "geom2d.h"
#include "sat2d.h"
#include "scene.h"
#include "scenes.h"
#include "simulation.h"

#include <math.h>
#include <petscsys.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const struct sweep_axis axes[] = {
    {"h", NULL, SWEEP_REAL,
     "0.001,0.002,0.003,0.004,0.005,0.006,0.007,0.008,0.009,0.01,0.011,0.012,0.013,0.014,0.015,0.016",
     "time step [s] (a multiple of -ref_h)", 0, SWEEP_METHOD, "(0,inf)"},
    {"formulation", NULL, SWEEP_FORMULATION, "peg,stewart_trinkle,corrective,lnc", "formulations", 0,
     SWEEP_METHOD, NULL},
    {"solver", "-cp_solver", SWEEP_SOLVER, "lemke", "solvers", 0, SWEEP_METHOD, NULL},
    {"stewart_trinkle_detection", NULL, SWEEP_OPTION, "closest",
     "the standard model's contacts (stewart_trinkle only): closest features, or paper (the PEG paper's "
     "experiments: every vertex against every edge near its line)",
     0, SWEEP_METHOD, NULL},
};

static const struct sweep_column columns[] = {
    {"final_x", SWEEP_INFO, "falling triangle's x at the end [m]", .floor = 0},
    {"final_y", SWEEP_INFO, "its y at the end [m]", .floor = 0},
    {"final_rot", SWEEP_INFO, "its rotation at the end [rad]", .floor = 0},
    {"err_mean", SWEEP_METRIC, "mean position error against the reference over the samples [m]", .floor = 0},
    {"err_final", SWEEP_METRIC, "position error at the last sample [m]", .floor = 0},
    {"rot_err_mean", SWEEP_METRIC, "mean |rotation error| [rad]", .floor = 0},
    {"rot_err_final", SWEEP_METRIC, "|rotation error| at the last sample [rad]", .floor = 0},
    {"max_overlap", SWEEP_METRIC, "largest total intersection area over the steps [m^2]", .floor = 1e-12},
    {"max_overlap_depth", SWEEP_METRIC, "largest separating-axis overlap depth over the steps [m]",
     .floor = 1e-9},
    {"trap_fraction", SWEEP_INFO, "fraction of steps with a standard-model trap", .floor = 0},
    {"i_constraint_fraction", SWEEP_INFO,
     "fraction of steps at whose start PEG's model forms an I-constraint on the potential contacts",
     .floor = 0},
    {"rows_mean", SWEEP_COST, "mean rows of the complementarity problem per step", .count = 1},
    {"step_seconds", SWEEP_COST,
     "wall time per step, whole step (detect + assemble + solve + recover), mean over the run's steps [s]",
     .floor = 0},
    {"steps", SWEEP_INFO,
     "steps taken (run_step_count(T, h) when the run completes; the last one may have failed)", .floor = 0},
    {"failed_steps", SWEEP_INFO, "solves that did not converge", .floor = 0},
    {"failed_at", SWEEP_INFO, "simulated time at the start of the first failed step [s] (empty: none)",
     .floor = 0},
};

struct drop_ctx {
  double T, ref_h;
  char ref_solver[OPTION_STRING_MAX];
  long ref_n;         /* reference steps */
  double *ref;        /* (ref_n + 1) x 3: x, y, rotation after k reference steps */
  double ref_seconds; /* wall time of the reference run */
};

/* Steps the falling triangle; records its state after every step in traj ((n + 1) x 3) when traj != NULL.
 * task != NULL: a sweep task (its standard observers attached, its statistics in row, its options object
 * read); NULL: the reference run, whose methods read opts. Returns 0 (with *done steps that advanced), 1 on
 * an internal error or a failed reference run. */
static int simulate(const struct sweep_task *task, PetscOptions opts, const char *form, const char *solver,
                    double T, double h, double *traj, long *done, struct sweep_row *row)
{
  struct simulation sim;
  struct world *w0 = NULL;
  char msg[512] = "";
  if (task)
    w0 = sweep_task_world(task, "triangle_drop");
  else if (scene_create_from_options("triangle_drop", opts, NULL, NULL, &w0, msg, sizeof msg))
    fprintf(stderr, "error: the reference run: %s\n", msg);
  int sim_bad = simulation_open(&sim, w0, form, solver, task ? task->options : opts);
  struct run_observer obs[5];
  int n_obs = 0, rc = 1;
  struct run_pose_stats pose = {.body = 1, .pose = traj};
  *done = 0;
  if (sim_bad) goto cleanup;
  rc = 0;
  if (!formulation_supports(sim.f, sim.w)) {
    if (row) sweep_row_status(row, "not_applicable");
    goto cleanup;
  }
  run_observer_pose(&obs[n_obs++], &pose);
  struct run_trap_stats traps;
  struct run_overlap_stats overlap = {0};
  struct run_summary sum;
  if ((task && (run_observer_traps(&obs[n_obs++], &traps) || run_observer_overlap(&obs[n_obs++], &overlap) ||
                sweep_observers_standard(task, obs, &n_obs, 5))) ||
      simulation_run(&sim, h, run_step_count(T, h), obs, n_obs, &sum)) {
    rc = 1;
    goto cleanup;
  }
  *done = pose.done;
  if (task) {
    const struct body *b = &sim.w->bodies[1];
    sweep_row_status(row, sum.failed_steps ? run_failed_status(&sum) : "ok");
    sweep_row_set(row, "final_x", b->x[0]);
    sweep_row_set(row, "final_y", b->x[1]);
    sweep_row_set(row, "final_rot", b->theta);
    sweep_row_set(row, "max_overlap", overlap.area_max);
    sweep_row_set(row, "max_overlap_depth", overlap.depth_max);
    sweep_row_set(row, "trap_fraction",
                  traps.steps ? (double)traps.steps_with_traps / (double)traps.steps : 0.0);
    sweep_row_set(row, "i_constraint_fraction",
                  traps.steps ? (double)traps.steps_with_i / (double)traps.steps : 0.0);
    sweep_row_set(row, "rows_mean", sum.rows_mean);
    sweep_row_set(row, "step_seconds", sum.step_seconds);
    sweep_row_set_int(row, "steps", sum.steps);
    sweep_row_set_int(row, "failed_steps", sum.failed_steps);
    if (isfinite(sum.failed_at)) sweep_row_set(row, "failed_at", sum.failed_at);
  } else if (sum.failed_steps) {
    fprintf(stderr, "error: the reference run (%s, %s, h = %g) failed %ld solves, the first at t = %g\n",
            form, solver, h, sum.failed_steps, sum.failed_at);
    rc = 1;
  }
cleanup:
  run_observers_destroy(obs, n_obs);
  simulation_close(&sim);
  return rc;
}

static int run(const struct sweep_task *task, void *vctx, struct sweep_row *row)
{
  const struct drop_ctx *ctx = vctx;
  const double h = sweep_task_real(task, "h");
  const char *form = sweep_task_string(task, "formulation"), *solver = sweep_task_string(task, "solver");
  double ratio = h / ctx->ref_h;
  long m = lround(ratio);
  if (m < 1 || fabs(ratio - (double)m) > 1e-6 * ratio) {
    fprintf(stderr, "bench_triangle_drop: h = %g is not a multiple of -ref_h %g\n", h, ctx->ref_h);
    sweep_row_status(row, "not_applicable");
    return 0;
  }
  long n = task->steps, done = 0;
  double *traj = calloc(3 * ((size_t)n + 1), sizeof *traj); /* zeroed: samples past a failed run stay 0 */
  if (!traj) return 1;
  int rc = simulate(task, NULL, form, solver, ctx->T, h, traj, &done, row);
  if (rc == 0 && (done > 0 || n == 0)) {
    double pos_sum = 0.0, rot_sum = 0.0, pos = 0.0, rot = 0.0;
    for (long j = 0; j <= done; j++) {
      long r = j * m;
      if (r > ctx->ref_n) break; /* cannot happen: j h <= T, so j m <= T / ref_h */
      pos = hypot(traj[3 * j] - ctx->ref[3 * r], traj[3 * j + 1] - ctx->ref[3 * r + 1]);
      rot = fabs(traj[3 * j + 2] - ctx->ref[3 * r + 2]);
      pos_sum += pos;
      rot_sum += rot;
    }
    sweep_row_set(row, "err_mean", pos_sum / (double)(done + 1));
    sweep_row_set(row, "err_final", pos);
    sweep_row_set(row, "rot_err_mean", rot_sum / (double)(done + 1));
    sweep_row_set(row, "rot_err_final", rot);
  }
  free(traj);
  return rc;
}

static const struct option_decl options[] = {
    {"t_end", OPT_REAL, offsetof(struct drop_ctx, T), "1.5", "(0,inf)", "simulated seconds [s]"},
    {"ref_h", OPT_REAL, offsetof(struct drop_ctx, ref_h), "1e-4", "(0,inf)",
     "reference step; every h must be a multiple of it [s]"},
    {"ref_solver", OPT_STRING, offsetof(struct drop_ctx, ref_solver), "lemke", NULL,
     "solver of the reference PEG run"},
};

static int setup(void *vctx, PetscOptions run_options)
{
  struct drop_ctx *ctx = vctx;
  if (!solver_find(ctx->ref_solver)) {
    fprintf(stderr, "error: -ref_solver '%s' is not a registered solver\n", ctx->ref_solver);
    return 1;
  }
  char why[256];
  if (run_step_count_refused(ctx->T, ctx->ref_h, why, sizeof why)) { /* the reference run's steps */
    fprintf(stderr, "error: -t_end %g with -ref_h %g: %s\n", ctx->T, ctx->ref_h, why);
    return 1;
  }
  ctx->ref_n = run_step_count(ctx->T, ctx->ref_h);
  ctx->ref = malloc(3 * ((size_t)ctx->ref_n + 1) * sizeof *ctx->ref);
  if (!ctx->ref) return 1;
  long done = 0;
  double t0 = solver_wall_time();
  if (simulate(NULL, run_options, "peg", ctx->ref_solver, ctx->T, ctx->ref_h, ctx->ref, &done, NULL) ||
      done != ctx->ref_n) {
    fprintf(stderr, "error: the reference run (peg, h = %g) did not complete (%ld of %ld steps)\n",
            ctx->ref_h, done, ctx->ref_n);
    return 1;
  }
  ctx->ref_seconds = solver_wall_time() - t0;
  return 0;
}

static double cost(const struct sweep_task *t, void *vctx)
{
  const struct drop_ctx *ctx = vctx;
  const char *form = sweep_task_string(t, "formulation");
  return ctx->T / sweep_task_real(t, "h") * (strcmp(form, "stewart_trinkle") == 0 ? 3.0 : 1.0);
}

static void teardown(void *vctx)
{
  struct drop_ctx *ctx = vctx;
  if (!ctx) return;
  free(ctx->ref);
}

static const struct sweep_driver driver = {
    .experiment = "triangle_drop",
    .title = "triangle drop onto a slanted edge and off its corner, error vs a PEG h = 1e-4 reference "
             "(an experiment of the PEG authors' repository, rpiRobotics/PEG, not of the paper's text)",
    .help = "Status ok: every solve converged; solve_failed: some did not (a solve without an answer ends\n"
            "the run). Formulations take their own options (-peg_..., -stewart_trinkle_...).\n",
    .options = options,
    .steps_observed = 1,
    .series = "formulation,stewart_trinkle_detection,solver",
    .n_options = sizeof options / sizeof options[0],
    .settings_size = sizeof(struct drop_ctx),
    .axes = axes,
    .n_axes = sizeof axes / sizeof axes[0],
    .columns = columns,
    .n_columns = sizeof columns / sizeof columns[0],
    .setup = setup,
    .cost = cost,
    .run = run,
    .teardown = teardown,
};

int main(int argc, char **argv) { return sweep_main(&driver, argc, argv); }
