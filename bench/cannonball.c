/* NAME    bench_cannonball — Anitescu-Hart's cannonball experiments (LCP0 / LCP1 / LCP2).
 * PURPOSE issue 5, experiments 1-3: n rows of discs of diameter 3 (n on the bottom, n - 1 above, ...; 21,
 *         136, 210 discs) on a fixed plank, plastic contacts, from rest; for each (disks, mu, h, formulation,
 *         solver) simulate -t_end seconds (or -steps steps) and report success, cost, fixed-point rounds and
 *         the paper's normal velocity error (for pushing contacts, |n'v + gap/h|: mu lambda for LCP2).
 *         the formulation axis: anitescu_potra = LCP0 (eq. 6-7), anitescu_hart_lcp1 = LCP1 (fixed point
 *         of QP (15)), anitescu_hart_lcp2 = LCP2 (one QP); the paper's MAX ITER is -cp_max_it 10000.
 * USAGE   bench_cannonball -options_file bench/experiments/cannonball_exp1.opts (exp2, exp3, quick)
 *         [-disks 21,136,210] [-mu 0.05] [-h 0.05] [-formulation anitescu_potra,...] [-cp_solver lemke]
 *         [-t_end 2] [-steps N] [-stop_on_failure 1] [-trace DIR] [sweep options: -out, -resume, ... -help]
 * PAPER   Anitescu & Hart, Sec. 4B (Figs. 3-4, Table 1), eqs. 6-7, 15-19.
 * Runs on the sweep engine: results/cannonball/<run>/tasks.csv, summary, plots (x = mu). */
#include "engine/sweep.h"
#include "scenes.h"
#include "simulation.h"

#include <math.h>
#include <stddef.h>
#include <petscsys.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const struct sweep_axis axes[] = {
    {"disks", NULL, SWEEP_INT, "21", "discs in the pile, a triangular number r(r+1)/2 (r on the bottom)", 0, SWEEP_INSTANCE},
    {"mu", NULL, SWEEP_REAL, "0.05", "Coulomb friction coefficient at every contact", 0, SWEEP_INSTANCE},
    {"h", NULL, SWEEP_REAL, "0.05", "time step [s]", 0, SWEEP_METHOD},
    {"formulation", NULL, SWEEP_FORMULATION, "anitescu_potra,anitescu_hart_lcp1,anitescu_hart_lcp2",
     "formulation: anitescu_potra (LCP0), anitescu_hart_lcp1 (LCP1), anitescu_hart_lcp2 (LCP2), ...", 0, SWEEP_METHOD},
    {"solver", "-cp_solver", SWEEP_SOLVER, "lemke", "solvers", 0, SWEEP_METHOD},
};

static const struct sweep_column columns[] = {
    {"paper_method", SWEEP_INFO, "LCP0, LCP1 or LCP2 (the paper's name of the method), else empty"},
    {"steps", SWEEP_INFO, "steps taken (the last one may have failed)"},
    {"failed_steps", SWEEP_INFO, "steps whose solve did not converge (status max_iterations etc.)"},
    {"failed_at", SWEEP_INFO, "simulated time at the end of the first failed step [s] (empty: none)"},
    {"cpu_seconds", SWEEP_COST, "process CPU time of all steps [s]"},
    {"step_seconds", SWEEP_COST, "mean wall time per step (detect + assemble + solve + recover) [s]"},
    {"solve_seconds", SWEEP_COST, "wall time in the solver over all steps and rounds [s]"},
    {"iterations", SWEEP_INFO, "solver iterations (pivots for Lemke) over all steps and rounds"},
    {"fp_iterations", SWEEP_INFO, "mean assemble -> solve rounds per step (LCP1's fixed-point iterations)"},
    {"fp_iterations_max", SWEEP_INFO, "most rounds in one step"},
    {"nv_error_mean", SWEEP_METRIC, "mean over steps of the step's average normal velocity error [m/s]"},
    {"nv_error_mean_max", SWEEP_INFO, "largest step average of the normal velocity error [m/s]"},
    {"nv_error_max", SWEEP_METRIC, "largest normal velocity error over steps and pushing contacts [m/s]"},
    {"contacts", SWEEP_INFO, "mean contacts per step"},
    {"rows", SWEEP_INFO, "problem size of the first step (unknowns)"},
    {"residual_max", SWEEP_INFO, "largest checker residual / scale over the steps"},
    {"speed_max", SWEEP_INFO, "largest disc speed at the end [m/s]"},
};

