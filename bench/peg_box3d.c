/* NAME    bench_peg_box3d — icosahedra thrown into a fixed open box of five static blocks (the PEG paper's
 *         box of polyhedra), one every 0.5 s, until 5 s, frictionless.
 * PURPOSE for each (h, formulation, stewart_trinkle_detection, solver): the total intersection volume over
 * body pairs after every step (exact, overlap3d: qhull's halfspace intersection; the box's own blocks
 * excluded), summarised as mean, median and quartiles over the steps and its maximum; the fastest body's
 *         speed; whether and when a solve failed (a solve without an answer ends the run); the fraction of
 *         steps with a standard-model trap (a vertex near two or more non-coplanar faces of one part, counted
 * on PEG's potential contacts of the step's start state, as the 2D box counts corners); mean contacts,
 *         problem size, solve and step time. No random element: the spawns are identical (no seeds).
 * USAGE   bench_peg_box3d [-options_file bench/experiments/peg_box3d.opts] [-h 0.001,0.016]
 *         [-formulation peg,corrective,stewart_trinkle] [-stewart_trinkle_detection closest,paper]
 * [-cp_solver lemke]
 *         [-t_end 5] [-interval 0.5] [-threshold 0.1] [sweep options: -out, -resume, ... see -help]
 * PAPER   Williams, Lu & Trinkle 2016, Sec. 6, "Box of Polyhedra", Figs. 23-24 (set-up from the authors'
 *         code: ../shared/notes/peg-experiments.md): floor 10.25 x 4.25 x 0.25 centred at (0, 0, -0.125),
 *         end walls 0.25 x 4.25 x 4 at (+-5, 0, 1.75), side walls 10.25 x 0.25 x 4 at (0, +-2, 1.75), each a
 *         triangulated cube mesh; icosahedra of circumradius 0.5, mass 0.5, J = 0.1309017 I, entering
 *         before step 1 + (k - 1) round(interval / h) at (3, 0, 2) with v = (-5, 0, 0), turned 0.2 rad
 *         about (1, 2, 3) / sqrt 14; g = 9.81. */
#include "contact3d.h"
#include "engine/sweep_observers.h"
#include "geom3d.h"
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
     "time step [s]", 0, SWEEP_METHOD, "(0,inf)"},
    {"formulation", NULL, SWEEP_FORMULATION, "peg,corrective,stewart_trinkle", "formulations", 0,
     SWEEP_METHOD, NULL},
    {"solver", "-cp_solver", SWEEP_SOLVER, "lemke", "solvers", 0, SWEEP_METHOD, NULL},
    {"stewart_trinkle_detection", NULL, SWEEP_OPTION, "closest,paper",
     "the standard model\'s contacts (stewart_trinkle only): closest features, or "
     "paper (every vertex against every face near its plane)",
     0, SWEEP_METHOD, NULL},
};

static const struct sweep_column columns[] = {
    {"overlap_mean", SWEEP_METRIC, "mean over the steps of the total intersection volume [m^3]",
     .floor = 1e-12},
    {"overlap_median", SWEEP_METRIC, "median over the steps of the total intersection volume [m^3]",
     .floor = 1e-12},
    {"overlap_q1", SWEEP_INFO, "first quartile over the steps [m^3]", .floor = 0},
    {"overlap_q3", SWEEP_INFO, "third quartile over the steps [m^3]", .floor = 0},
    {"overlap_max", SWEEP_METRIC, "largest total intersection volume [m^3]", .floor = 1e-12},
    {"speed_max", SWEEP_INFO, "fastest body's speed over the steps [m/s] (blow-ups show here)", .floor = 0},
    {"failed_at", SWEEP_INFO, "simulated time at the start of the first failed step [s] (empty: none)",
     .floor = 0},
    {"failed_steps", SWEEP_INFO, "solves that did not converge", .floor = 0},
    {"completed", SWEEP_INFO, "1 when the run reached -t_end", .floor = 0},
    {"trap_fraction", SWEEP_METRIC,
     "fraction of steps with a standard-model trap (a vertex near two non-coplanar faces of one part)",
     .floor = 0},
    {"traps_mean", SWEEP_INFO, "mean trap count per step", .floor = 0},
    {"i_constraint_fraction", SWEEP_INFO,
     "fraction of steps at whose start PEG's model forms an I-constraint on the potential contacts (Sec. 3: "
     "a vertex against several features of one part; the paper's \"PEG was necessary\", Fig. 22)",
     .floor = 0},
    {"i_constraints_mean", SWEEP_INFO, "mean I-constraints PEG's model forms per step", .floor = 0},
    {"contacts_mean", SWEEP_INFO, "mean potential contacts per step", .floor = 0},
    {"bodies", SWEEP_INFO, "icosahedra spawned", .floor = 0},
    {"steps", SWEEP_INFO, "steps taken (the last one may have failed)", .floor = 0},
    {"rows_mean", SWEEP_COST, "mean rows of the complementarity problem per step", .count = 1},
    {"solve_seconds", SWEEP_COST, "wall time per step in the solver only, mean over the run's steps [s]",
     .floor = 0},
    {"detect_seconds", SWEEP_COST,
     "wall time per step in contact detection only (the formulation's own: overlap tests for corrective), "
     "mean over the run's steps [s]",
     .floor = 0},
    {"assemble_seconds", SWEEP_COST, "wall time per step in assembly only, mean over the run's steps [s]",
     .floor = 0},
    {"step_seconds", SWEEP_COST,
     "wall time per step, whole step (detect + assemble + solve + recover), mean over the run's steps [s]",
     .floor = 0},
};

