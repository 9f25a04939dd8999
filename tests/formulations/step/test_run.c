/* test_run.c — the run loop and its observers (run.h, observers.h, sweep_observers.h). Known answers on a
 * disc dropped 0.5 m onto a line (scene_disc_on_line): run_step_count's steps (0.7 / 0.007 gives 100, though
 * the quotient is 99.99999999999999 in floating point), one summary whose means and totals agree with the
 * per-step records; on a 3-disc pile (scene_cannonball) failed_at is the time at the START of the first
 * failed step, both when Lemke's pivot cap gives no answer (the run ends there) and when PGS's sweep cap
 * gives an approximate one (the run goes on, or stops under stop_on_failure); an observer that says stop
 * after 3 steps ends the run after 3; the trap observer's count equals peg2d_count_traps on each step-start
 * state; the trace has a row per step, and a trace that cannot be written stops the run; failed problems are
 * dumped as EXPERIMENT_task<ID>_step<K>.txt. run_step_count refuses a count no run can take (t_end < h, more
 * than RUN_STEPS_MAX steps). */
#include "check.h"
#include "peg2d.h"
#include "scenes.h"
#include "solver_fixture.h"
#include "sweep_observers.h"

#include <math.h>
#include <petscsys.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const double T = 0.7, h = 0.007;

/* Totals recomputed from the step records, and the first failed step as an observer sees it. */
struct tally {
  int begun, ended;
  long steps, stop_after, first_failed_k;
  double step_seconds, solve_seconds, rows, first_failed_t_start, first_failed_t;
};

static int tally_begin(void *vctx, struct simulation *sim, double hh, long steps)
{
  (void)sim, (void)hh, (void)steps;
  ((struct tally *)vctx)->begun++;
  return RUN_CONTINUE;
}

static int tally_after(void *vctx, const struct simulation *sim, long k, const struct step_record *rec)
{
  (void)sim;
  struct tally *c = vctx;
  c->steps++;
  c->step_seconds += rec->seconds_detect + rec->seconds_assemble + rec->seconds_solve + rec->seconds_recover;
  c->solve_seconds += rec->solve.seconds;
  c->rows += rec->rows.total;
  if (rec->failed && c->first_failed_k == 0) {
    c->first_failed_k = k;
    c->first_failed_t_start = rec->t_start;
    c->first_failed_t = rec->t;
  }
  return c->stop_after > 0 && k >= c->stop_after ? RUN_STOP : RUN_CONTINUE;
}

static int tally_end(void *vctx, const struct simulation *sim, const struct run_summary *sum)
{
  (void)sim, (void)sum;
  ((struct tally *)vctx)->ended++;
  return RUN_CONTINUE;
}

static struct run_observer tally_observer(struct tally *c)
{
  memset(c, 0, sizeof *c);
  return (struct run_observer){
      .name = "tally", .ctx = c, .begin = tally_begin, .after_step = tally_after, .end = tally_end};
}

/* pile != 0: the 3-disc pile (frictionless: mu = 0) instead of the disc drop. The run's options: the
 * option / value pairs opts (NULL: none) in an options object of the test's own, as a task's. */
static int drop(int pile, const char *formulation, const char *solver, const char *const *opts,
                struct run_observer *obs, int n_obs, struct run_summary *sum)
{
  struct simulation sim;
  struct world *w = pile ? scene_cannonball(2, 1.0, 0.0, 0) : scene_disc_on_line(0.5, 1.0, 1.0, 0.3);
  PetscOptions o = test_options_object(opts);
  int rc = simulation_open(&sim, w, formulation, solver, o) ||
           simulation_run(&sim, h, run_step_count(T, h), obs, n_obs, sum);
  simulation_close(&sim);
  PetscOptionsDestroy(&o);
  return rc;
}

