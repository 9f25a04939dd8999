/* sweep_options.c — the engine's declared options and the run's option checks (design.md, Configuration):
 * the engine's, the observers' and the seed tables; reading them (sweep_parse_engine); "an option nobody
 * read is an error" with the nearest valid name (sweep_check_unused); and -help listing what applies to
 * this run (sweep_print_help). */
#include "build_info.h"
#include "corpus.h"
#include "formulation.h"
#include "option_table.h"
#include "program.h"
#include "sweep_impl.h"
#include "sweep_observers.h"

#include <petscsys.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The engine's options (every driver), declared: -help prints this table, the one reader checks them. */
struct engine_settings {
  char out[OPTION_STRING_MAX], run[OPTION_STRING_MAX], tasks[OPTION_STRING_MAX], slice[OPTION_STRING_MAX];
  int resume, rerun_failed, task_fork, task_batch, task_chunk, no_plots, dry_run, quiet, blas_threads;
  double task_time_limit;
};

#define ENGINE_OPT(name, type, def, range, help)                                                             \
  {                                                                                                          \
#name, type, offsetof(struct engine_settings, name), def, range, help                                    \
  }
static const struct option_decl engine_options[] = {
    ENGINE_OPT(out, OPT_STRING, "", NULL,
               "run directory (default results/<experiment>/<YYYYmmdd-HHMMSS>, linked as latest)"),
    ENGINE_OPT(run, OPT_STRING, "", NULL, "run name under results/<experiment>/ (instead of the time stamp)"),
    ENGINE_OPT(
        resume, OPT_BOOL, "0", NULL,
        "continue the run in -out (or -run; without either, the run results/<experiment>/latest points "
        "to): skip finished tasks, redo a torn last line; tasks are matched by their axis values, so a "
        "sweep with added values runs only the new tasks; observer options (-trace, -cp_dump_failed, "
        "-cp_capture*, -blas_threads, -quiet, -no_plots) may differ, method options may not"),
    ENGINE_OPT(rerun_failed, OPT_BOOL, "0", NULL,
               "like -resume, and also redo the tasks whose status is a failure"),
    ENGINE_OPT(task_time_limit, OPT_REAL, "0", "[0,inf)",
               "wall seconds per task; a task over it is killed and recorded as time_limit (0 = none) [s]"),
    ENGINE_OPT(tasks, OPT_STRING, "", NULL, "I:J: run only the tasks with I <= id < J"),
    ENGINE_OPT(
        slice, OPT_STRING, "", NULL,
        "K/N: run only the tasks with id % N == K (job arrays: ledger.K-of-N.csv; bin/bench_merge DIR)"),
    ENGINE_OPT(task_fork, OPT_BOOL, "1", NULL,
               "run each task in a forked child (time limit enforced, a crash is a status); 0 = in-process"),
    ENGINE_OPT(
        task_batch, OPT_INT, "1", "[1,inf)",
        "tasks one forked child runs, one after the other, before a fresh child is forked: amortises "
        "the fork for short tasks; each task keeps its own -task_time_limit, and a task that is killed "
        "or crashes ends only that child (the next task gets a fresh one)"),
    ENGINE_OPT(task_chunk, OPT_INT, "4", "[1,1000000]",
               "most tasks a worker rank gets per request: a request gets at most 1/(2 x ranks) of the "
               "estimated work left (guided self-scheduling), so chunks shrink as the sweep drains; each "
               "task's row still reaches the ledger when it finishes. 1 = one task per request"),
    ENGINE_OPT(no_plots, OPT_BOOL, "0", NULL, "skip the gnuplot plots at the end"),
    ENGINE_OPT(dry_run, OPT_BOOL, "0", NULL, "check every option, list the tasks this run would do and stop"),
    ENGINE_OPT(quiet, OPT_BOOL, "0", NULL, "no progress lines on stderr"),
    ENGINE_OPT(
        blas_threads, OPT_INT, "1", "[1,256]",
        "OpenBLAS threads per rank (whatever OPENBLAS_NUM_THREADS says): with 1 a task's numbers are the "
        "same on any number of ranks; more threads change the blocked products' rounding, so pivots, "
        "iterations and trajectories may differ as well as timings"),
};
#define N_ENGINE_OPTIONS ((int)(sizeof engine_options / sizeof engine_options[0]))

