/* NAME    bench_robot_grasp — the PEG authors' 2D robot-arm grasp: two two-link fingers on revolute joints,
 *         PD-controlled, close on a target polygon resting on the ground (2 s).
 * PURPOSE for each (target, mu, h, formulation, detection, solver) simulate the grasp and compare the
 *         target's position with a reference run (PEG at -ref_h 1e-4 with -ref_solver, same target and mu)
 *         at the same times: the sample before step k is t = (k - 1) h, matched to reference step
 *         (k - 1) h / ref_h (every h a multiple of ref_h; the authors' processing script matched sample i
 *         to reference index round(i / n_steps * n_ref), up to one step later). Errors: the Euclidean
 *         position error's mean, median and quartiles over the samples (the authors' box plots), its
 *         maximum and final value, and the mean |rotation error|; plus the largest joint opening (the
 *         joint rows' check), overlap, traps, problem size and cost. A solve that gives no answer ends the
 *         run (status solve_failed); an approximate one is counted and the run goes on.
 * USAGE   bench_robot_grasp [-options_file bench/experiments/robot_grasp.opts] [-seeds 10] [-mu 0,0.125]
 *         [-h 0.001,0.016] [-formulation peg,stewart_trinkle,corrective] [-stewart_trinkle_detection
 * closest,paper]
 *         [-cp_solver lemke] [-t_end 2] [-ref_h 1e-4] [-ref_solver path_crash] [-bodyset_file F]
 * PAPER   Williams, Lu & Trinkle 2016 (PEG): the robot-arm grasp of the authors' code (robotArm2D.m, not in
 * the paper's text,
 *         ../shared/notes/peg-experiments.md): targets = polygons 1..10 of body set b scaled by 0.28;
 *         joints as the free block of a mixed LCP (formulations/types/core/joint_block.c). */
#include "robot_grasp.h"

#include "engine/sweep_observers.h"
#include "scene.h"
#include "simulation.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <petscsys.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define MAX_MU 8

static const struct sweep_axis axes[] = {
    {SWEEP_SEEDS_AXIS, NULL, SWEEP_INT, "10",
     "targets: seed s grasps polygon s + 1 of body set b (at most 10)", 1, SWEEP_INSTANCE, "[0,9]"},
    {"mu", NULL, SWEEP_REAL, "0,0.125", "friction coefficient of every contact (the paper: 0 and 0.125)", 0,
     SWEEP_INSTANCE, "[0,inf)"},
    {"h", NULL, SWEEP_REAL,
     "0.001,0.002,0.003,0.004,0.005,0.006,0.007,0.008,0.009,0.01,0.011,0.012,0.013,0.014,0.015,0.016",
     "time step [s] (a multiple of -ref_h)", 0, SWEEP_METHOD, "(0,inf)"},
    {"formulation", NULL, SWEEP_FORMULATION, "peg,stewart_trinkle,corrective", "formulations", 0,
     SWEEP_METHOD, NULL},
    {"solver", "-cp_solver", SWEEP_SOLVER, "lemke", "solvers", 0, SWEEP_METHOD, NULL},
    {"stewart_trinkle_detection", NULL, SWEEP_OPTION, "closest,paper",
     "the standard model\'s contacts (stewart_trinkle only): closest features, or "
     "paper (the PEG paper's experiments: every vertex against every edge near its line)",
     0, SWEEP_METHOD, NULL},
};
enum { AXIS_SEED = 0, AXIS_MU = 1 };

