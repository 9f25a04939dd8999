/* NAME    bench_cannonball — Anitescu-Hart's cannonball experiments (LCP0 / LCP1 / LCP2).
 * PURPOSE Anitescu & Hart Sec. 4B, experiments 1-3: n rows of discs of diameter 3 (n on the bottom,
 *         n - 1 above, ...; 21, 136, 210 discs) on a fixed plank, plastic contacts, from rest; for each
 *         (disks, mu, h, formulation, solver) simulate -t_end seconds (or -steps steps) and report
 *         success, cost, fixed-point rounds and the paper's normal velocity error (for pushing contacts,
 *         |n'v + gap/h|: mu lambda for LCP2). The formulation axis: anitescu_potra = LCP0 (eq. 6-7),
 *         anitescu_hart_lcp1 = LCP1 (fixed point of QP (15)), anitescu_hart_lcp2 = LCP2 (one QP); the
 *         paper's MAX ITER is -cp_max_it 10000.
 * USAGE   bench_cannonball -options_file bench/experiments/cannonball_exp1.opts (exp2, exp3, quick)
 *         [-disks 21,136,210] [-mu 0.05] [-h 0.05] [-formulation anitescu_potra,...] [-cp_solver lemke]
 *         [-t_end 2] [-steps N] [-stop_on_failure 1] [-trace DIR] [sweep options: -out, -resume, ... -help]
 * PAPER   Anitescu & Hart, Sec. 4B (Figs. 3-4, Table 1), eqs. 6-7, 15-19.
 * Runs on the sweep engine: results/cannonball/<run>/tasks.csv, summary, plots (x = mu). */
#include "engine/sweep_observers.h"
#include "scenes.h"
#include "simulation.h"

#include <math.h>
#include <petscsys.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const struct sweep_axis axes[] = {
    {"disks", NULL, SWEEP_INT, "21", "discs in the pile, a triangular number r(r+1)/2 (r on the bottom)", 0,
     SWEEP_INSTANCE, "[1,inf)"},
    {"mu", NULL, SWEEP_REAL, "0.05", "Coulomb friction coefficient at every contact", 0, SWEEP_INSTANCE,
     "[0,inf)"},
    {"h", NULL, SWEEP_REAL, "0.05", "time step [s]", 0, SWEEP_METHOD, "(0,inf)"},
    {"formulation", NULL, SWEEP_FORMULATION, "anitescu_potra,anitescu_hart_lcp1,anitescu_hart_lcp2",
     "formulation: anitescu_potra (LCP0), anitescu_hart_lcp1 (LCP1), anitescu_hart_lcp2 (LCP2), ...", 0,
     SWEEP_METHOD, NULL},
    {"solver", "-cp_solver", SWEEP_SOLVER, "lemke", "solvers", 0, SWEEP_METHOD, NULL},
};