/* Only time-stepping drivers (.steps_observed) take these: the standard observers (sweep_observers.h). */
struct observer_settings {
  char trace[OPTION_STRING_MAX], cp_dump_failed[OPTION_STRING_MAX];
  char cp_capture[OPTION_STRING_MAX];
  int cp_capture_every, cp_capture_step, cp_capture_failed, cp_capture_max;
};
static const struct option_decl observer_options[] = {
    {"trace", OPT_STRING, offsetof(struct observer_settings, trace), "", NULL,
     "per-step CSV per task: DIR/EXPERIMENT_task<ID>.csv (DIR is created if missing): step, t, status, "
     "contacts, "
     "rows, iterations, fp_iterations, residual, solve_seconds, step_seconds, energy, max_penetration, then "
     "the experiment's own columns"},
    {"cp_dump_failed", OPT_STRING, offsetof(struct observer_settings, cp_dump_failed), "", NULL,
     "the first 5 failed problems of a task as plain files for bin/cpsolve: "
     "DIR/EXPERIMENT_task<ID>_step<K>.txt"},
    {"cp_capture", OPT_STRING, offsetof(struct observer_settings, cp_capture), "", NULL,
     "append the steps' problems to the HDF5 corpus FILE.h5 (one group per problem; under MPI one file per "
     "rank, FILE.rank<R>.h5: join them with bin/bench_corpus -merge); replay with bin/bench_corpus; a step "
     "taken again is kept as its first problem"},
    {"cp_capture_every", OPT_INT, offsetof(struct observer_settings, cp_capture_every), "1", "[1,1000000000]",
     "-cp_capture: every K-th step of a run (steps 1, K+1, 2K+1, ...)"},
    {"cp_capture_step", OPT_INT, offsetof(struct observer_settings, cp_capture_step), "0", "[0,2000000000]",
     "-cp_capture: only step S of each task (0: the steps -cp_capture_every picks); with -slice K/N or "
     "-tasks a single step of one task, e.g. a failed step kept in the corpus"},
    {"cp_capture_failed", OPT_BOOL, offsetof(struct observer_settings, cp_capture_failed), "0", NULL,
     "-cp_capture: only the steps whose first solve did not converge (a step the stepper took again, cold or "
     "halved, is kept as the problem it failed on, at the run's h, even when the retry converged)"},
    {"cp_capture_max", OPT_INT, offsetof(struct observer_settings, cp_capture_max), "10000", "[1,2000000000]",
     "-cp_capture: at most this many problems in the file"},
};
#define N_OBSERVER_OPTIONS ((int)(sizeof observer_options / sizeof observer_options[0]))

/* Only drivers with a seeds axis take these (elsewhere they would change nothing: an error). */
struct seed_settings {
  int seed;
};
static const struct option_decl seed_options[] = {
    {"seed", OPT_INT, offsetof(struct seed_settings, seed), "1", "[0,2147483647]",
     "base of every task's seed: splitmix64 of it and the instance axes' values"},
};

/* -cp_capture FILE on one of several ranks: FILE.rank<R>.h5 (FILE without its .h5), one writer per file. */
static void capture_path(const char *path, int rank, int size, char *out, size_t len)
{
  size_t l = strlen(path);
  if (size <= 1 || !path[0]) {
    snprintf(out, len, "%s", path);
    return;
  }
  if (l > 3 && strcmp(path + l - 3, ".h5") == 0) l -= 3;
  snprintf(out, len, "%.*s.rank%d.h5", (int)l, path, rank);
}

static int has_seeds_axis(const struct sweep_driver *d)
{
  for (int k = 0; k < d->n_axes; k++)
    if (strcmp(d->axes[k].name, SWEEP_SEEDS_AXIS) == 0) return 1;
  return 0;
}

/* Every option name a run could mean, for "did you mean": the engine's, the driver's axes and options, and
 * every registered formulation's and solver's declared ones. Returns a malloc'd array of malloc'd names. */