static const struct sweep_column columns[] = {
    {"target", SWEEP_INFO, "the target: polygon k of body set b", .floor = 0},
    {"err_mean", SWEEP_METRIC, "mean position error of the target against the reference over the samples [m]",
     .floor = 1e-9},
    {"err_median", SWEEP_METRIC, "median position error over the samples [m]", .floor = 1e-9},
    {"err_q1", SWEEP_METRIC, "first quartile of the position error over the samples [m]", .floor = 1e-9},
    {"err_q3", SWEEP_METRIC, "third quartile of the position error over the samples [m]", .floor = 1e-9},
    {"err_max", SWEEP_METRIC, "largest position error over the samples [m]", .floor = 1e-9},
    {"err_final", SWEEP_METRIC, "position error at the last sample [m]", .floor = 1e-9},
    {"rot_err_mean", SWEEP_METRIC, "mean |rotation error| of the target [rad]", .floor = 1e-9},
    {"joint_gap_max", SWEEP_METRIC, "largest distance between a joint's two anchor points over the steps [m]",
     .floor = 1e-9},
    {"max_overlap", SWEEP_METRIC, "largest total intersection area over the steps [m^2]", .floor = 1e-12},
    {"max_overlap_depth", SWEEP_METRIC, "largest separating-axis overlap depth over the steps [m]",
     .floor = 1e-9},
    {"final_x", SWEEP_INFO, "target's x at the end [m]", .floor = 0},
    {"final_y", SWEEP_INFO, "target's y at the end [m]", .floor = 0},
    {"trap_fraction", SWEEP_INFO, "fraction of steps with a standard-model trap", .floor = 0},
    {"rows_mean", SWEEP_COST, "mean rows of the complementarity problem per step (joint rows included)",
     .count = 1},
    {"step_seconds", SWEEP_COST,
     "wall time per step, whole step (detect + assemble + solve + recover), mean over the run's steps [s]",
     .floor = 0},
    {"steps", SWEEP_INFO,
     "steps taken (run_step_count(T, h) when the run completes; the last one may have failed)", .floor = 0},
    {"failed_steps", SWEEP_INFO, "solves that did not converge", .floor = 0},
    {"failed_at", SWEEP_INFO, "simulated time at the start of the first failed step [s] (empty: none)",
     .floor = 0},
};

struct grasp_ctx {
  double T, ref_h;
  char ref_solver[OPTION_STRING_MAX];
  char file[OPTION_STRING_MAX];
  long ref_n;               /* reference steps */
  int n_mu;                 /* friction values with a reference */
  double mu[MAX_MU];        /* their values */
  double *ref[10][MAX_MU];  /* (ref_n + 1) x 3: target x, y, rotation after k reference steps */
  PetscOptions run_options; /* setup's: the reference runs' methods read it */
};

/* The authors' PD controller (run_robot_grasp_experiments.m) as an observer of the run loop (before_step):
 * before step k (1-based) the targets ramp at 1 rad/s, -min(h (k - 1), pi/2) for joints 1 and 3 (the right
 * finger) and +min(h (k - 1), pi/2) for 2 and 4; torque tau_j = 5 e_j + 0.09 (e_j - e_j,prev) / h (e_prev =
 * 0 before step 1), +tau on the joint's second body, -tau on its first, replacing the applied torques of the
 * step before. 0, or 1 on allocation failure. */
struct pd {
  double e_prev[ROBOT_GRASP_JOINTS];
};

static int pd_before(void *ctx, struct simulation *sim, long k, double h)
{
  struct pd *c = ctx;
  struct world *w = sim->w;
  double theta[ROBOT_GRASP_JOINTS], ramp = fmin(h * (double)(k - 1), M_PI / 2.0);
  robot_grasp_joint_angles(w, theta);
  for (int b = 0; b < w->nb; b++)
    w->bodies[b].tau[2] = 0.0;
  for (int j = 0; j < ROBOT_GRASP_JOINTS; j++) {
    double target = j % 2 == 0 ? -ramp : ramp, e = target - theta[j];
    double tau = 5.0 * e + 0.09 * (k == 1 ? e : e - c->e_prev[j]) / h; /* e_prev = 0 before step 1 */
    c->e_prev[j] = e;
    robot_grasp_joint_torque(w, j, tau);
  }
  return RUN_CONTINUE;
}

static int robot_grasp_controller(struct run_observer *o)
{
  struct pd *c = calloc(1, sizeof *c);
  if (!c) return 1;
  *o = (struct run_observer){.name = "robot_grasp_pd", .ctx = c, .before_step = pd_before, .destroy = free};
  return 0;
}

/* Simulates one grasp; records the target's state after every step in traj ((n + 1) x 3). task != NULL: a
 * sweep task (standard observers, statistics in row, its options object); NULL: a reference run, whose
 * methods read opts. Returns 0 (with *done steps that advanced), 1 on an internal error or a failed
 * reference run. */
