/* NAME    bench_rolling_disc — the rolling unit disc of Chakraborty, Berard, Akella & Trinkle, "A
 * geometrically implicit time-stepping method for multibody systems with intermittent contact", Sec. 1
 * and 6.1, Fig. 1: energy lost by a rolling disc, implicit geometry vs a regular N-gon. PURPOSE for each (N,
 * h, formulation, solver) roll a unit disc (N = 0: the implicit circle, f = x^2 + y^2 - 1; N >= 3: the
 * regular N-gon inscribed in it, uniform inertia) on the ground y <= 0 from q = (0, 1, 0), nu = (-3, 0, 3), m
 * = 1, J = 0.5 (disc), mu = 0.4, g = 9.81, for -t_end seconds. The exact motion rolls at constant speed
 * forever: kinetic energy 6.75 J, no slip (v_x + omega r = 0). Columns: the kinetic-energy loss over the run
 * (absolute, relative), the largest slip |v_x + omega r| over the steps (r = 1, the circumradius), the cost
 * per step. Known answer (Sec. 6.1): the geometrically implicit disc loses nothing (relative loss <= 1e-6:
 * status ok, else fail); the N-gon (the paper's Stewart-Trinkle in dVC) loses energy, less as N grows, down
 * to a limit set by h (Fig. 1a, 1b). Every formulation takes both; geometric_implicit takes the N-gon as an
 * intersection of half-planes (Sec. 4.3) and then, like the LCPs, measures its loss (status ok). Per-step
 * trace (-trace DIR): kinetic energy and slip per step (Fig. 1's curves). USAGE bench_rolling_disc
 * [-options_file bench/experiments/rolling_disc.opts] [-N 0,10,100,1000]
 *         [-h 0.01] [-formulation geometric_implicit,stewart_trinkle,anitescu_potra]
 *         [-cp_solver fb_newton,lemke] [-t_end 2] [sweep options: -out, -resume, ... see -help]
 * PAPER   Chakraborty et al. eqs. (41)-(47) (geometric_implicit), Stewart & Trinkle 1996, Anitescu-Potra.
 * Runs on the sweep engine: results/rolling_disc/<run>/tasks.csv, summary, plots. */
#include "engine/sweep_observers.h"
#include "scenes.h"
#include "simulation.h"

#include <math.h>
#include <petscsys.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const struct sweep_axis axes[] = {
    {"N", NULL, SWEEP_INT, "0,10,100,1000", "sides of the polygon; 0 = the implicit disc", 0, SWEEP_INSTANCE,
     "[0,100000]"},
    {"h", NULL, SWEEP_REAL, "0.01", "time step [s]", 0, SWEEP_METHOD, "(0,inf)"},
    {"formulation", NULL, SWEEP_FORMULATION, "geometric_implicit,stewart_trinkle,anitescu_potra",
     "formulations", 0, SWEEP_METHOD, NULL},
    {"solver", "-cp_solver", SWEEP_SOLVER, "fb_newton", "solvers", 0, SWEEP_METHOD, NULL},
};

static const struct sweep_column columns[] = {
    {"ke_loss", SWEEP_METRIC, "kinetic energy lost over the run, KE(0) - KE(t_end) [J]", .floor = 1e-12},
    {"ke_loss_rel", SWEEP_METRIC, "relative kinetic-energy loss (KE(0) - KE(t_end)) / KE(0)", .floor = 1e-12},
    {"slip_max", SWEEP_METRIC, "largest |v_x + omega r| over the steps, r = 1 (0 = rolls without slip) [m/s]",
     .floor = 1e-12},
    {"step_seconds", SWEEP_COST,
     "wall time per step, whole step (detect + assemble + solve + recover), mean over the run [s]",
     .floor = 0},
    {"solve_seconds", SWEEP_COST, "wall time per step in the solver only, mean over the run [s]", .floor = 0},
    {"iterations", SWEEP_INFO, "solver iterations over the run", .floor = 0},
    {"failed_at", SWEEP_INFO, "simulated time at the start of the first failed step [s] (empty: none)",
     .floor = 0},
};

struct rd_ctx {
  double T;
};

/* Per-step kinetic energy and slip of body 1 (the trace's columns), and the largest slip. */
struct roll_obs {
  double ke, slip, slip_max;
};

static int roll_after(void *vctx, const struct simulation *sim, long k, const struct step_record *rec)
{
  struct roll_obs *o = vctx;
  (void)k;
  (void)rec;
  const struct body *b = &sim->w->bodies[1];
  o->ke = world_kinetic_energy(sim->w);
  o->slip = fabs(b->v[0] + b->w[2]);
  if (o->slip > o->slip_max) o->slip_max = o->slip;
  return RUN_CONTINUE;
}

static void roll_values(void *vctx, double *v)
{
  const struct roll_obs *o = vctx;
  v[0] = o->ke;
  v[1] = o->slip;
}