static void test_complete(void)
{
  struct tally c;
  struct run_observer o = tally_observer(&c);
  struct run_summary sum = {0};
  int rc = drop(0, "stewart_trinkle", "lemke", NULL, &o, 1, &sum);
  CHECK(rc == 0 && run_step_count(T, h) == 100 && sum.steps == 100 && c.steps == 100,
        "disc drop: 100 steps at T = 0.7, h = 0.007 (T / h is 99.99999999999999 in floating point) (%ld)",
        sum.steps);
  CHECK(run_step_count(0.3, 0.1) == 3 && run_step_count(5.0, 0.007) == 714 && run_step_count(1.0, 0.3) == 3 &&
            run_step_count(1e-3, 1e-5) == 100,
        "run_step_count: 0.3 / 0.1 is 3 steps, 5 / 0.007 is 714, 1 / 0.3 is 3, 1e-3 / 1e-5 is 100");
  char why[256] = "";
  CHECK(run_step_count(2147483647.0, 1.0) == RUN_STEPS_MAX && run_step_count(0.1, 0.1) == 1 &&
            !run_step_count_refused(0.1, 0.1, why, sizeof why),
        "run_step_count: RUN_STEPS_MAX steps and one step are counts");
  CHECK(run_step_count(3e6, 1e-3) == -1 && run_step_count_refused(3e6, 1e-3, why, sizeof why) &&
            strstr(why, "more than a run may take"),
        "run_step_count: 3e9 steps is refused, not cut to an int (%s)", why);
  CHECK(run_step_count(0.05, 0.1) == -1 && run_step_count_refused(0.05, 0.1, why, sizeof why) &&
            strstr(why, "shorter than one step"),
        "run_step_count: t_end < h is refused, not 0 steps (%s)", why);
  CHECK(
      !run_steps_refused(1, why, sizeof why) && !run_steps_refused(RUN_STEPS_MAX, why, sizeof why) &&
          run_steps_refused(0, why, sizeof why) && strstr(why, "no step would be taken") &&
          run_steps_refused(RUN_STEPS_MAX + 1, why, sizeof why) && strstr(why, "more than a run may take"),
      "run_steps_refused: a count given as such, by the same rule: 1 and RUN_STEPS_MAX, not 0 or beyond (%s)",
      why);
  CHECK(run_step_count(1.0, 0.0) == -1 && run_step_count(NAN, 0.1) == -1 &&
            run_step_count(INFINITY, 0.1) == -1,
        "run_step_count: h 0, t_end NaN or inf are no count");
  CHECK(sum.completed && sum.end == RUN_END_COMPLETED && !sum.stopped_by && sum.failed_steps == 0 &&
            isnan(sum.failed_at),
        "disc drop: completed, no failed step, failed_at empty");
  CHECK(c.begun == 1 && c.ended == 1, "observer: begin and end called once each");
  CHECK_CLOSE(sum.step_seconds, c.step_seconds / 100, 1e-15, "step_seconds is the mean whole-step time");
  CHECK_CLOSE(sum.solve_seconds, c.solve_seconds / 100, 1e-15, "solve_seconds is the mean solver time");
  CHECK(sum.solve_seconds > 0.0 && sum.solve_seconds <= sum.step_seconds, "solve_seconds <= step_seconds");
  CHECK_CLOSE(sum.rows_mean, c.rows / 100, 1e-12, "rows_mean is the mean problem size");
  CHECK(sum.rows_mean > 0.0 && sum.contacts_mean > 0.0 && sum.max_penetration >= 0.0,
        "disc drop: the disc lands (rows_mean %g, contacts_mean %g)", sum.rows_mean, sum.contacts_mean);
  CHECK_CLOSE(sum.t, 100 * h, 1e-12, "t at the end = steps h");
}

static void test_no_answer(void)
{
  /* one pivot is too few for the pile's first step: Lemke stops with no answer, the state stays put */
  struct tally c;
  struct run_observer o = tally_observer(&c);
  struct run_summary sum = {0};
  int rc = drop(1, "stewart_trinkle", "lemke", OPTS("-cp_max_it", "1"), &o, 1, &sum);
  CHECK(rc == 0 && c.first_failed_k == 1 && sum.end == RUN_END_NO_ANSWER && !sum.completed &&
            sum.steps == 1 && sum.failed_steps == 1,
        "no answer: the run ends at the failed step, which is counted (steps %ld, first failed %ld)",
        sum.steps, c.first_failed_k);
  CHECK(sum.failed_at == 0.0 && sum.t == 0.0 && sum.first_failed_status == SOLVE_MAX_ITERATIONS,
        "no answer: failed_at = the failed step's start (%g), where the state stayed", sum.failed_at);
}

/* run_failed_status: a solver that does not take the formulation's problems fails the first step with
 * not_applicable (a pair that cannot run); a failure of a solver that takes them is solve_failed, at the
 * first step or later. */
static void test_failed_status(void)
{
  struct run_summary sum = {0};
  int rc = drop(1, "stewart_trinkle", "fc_nsgs", OPTS("-cp_max_it", "10"), NULL, 0, &sum);
  CHECK(rc == 0 && sum.failed_steps == 1 && sum.first_failed_step == 1 &&
            sum.first_failed_status == SOLVE_NOT_APPLICABLE &&
            !strcmp(run_failed_status(&sum), "not_applicable"),
        "an LCP handed to a frictional-contact solver: %s (first failed step %ld)", run_failed_status(&sum),
        sum.first_failed_step);
  rc = drop(1, "stewart_trinkle", "lemke", OPTS("-cp_max_it", "1"), NULL, 0, &sum);
  CHECK(rc == 0 && sum.first_failed_step == 1 && !strcmp(run_failed_status(&sum), "solve_failed"),
        "Lemke out of pivots at the first step: %s", run_failed_status(&sum));
}