static int simulate(const struct sweep_task *task, PetscOptions opts, const char *bodyset_file, int target,
                    double mu, const char *form, const char *solver, double T, double h, double *traj,
                    long *done, struct sweep_row *row)
{
  char spec[SCENE_SPEC_MAX], msg[512] = "";
  struct world *w0 = NULL;
  snprintf(spec, sizeof spec, "robot_grasp:target=%d:mu=%.17g:bodyset_file=%s", target, mu, bodyset_file);
  if (task)
    w0 = sweep_task_world(task, "%s", spec);
  else if (scene_create_from_options(spec, opts, NULL, NULL, &w0, msg, sizeof msg))
    fprintf(stderr, "error: the reference run: %s\n", msg);
  struct simulation sim;
  int sim_bad = simulation_open(&sim, w0, form, solver, task ? task->options : opts);
  struct run_observer obs[6];
  int n_obs = 0, rc = 1;
  struct run_pose_stats pose = {.body = ROBOT_GRASP_TARGET, .pose = traj};
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
  if (robot_grasp_controller(&obs[n_obs++]) ||
      (task && (run_observer_traps(&obs[n_obs++], &traps) || run_observer_overlap(&obs[n_obs++], &overlap) ||
                sweep_observers_standard(task, obs, &n_obs, 6))) ||
      simulation_run(&sim, h, run_step_count(T, h), obs, n_obs, &sum)) {
    rc = 1;
    goto cleanup;
  }
  *done = pose.done;
  if (task) {
    const struct body *b = &sim.w->bodies[ROBOT_GRASP_TARGET];
    sweep_row_status(row, sum.failed_steps ? run_failed_status(&sum) : "ok");
    sweep_row_set(row, "final_x", b->x[0]);
    sweep_row_set(row, "final_y", b->x[1]);
    sweep_row_set(row, "joint_gap_max", pose.joint_gap);
    sweep_row_set(row, "max_overlap", overlap.area_max);
    sweep_row_set(row, "max_overlap_depth", overlap.depth_max);
    sweep_row_set(row, "trap_fraction",
                  traps.steps ? (double)traps.steps_with_traps / (double)traps.steps : 0.0);
    sweep_row_set(row, "rows_mean", sum.rows_mean);
    sweep_row_set(row, "step_seconds", sum.step_seconds);
    sweep_row_set_int(row, "steps", sum.steps);
    sweep_row_set_int(row, "failed_steps", sum.failed_steps);
    if (isfinite(sum.failed_at)) sweep_row_set(row, "failed_at", sum.failed_at);
  } else if (sum.failed_steps) {
    fprintf(stderr,
            "error: the reference run (%s, %s, h = %g, mu = %g) failed %ld solves, the first at t = %g\n",
            form, solver, h, mu, sum.failed_steps, sum.failed_at);
    rc = 1;
  }
cleanup:
  run_observers_destroy(obs, n_obs);
  simulation_close(&sim);
  return rc;
}

static int mu_index(const struct grasp_ctx *ctx, double mu)
{
  for (int i = 0; i < ctx->n_mu; i++)
    if (ctx->mu[i] == mu) return i;
  return -1;
}

/* Error statistics of the samples against the reference: e (done + 1 position errors) is sorted here. */
static void put_errors(struct sweep_row *row, double *e, long n, double rot_sum)
{
  if (n < 1) return;
  double final = e[n - 1];
  gsl_sort(e, 1, (size_t)n);
  sweep_row_set(row, "err_mean", gsl_stats_mean(e, 1, (size_t)n));
  sweep_row_set(row, "err_median", gsl_stats_median_from_sorted_data(e, 1, (size_t)n));
  sweep_row_set(row, "err_q1", gsl_stats_quantile_from_sorted_data(e, 1, (size_t)n, 0.25));
  sweep_row_set(row, "err_q3", gsl_stats_quantile_from_sorted_data(e, 1, (size_t)n, 0.75));
  sweep_row_set(row, "err_max", e[n - 1]);
  sweep_row_set(row, "err_final", final);
  sweep_row_set(row, "rot_err_mean", rot_sum / (double)n);
}