static int run(const struct sweep_task *task, void *vctx, struct sweep_row *row)
{
  const struct rd_ctx *ctx = vctx;
  const int N = (int)sweep_task_int(task, "N");
  const double h = sweep_task_real(task, "h"), mu = 0.4, nu0[3] = {-3.0, 0.0, 3.0};
  const char *form = sweep_task_string(task, "formulation"), *solver = sweep_task_string(task, "solver");
  int rc = 1;
  struct simulation sim;
  struct world *w0 = N == 0 ? scene_disc_on_line(1.0, 1.0, 1.0, mu) : scene_ngon(N, 1.0, 1.0, mu, nu0);
  if (w0 && N == 0) {
    w0->bodies[1].v[0] = nu0[0];
    w0->bodies[1].w[2] = nu0[2];
  }
  if (N > 0 && N < 3) {
    sweep_row_status(row, "not_applicable"); /* no polygon with fewer than 3 sides */
    world_destroy(&w0);
    return 0;
  }
  int sim_bad = simulation_open(&sim, w0, form, solver);
  struct roll_obs ro = {0, 0, 0};
  struct run_observer obs[3];
  int n_obs = 0;
  if (sim_bad) goto cleanup;
  rc = 0;
  struct world *w = sim.w;
  /* the implicit formulation's NCP needs a solver that takes callback problems */
  int ncp = strcmp(form, "geometric_implicit") == 0;
  if (!formulation_supports(sim.f, w) || (ncp && !(sim.s->type->kinds & CP_NCP))) {
    sweep_row_status(row, "not_applicable");
    goto cleanup;
  }
  w->threshold = 0.01; /* as the N-gon test: a few vertices near the ground, not a fan of them */
  const int steps = (int)floor(ctx->T / h + 1e-9);
  const double ke0 = world_kinetic_energy(w);
  obs[n_obs++] = (struct run_observer){.name = "rolling",
                                       .ctx = &ro,
                                       .after_step = roll_after,
                                       .columns = "kinetic_energy,slip",
                                       .n_columns = 2,
                                       .values = roll_values};
  struct run_summary sum;
  if (sweep_observers_standard(task, obs, &n_obs, 3) || simulation_run(&sim, h, steps, obs, n_obs, &sum)) {
    rc = 1;
    goto cleanup;
  }
  double ke = world_kinetic_energy(w);
  sweep_row_set(row, "ke_loss", ke0 - ke);
  sweep_row_set(row, "ke_loss_rel", (ke0 - ke) / ke0);
  sweep_row_set(row, "slip_max", ro.slip_max);
  sweep_row_set(row, "step_seconds", sum.step_seconds);
  sweep_row_set(row, "solve_seconds", sum.solve_seconds);
  sweep_row_set(row, "iterations", (double)sum.iterations);
  if (sum.failed_steps) {
    sweep_row_status(row, "solve_failed");
    sweep_row_set(row, "failed_at", sum.failed_at);
    goto cleanup;
  }
  /* Sec. 6.1: the implicit disc keeps its energy within the paper's tolerance 1e-6; the N-gon has no
   * analytic loss to meet (its loss is the measurement) */
  if (ncp && N == 0)
    sweep_row_status(row, fabs(ke0 - ke) / ke0 <= 1e-6 ? "ok" : "fail");
  else
    sweep_row_status(row, "ok");
cleanup:
  run_observers_destroy(obs, n_obs);
  simulation_close(&sim);
  return rc;
}

static const struct option_decl options[] = {
    {"t_end", OPT_REAL, offsetof(struct rd_ctx, T), "2", "(0,inf)", "simulated seconds per run [s]"},
};

static const struct sweep_driver driver;

static int setup(void **vctx)
{
  struct rd_ctx *ctx = calloc(1, sizeof *ctx);
  if (!ctx) return 1;
  *vctx = ctx;
  return sweep_read_options(&driver, ctx);
}

static double cost(const struct sweep_task *t, void *vctx)
{
  const struct rd_ctx *ctx = vctx;
  return ctx->T / sweep_task_real(t, "h") * (1.0 + 0.01 * (double)sweep_task_int(t, "N"));
}

static void teardown(void *ctx) { free(ctx); }

static const struct sweep_driver driver = {
    .experiment = "rolling_disc",
    .title = "rolling unit disc: implicit circle vs N-gon (Chakraborty et al. Sec. 6.1, Fig. 1)",
    .help = "Status ok: the implicit disc loses <= 1e-6 of its kinetic energy (Sec. 6.1); N-gon runs report\n"
            "their loss (ok when every step solved).\n",
    .options = options,
    .steps_observed = 1,
    .n_options = sizeof options / sizeof options[0],
    .series = "formulation,N,solver", /* the disc (N = 0) and each N-gon its own series, never pooled */
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