static void test_approximate(void)
{
  /* PGS capped at one sweep gives approximate answers that advance the state */
  const char *const *one_sweep = OPTS("-cp_max_it", "1");
  struct tally c;
  struct run_observer o[2] = {tally_observer(&c)};
  struct run_summary sum = {0};
  int rc = drop(1, "impulse_lcp", "pgs", one_sweep, o, 1, &sum);
  CHECK(rc == 0 && sum.completed && sum.steps == 100 && sum.failed_steps > 5 && c.first_failed_k == 1,
        "approximate: the run goes on through failed steps (%ld of %ld failed)", sum.failed_steps, sum.steps);
  CHECK(sum.failed_at == 0.0 && c.first_failed_t == h,
        "approximate: failed_at = the first failed step's start %g, not its end %g", sum.failed_at,
        c.first_failed_t);
  run_observer_stop_on_failure(&o[1]);
  rc = drop(1, "impulse_lcp", "pgs", one_sweep, o, 2, &sum);
  CHECK(rc == 0 && sum.end == RUN_END_OBSERVER && sum.stopped_by &&
            !strcmp(sum.stopped_by, "stop_on_failure") && sum.steps == 1 && sum.failed_steps == 1 &&
            sum.t == h && !sum.completed,
        "stop_on_failure: stops after the first failed step (steps %ld)", sum.steps);
}

/* Two simulations open at once, each with its own options object (as two tasks of a sweep): each reads
 * only its own, and neither the other's nor an empty object's defaults change. */
static void test_objects_apart(void)
{
  struct simulation a, b;
  PetscOptions oa = test_options_object(OPTS("-cp_max_it", "1", "-friction_dirs", "7")),
               ob = test_options_object(OPTS("-cp_tol", "1e-10"));
  int rc = simulation_open(&a, scene_cannonball(2, 1.0, 0.0, 0), "stewart_trinkle", "lemke", oa);
  rc |= simulation_open(&b, scene_cannonball(2, 1.0, 0.0, 0), "stewart_trinkle", "lemke", ob);
  CHECK(rc == 0 && a.s->set.max_it == 1 && a.f->friction_dirs == 7 && a.s->set.tol == 1e-8 &&
            b.s->set.max_it == 0 && b.f->friction_dirs == 4 && b.s->set.tol == 1e-10,
        "two simulations open at once read their own objects: -cp_max_it 1 and -friction_dirs 7 in one, "
        "-cp_tol 1e-10 in the other");
  struct run_summary sa = {0}, sb = {0};
  rc = rc || simulation_run(&a, h, 3, NULL, 0, &sa) || simulation_run(&b, h, 3, NULL, 0, &sb);
  CHECK(
      rc == 0 && sa.end == RUN_END_NO_ANSWER && sa.failed_steps == 1 && sb.completed && sb.failed_steps == 0,
      "the pile with one pivot allowed ends with no answer; beside it, the other run completes (%ld failed)",
      sb.failed_steps);
  simulation_close(&a);
  simulation_close(&b);
  PetscOptionsDestroy(&oa);
  PetscOptionsDestroy(&ob);
}

static void test_stop(void)
{
  struct tally c;
  struct run_observer o = tally_observer(&c);
  c.stop_after = 3;
  struct run_summary sum = {0};
  int rc = drop(0, "stewart_trinkle", "lemke", NULL, &o, 1, &sum);
  CHECK(rc == 0 && sum.steps == 3 && sum.end == RUN_END_OBSERVER && !sum.completed && sum.stopped_by &&
            !strcmp(sum.stopped_by, "tally") && c.ended == 1,
        "an observer's stop ends the run after 3 steps (%ld)", sum.steps);
  CHECK_CLOSE(sum.t, 3 * h, 1e-15, "stopped run: t = 3 h");
}

/* peg2d_count_traps on each step-start state, as the drivers' trap fraction had it. */
struct direct_traps {
  struct contact_set cs;
  long traps, with;
};

static int direct_before(void *vctx, struct simulation *sim, long k, double hh)
{
  (void)k;
  struct direct_traps *c = vctx;
  int n = peg2d_count_traps(sim->w, hh, &c->cs);
  c->traps += n;
  c->with += n > 0;
  return n < 0 ? RUN_ERROR : RUN_CONTINUE;
}