static int run(const struct sweep_task *task, void *vctx, struct sweep_row *row)
{
  const struct grasp_ctx *ctx = vctx;
  const double h = sweep_task_real(task, "h"), mu = sweep_task_real(task, "mu");
  const long seed = sweep_task_int(task, SWEEP_SEEDS_AXIS);
  const char *form = sweep_task_string(task, "formulation"), *solver = sweep_task_string(task, "solver");
  sweep_row_set_int(row, "target", seed + 1);
  int im = mu_index(ctx, mu);
  double ratio = h / ctx->ref_h;
  long m = lround(ratio);
  if (seed < 0 || seed >= 10 || im < 0 || !ctx->ref[seed][im]) return 1; /* prepare made every reference */
  if (m < 1 || fabs(ratio - (double)m) > 1e-6 * ratio) {
    fprintf(stderr, "bench_robot_grasp: h = %g is not a multiple of -ref_h %g\n", h, ctx->ref_h);
    sweep_row_status(row, "not_applicable");
    return 0;
  }
  const double *ref = ctx->ref[seed][im];
  long n = task->steps, done = 0;
  double *traj = calloc(3 * ((size_t)n + 1), sizeof *traj), *e = malloc(((size_t)n + 1) * sizeof *e);
  int rc = !traj || !e ? 1
                       : simulate(task, NULL, ctx->file, (int)seed + 1, mu, form, solver, ctx->T, h, traj,
                                  &done, row);
  if (rc == 0 && (done > 0 || n == 0)) {
    double rot_sum = 0.0;
    long ns = 0;
    for (long j = 0; j <= done && j * m <= ctx->ref_n; j++, ns++) { /* j m <= ref_n: j h <= T */
      long r = j * m;
      e[ns] = hypot(traj[3 * j] - ref[3 * r], traj[3 * j + 1] - ref[3 * r + 1]);
      rot_sum += fabs(traj[3 * j + 2] - ref[3 * r + 2]);
    }
    put_errors(row, e, ns, rot_sum);
  }
  free(traj);
  free(e);
  return rc;
}

static const struct option_decl options[] = {
    {"t_end", OPT_REAL, offsetof(struct grasp_ctx, T), "2", "(0,inf)", "simulated seconds [s]"},
    {"ref_h", OPT_REAL, offsetof(struct grasp_ctx, ref_h), "1e-4", "(0,inf)",
     "reference step; every h must be a multiple of it [s]"},
    {"ref_solver", OPT_STRING, offsetof(struct grasp_ctx, ref_solver), "path_crash", NULL,
     "solver of the reference PEG runs (the authors used PATH; lemke misses 1 step of 20,000 with target 8, "
     "mu 0.125: a sticking answer 1.4e-8 off a friction row)"},
    {"bodyset_file", OPT_STRING, offsetof(struct grasp_ctx, file), "", NULL,
     "the stored body sets (default $CB_SHARED_DATA or ../shared/data, + /peg/box2d_bodysets.txt)"},
};

static int setup(void *vctx, PetscOptions run_options)
{
  struct grasp_ctx *ctx = vctx;
  ctx->run_options = run_options; /* the reference runs' (prepare) */
  if (!solver_find(ctx->ref_solver)) {
    fprintf(stderr, "error: -ref_solver '%s' is not a registered solver\n", ctx->ref_solver);
    return 1;
  }
  if (!ctx->file[0]) scene_peg_bodyset_default_path(ctx->file, sizeof ctx->file);
  if (strchr(ctx->file, ':')) { /* the path travels in the scene's spec, whose separator is ':' */
    fprintf(stderr, "error: -bodyset_file %s: a path with ':' cannot be given to the scene robot_grasp\n",
            ctx->file);
    return 1;
  }
  char err[512];
  struct peg_body_spec target;
  for (int k = 1; k <= 10; k++) /* every target read once here: a bad file stops the run before any task */
    if (scene_robot_grasp_target(ctx->file, k, &target, err, sizeof err)) {
      fprintf(stderr, "error: %s\n       (the paper's polygon sets: set -bodyset_file or CB_SHARED_DATA)\n",
              err);
      return 1;
    }
  char why[256];
  if (run_step_count_refused(ctx->T, ctx->ref_h, why, sizeof why)) { /* the reference run's steps */
    fprintf(stderr, "error: -t_end %g with -ref_h %g: %s\n", ctx->T, ctx->ref_h, why);
    return 1;
  }
  ctx->ref_n = run_step_count(ctx->T, ctx->ref_h);
  return 0;
}

