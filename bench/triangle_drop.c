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
 *         [-ref_solver lemke] [sweep options: -out, -resume, ... see -help]
 * PAPER   Williams, Lu & Trinkle 2016 (PEG), the triangle-drop experiment of the authors' code
 *         (../shared/notes/peg-experiments.md); formulations peg (eqs. 43-49), lnc, corrective, standard. */
#include "engine/sweep.h"
#include "geom2d.h"
#include "sat2d.h"
#include "scenes.h"
#include "simulation.h"

#include <math.h>
#include <stddef.h>
#include <petscsys.h>
#include <stdlib.h>
#include <string.h>

static const struct sweep_axis axes[] = {
    {"h", NULL, SWEEP_REAL,
     "0.001,0.002,0.003,0.004,0.005,0.006,0.007,0.008,0.009,0.01,0.011,0.012,0.013,0.014,0.015,0.016",
     "time step [s] (a multiple of -ref_h)", 0, SWEEP_METHOD},
    {"formulation", NULL, SWEEP_FORMULATION, "peg,stewart_trinkle,corrective,lnc", "formulations", 0, SWEEP_METHOD},
    {"solver", "-cp_solver", SWEEP_SOLVER, "lemke", "solvers", 0, SWEEP_METHOD},
};

static const struct sweep_column columns[] = {
    {"final_x", SWEEP_INFO, "falling triangle's x at the end [m]"},
    {"final_y", SWEEP_INFO, "its y at the end [m]"},
    {"final_rot", SWEEP_INFO, "its rotation at the end [rad]"},
    {"err_mean", SWEEP_METRIC, "mean position error against the reference over the samples [m]"},
    {"err_final", SWEEP_METRIC, "position error at the last sample [m]"},
    {"rot_err_mean", SWEEP_METRIC, "mean |rotation error| [rad]"},
    {"rot_err_final", SWEEP_METRIC, "|rotation error| at the last sample [rad]"},
    {"max_overlap", SWEEP_METRIC, "largest total intersection area over the steps [m^2]"},
    {"max_penetration", SWEEP_METRIC, "largest separating-axis overlap depth over the steps [m]"},
    {"trap_fraction", SWEEP_INFO, "fraction of steps with a standard-model trap"},
    {"rows_mean", SWEEP_COST, "mean rows of the complementarity problem per step"},
    {"step_seconds", SWEEP_COST, "mean wall time per step (detect + assemble + solve + recover) [s]"},
    {"steps", SWEEP_INFO, "steps taken (floor(T / h) when the run completes)"},
    {"failed_steps", SWEEP_INFO, "solves that did not converge"},
    {"failed_at", SWEEP_INFO, "simulated time at the start of the first failed solve [s] (empty: none)"},
};

struct drop_ctx {
  double T, ref_h;
  char ref_solver[OPTION_STRING_MAX];
  long ref_n;         /* reference steps */
  double *ref;        /* (ref_n + 1) x 3: x, y, rotation after k reference steps */
  double ref_seconds; /* wall time of the reference run */
};

/* Steps the falling triangle; records its state after every step in traj ((n + 1) x 3) when traj != NULL.
 * Returns 0 (with *steps done and the run's statistics in the row when row != NULL), 1 on an internal
 * error. */
