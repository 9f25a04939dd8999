/* NAME    bench_step — per-step cost split into contact detection, assembly, solve and recovery.
 * PURPOSE the cannonball stacks of Anitescu-Hart Sec. 4B (21, 136, 210 discs: 6, 16, 20 rows, h = 0.05,
 *         mu = 0.05, from rest, no walls) and n random convex polygons in a box (50/100/200, h = 0.01,
 *         after -warmup untimed steps so that they have piled up). Targets: detection + assembly <= 20 %
 *         of the step for stewart_trinkle + lemke on the 136-disc stack; detection about linear in the
 *         number of bodies.
 * USAGE   bench_step [-options_file bench/experiments/step.opts] [-scene cannonball:rows=6,polygon_box:n=50]
 *         [-formulation stewart_trinkle] [-cp_solver lemke] [-steps 5] [-warmup 40] [sweep options]
 * PAPER   Anitescu-Hart Sec. 4B (the stacks); Stewart & Trinkle 1996 (the default formulation).
 * Runs on the sweep engine: results/step/<run>/tasks.csv, summary, plots. A scene is a registered scene
 * spec (scene.h: NAME or NAME:opt=value:...), stepped with its type's h; times are the mean wall seconds
 * per timed step of one task (one process, one core). */
#include "engine/sweep.h"
#include "engine/sweep_observers.h"
#include "run.h"
#include "scene.h"
#include "simulation.h"

#include <petscsys.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define STEP_SCENES_DEFAULT                                                                                  \
  "cannonball:rows=6,cannonball:rows=16,cannonball:rows=20,polygon_box:n=50,polygon_box:n=100,"              \
  "polygon_box:n=200"

static const struct sweep_axis axes[] = {
    {"scene", NULL, SWEEP_STRING, STEP_SCENES_DEFAULT,
     "registered scene specs, NAME or NAME:opt=value:... (bin/bench_step -help lists the scenes)", 0,
     SWEEP_INSTANCE, NULL},
    {"formulation", NULL, SWEEP_FORMULATION, "stewart_trinkle", "formulations", 0, SWEEP_METHOD, NULL},
    {"solver", "-cp_solver", SWEEP_SOLVER, "lemke", "solvers", 0, SWEEP_METHOD, NULL},
};

static const struct sweep_column columns[] = {
    {"bodies", SWEEP_INFO, "bodies of the world, static ones included", .floor = 0},
    {"h", SWEEP_INFO, "time step: the scene type's [s]", .floor = 0},
    {"steps", SWEEP_INFO, "timed steps taken", .floor = 0},
    {"failed_steps", SWEEP_INFO, "timed steps whose solve did not converge", .floor = 0},
    {"warmup_failed_steps", SWEEP_INFO, "untimed warm-up steps whose solve did not converge", .floor = 0},
    {"contacts", SWEEP_INFO, "potential contacts per timed step (mean)", .floor = 0},
    {"rows", SWEEP_INFO, "rows of the complementarity problem per timed step (mean)", .floor = 0},
    {"detect_seconds", SWEEP_COST,
     "wall time per step in contact detection only, mean over the timed steps [s]", .floor = 0},
    {"assemble_seconds", SWEEP_COST, "wall time per step in assembly only, mean over the timed steps [s]",
     .floor = 0},
    /* not solve_seconds: elsewhere that is the solver alone; this phase also holds the harness's check
     * and the formulation's fixed-point hook */
    {"solve_phase_seconds", SWEEP_COST,
     "wall time per step in the solve phase (the solver, the harness's check, the formulation's "
     "fixed-point hook), mean over the timed steps [s]",
     .floor = 0},
    {"recover_seconds", SWEEP_COST, "wall time per step in recovery only, mean over the timed steps [s]",
     .floor = 0},
    {"step_seconds", SWEEP_COST,
     "wall time per step, whole step (the four phases summed), mean over the timed steps [s]", .floor = 0},
    {"detect_assemble_fraction", SWEEP_INFO, "(detect + assemble) / step time, in [0, 1]", .floor = 0},
};