struct box3d_ctx {
  double T, interval, threshold, mu;
};

struct spawn3d {
  long every;
  int added, max;
};

static int spawn_before(void *vctx, struct simulation *sim, long k, double h)
{
  (void)h;
  struct spawn3d *sp = vctx;
  if (sp->added < sp->max && (k - 1) % sp->every == 0) {
    if (scene_peg_box3d_add_icosahedron(sim->w) < 0) return RUN_ERROR;
    sp->added++;
  }
  return RUN_CONTINUE;
}

static void spawn_values(void *vctx, double *v) { v[0] = ((const struct spawn3d *)vctx)->added; }

/* Total intersection volume and fastest speed after every step that advanced. */
struct volume_stats {
  double *vol;
  long n, cap;
  double speed_max, last;
};

static int volume_after(void *vctx, const struct simulation *sim, long k, const struct step_record *rec)
{
  (void)k;
  struct volume_stats *c = vctx;
  if (!rec->advanced) return RUN_CONTINUE;
  double v = contact3d_total_overlap(sim->w);
  if (v < 0.0) return RUN_ERROR;
  c->last = v;
  if (c->n < c->cap) c->vol[c->n++] = v;
  for (int i = 0; i < sim->w->nb; i++)
    c->speed_max = fmax(c->speed_max, vec3_norm(sim->w->bodies[i].v));
  return RUN_CONTINUE;
}

static void volume_values(void *vctx, double *v) { v[0] = ((const struct volume_stats *)vctx)->last; }