static const struct sweep_column columns[] = {
    {"paper_method", SWEEP_INFO, "LCP0, LCP1 or LCP2 (the paper's name of the method), else empty",
     .floor = 0},
    {"steps", SWEEP_INFO, "steps taken (the last one may have failed)", .floor = 0},
    {"failed_steps", SWEEP_INFO, "steps whose solve did not converge (status max_iterations etc.)",
     .floor = 0},
    {"failed_at", SWEEP_INFO, "simulated time at the start of the first failed step [s] (empty: none)",
     .floor = 0},
    {"cpu_seconds", SWEEP_COST, "process CPU time per run, the whole loop: every step and the observers [s]",
     .floor = 0},
    {"step_seconds", SWEEP_COST,
     "wall time per step, whole step (detect + assemble + solve + recover), mean over the run's steps [s]",
     .floor = 0},
    {"solve_seconds", SWEEP_COST,
     "wall time per step in the solver only (the harness's timing of each solve call, summed over the "
     "step's rounds), mean over the run's steps [s]",
     .floor = 0},
    {"iterations", SWEEP_INFO, "solver iterations (pivots for Lemke) over all steps and rounds", .floor = 0},
    {"fp_iterations", SWEEP_INFO, "mean assemble -> solve rounds per step (LCP1's fixed-point iterations)",
     .floor = 0},
    {"fp_iterations_max", SWEEP_INFO, "most rounds in one step", .floor = 0},
    {"nv_error_mean", SWEEP_METRIC, "mean over steps of the step's average normal velocity error [m/s]",
     .floor = 1e-9},
    {"nv_error_mean_max", SWEEP_INFO, "largest step average of the normal velocity error [m/s]", .floor = 0},
    {"nv_error_max", SWEEP_METRIC, "largest normal velocity error over steps and pushing contacts [m/s]",
     .floor = 1e-9},
    {"contacts_mean", SWEEP_INFO, "mean contacts per step", .floor = 0},
    {"rows", SWEEP_INFO, "problem size of the first step (unknowns)", .floor = 0},
    {"residual_max", SWEEP_INFO, "largest checker residual / scale over the steps", .floor = 0},
    {"speed_end", SWEEP_INFO, "largest disc speed at the end [m/s]", .floor = 0},
};

struct cannonball_ctx {
  double T;
  int steps, stop_on_failure;
};

static const char *paper_method(const char *form)
{
  if (strcmp(form, "anitescu_potra") == 0) return "LCP0";
  if (strcmp(form, "anitescu_hart_lcp1") == 0) return "LCP1";
  if (strcmp(form, "anitescu_hart_lcp2") == 0) return "LCP2";
  return "";
}

/* r with r (r + 1) / 2 = disks, or 0. */
static int rows_of(long disks)
{
  int r = (int)floor(sqrt(2.0 * (double)disks));
  return r > 0 && (long)r * (r + 1) / 2 == disks ? r : 0;
}

static int run(const struct sweep_task *task, void *vctx, struct sweep_row *row)
{
  const struct cannonball_ctx *ctx = vctx;
  const long disks = sweep_task_int(task, "disks");
  const double mu = sweep_task_real(task, "mu"), h = sweep_task_real(task, "h");
  const char *form = sweep_task_string(task, "formulation"), *solver = sweep_task_string(task, "solver");
  int rc = 1;
  struct simulation sim;
  int sim_bad = simulation_open(
      &sim, sweep_task_world(task, "cannonball:rows=%d:mass=1:mu=%.17g:walls=0", rows_of(disks), mu), form,
      solver, task->options);
  struct run_observer obs[5];
  int n_obs = 0;
  if (sim_bad) goto cleanup;
  rc = 0;
  sweep_row_set_text(row, "paper_method", paper_method(form));
  if (!formulation_supports(sim.f, sim.w)) {
    sweep_row_status(row, "not_applicable");
    goto cleanup;
  }
  struct run_nv_stats nv;
  struct run_speed_stats speed; /* for the trace's speed_max and kinetic_energy columns */
  rc = run_observer_nv_error(&obs[n_obs++], &nv) || run_observer_speed(&obs[n_obs++], &speed);
  if (!rc && ctx->stop_on_failure) run_observer_stop_on_failure(&obs[n_obs++]);
  struct run_summary sum;
  /* the engine's count: -steps N when given, else t_end / h (both checked at the option) */
  if (rc || sweep_observers_standard(task, obs, &n_obs, 5) ||
      simulation_run(&sim, h, task->steps, obs, n_obs, &sum)) {
    rc = 1;
    goto cleanup;
  }
  if (sum.steps > 0) sweep_row_set_int(row, "rows", sum.rows_first);
  sweep_row_set(row, "cpu_seconds", sum.cpu_seconds);
  sweep_row_set_int(row, "steps", sum.steps);
  sweep_row_set_int(row, "failed_steps", sum.failed_steps);
  if (isfinite(sum.failed_at)) sweep_row_set(row, "failed_at", sum.failed_at);
  sweep_row_set(row, "step_seconds", sum.step_seconds);
  sweep_row_set(row, "solve_seconds", sum.solve_seconds);
  sweep_row_set_int(row, "iterations", sum.iterations);
  sweep_row_set(row, "fp_iterations", sum.fp_iterations);
  sweep_row_set_int(row, "fp_iterations_max", sum.fp_iterations_max);
  sweep_row_set(row, "nv_error_mean", nv.mean);
  sweep_row_set(row, "nv_error_mean_max", nv.mean_max);
  sweep_row_set(row, "nv_error_max", nv.max);
  sweep_row_set(row, "contacts_mean", sum.contacts_mean);
  sweep_row_set(row, "residual_max", sum.residual_max);
  sweep_row_set(row, "speed_end", world_max_speed(sim.w));
  /* ok, or the first failed step's solve status */
  sweep_row_status(row, sum.failed_steps ? solve_status_name(sum.first_failed_status) : "ok");
cleanup:
  run_observers_destroy(obs, n_obs);
  simulation_close(&sim);
  return rc;
}