/* The driver's own options, declared and read by the one strict reader. */
struct step_ctx {
  int steps, warmup;
  /* the scene axis' specs and their body counts, for the cost estimate */
  int n_scenes;
  char **spec;
  int *bodies;
  PetscOptions run_options; /* setup's: the scenes' options for check_axes */
};

static const struct option_decl step_options[] = {
    {"steps", OPT_INT, offsetof(struct step_ctx, steps), "5", "[1,1000000]", "timed steps per task"},
    {"warmup", OPT_INT, offsetof(struct step_ctx, warmup), "40", "[0,1000000]",
     "untimed steps first, for scenes whose bodies fall into place (polygon_box)"},
};

/* The per-phase split of the timed steps: an observer on the one run loop (run.h). */
struct totals {
  int steps, failed;
  double contacts, rows, detect, assemble, solve, recover;
  const char *status; /* the last failed step's solve status, "ok" when none failed */
};

static int add_step(void *vctx, const struct simulation *sim, long k, const struct step_record *rec)
{
  struct totals *tot = vctx;
  (void)sim, (void)k;
  tot->steps++;
  tot->failed += rec->failed;
  tot->contacts += rec->contacts;
  tot->rows += rec->rows.total;
  tot->detect += rec->seconds_detect;
  tot->assemble += rec->seconds_assemble;
  tot->solve += rec->seconds_solve;
  tot->recover += rec->seconds_recover;
  if (rec->failed) tot->status = solve_status_name(rec->solve.status);
  return RUN_CONTINUE;
}

static int run(const struct sweep_task *task, void *vctx, struct sweep_row *row)
{
  const struct step_ctx *ctx = vctx;
  const char *spec = sweep_task_string(task, "scene");
  const char *form = sweep_task_string(task, "formulation"), *solver = sweep_task_string(task, "solver");
  const struct scene_type *t = NULL;
  struct simulation sim;
  struct totals tot = {0};
  struct world *w0 = NULL;
  char msg[1024];
  int rc = 1, warmup_failed = 0;
  memset(&sim, 0, sizeof sim);
  /* no random stream: a scene is fixed by its spec, so that every method of the sweep sees the same one */
  if (scene_lookup(spec, &t, msg, sizeof msg) ||
      scene_create_from_options(spec, task->options, NULL, NULL, &w0, msg, sizeof msg)) {
    fprintf(stderr, "error: %s\n", msg);
    goto cleanup;
  }
  if (simulation_open(&sim, w0, form, solver, task->options)) goto cleanup;
  rc = 0;
  struct world *w = sim.w;
  sweep_row_set_int(row, "bodies", w->nb);
  sweep_row_set(row, "h", t->h);
  if (!formulation_supports(sim.f, w)) {
    sweep_row_status(row, "not_applicable");
    goto cleanup;
  }
  /* untimed warm-up (bodies falling into place), then the timed steps: both through the one run loop */
  struct run_summary warm = {0}, sum;
  if (t->falls && ctx->warmup > 0 && simulation_run(&sim, t->h, ctx->warmup, NULL, 0, &warm)) {
    rc = 1;
    goto cleanup;
  }
  warmup_failed = (int)warm.failed_steps;
  tot.status = "ok";
  /* the timed steps also carry the physics checks (phys_* columns, every time-stepping driver's) */
  struct run_observer obs[2] = {{.name = "phase_split", .ctx = &tot, .after_step = add_step}};
  int n_obs = 1;
  if (sweep_observers_standard(task, obs, &n_obs, 2) ||
      simulation_run(&sim, t->h, ctx->steps, obs, n_obs, &sum)) {
    run_observers_destroy(obs, n_obs);
    rc = 1;
    goto cleanup;
  }
  run_observers_destroy(obs, n_obs);
  const char *status = tot.status;
  if (tot.steps == 0) {
    sweep_row_status(row, "error");
    goto cleanup;
  }
  const double k = 1.0 / tot.steps, total = k * (tot.detect + tot.assemble + tot.solve + tot.recover);
  sweep_row_set_int(row, "steps", tot.steps);
  sweep_row_set_int(row, "failed_steps", tot.failed);
  sweep_row_set_int(row, "warmup_failed_steps", warmup_failed);
  sweep_row_set(row, "contacts", k * tot.contacts);
  sweep_row_set(row, "rows", k * tot.rows);
  sweep_row_set(row, "detect_seconds", k * tot.detect);
  sweep_row_set(row, "assemble_seconds", k * tot.assemble);
  sweep_row_set(row, "solve_phase_seconds", k * tot.solve);
  sweep_row_set(row, "recover_seconds", k * tot.recover);
  sweep_row_set(row, "step_seconds", total);
  sweep_row_set(row, "detect_assemble_fraction", total > 0.0 ? k * (tot.detect + tot.assemble) / total : 0.0);
  sweep_row_status(row, status);
cleanup:
  simulation_close(&sim);
  return rc;
}