static char **known_options(const struct sweep_driver *d, int *n)
{
  int cap = 64, k = 0;
  char **names = malloc((size_t)cap * sizeof *names);
  char buf[256];
#define ADD(...)                                                                                             \
  do {                                                                                                       \
    if (k == cap) {                                                                                          \
      char **nn = realloc(names, (size_t)(cap *= 2) * sizeof *names);                                        \
      if (!nn) goto fail;                                                                                    \
      names = nn;                                                                                            \
    }                                                                                                        \
    snprintf(buf, sizeof buf, __VA_ARGS__);                                                                  \
    if (!(names[k] = strdup(buf))) goto fail;                                                                \
    k++;                                                                                                     \
  } while (0)
  if (!names) return NULL;
  for (int i = 0; i < N_ENGINE_OPTIONS; i++)
    ADD("-%s", engine_options[i].name);
  ADD("-options_file");
  ADD("-help");
  if (has_seeds_axis(d)) { /* what the run takes, so that "did you mean" never offers an option it refuses */
    ADD("-seed");
    ADD("-seeds");
  }
  for (int i = 0; d->steps_observed && i < N_OBSERVER_OPTIONS; i++)
    ADD("-%s", observer_options[i].name);
  for (int i = 0; d->steps_observed && i < sweep_n_perturb_options; i++)
    ADD("-%s", sweep_perturb_options[i].name);
  for (int a = 0; a < d->n_axes; a++)
    if (strcmp(d->axes[a].name, SWEEP_SEEDS_AXIS) != 0) ADD("%s", sweep_axis_option(&d->axes[a]));
  for (int i = 0; i < d->n_options; i++)
    ADD("-%s", d->options[i].name);
  {
    int ns = 0;
    const char **sn = solver_option_names(&ns); /* with the dash: the harness's and every solver's */
    for (int i = 0; sn && i < ns; i++)
      ADD("%s", sn[i]);
    free(sn);
    const char **fn = NULL;
    int nf = formulation_option_names(&fn); /* without the dash: the common ones and every type's */
    for (int i = 0; fn && i < nf; i++)
      ADD("-%s", fn[i]);
    free(fn);
  }
#undef ADD
  *n = k;
  return names;
fail:
  for (int i = 0; i < k; i++)
    free(names[i]);
  free(names);
  return NULL;
}

/* "-pgs_omega is an option of solver pgs, which this run does not use", or what replaced an old name. */
static int explain_unused(const char *name, char *msg, size_t len)
{
  /* names that existed once, so that an old preset or script is told what replaced them */
  static const char *const renamed[][2] = {
      {"-T", "-t_end"},
      {"-method", "-formulation"},
      {"-gen_seed", "-seed (with the instance axes)"},
      {"-detection", "-stewart_trinkle_detection (the formulation's option, an axis like any other)"},
      {"-delta_max", "-quasi_rigid_delta_max (the formulation's option, an axis like any other)"}};
  for (size_t r = 0; r < sizeof renamed / sizeof renamed[0]; r++)
    if (strcmp(name, renamed[r][0]) == 0)
      return snprintf(msg, len, "%s is no longer an option; use %s", name, renamed[r][1]), 1;
  const struct solver_type *st = solver_option_owner(name);
  if (st)
    return snprintf(msg, len, "%s is an option of solver %s, which this run does not use", name, st->name), 1;
  for (int r = 0; formulation_registry[r]; r++)
    for (int i = 0; i < formulation_registry[r]->n_options; i++)
      if (strcmp(formulation_registry[r]->options[i].name, name + 1) == 0)
        return snprintf(msg, len, "%s is an option of formulation %s, which this run does not use", name,
                        formulation_registry[r]->name),
               1;
  return 0;
}

/* An option nobody read is an error of the run (design.md, Configuration): a misspelt name, an option of a
 * formulation or solver the sweep does not use, -seeds on a driver without instances. Reported once (rank
 * 0) with the nearest valid name; nonzero when there is any. Runs after every reader (engine, axes, driver
 * setup, the method probes). */
int sweep_check_unused(const struct sweep *s)
{
  int nk = 0;
  char **known = known_options(s->d, &nk);
  int n =
      program_report_unused(s->program, NULL, 0, (const char *const *)known, known ? nk : 0, explain_unused);
  for (int i = 0; known && i < nk; i++)
    free(known[i]);
  free(known);
  return n != 0;
}

/* The own options of the fallback solvers the run names (-step_fallback_solver, one or a list), for -help:
 * they are read as the step's solver's are. */
static void print_fallback_options(const struct sweep *s)
{
  char list[OPTION_STRING_MAX] = "";
  PetscBool set = PETSC_FALSE;
  if (PetscOptionsGetString(s->options, NULL, "-step_fallback_solver", list, sizeof list, &set) || !set)
    return;
  char *save = NULL;
  for (const char *v = strtok_r(list, ",", &save); v; v = strtok_r(NULL, ",", &save)) {
    const struct solver_type *t = solver_find(v);
    if (!t) continue;
    printf("Fallback solver %s (-step_fallback_solver) — %s%s\n", t->name, t->summary,
           t->n_options ? ":" : " (no options of its own)");
    solver_print_options(stdout, t);
  }
}