static void test_traps_and_trace(const char *dir)
{
  struct direct_traps d = {0};
  struct run_observer obs[4] = {{.name = "direct", .ctx = &d, .before_step = direct_before}};
  struct run_trap_stats traps = {0};
  int n = 1;
  struct sweep_driver drv = {.experiment = "test_run"};
  struct sweep_task task = {.driver = &drv, .id = 7, .trace_dir = dir};
  int rc = run_observer_traps(&obs[n++], &traps) || sweep_observers_standard(&task, obs, &n, 4);
  struct simulation sim;
  struct run_summary sum = {0};
  long steps = 100;
  PetscOptions none = test_options_object(NULL);
  rc = rc || simulation_open(&sim, scene_polygon_box(6, 1.0, 1, 0.0), "stewart_trinkle", "lemke", none) ||
       simulation_run(&sim, 0.01, steps, obs, n, &sum);
  simulation_close(&sim);
  PetscOptionsDestroy(&none);
  run_observers_destroy(obs, n);
  contact_set_free(&d.cs);
  CHECK(rc == 0 && n == 3 && sum.steps == steps && traps.steps == steps,
        "polygon box: %ld steps with the trap observer and a trace", sum.steps);
  CHECK(traps.traps == d.traps && traps.steps_with_traps == d.with && d.with > 0,
        "trap observer = peg2d_count_traps on every step-start state (%ld traps, %ld steps with one)",
        traps.traps, traps.steps_with_traps);
  char path[512], line[4096];
  snprintf(path, sizeof path, "%s/test_run_task7.csv", dir);
  FILE *fp = fopen(path, "r");
  long rows = -1;
  int header_ok = 0;
  if (fp) {
    if (fgets(line, sizeof line, fp))
      header_ok = !strcmp(line, SWEEP_TRACE_COLUMNS ",traps,i_constraints," PHYSICS_TRACE_COLUMNS "\n");
    for (rows = 0; fgets(line, sizeof line, fp);)
      rows++;
    fclose(fp);
  }
  CHECK(header_ok && rows == sum.steps,
        "trace: standard columns + traps, I-constraints + physics checks, one row per step (%ld rows)", rows);
  unlink(path);
}

/* A trace that cannot be written (its file is /dev/full: every flush fails) ends the task's run at the
 * first failed flush, through the standard observer's stop, instead of running on with an empty trace. */
static void test_trace_full(const char *dir)
{
  struct run_observer obs[1];
  int n = 0;
  struct sweep_driver drv = {.experiment = "test_run"};
  struct sweep_task task = {.driver = &drv, .id = 8, .trace_dir = dir};
  char path[512];
  snprintf(path, sizeof path, "%s/test_run_task8.csv", dir);
  if (symlink("/dev/full", path)) {
    CHECK(0, "symlink %s -> /dev/full", path);
    return;
  }
  struct simulation sim;
  struct run_summary sum = {0};
  PetscOptions none = test_options_object(NULL);
  int rc = sweep_observers_standard(&task, obs, &n, 1) ||
           simulation_open(&sim, scene_polygon_box(6, 1.0, 1, 0.0), "stewart_trinkle", "lemke", none) ||
           simulation_run(&sim, 0.01, 1000, obs, n, &sum);
  simulation_close(&sim);
  PetscOptionsDestroy(&none);
  run_observers_destroy(obs, n);
  unlink(path);
  CHECK(rc == 0 && sum.end == RUN_END_OBSERVER && sum.stopped_by && !strcmp(sum.stopped_by, "standard") &&
            sum.steps < 1000,
        "trace onto a full disk: the run stops at the first failed write (after %ld of 1000 steps)",
        sum.steps);
}

static void test_dump(const char *dir)
{
  struct run_observer obs[2];
  int n = 0;
  struct sweep_driver drv = {.experiment = "test_run"};
  struct sweep_task task = {.driver = &drv, .id = 3, .dump_dir = dir};
  struct tally c;
  obs[n++] = tally_observer(&c);
  struct run_summary sum = {0};
  int rc = sweep_observers_standard(&task, obs, &n, 2) ||
           drop(1, "impulse_lcp", "pgs", OPTS("-cp_max_it", "1"), obs, n, &sum);
  run_observers_destroy(obs, n);
  char path[512];
  int found = 0;
  for (long k = 1; k <= sum.steps; k++) {
    snprintf(path, sizeof path, "%s/test_run_task3_step%ld.txt", dir, k);
    if (access(path, R_OK) == 0) {
      found++;
      unlink(path);
    }
  }
  CHECK(rc == 0 && sum.failed_steps > 5 && found == 5,
        "-cp_dump_failed: the first 5 of %ld failed problems, named by task and step (%d files)",
        sum.failed_steps, found);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  char dir[] = "/tmp/test_run_XXXXXX";
  test_complete();
  test_no_answer();
  test_failed_status();
  test_approximate();
  test_objects_apart();
  test_stop();
  if (mkdtemp(dir)) {
    test_traps_and_trace(dir);
    test_trace_full(dir);
    test_dump(dir);
    rmdir(dir);
  } else {
    CHECK(0, "mkdtemp");
  }
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