/* One PEG reference run per (target, mu) of the sweep, on every rank (they are deterministic). */
static int prepare(void *vctx, const int *n_values, char *const *const *values)
{
  struct grasp_ctx *ctx = vctx;
  if (n_values[AXIS_MU] > MAX_MU) { /* the seeds axis's range bounds the targets */
    fprintf(stderr, "error: -mu: at most %d friction values\n", MAX_MU);
    return 1;
  }
  for (int im = 0; im < n_values[AXIS_MU]; im++) {
    double mu = strtod(values[AXIS_MU][im], NULL);
    if (mu_index(ctx, mu) >= 0) continue;
    ctx->mu[ctx->n_mu++] = mu;
    for (int s = 0; s < n_values[AXIS_SEED]; s++) {
      long seed = strtol(values[AXIS_SEED][s], NULL, 10), done = 0;
      double *ref = malloc(3 * ((size_t)ctx->ref_n + 1) * sizeof *ref);
      if (!ref || seed < 0 || seed >= 10) {
        free(ref);
        return 1;
      }
      ctx->ref[seed][ctx->n_mu - 1] = ref;
      if (simulate(NULL, ctx->run_options, ctx->file, (int)seed + 1, mu, "peg", ctx->ref_solver, ctx->T,
                   ctx->ref_h, ref, &done, NULL) ||
          done != ctx->ref_n) {
        fprintf(stderr,
                "error: the reference run (peg, h = %g, target %ld, mu = %g) did not complete (%ld of %ld "
                "steps)\n",
                ctx->ref_h, seed + 1, mu, done, ctx->ref_n);
        return 1;
      }
    }
  }
  return 0;
}

static double cost(const struct sweep_task *t, void *vctx)
{
  const struct grasp_ctx *ctx = vctx;
  const char *form = sweep_task_string(t, "formulation");
  return ctx->T / sweep_task_real(t, "h") * (strcmp(form, "stewart_trinkle") == 0 ? 3.0 : 1.0);
}

static void teardown(void *vctx)
{
  struct grasp_ctx *ctx = vctx;
  if (!ctx) return;
  for (int s = 0; s < 10; s++)
    for (int i = 0; i < MAX_MU; i++)
      free(ctx->ref[s][i]);
}

#define TEXT_OF_(x) #x
#define TEXT_OF(x)  TEXT_OF_(x)
static const struct sweep_driver driver = {
    .experiment = "robot_grasp",
    .title = "robot-arm grasp of a polygon, target position error vs a PEG h = 1e-4 reference "
             "(an experiment of the PEG authors' repository, robotArm2D.m, not of the paper's text)",
    .help = "Status ok: every solve converged; solve_failed: some did not (a solve without an answer ends\n"
            "the run). Formulations take their own options (-peg_..., -stewart_trinkle_...); the arm's\n"
            "revolute joints are the free block of each formulation's mixed LCP. The scene's contact\n"
            "threshold is 0.004 m (under half a link's thickness), which is also the default of\n"
            "-stewart_trinkle_paper_distance here (0.07 m elsewhere: past a link's far side, misread as a\n"
            "deep penetration, the first step's LCP has no solution).\n",
    .options = options,
    .steps_observed = 1,
    .series = "formulation,stewart_trinkle_detection,solver,mu",
    .n_options = sizeof options / sizeof options[0],
    .settings_size = sizeof(struct grasp_ctx),
    .axes = axes,
    .n_axes = sizeof axes / sizeof axes[0],
    .columns = columns,
    .n_columns = sizeof columns / sizeof columns[0],
    /* the standard model's paper detection defaults to 0.07 m, the larger scenes' distance; here to the
     * scene's threshold, ROBOT_GRASP_THRESHOLD (formulations/scenes/robot_grasp.c says why) */
    .option_defaults = "-stewart_trinkle_paper_distance " TEXT_OF(ROBOT_GRASP_THRESHOLD),
    .setup = setup,
    .prepare = prepare,
    .cost = cost,
    .run = run,
    .teardown = teardown,
};

int main(int argc, char **argv) { return sweep_main(&driver, argc, argv); }
