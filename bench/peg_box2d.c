/* NAME    bench_peg_box2d — random convex polygons poured into a fixed open box (the PEG paper's box of
 *         polygons), one every 0.25 s from alternating sides, until 5 s, frictionless.
 * PURPOSE for each (source, seed, h, formulation, solver): the total intersection area over body pairs
 *         after every step (exact polygon clipping; the box's own parts excluded), summarised as mean,
 *         median and quartiles over the steps; the deepest separating-axis overlap; whether and when a
 *         solve failed (a solve without an answer ends the run); the fraction of steps with a
 *         standard-model trap; mean problem size, solve and step time. Sources: "paper" — the paper's ten
 *         stored sets (seed s takes the s-th letter of -bodyset, default a..j, from -bodyset_file) — and
 *         "generator" — our generator (scene_peg_bodyset_generate) seeded with the engine's instance seed
 * (-seed and the instance axes), which needs no ../shared data. USAGE   bench_peg_box2d [-options_file
 * bench/experiments/peg_box2d.opts] [-source paper,generator]
 *         [-seeds 10] [-bodyset a,b,c] [-h 0.001,0.016] [-formulation peg,stewart_trinkle]
 *         [-cp_solver lemke] [-stewart_trinkle_detection closest,paper] [-t_end 5] [-interval 0.25] [-mu 0]
 * [-bodyset_file F] [sweep options: -out, -resume, ... see -help] PAPER   Williams, Lu & Trinkle 2016, Sec.
 * 6, Figs. 20-22 (set-up from the authors' code:
 *         ../shared/notes/peg-experiments.md). */
#include "engine/sweep_observers.h"
#include "geom2d.h"
#include "sat2d.h"
#include "scenes.h"
#include "simulation.h"

#include <math.h>
#include <petscsys.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_BODIES 64

static const struct sweep_axis axes[] = {
    {"source", NULL, SWEEP_STRING, "paper", "polygon sets: paper (the stored sets a..j) or generator", 0,
     SWEEP_INSTANCE, NULL},
    {SWEEP_SEEDS_AXIS, NULL, SWEEP_INT, "10",
     "repeats: the s-th stored set, or a generated set seeded from -seed and s", 1, SWEEP_INSTANCE, NULL},
    {"h", NULL, SWEEP_REAL,
     "0.001,0.002,0.003,0.004,0.005,0.006,0.007,0.008,0.009,0.01,0.011,0.012,0.013,0.014,0.015,0.016",
     "time step [s]", 0, SWEEP_METHOD, "(0,inf)"},
    {"formulation", NULL, SWEEP_FORMULATION, "stewart_trinkle,corrective,lnc,peg", "formulations", 0,
     SWEEP_METHOD, NULL},
    {"solver", "-cp_solver", SWEEP_SOLVER, "lemke", "solvers", 0, SWEEP_METHOD, NULL},
    {"stewart_trinkle_detection", NULL, SWEEP_OPTION, "closest",
     "the standard model\'s contacts (stewart_trinkle only): closest features, or "
     "paper (the PEG paper's experiments: every vertex against every edge near its line)",
     0, SWEEP_METHOD, NULL},
};