struct cannonball_ctx {
  double T;
  int steps, stop_on_failure;
  char trace[OPTION_STRING_MAX];
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

static double cpu_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int run(const struct sweep_task *task, void *vctx, struct sweep_row *row)
{
  const struct cannonball_ctx *ctx = vctx;
  const long disks = sweep_task_int(task, "disks");
  const double mu = sweep_task_real(task, "mu"), h = sweep_task_real(task, "h");
  const char *form = sweep_task_string(task, "formulation"), *solver = sweep_task_string(task, "solver");
  int rc = 1;
  struct simulation sim;
  int sim_bad = simulation_open(&sim, scene_cannonball(rows_of(disks), 1.0, mu, 0), form, solver);
  struct world *w = sim.w;
  struct formulation *f = sim.f;
  struct solver *s = sim.s;
  struct stepper *st = sim.st;
  FILE *trace = NULL;
  if (sim_bad) goto cleanup;
  rc = 0;
  sweep_row_set_text(row, "paper_method", paper_method(form));
  if (!formulation_supports(f, w)) {
    sweep_row_status(row, "not_applicable");
    goto cleanup;
  }
  trace = sweep_trace_open(ctx->trace, "cannonball", task->id,
                           "step,t,status,contacts,rows,iterations,fp_iterations,solve_seconds,step_seconds,"
                           "nv_error_mean,nv_error_max,speed_max,kinetic_energy");
  const int steps = ctx->steps > 0 ? ctx->steps : (int)floor(ctx->T / h + 1e-9);
  int taken = 0, failed = 0, fp_sum = 0, fp_max = 0;
  long iterations = 0;
  double wall = 0.0, solve = 0.0, nv_mean_sum = 0.0, nv_mean_max = 0.0, nv_max = 0.0, contacts = 0.0,
         res_max = 0.0, failed_at = -1.0;
  const char *status = "ok";
  double c0 = cpu_now();
  for (int i = 0; i < steps; i++) {
    struct step_record rec;
    if (stepper_step(st, w, f, s, h, &rec)) {
      rc = 1;
      goto cleanup;
    }
    taken++;
    if (i == 0) sweep_row_set_int(row, "rows", rec.rows.total);
    double step_wall = rec.seconds_detect + rec.seconds_assemble + rec.seconds_solve + rec.seconds_recover;
    wall += step_wall;
    solve += rec.solve.seconds;
    iterations += rec.solve.iterations;
    fp_sum += rec.fp_iterations;
    fp_max = rec.fp_iterations > fp_max ? rec.fp_iterations : fp_max;
    contacts += rec.contacts;
    nv_mean_sum += rec.nv_error_mean;
    nv_mean_max = fmax(nv_mean_max, rec.nv_error_mean);
    nv_max = fmax(nv_max, rec.nv_error_max);
    if (rec.solve.scale > 0.0)
      res_max = fmax(res_max, fmax(rec.solve.residual, rec.solve.residual_eq) / rec.solve.scale);
    if (trace)
      fprintf(trace, "%d,%.17g,%s,%d,%d,%d,%d,%.6g,%.6g,%.17g,%.17g,%.17g,%.17g\n", i + 1, w->t,
              solve_status_name(rec.solve.status), rec.contacts, rec.rows.total, rec.solve.iterations,
              rec.fp_iterations, rec.solve.seconds, step_wall, rec.nv_error_mean, rec.nv_error_max,
              world_max_speed(w), world_kinetic_energy(w));
    if (rec.failed) {
      if (failed++ == 0) {
        status = solve_status_name(rec.solve.status);
        failed_at = w->t + (rec.advanced ? 0.0 : h);
      }
      if (ctx->stop_on_failure || !rec.advanced) break;
    }
  }
  sweep_row_set(row, "cpu_seconds", cpu_now() - c0);
  sweep_row_set_int(row, "steps", taken);
  sweep_row_set_int(row, "failed_steps", failed);
  if (failed_at >= 0.0) sweep_row_set(row, "failed_at", failed_at);
  sweep_row_set(row, "step_seconds", taken ? wall / taken : 0.0);
  sweep_row_set(row, "solve_seconds", solve);
  sweep_row_set_int(row, "iterations", iterations);
  sweep_row_set(row, "fp_iterations", taken ? (double)fp_sum / taken : 0.0);
  sweep_row_set_int(row, "fp_iterations_max", fp_max);
  sweep_row_set(row, "nv_error_mean", taken ? nv_mean_sum / taken : 0.0);
  sweep_row_set(row, "nv_error_mean_max", nv_mean_max);
  sweep_row_set(row, "nv_error_max", nv_max);
  sweep_row_set(row, "contacts", taken ? contacts / taken : 0.0);
  sweep_row_set(row, "residual_max", res_max);
  sweep_row_set(row, "speed_max", world_max_speed(w));
  sweep_row_status(row, status);
cleanup:
  if (trace) fclose(trace);
  simulation_close(&sim);
  return rc;
}

static const struct option_decl options[] = {
    {"t_end", OPT_REAL, offsetof(struct cannonball_ctx, T), "2", "(0,inf)", "simulated seconds per run [s]"},
    {"steps", OPT_INT, offsetof(struct cannonball_ctx, steps), "0", "[0,2147483647]",
     "steps per run instead of t_end / h (0: t_end / h; Table 1: 1)"},
    {"stop_on_failure", OPT_BOOL, offsetof(struct cannonball_ctx, stop_on_failure), "1", NULL,
     "stop at the first step that does not converge; with 0 an approximate answer (max_iterations, "
     "time_limit) still advances the pile"},
    {"trace", OPT_STRING, offsetof(struct cannonball_ctx, trace), "", NULL,
     "per-step CSV per task: DIR/cannonball_taskID.csv (existing directory)"},
};

static const struct sweep_driver driver;

static int setup(void **vctx)
{
  struct cannonball_ctx *ctx = calloc(1, sizeof *ctx);
  if (!ctx) return 1;
  *vctx = ctx;
  if (sweep_read_options(&driver, ctx)) return 1;
  /* The disks axis must hold triangular numbers (the pile's row count follows from them). */
  char list[1024] = "21";
  PetscOptionsGetString(NULL, NULL, "-disks", list, sizeof list, NULL);
  for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
    if (rows_of(strtol(tok, NULL, 10)) == 0) {
      fprintf(stderr, "error: -disks %s is not a triangular number r(r+1)/2 (21, 136, 210, ...)\n", tok);
      return 1;
    }
  }
  return 0;
}