static void teardown(void *vctx)
{
  struct step_ctx *ctx = vctx;
  if (!ctx) return;
  for (int i = 0; i < ctx->n_scenes; i++)
    free(ctx->spec[i]);
  free(ctx->spec);
  free(ctx->bodies);
}

static int setup(void *vctx, PetscOptions run_options)
{
  struct step_ctx *ctx = vctx;
  ctx->run_options = run_options;
  return 0;
}

/* Builds every scene of the axis once: an unknown scene, a bad option of one (inline or -<scene>_<opt>) or
 * a world that cannot be built stops the run before any task; the body counts feed the cost estimate. */
static int check_axes(void *vctx, const int *n_values, char *const *const *values)
{
  struct step_ctx *ctx = vctx;
  char msg[1024];
  ctx->spec = calloc((size_t)n_values[0] + 1, sizeof *ctx->spec);
  ctx->bodies = calloc((size_t)n_values[0] + 1, sizeof *ctx->bodies);
  if (!ctx->spec || !ctx->bodies) return 1;
  for (int i = 0; i < n_values[0]; i++) {
    struct world *w = NULL;
    if (scene_create_from_options(values[0][i], ctx->run_options, NULL, NULL, &w, msg, sizeof msg)) {
      fprintf(stderr, "error: -scene %s: %s\n", values[0][i], msg);
      return 1;
    }
    ctx->bodies[i] = w->nb;
    world_destroy(&w);
    if (!(ctx->spec[ctx->n_scenes++] = strdup(values[0][i]))) return 1;
  }
  return 0;
}

/* Lemke's pivots grow about with the square of the contacts: bodies squared, times the steps. */
static double cost(const struct sweep_task *task, void *vctx)
{
  const struct step_ctx *ctx = vctx;
  const char *spec = sweep_task_string(task, "scene");
  for (int i = 0; i < ctx->n_scenes; i++)
    if (strcmp(ctx->spec[i], spec) == 0) return (double)ctx->bodies[i] * ctx->bodies[i] * (ctx->steps + 1);
  return 1.0;
}

static const struct sweep_driver driver = {
    .experiment = "step",
    .title =
        "per-step cost: detection, assembly, solve, recovery (Anitescu-Hart Sec. 4B stacks, polygon piles)",
    .help =
        "  -<scene>_<opt> V     a scene option for every spec of that scene (a spec's inline value wins)\n"
        "Times are wall seconds per step (mean over the timed steps). Status ok: every timed solve\n"
        "converged; else the first failed solve's status. The phys_* columns are the physics checks over\n"
        "the timed steps. The scenes and their options follow.\n",
    .axes = axes,
    .n_axes = sizeof axes / sizeof axes[0],
    .columns = columns,
    .n_columns = sizeof columns / sizeof columns[0],
    .plot_x = "scene",
    .series = "formulation,solver",
    .options = step_options,
    .n_options = sizeof step_options / sizeof step_options[0],
    .settings_size = sizeof(struct step_ctx),
    .setup = setup,
    .check_axes = check_axes,
    .cost = cost,
    .run = run,
    .teardown = teardown,
    .steps_observed = 1,
};

/* -help: the engine's help, then the scene registry (the scene axis' values and their options). */
int main(int argc, char **argv)
{
  int help = 0;
  for (int i = 1; i < argc; i++)
    help = help || strcmp(argv[i], "-help") == 0;
  int rc = sweep_main(&driver, argc, argv);
  if (help) scene_registry_print(stdout);
  return rc;
}