static const struct option_decl options[] = {
    {"t_end", OPT_REAL, offsetof(struct cannonball_ctx, T), "2", "(0,inf)", "simulated seconds per run [s]"},
    {"steps", OPT_INT, offsetof(struct cannonball_ctx, steps), "0", "[0,2147483647]",
     "steps per run instead of t_end / h (1 to 2147483647; not given: t_end / h; Table 1: 1)"},
    {"stop_on_failure", OPT_BOOL, offsetof(struct cannonball_ctx, stop_on_failure), "1", NULL,
     "stop at the first step that does not converge; with 0 an approximate answer (max_iterations, "
     "time_limit) still advances the pile"},
};

/* The disks axis must hold triangular numbers (the pile's row count follows from them). */
static int check_axes(void *vctx, const int *n_values, char *const *const *values)
{
  (void)vctx;
  int k = 0;
  while (strcmp(axes[k].name, "disks") != 0)
    k++;
  for (int i = 0; i < n_values[k]; i++)
    if (rows_of(strtol(values[k][i], NULL, 10)) == 0) {
      fprintf(stderr, "error: -disks %s is not a triangular number r(r+1)/2 (21, 136, 210, ...)\n",
              values[k][i]);
      return 1;
    }
  return 0;
}

/* Dense problems of size ~ contacts ~ 3 disks, pivoting ~ n^3; LCP1 takes several rounds. */
static double cost(const struct sweep_task *t, void *vctx)
{
  const struct cannonball_ctx *ctx = vctx;
  double n = 3.0 * (double)sweep_task_int(t, "disks"),
         steps = ctx->steps > 0 ? ctx->steps : ctx->T / sweep_task_real(t, "h");
  return steps * n * n * n *
         (strcmp(sweep_task_string(t, "formulation"), "anitescu_hart_lcp1") == 0 ? 10.0 : 1.0);
}

static const struct sweep_driver driver = {
    .experiment = "cannonball",
    .title = "cannonball piles, LCP0/LCP1/LCP2 (Anitescu & Hart Sec. 4B, Figs. 3-4, Table 1)",
    .help =
        "Status: ok when every step converged, else the first failed step's solve status (max_iterations\n"
        "is the paper's MAX ITER: Lemke's -cp_max_it pivots, or LCP1's -anitescu_hart_max_iterations).\n",
    .options = options,
    .steps_observed = 1,
    .n_options = sizeof options / sizeof options[0],
    .settings_size = sizeof(struct cannonball_ctx),
    .axes = axes,
    .n_axes = sizeof axes / sizeof axes[0],
    .columns = columns,
    .n_columns = sizeof columns / sizeof columns[0],
    .plot_x = "mu",
    .series = "formulation,solver",
    .check_axes = check_axes,
    .cost = cost,
    .run = run,
};

int main(int argc, char **argv) { return sweep_main(&driver, argc, argv); }