/* Dense problems of size ~ contacts ~ 3 disks, pivoting ~ n^3; LCP1 takes several rounds. */
static double cost(const struct sweep_task *t, void *vctx)
{
  const struct cannonball_ctx *ctx = vctx;
  double n = 3.0 * (double)sweep_task_int(t, "disks"),
         steps = ctx->steps > 0 ? ctx->steps : ctx->T / sweep_task_real(t, "h");
  return steps * n * n * n * (strcmp(sweep_task_string(t, "formulation"), "anitescu_hart_lcp1") == 0 ? 10.0 : 1.0);
}

static void teardown(void *ctx) { free(ctx); }

static const struct sweep_driver driver = {
    .experiment = "cannonball",
    .title = "cannonball piles, LCP0/LCP1/LCP2 (Anitescu & Hart Sec. 4B, Figs. 3-4, Table 1)",
    .help =
        "Status: ok when every step converged, else the first failed step's solve status (max_iterations\n"
        "is the paper's MAX ITER: Lemke's -cp_max_it pivots, or LCP1's -anitescu_hart_max_iterations).\n",
    .options = options,
    .n_options = sizeof options / sizeof options[0],
    .axes = axes,
    .n_axes = sizeof axes / sizeof axes[0],
    .columns = columns,
    .n_columns = sizeof columns / sizeof columns[0],
    .plot_x = "mu",
    .series = "formulation,solver",
    .setup = setup,
    .cost = cost,
    .run = run,
    .teardown = teardown,
};

int main(int argc, char **argv) { return sweep_main(&driver, argc, argv); }