/* -help: what applies to this run — the axes, the columns, the driver's options, the engine's, and the own
 * options of the formulations and solvers the axes name (their defaults: the chosen ones). */
void sweep_print_help(const struct sweep *s)
{
  const struct sweep_driver *d = s->d;
  printf("bench_%s — %s\n\nAxes (comma-separated lists; one task per combination; instance axes seed the "
         "task):\n",
         d->experiment, d->title);
  for (int k = 0; k < d->n_axes; k++) {
    const struct sweep_axis *a = &d->axes[k];
    char opt[96];
    if (strcmp(a->name, SWEEP_SEEDS_AXIS) == 0)
      snprintf(opt, sizeof opt, "-seeds N");
    else
      snprintf(opt, sizeof opt, "%s a,b,...", sweep_axis_option(a));
    /* an axis without a fixed default (the driver's axis_default gives it) says so in its help */
    printf("  %-26s %s%s%s%s%s%s%s\n", opt, sweep_axis_is_instance(a) ? "[instance] " : "",
           a->help ? a->help : "", a->def ? " (default " : "", a->def ? a->def : "",
           a->range ? (a->def ? "; range " : " (range ") : "", a->range ? a->range : "",
           a->def || a->range ? ")" : "");
  }
  printf("\nColumns of tasks.csv besides task_id, the axes, status, task_seconds, rank, host:\n");
  static const char *const role[] = {"metric", "cost", "info", "metric+"};
  for (int j = 0; j < d->n_columns; j++)
    printf("  %-26s %-7s %s\n", d->columns[j].name, role[d->columns[j].role],
           d->columns[j].help ? d->columns[j].help : "");
  if (d->n_options || d->help) printf("\nOptions of this driver:\n");
  if (d->n_options) option_print(stdout, d->options, d->n_options, NULL);
  if (d->help) printf("%s", d->help);
  printf("\nSweep options (every driver):\n");
  option_print(stdout, engine_options, N_ENGINE_OPTIONS, NULL);
  if (has_seeds_axis(d)) option_print(stdout, seed_options, 1, NULL);
  if (d->steps_observed) option_print(stdout, observer_options, N_OBSERVER_OPTIONS, NULL);
  if (d->steps_observed) option_print(stdout, sweep_perturb_options, sweep_n_perturb_options, NULL);
  printf("  %-34s read options from F (PETSc format: lines like -h 1e-3,2e-3); may be repeated\n",
         "-options_file F");
  printf("  %-34s this help; -help petsc: PETSc's own options\n", "-help, --help, -h");
  for (int k = 0; s->ax && k < d->n_axes; k++) {
    const struct sweep_axis *a = &d->axes[k];
    if (a->kind == SWEEP_SOLVER) {
      printf("\nEvery solver (the harness):\n");
      solver_print_harness_options(stdout);
    } else if (a->kind == SWEEP_FORMULATION) {
      printf("\nEvery formulation:\n");
      option_print(stdout, formulation_options, formulation_n_options, NULL);
    } else {
      continue;
    }
    for (int i = 0; i < s->ax[k].n; i++) {
      const char *v = s->ax[k].v[i];
      if (a->kind == SWEEP_SOLVER) {
        const struct solver_type *t = solver_find(v);
        if (!t) continue;
        printf("Solver %s — %s%s\n", t->name, t->summary, t->n_options ? ":" : " (no options of its own)");
        solver_print_options(stdout, t);
      } else {
        const struct formulation_type *t = formulation_find(v);
        if (!t) continue;
        printf("Formulation %s — %s%s\n", t->name, t->summary,
               t->n_options ? ":" : " (no options of its own)");
        option_print(stdout, t->options, t->n_options, NULL);
      }
    }
    if (a->kind == SWEEP_FORMULATION) print_fallback_options(s);
  }
  printf("\nRegistered formulations: ");
  formulation_registry_names(stdout);
  printf("\nRegistered solvers: ");
  solver_registry_names(stdout);
  printf("\n(-formulation all / -cp_solver all take every one; -help lists the options of those chosen)\n");
}