static int run(const struct sweep_task *task, void *vctx, struct sweep_row *row)
{
  const struct box3d_ctx *ctx = vctx;
  const char *form = sweep_task_string(task, "formulation"), *solver = sweep_task_string(task, "solver");
  const double h = sweep_task_real(task, "h");
  long n = task->steps;
  struct simulation sim;
  int sim_bad = simulation_open(
      &sim, sweep_task_world(task, "peg_box3d:threshold=%.17g:mu=%.17g", ctx->threshold, ctx->mu), form,
      solver, task->options);
  struct run_observer obs[6];
  int n_obs = 0, rc = 1;
  double *vol = malloc(((size_t)n + 1) * sizeof *vol);
  if (sim_bad || !vol) goto cleanup;
  rc = 0;
  if (!formulation_supports(sim.f, sim.w)) {
    sweep_row_status(row, "not_applicable");
    goto cleanup;
  }
  long every = lround(ctx->interval / h);
  struct spawn3d sp = {.every = every > 0 ? every : 1, .max = (int)(n / (every > 0 ? every : 1)) + 1};
  struct volume_stats vs = {.vol = vol, .cap = n + 1};
  obs[n_obs++] = (struct run_observer){.name = "spawner",
                                       .ctx = &sp,
                                       .before_step = spawn_before,
                                       .columns = "bodies",
                                       .n_columns = 1,
                                       .values = spawn_values};
  obs[n_obs++] = (struct run_observer){.name = "overlap_volume",
                                       .ctx = &vs,
                                       .after_step = volume_after,
                                       .columns = "overlap_volume",
                                       .n_columns = 1,
                                       .values = volume_values};
  struct run_trap_stats traps;
  struct run_summary sum;
  if (run_observer_traps(&obs[n_obs++], &traps) || sweep_observers_standard(task, obs, &n_obs, 6) ||
      simulation_run(&sim, h, n, obs, n_obs, &sum)) {
    rc = 1;
    goto cleanup;
  }
  sweep_row_status(row, sum.failed_steps ? run_failed_status(&sum) : "ok");
  if (isfinite(sum.failed_at)) sweep_row_set(row, "failed_at", sum.failed_at);
  sweep_row_set_int(row, "failed_steps", sum.failed_steps);
  sweep_row_set_int(row, "completed", sum.completed);
  sweep_row_set_int(row, "bodies", sp.added);
  sweep_row_set_int(row, "steps", sum.steps);
  const size_t done = (size_t)vs.n;
  if (done > 0) {
    sweep_row_set_distribution(row, "overlap", vol, done);
    sweep_row_set(row, "speed_max", vs.speed_max);
  }
  if (sum.steps > 0) {
    if (traps.steps > 0) {
      sweep_row_set(row, "trap_fraction", (double)traps.steps_with_traps / (double)traps.steps);
      sweep_row_set(row, "traps_mean", (double)traps.traps / (double)traps.steps);
      sweep_row_set(row, "i_constraint_fraction", (double)traps.steps_with_i / (double)traps.steps);
      sweep_row_set(row, "i_constraints_mean", (double)traps.i_constraints / (double)traps.steps);
    }
    sweep_row_set(row, "contacts_mean", sum.contacts_mean);
    sweep_row_set(row, "rows_mean", sum.rows_mean);
    sweep_row_set(row, "solve_seconds", sum.solve_seconds);
    sweep_row_set(row, "step_seconds", sum.step_seconds);
    sweep_row_set(row, "detect_seconds", sum.detect_seconds);
    sweep_row_set(row, "assemble_seconds", sum.assemble_seconds);
  }
cleanup:
  run_observers_destroy(obs, n_obs);
  free(vol);
  simulation_close(&sim);
  return rc;
}

static const struct option_decl options[] = {
    {"t_end", OPT_REAL, offsetof(struct box3d_ctx, T), "5", "(0,inf)", "simulated seconds [s]"},
    {"interval", OPT_REAL, offsetof(struct box3d_ctx, interval), "0.5", "(0,inf)",
     "seconds between spawns: body k enters before step 1 + (k - 1) round(interval / h) [s]"},
    {"threshold", OPT_REAL, offsetof(struct box3d_ctx, threshold), "0.1", "(0,inf)",
     "the world's contact threshold (closest-feature detection of the standard model) [m]"},
    {"mu", OPT_REAL, offsetof(struct box3d_ctx, mu), "0", "[0,inf)",
     "Coulomb friction coefficient of every contact (the paper's box is frictionless: 0)"},
};

static double cost(const struct sweep_task *t, void *vctx)
{
  const struct box3d_ctx *ctx = vctx;
  const char *form = sweep_task_string(t, "formulation");
  return ctx->T / sweep_task_real(t, "h") * (strcmp(form, "peg") == 0 ? 3.0 : 1.0);
}

static const struct sweep_driver driver = {
    .experiment = "peg_box3d",
    .title = "box of icosahedra: total overlap volume vs h (Williams, Lu & Trinkle 2016, Figs. 23-24)",
    .help = "Status ok: every solve converged; solve_failed: some did not (a solve without an answer ends\n"
            "the run). The stewart_trinkle_detection axis applies to stewart_trinkle only (paper: "
            "not_applicable elsewhere).\n",
    .options = options,
    .n_options = sizeof options / sizeof options[0],
    .settings_size = sizeof(struct box3d_ctx),
    .steps_observed = 1,
    .series = "formulation,stewart_trinkle_detection,solver",
    .axes = axes,
    .n_axes = sizeof axes / sizeof axes[0],
    .columns = columns,
    .n_columns = sizeof columns / sizeof columns[0],
    .cost = cost,
    .run = run,
};

int main(int argc, char **argv) { return sweep_main(&driver, argc, argv); }