static int simulate(const char *form, const char *solver, double T, double h, double *traj, long *done,
                    struct sweep_row *row)
{
  struct simulation sim;
  int sim_bad = simulation_open(&sim, scene_triangle_drop(), form, solver);
  struct world *w = sim.w;
  struct formulation *f = sim.f;
  struct solver *s = sim.s;
  struct stepper *st = sim.st;
  int rc = 1;
  *done = 0;
  if (sim_bad) goto cleanup;
  rc = 0;
  if (!formulation_supports(f, w)) {
    if (row) sweep_row_status(row, "not_applicable");
    goto cleanup;
  }
  long n = scene_step_count(T, h), failed = 0, traps = 0;
  double seconds = 0.0, rows = 0.0, max_overlap = 0.0, max_pen = 0.0, failed_at = -1.0;
  const struct body *b = &w->bodies[1];
  if (traj) traj[0] = b->x[0], traj[1] = b->x[1], traj[2] = b->theta;
  for (long k = 1; k <= n; k++) {
    struct step_record rec;
    double t0 = w->t;
    if (stepper_step(st, w, f, s, h, &rec)) {
      rc = 1;
      goto cleanup;
    }
    if (rec.failed) {
      failed++;
      if (failed_at < 0.0) failed_at = t0;
    }
    if (!rec.advanced) break;
    *done = k;
    seconds += rec.seconds_detect + rec.seconds_assemble + rec.seconds_solve + rec.seconds_recover;
    rows += rec.rows.total;
    traps += rec.traps > 0;
    max_overlap = fmax(max_overlap, world_total_overlap_2d(w));
    max_pen = fmax(max_pen, world_max_penetration_2d(w));
    if (traj) traj[3 * k] = b->x[0], traj[3 * k + 1] = b->x[1], traj[3 * k + 2] = b->theta;
  }
  if (row) {
    long d = *done > 0 ? *done : 1;
    sweep_row_status(row, failed ? "solve_failed" : "ok");
    sweep_row_set(row, "final_x", b->x[0]);
    sweep_row_set(row, "final_y", b->x[1]);
    sweep_row_set(row, "final_rot", b->theta);
    sweep_row_set(row, "max_overlap", max_overlap);
    sweep_row_set(row, "max_penetration", max_pen);
    sweep_row_set(row, "trap_fraction", (double)traps / d);
    sweep_row_set(row, "rows_mean", rows / d);
    sweep_row_set(row, "step_seconds", seconds / d);
    sweep_row_set_int(row, "steps", *done);
    sweep_row_set_int(row, "failed_steps", failed);
    if (failed_at >= 0.0) sweep_row_set(row, "failed_at", failed_at);
  } else if (failed) {
    fprintf(stderr, "error: the reference run (%s, %s, h = %g) failed %ld solves, the first at t = %g\n",
            form, solver, h, failed, failed_at);
    rc = 1;
  }
cleanup:
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
  long n = scene_step_count(ctx->T, h), done = 0;
  double *traj = malloc(3 * ((size_t)n + 1) * sizeof *traj);
  if (!traj) return 1;
  int rc = simulate(form, solver, ctx->T, h, traj, &done, row);
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

static const struct sweep_driver driver;

static int setup(void **vctx)
{
  struct drop_ctx *ctx = calloc(1, sizeof *ctx);
  if (!ctx) return 1;
  *vctx = ctx;
  if (sweep_read_options(&driver, ctx)) return 1;
  if (!solver_find(ctx->ref_solver)) {
    fprintf(stderr, "error: -ref_solver '%s' is not a registered solver\n", ctx->ref_solver);
    return 1;
  }
  ctx->ref_n = scene_step_count(ctx->T, ctx->ref_h);
  ctx->ref = malloc(3 * ((size_t)ctx->ref_n + 1) * sizeof *ctx->ref);
  if (!ctx->ref) return 1;
  long done = 0;
  double t0 = solver_wall_time();
  if (simulate("peg", ctx->ref_solver, ctx->T, ctx->ref_h, ctx->ref, &done, NULL) || done != ctx->ref_n) {
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
  free(ctx);
}

static const struct sweep_driver driver = {
    .experiment = "triangle_drop",
    .title = "triangle drop onto a slanted edge and off its corner, error vs a PEG h = 1e-4 reference "
             "(Williams, Lu & Trinkle 2016)",
    .help = "Status ok: every solve converged; solve_failed: some did not (a solve without an answer ends\n"
            "the run). Formulations take their own options (-peg_..., -stewart_trinkle_...).\n",
    .options = options,
    .n_options = sizeof options / sizeof options[0],
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