static int parse_range(const char *txt, long *lo, long *hi, char sep)
{
  char *end;
  *lo = strtol(txt, &end, 10);
  if (end == txt || *end != sep) return 1;
  const char *b = end + 1;
  *hi = strtol(b, &end, 10);
  return end == b || *end != '\0';
}

/* -tasks I:J against the number of tasks (after the axes). Nonzero on bad input (rank 0 says why). */
int sweep_check_task_range(struct sweep *s)
{
  s->task_lo = 0;
  s->task_hi = s->total;
  if (s->tasks_text[0] && (parse_range(s->tasks_text, &s->task_lo, &s->task_hi, ':') || s->task_lo < 0 ||
                           s->task_hi > s->total || s->task_lo >= s->task_hi)) {
    if (s->rank == 0)
      fprintf(stderr, "error: -tasks %s: expected I:J with 0 <= I < J <= %ld\n", s->tasks_text, s->total);
    return 1;
  }
  return 0;
}

const char *sweep_results_dir(const struct sweep *s)
{
  return s->d->results_dir ? s->d->results_dir : s->d->experiment;
}

/* The run directory: -out DIR, or results/<experiment>/<-run NAME or a time stamp> (results_dir for
 * <experiment> when the driver gives one); -resume and -rerun_failed without either continue the run
 * results/<experiment>/latest points to. 0, or 1 (rank 0 has said why). */
static int run_directory(struct sweep *s, const struct engine_settings *e)
{
  const int say = s->rank == 0;
  char why[256];
  if (e->run[0] && run_text_check(e->run, RUN_TEXT_NAME, why, sizeof why)) {
    if (say) fprintf(stderr, "error: -run: a run name cannot hold %s (use -out DIR for a path)\n", why);
    return 1;
  }
  if (strcmp(e->run, ".") == 0 || strcmp(e->run, "..") == 0) {
    if (say)
      fprintf(stderr, "error: -run %s: a run name is one folder name; use -out DIR for a path\n", e->run);
    return 1;
  }
  if (e->out[0]) {
    if (sweep_path(s->out, sizeof s->out, "%s", e->out)) return 1;
  } else if ((e->resume || e->rerun_failed) && !e->run[0]) {
    /* never a fresh run: the run results/<experiment>/latest points to, said aloud */
    char link[SWEEP_PATH_MAX], target[SWEEP_PATH_MAX];
    ssize_t n = -1;
    if (!sweep_path(link, sizeof link, "results/%s/latest", sweep_results_dir(s)))
      n = readlink(link, target, sizeof target - 1);
    if (n <= 0) {
      if (say)
        fprintf(stderr, "error: %s needs the run to continue: -out DIR or -run NAME (there is no %s)\n",
                e->resume ? "-resume" : "-rerun_failed", link);
      return 1;
    }
    target[n] = '\0';
    if (sweep_path(s->out, sizeof s->out, "results/%s/%s", sweep_results_dir(s), target)) return 1;
    if (say)
      fprintf(stderr, "note: %s continues %s (the run %s points to)\n",
              e->resume ? "-resume" : "-rerun_failed", s->out, link);
  } else {
    char run[OPTION_STRING_MAX];
    snprintf(run, sizeof run, "%s", e->run);
    if (!run[0]) { /* the time stamp comes from rank 0, so that every rank names the same directory */
      long stamp = (long)time(NULL);
      MPI_Bcast(&stamp, 1, MPI_LONG, 0, s->comm);
      time_t tt = (time_t)stamp;
      struct tm tm;
      localtime_r(&tt, &tm);
      strftime(run, sizeof run, "%Y%m%d-%H%M%S", &tm);
    }
    if (sweep_path(s->out, sizeof s->out, "results/%s/%s", sweep_results_dir(s), run)) return 1;
    s->stamped = !e->run[0];
  }
  return 0;
}

/* Every option's value goes into experiment.txt and meta.json, one line each, and may name a path: a
 * control character in one would break those files for good (a resume could never match them again). */
static int check_option_text(const struct sweep *s)
{
  const struct program_args *a = &s->program->args;
  char why[256];
  for (int i = 0; i < a->n_pairs; i++)
    if (a->pairs[i].value && run_text_check(a->pairs[i].value, RUN_TEXT_PATH, why, sizeof why)) {
      if (s->rank == 0)
        fprintf(stderr, "error: %s (%s): a value cannot hold %s\n", a->pairs[i].name, a->pairs[i].where, why);
      return 1;
    }
  return 0;
}