static const struct sweep_column columns[] = {
    {"bodyset", SWEEP_INFO, "the stored set's letter, or gen:<seed> for the generator", .floor = 0},
    {"overlap_mean", SWEEP_METRIC, "mean over the steps of the total intersection area [m^2]",
     .floor = 1e-12},
    {"overlap_median", SWEEP_METRIC, "median over the steps of the total intersection area [m^2]",
     .floor = 1e-12},
    {"overlap_q1", SWEEP_INFO, "first quartile over the steps [m^2]", .floor = 0},
    {"overlap_q3", SWEEP_INFO, "third quartile over the steps [m^2]", .floor = 0},
    {"overlap_max", SWEEP_METRIC, "largest total intersection area [m^2]", .floor = 1e-12},
    {"max_overlap_depth", SWEEP_METRIC, "deepest separating-axis overlap over the steps [m]", .floor = 1e-9},
    {"speed_max", SWEEP_INFO, "fastest dynamic body's speed over the steps [m/s] (blow-ups show here)",
     .floor = 0},
    {"failed_at", SWEEP_INFO, "simulated time at the start of the first failed step [s] (empty: none)",
     .floor = 0},
    {"failed_steps", SWEEP_INFO, "solves that did not converge", .floor = 0},
    {"completed", SWEEP_INFO, "1 when the run reached -t_end", .floor = 0},
    {"trap_fraction", SWEEP_METRIC, "fraction of steps with a standard-model trap", .floor = 0},
    {"traps_mean", SWEEP_INFO, "mean trap count per step", .floor = 0},
    {"i_constraint_fraction", SWEEP_INFO,
     "fraction of steps at whose start PEG's model forms an I-constraint on the potential contacts (Sec. 3: "
     "a vertex against several features of one part; the paper's \"PEG was necessary\", Fig. 22)",
     .floor = 0},
    {"i_constraints_mean", SWEEP_INFO, "mean I-constraints PEG's model forms per step", .floor = 0},
    {"contacts_mean", SWEEP_INFO, "mean potential contacts per step", .floor = 0},
    {"bodies", SWEEP_INFO, "polygons spawned", .floor = 0},
    {"steps", SWEEP_INFO, "steps taken (the last one may have failed)", .floor = 0},
    {"rows_mean", SWEEP_COST, "mean rows of the complementarity problem per step", .count = 1},
    {"solve_seconds", SWEEP_COST,
     "wall time per step in the solver only (the harness's timing of each solve call, summed over the "
     "step's rounds), mean over the run's steps [s]",
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

struct box_ctx {
  double T, interval, mu;
  char sets[32]; /* the letters of -bodyset, in order */
  int nsets;
  char bodyset[OPTION_STRING_MAX]; /* -bodyset as given */
  char file[OPTION_STRING_MAX];
};

/* The polygon set of a task into specs; returns the count, 0 for "not applicable", -1 on error. */
static int task_bodies(const struct box_ctx *ctx, const char *source, long seed, unsigned long instance_seed,
                       struct peg_body_spec *specs, char *label, size_t len)
{
  if (strcmp(source, "generator") == 0) { /* the engine's instance seed: the same for every method */
    unsigned long s = instance_seed;
    snprintf(label, len, "gen:%lu", s);
    return scene_peg_bodyset_generate(s, MAX_BODIES, specs) ? -1 : MAX_BODIES;
  }
  if (seed < 0 || seed >= ctx->nsets) return 0;
  char err[1200];
  int n = 0;
  snprintf(label, len, "%c", ctx->sets[seed]);
  if (scene_peg_bodyset_load(ctx->file, ctx->sets[seed] - 'a' + 1, specs, MAX_BODIES, &n, err, sizeof err)) {
    fprintf(stderr, "bench_peg_box2d: %s\n", err);
    return -1;
  }
  return n;
}

/* Pours the polygons: body k enters before its step (scene_spawner_before_step). Trace column: bodies. */
static int spawn_before(void *vctx, struct simulation *sim, long k, double h)
{
  (void)h;
  return scene_spawner_before_step(vctx, sim->w, k) < 0 ? RUN_ERROR : RUN_CONTINUE;
}

static void spawn_values(void *vctx, double *v) { v[0] = ((const struct scene_spawner *)vctx)->added; }

static int run(const struct sweep_task *task, void *vctx, struct sweep_row *row)
{
  const struct box_ctx *ctx = vctx;
  const char *source = sweep_task_string(task, "source"), *form = sweep_task_string(task, "formulation");
  const char *solver = sweep_task_string(task, "solver");
  const double h = sweep_task_real(task, "h");
  struct peg_body_spec specs[MAX_BODIES];
  char label[64];
  int nspec = task_bodies(ctx, source, sweep_task_int(task, SWEEP_SEEDS_AXIS), task->instance_seed, specs,
                          label, sizeof label);
  if (nspec <= 0) {
    if (nspec == 0) sweep_row_status(row, "not_applicable");
    return nspec < 0;
  }
  sweep_row_set_text(row, "bodyset", label);
  long n = task->steps;
  struct simulation sim;
  int sim_bad =
      simulation_open(&sim, sweep_task_world(task, "peg_box:mu=%.17g", ctx->mu), form, solver, task->options);
  struct run_observer obs[6];
  int n_obs = 0;
  double *ov = malloc(((size_t)n + 1) * sizeof *ov);
  int rc = 1;
  if (sim_bad || !ov) goto cleanup;
  rc = 0;
  if (!formulation_supports(sim.f, sim.w)) {
    sweep_row_status(row, "not_applicable");
    goto cleanup;
  }
  struct scene_spawner sp;
  scene_spawner_init(&sp, specs, nspec, ctx->interval, h);
  obs[n_obs++] = (struct run_observer){.name = "spawner",
                                       .ctx = &sp,
                                       .before_step = spawn_before,
                                       .columns = "bodies",
                                       .n_columns = 1,
                                       .values = spawn_values};
  struct run_trap_stats traps;
  struct run_overlap_stats overlap = {.area = ov, .cap = n + 1};
  struct run_speed_stats speed;
  struct run_summary sum;
  if (run_observer_traps(&obs[n_obs++], &traps) || run_observer_overlap(&obs[n_obs++], &overlap) ||
      run_observer_speed(&obs[n_obs++], &speed) || sweep_observers_standard(task, obs, &n_obs, 6) ||
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
  const size_t done = (size_t)overlap.n; /* states measured: the steps that advanced */
  if (done > 0) {
    sweep_row_set_distribution(row, "overlap", ov, done);
    sweep_row_set(row, "max_overlap_depth", overlap.depth_max);
    sweep_row_set(row, "speed_max", speed.speed_max);
  }
  if (sum.steps > 0) {
    sweep_row_set(row, "trap_fraction", (double)traps.steps_with_traps / (double)traps.steps);
    sweep_row_set(row, "traps_mean", (double)traps.traps / (double)traps.steps);
    sweep_row_set(row, "i_constraint_fraction", (double)traps.steps_with_i / (double)traps.steps);
    sweep_row_set(row, "i_constraints_mean", (double)traps.i_constraints / (double)traps.steps);
    sweep_row_set(row, "contacts_mean", sum.contacts_mean);
    sweep_row_set(row, "rows_mean", sum.rows_mean);
    sweep_row_set(row, "solve_seconds", sum.solve_seconds);
    sweep_row_set(row, "step_seconds", sum.step_seconds);
    sweep_row_set(row, "detect_seconds", sum.detect_seconds);
    sweep_row_set(row, "assemble_seconds", sum.assemble_seconds);
  }
cleanup:
  run_observers_destroy(obs, n_obs);
  free(ov);
  simulation_close(&sim);
  return rc;
}

static const struct option_decl options[] = {
    {"t_end", OPT_REAL, offsetof(struct box_ctx, T), "5", "(0,inf)", "simulated seconds [s]"},
    {"interval", OPT_REAL, offsetof(struct box_ctx, interval), "0.25", "(0,inf)",
     "seconds between spawns: body k enters before step 1 + (k - 1) round(interval / h) [s]"},
    {"mu", OPT_REAL, offsetof(struct box_ctx, mu), "0", "[0,inf)",
     "friction coefficient (the paper's runs are frictionless)"},
    {"bodyset", OPT_STRING, offsetof(struct box_ctx, bodyset), "a,b,c,d,e,f,g,h,i,j", NULL,
     "the stored sets seeds 0, 1, ... take"},
    {"bodyset_file", OPT_STRING, offsetof(struct box_ctx, file), "", NULL,
     "the stored sets (default $CB_SHARED_DATA or ../shared/data, + /peg/box2d_bodysets.txt)"},
};

static int setup(void *vctx, PetscOptions run_options)
{
  (void)run_options;
  struct box_ctx *ctx = vctx;
  if (!ctx->file[0]) scene_peg_bodyset_default_path(ctx->file, sizeof ctx->file);
  char sets[OPTION_STRING_MAX];
  snprintf(sets, sizeof sets, "%s", ctx->bodyset);
  char *save = NULL;
  for (char *tok = strtok_r(sets, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    if (strlen(tok) != 1 || tok[0] < 'a' || tok[0] > 'j' || ctx->nsets == 10) {
      fprintf(stderr, "error: -bodyset takes up to ten letters a..j, comma-separated (got '%s')\n", tok);
      return 1;
    }
    ctx->sets[ctx->nsets++] = tok[0];
  }
  return 0;
}

/* The paper's sets are a file: a sweep over them needs it before any task. */
static int check_axes(void *vctx, const int *n_values, char *const *const *values)
{
  const struct box_ctx *ctx = vctx;
  struct stat sb;
  if (sweep_values_have(n_values, values, 0, "paper") && stat(ctx->file, &sb) != 0) {
    fprintf(
        stderr,
        "error: %s: no such file (the paper's polygon sets); set -bodyset_file or CB_SHARED_DATA, or run\n"
        "       -source generator (our own generator needs no data)\n",
        ctx->file);
    return 1;
  }
  return 0;
}

static double cost(const struct sweep_task *t, void *vctx)
{
  const struct box_ctx *ctx = vctx;
  const char *form = sweep_task_string(t, "formulation");
  return ctx->T / sweep_task_real(t, "h") * (strcmp(form, "stewart_trinkle") == 0 ? 20.0 : 1.0);
}

static const struct sweep_driver driver = {
    .experiment = "peg_box2d",
    .title =
        "box of polygons: overlap, failures and traps vs h (Williams, Lu & Trinkle 2016 Sec. 6, Figs. 20-22)",
    .help = "Status ok: every solve converged; solve_failed: some did not (a solve without an answer ends\n"
            "the run: completed 0). Formulations take their own options (-peg_..., -stewart_trinkle_...).\n",
    .options = options,
    .steps_observed = 1,
    .series = "formulation,stewart_trinkle_detection,solver",
    .n_options = sizeof options / sizeof options[0],
    .settings_size = sizeof(struct box_ctx),
    .axes = axes,
    .n_axes = sizeof axes / sizeof axes[0],
    .columns = columns,
    .n_columns = sizeof columns / sizeof columns[0],
    .setup = setup,
    .check_axes = check_axes,
    .cost = cost,
    .run = run,
};

int main(int argc, char **argv) { return sweep_main(&driver, argc, argv); }
