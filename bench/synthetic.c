/* NAME    bench_synthetic — the sweep engine's own test driver: no physics, known behaviour.
 * PURPOSE exercise the engine (scheduling, seeding, ledger and resume, time limits, crashes) with tasks
 *         whose cost and outcome are known: kind "ok" computes for `work` seconds, "fail" ends with a
 *         failure status, "hang" never returns (the time limit must kill it), "crash" dies by SIGSEGV,
 *         "error" returns an internal error. Each task also draws from its RNG, so its metric (the mean of
 *         1000 uniforms) shows that seeding depends on (base seed, task id) only.
 * USAGE   bench_synthetic [-kind ok,fail] [-work 0.01,0.1] [-seeds 3] [-task_time_limit 2] [sweep options]
 * PAPER   none: design.md contract 8 (the sweep engine). */
#include "engine/sweep.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <time.h>

static const struct sweep_axis axes[] = {
    {"kind", NULL, SWEEP_STRING, "ok", "task behaviour: ok, fail, hang, crash, error", 0, SWEEP_INSTANCE,
     NULL},
    {"work", NULL, SWEEP_REAL, "0.01,0.05", "seconds of busy computation per task [s]", 0, SWEEP_INSTANCE,
     "[0,inf)"},
    {SWEEP_SEEDS_AXIS, NULL, SWEEP_INT, "2", "repeats", 1, SWEEP_INSTANCE, NULL},
};

static const struct sweep_column columns[] = {
    {"draw_mean", SWEEP_METRIC, "mean of 1000 uniform draws from the task's RNG", .floor = 0},
    {"first_draw", SWEEP_INFO, "the RNG's first integer draw (shows per-task seeding)", .floor = 0},
    {"busy_seconds", SWEEP_COST,
     "wall time of the task's busy loop, per task (its own work, not the engine's) [s]", .floor = 0},
};

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double cost(const struct sweep_task *t, void *ctx)
{
  (void)ctx;
  return sweep_task_real(t, "work");
}

static int run(const struct sweep_task *t, void *ctx, struct sweep_row *row)
{
  (void)ctx;
  const char *kind = sweep_task_string(t, "kind");
  double work = sweep_task_real(t, "work");
  unsigned long first = gsl_rng_get(t->rng);
  double sum = 0.0;
  for (int i = 0; i < 1000; i++)
    sum += gsl_rng_uniform(t->rng);
  if (strcmp(kind, "error") == 0) return 1;
  if (strcmp(kind, "crash") == 0) raise(SIGSEGV);
  double t0 = now();
  volatile double x = 0.0; /* busy work, not sleep: it must cost CPU like a real task */
  while (strcmp(kind, "hang") == 0 || now() - t0 < work)
    for (int i = 0; i < 1000; i++)
      x += sin((double)i);
  sweep_row_set(row, "draw_mean", sum / 1000.0);
  sweep_row_set_int(row, "first_draw", (long)first);
  sweep_row_set(row, "busy_seconds", now() - t0);
  if (strcmp(kind, "ok") == 0)
    sweep_row_status(row, "ok");
  else if (strcmp(kind, "fail") == 0)
    sweep_row_status(row, "solve_failed");
  else {
    sweep_row_status(row, "error");
    fprintf(stderr, "bench_synthetic: unknown -kind '%s'\n", kind);
  }
  return 0;
}

static const struct sweep_driver driver = {
    .experiment = "synthetic",
    .title = "synthetic tasks with known cost and outcome (the engine's test driver)",
    .axes = axes,
    .n_axes = sizeof axes / sizeof axes[0],
    .columns = columns,
    .n_columns = sizeof columns / sizeof columns[0],
    .plot_x = "work",
    .series = "kind",
    .cost = cost,
    .run = run,
};

int main(int argc, char **argv) { return sweep_main(&driver, argc, argv); }