/* Engine options; messages on rank 0. Returns nonzero on bad input. */
int sweep_parse_engine(struct sweep *s)
{
  struct engine_settings e;
  char msg[512];
  const int say = s->rank == 0;
  if (check_option_text(s)) return 1;
  if (option_read(engine_options, N_ENGINE_OPTIONS, s->options, NULL, &e, msg, sizeof msg)) {
    if (say) fprintf(stderr, "error: %s\n", msg);
    return 1;
  }
  s->resume = e.resume;
  s->rerun_failed = e.rerun_failed;
  s->quiet = e.quiet;
  s->plots = !e.no_plots;
  s->dry_run = e.dry_run;
  s->use_fork = e.task_fork;
  s->task_batch = e.task_batch;
  s->task_chunk = e.task_chunk;
  s->time_limit = e.task_time_limit;
  s->blas_threads = e.blas_threads;
  if (s->task_batch > 1 && !s->use_fork) {
    if (say)
      fprintf(stderr, "error: -task_batch needs -task_fork 1 (it sets how many tasks one child runs)\n");
    return 1;
  }
  if (s->time_limit > 0.0 && !s->use_fork) {
    if (say)
      fprintf(stderr, "error: -task_time_limit needs -task_fork 1 (an in-process task cannot be stopped)\n");
    return 1;
  }
  if (s->d->steps_observed) {
    struct observer_settings os;
    if (option_read(observer_options, N_OBSERVER_OPTIONS, s->options, NULL, &os, msg, sizeof msg)) {
      if (say) fprintf(stderr, "error: %s\n", msg);
      return 1;
    }
    snprintf(s->trace_dir, sizeof s->trace_dir, "%s", os.trace);
    snprintf(s->dump_dir, sizeof s->dump_dir, "%s", os.cp_dump_failed);
    capture_path(os.cp_capture, s->rank, s->size, s->capture.path, sizeof s->capture.path);
    s->capture.every = os.cp_capture_every;
    s->capture.step = os.cp_capture_step;
    s->capture.failed_only = os.cp_capture_failed;
    s->capture.max = os.cp_capture_max;
    if (os.cp_capture_step > 0 && os.cp_capture_every != 1) { /* two answers to "which steps" */
      if (say)
        fprintf(stderr, "error: -cp_capture_step and -cp_capture_every both pick the steps: give one\n");
      return 1;
    }
    struct sweep_perturb_settings ps; /* checked here, before any task; each task reads its own object */
    if (option_read(sweep_perturb_options, sweep_n_perturb_options, s->options, NULL, &ps, msg, sizeof msg)) {
      if (say) fprintf(stderr, "error: %s\n", msg);
      return 1;
    }
    if (s->capture.path[0]) {
      snprintf(s->capture.git_sha, sizeof s->capture.git_sha, "%s%s", build_git_sha,
               build_git_dirty ? "+dirty" : "");
      corpus_init(); /* once here, not in every forked task */
    }
  }
  s->base_seed = 1;
  if (has_seeds_axis(s->d)) {
    struct seed_settings ss;
    if (option_read(seed_options, 1, s->options, NULL, &ss, msg, sizeof msg)) {
      if (say) fprintf(stderr, "error: %s\n", msg);
      return 1;
    }
    s->base_seed = (unsigned long)ss.seed;
  }
  snprintf(s->tasks_text, sizeof s->tasks_text, "%s", e.tasks); /* checked against the axes' product later */
  if (e.slice[0]) {
    if (parse_range(e.slice, &s->slice_k, &s->slice_n, '/') || s->slice_n < 1 || s->slice_k < 0 ||
        s->slice_k >= s->slice_n) {
      if (say) fprintf(stderr, "error: -slice %s: expected K/N with 0 <= K < N\n", e.slice);
      return 1;
    }
    snprintf(s->slice_tag, sizeof s->slice_tag, "%ld-of-%ld", s->slice_k, s->slice_n);
  }
  if (run_directory(s, &e)) return 1;
  return sweep_set_out(s, s->out);
}

int sweep_set_out(struct sweep *s, const char *out)
{
  if (out != s->out && sweep_path(s->out, sizeof s->out, "%s", out)) return 1;
  if (s->slice_tag[0])
    return sweep_path(s->ledger_path, sizeof s->ledger_path, "%s/ledger.%s.csv", s->out, s->slice_tag);
  return sweep_path(s->ledger_path, sizeof s->ledger_path, "%s/ledger.csv", s->out);
}
