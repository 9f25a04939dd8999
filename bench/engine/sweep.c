/* sweep.c — sweep_main: the program every driver is (design.md contracts 7-9). Recipe: parse options
 * (engine, axes, the driver's own) -> rank 0 prepares the run directory (or refuses, exit 2) -> every rank
 * runs tasks (sweep_run.c) -> rank 0 merges the ledger into tasks.csv, summarises and plots. Bad input is
 * found before any task runs, reported once by rank 0, and every rank exits 2. */
#include "formulation.h"
#include "option_table.h"
#include "sweep_impl.h"
#include "sweep_observers.h"

#include <errno.h>
#include <petscsys.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Options that steer a run but do not change its results: left out of the fingerprint that -resume and
 * a shared run directory must match. */
static const char *const run_control[] = {
    "-out",       "-run",      "-resume",  "-rerun_failed",    "-quiet", "-tasks",        "-slice",
    "-task_fork", "-no_plots", "-dry_run", "-task_time_limit", "-help",  "-options_left", NULL};

static int is_run_control(const struct sweep_driver *d, const char *name)
{
  for (int i = 0; run_control[i]; i++)
    if (strcmp(name, run_control[i]) == 0) return 1;
  /* The axes are not part of the fingerprint either: a task is identified by its axis values, so a run
   * may be resumed with values added to (or taken from) an axis; experiment.txt keeps the lists. */
  if (strcmp(name, "-seeds") == 0) return 1;
  for (int k = 0; k < d->n_axes; k++)
    if (strcmp(name, sweep_axis_option(&d->axes[k])) == 0) return 1;
  return 0;
}

struct opt_pair {
  char *name, *value;
};

static int by_name(const void *a, const void *b)
{
  return strcmp(((const struct opt_pair *)a)->name, ((const struct opt_pair *)b)->name);
}

/* The canonical option string: every option but the run-control ones, sorted by name, "-a v -b w". */
static char *fingerprint(const struct sweep_driver *d)
{
  char *all = NULL, *out = NULL;
  if (PetscOptionsGetAll(NULL, &all)) return NULL;
  size_t len = strlen(all);
  struct opt_pair *p = calloc(len / 2 + 2, sizeof *p);
  int n = 0;
  if (!p) goto cleanup;
  char *save = NULL;
  for (char *tok = strtok_r(all, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
    int is_name = tok[0] == '-' && tok[1] && !(tok[1] >= '0' && tok[1] <= '9') && tok[1] != '.';
    if (is_name) {
      p[n].name = tok;
      p[n++].value = NULL;
    } else if (n > 0 && !p[n - 1].value) {
      p[n - 1].value = tok;
    }
  }
  qsort(p, (size_t)n, sizeof *p, by_name);
  out = calloc(len + 2, 1);
  if (!out) goto cleanup;
  for (int i = 0; i < n; i++) {
    if (is_run_control(d, p[i].name)) continue;
    if (out[0]) strcat(out, " ");
    strcat(out, p[i].name);
    if (p[i].value) strcat(strcat(out, " "), p[i].value);
  }
cleanup:
  free(p);
  PetscFree(all);
  return out;
}

/* The engine's options (every driver), declared: -help prints this table, the one reader checks them. */
struct engine_settings {
  char out[OPTION_STRING_MAX], run[OPTION_STRING_MAX], tasks[OPTION_STRING_MAX], slice[OPTION_STRING_MAX];
  int resume, rerun_failed, task_fork, no_plots, dry_run, quiet;
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
    ENGINE_OPT(resume, OPT_BOOL, "0", NULL,
               "continue the run in -out: skip finished tasks, redo a torn last line; tasks are matched by "
               "their axis values, so a sweep with added values runs only the new tasks"),
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
    ENGINE_OPT(no_plots, OPT_BOOL, "0", NULL, "skip the gnuplot plots at the end"),
    ENGINE_OPT(dry_run, OPT_BOOL, "0", NULL, "check every option, list the tasks this run would do and stop"),
    ENGINE_OPT(quiet, OPT_BOOL, "0", NULL, "no progress lines on stderr"),
};
#define N_ENGINE_OPTIONS ((int)(sizeof engine_options / sizeof engine_options[0]))

/* Only time-stepping drivers (.steps_observed) take these: the standard observers (sweep_observers.h). */
struct observer_settings {
  char trace[OPTION_STRING_MAX], cp_dump_failed[OPTION_STRING_MAX];
  char cp_capture[OPTION_STRING_MAX];
  int cp_capture_every, cp_capture_failed, cp_capture_max;
};
static const struct option_decl observer_options[] = {
    {"trace", OPT_STRING, offsetof(struct observer_settings, trace), "", NULL,
     "per-step CSV per task: DIR/EXPERIMENT_task<ID>.csv (an existing directory): step, t, status, contacts, "
     "rows, iterations, fp_iterations, residual, solve_seconds, step_seconds, energy, max_penetration, then "
     "the experiment's own columns"},
    {"cp_dump_failed", OPT_STRING, offsetof(struct observer_settings, cp_dump_failed), "", NULL,
     "the first 5 failed problems of a task as plain files for bin/cpsolve: "
     "DIR/EXPERIMENT_task<ID>_step<K>.txt"},
    {"cp_capture", OPT_STRING, offsetof(struct observer_settings, cp_capture), "", NULL,
     "append the steps' problems to the HDF5 corpus FILE.h5 (one group per problem; under MPI one file per "
     "rank, FILE.rank<R>.h5: join them with bin/bench_corpus -merge); replay with bin/bench_corpus"},
    {"cp_capture_every", OPT_INT, offsetof(struct observer_settings, cp_capture_every), "1", "[1,1000000000]",
     "-cp_capture: every K-th step of a run (steps 1, K+1, 2K+1, ...)"},
    {"cp_capture_failed", OPT_BOOL, offsetof(struct observer_settings, cp_capture_failed), "0", NULL,
     "-cp_capture: only the steps whose solve did not converge"},
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
  ADD("-seed");
  ADD("-seeds");
  ADD("-trace");
  ADD("-cp_dump_failed");
  ADD("-cp_capture");
  ADD("-cp_capture_every");
  ADD("-cp_capture_failed");
  ADD("-cp_capture_max");
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

/* Whose declared option is name, when it belongs to a formulation or solver type ("solver pgs"), else "". */
static void option_owner(const char *name, char *buf, size_t n)
{
  char full[256];
  buf[0] = '\0';
  const struct solver_type *st = solver_option_owner(name);
  if (st) snprintf(buf, n, "solver %s", st->name);
  for (int r = 0; formulation_registry[r] && !buf[0]; r++)
    for (int i = 0; i < formulation_registry[r]->n_options; i++) {
      snprintf(full, sizeof full, "-%s", formulation_registry[r]->options[i].name);
      if (strcmp(full, name) == 0) snprintf(buf, n, "formulation %s", formulation_registry[r]->name);
    }
}

/* An option nobody read is an error of the run (design.md, Configuration): a misspelt name, an option of a
 * formulation or solver the sweep does not use, -seeds on a driver without instances. Reported once (rank
 * 0) with the nearest valid name; nonzero when there is any. Runs after every reader (engine, axes, driver
 * setup, each used formulation's and solver's options). */
static int check_unused(const struct sweep *s)
{
  char **names = NULL, **values = NULL;
  int n = option_unused(&names, &values);
  if (n <= 0) return n < 0;
  int nk = 0;
  char **known = known_options(s->d, &nk);
  /* names that existed once, so that an old preset or script is told what replaced them */
  static const char *const renamed[][2] = {
      {"-T", "-t_end"}, {"-method", "-formulation"}, {"-gen_seed", "-seed (with the instance axes)"}};
  for (int i = 0; i < n && s->rank == 0; i++) {
    char owner[128];
    const char *now = NULL;
    for (size_t r = 0; r < sizeof renamed / sizeof renamed[0]; r++)
      if (strcmp(names[i], renamed[r][0]) == 0) now = renamed[r][1];
    if (now) {
      fprintf(stderr, "error: %s is no longer an option; use %s\n", names[i], now);
      continue;
    }
    option_owner(names[i], owner, sizeof owner);
    const char *near = known ? option_nearest(names[i], (const char *const *)known, nk) : NULL;
    if (owner[0])
      fprintf(stderr, "error: %s is an option of %s, which this run does not use\n", names[i], owner);
    else if (near && strcmp(near, names[i]) != 0)
      fprintf(stderr, "error: %s is not an option of this run (did you mean %s?)\n", names[i], near);
    else if (near)
      fprintf(stderr, "error: %s is not used by bench_%s (it has no such axis or setting in this run)\n",
              names[i], s->d->experiment);
    else
      fprintf(stderr, "error: %s is not an option of this run (bench_%s -help lists them)\n", names[i],
              s->d->experiment);
  }
  for (int i = 0; known && i < nk; i++)
    free(known[i]);
  free(known);
  option_unused_free(n, names, values);
  return 1;
}

/* -help: what applies to this run — the axes, the columns, the driver's options, the engine's, and the own
 * options of the formulations and solvers the axes name (their defaults: the chosen ones). */
static void print_help(const struct sweep *s)
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
    printf("  %-26s %s%s (default %s%s%s)\n", opt, sweep_axis_is_instance(a) ? "[instance] " : "",
           a->help ? a->help : "", a->def ? a->def : "", a->range ? "; range " : "",
           a->range ? a->range : "");
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

/* Engine options; messages on rank 0. Returns nonzero on bad input. */
static int parse_engine(struct sweep *s)
{
  struct engine_settings e;
  char msg[512];
  const int say = s->rank == 0;
  if (option_read(engine_options, N_ENGINE_OPTIONS, NULL, &e, msg, sizeof msg)) {
    if (say) fprintf(stderr, "error: %s\n", msg);
    return 1;
  }
  s->resume = e.resume;
  s->rerun_failed = e.rerun_failed;
  s->quiet = e.quiet;
  s->plots = !e.no_plots;
  s->dry_run = e.dry_run;
  s->use_fork = e.task_fork;
  s->time_limit = e.task_time_limit;
  if (s->time_limit > 0.0 && !s->use_fork) {
    if (say)
      fprintf(stderr, "error: -task_time_limit needs -task_fork 1 (an in-process task cannot be stopped)\n");
    return 1;
  }
  if (s->d->steps_observed) {
    struct observer_settings os;
    if (option_read(observer_options, N_OBSERVER_OPTIONS, NULL, &os, msg, sizeof msg)) {
      if (say) fprintf(stderr, "error: %s\n", msg);
      return 1;
    }
    snprintf(s->trace_dir, sizeof s->trace_dir, "%s", os.trace);
    snprintf(s->dump_dir, sizeof s->dump_dir, "%s", os.cp_dump_failed);
    capture_path(os.cp_capture, s->rank, s->size, s->capture.path, sizeof s->capture.path);
    s->capture.every = os.cp_capture_every;
    s->capture.failed_only = os.cp_capture_failed;
    s->capture.max = os.cp_capture_max;
  }
  s->base_seed = 1;
  if (has_seeds_axis(s->d)) {
    struct seed_settings ss;
    if (option_read(seed_options, 1, NULL, &ss, msg, sizeof msg)) {
      if (say) fprintf(stderr, "error: %s\n", msg);
      return 1;
    }
    s->base_seed = (unsigned long)ss.seed;
  }
  s->task_lo = 0;
  s->task_hi = s->total;
  if (e.tasks[0] && (parse_range(e.tasks, &s->task_lo, &s->task_hi, ':') || s->task_lo < 0 ||
                     s->task_hi > s->total || s->task_lo >= s->task_hi)) {
    if (say) fprintf(stderr, "error: -tasks %s: expected I:J with 0 <= I < J <= %ld\n", e.tasks, s->total);
    return 1;
  }
  if (e.slice[0]) {
    if (parse_range(e.slice, &s->slice_k, &s->slice_n, '/') || s->slice_n < 1 || s->slice_k < 0 ||
        s->slice_k >= s->slice_n) {
      if (say) fprintf(stderr, "error: -slice %s: expected K/N with 0 <= K < N\n", e.slice);
      return 1;
    }
    snprintf(s->slice_tag, sizeof s->slice_tag, "%ld-of-%ld", s->slice_k, s->slice_n);
  }
  if (e.run[0] && (strchr(e.run, '/') || strcmp(e.run, ".") == 0 || strcmp(e.run, "..") == 0)) {
    if (say)
      fprintf(stderr, "error: -run %s: a run name is one folder name (no '/'); use -out DIR for a path\n",
              e.run);
    return 1;
  }
  if (e.out[0]) {
    if (sweep_path(s->out, sizeof s->out, "%s", e.out)) return 1;
  } else {
    char run[OPTION_STRING_MAX];
    snprintf(run, sizeof run, "%s", e.run);
    if (!run[0]) { /* the time stamp comes from rank 0, so that every rank names the same directory */
      long stamp = (long)time(NULL);
      MPI_Bcast(&stamp, 1, MPI_LONG, 0, s->comm);
      time_t tt = (time_t)stamp;
      struct tm tm;
      localtime_r(&tt, &tm);
      strftime(run, sizeof run, "%Y%m%d-%H%M%S", &tm);
    }
    if (sweep_path(s->out, sizeof s->out, "results/%s/%s", s->d->experiment, run)) return 1;
  }
  if (s->slice_tag[0])
    return sweep_path(s->ledger_path, sizeof s->ledger_path, "%s/ledger.%s.csv", s->out, s->slice_tag);
  return sweep_path(s->ledger_path, sizeof s->ledger_path, "%s/ledger.csv", s->out);
}

/* meta.json (meta.K-of-N.json) with a message when it cannot be written; the writer's temporary file is
 * removed then, so that a full disk leaves no empty *.tmp behind. */
static int write_meta(struct sweep *s, int finished)
{
  char tmp[SWEEP_PATH_MAX + 80];
  if (!sweep_write_meta(s, finished)) return 0;
  int saved = errno;
  if (s->slice_tag[0])
    sweep_path(tmp, sizeof tmp, "%s/meta.%s.json.tmp", s->out, s->slice_tag);
  else
    sweep_path(tmp, sizeof tmp, "%s/meta.json.tmp", s->out);
  unlink(tmp);
  fprintf(stderr, "error: cannot write the meta.json of %s: %s\n", s->out, saved ? strerror(saved) : "");
  return 1;
}

/* results/<experiment>/latest -> the newest default-named run, for people and scripts. */
static void link_latest(const struct sweep *s)
{
  char want[SWEEP_PATH_MAX], link[SWEEP_PATH_MAX + 16];
  snprintf(want, sizeof want, "results/%s/", s->d->experiment);
  if (strncmp(s->out, want, strlen(want)) != 0 || strchr(s->out + strlen(want), '/')) return;
  snprintf(link, sizeof link, "results/%s/latest", s->d->experiment);
  unlink(link);
  if (symlink(s->out + strlen(want), link)) return;
}

/* The summary on stdout at the end of a run: what a user reads first. */
static void print_file(const char *dir, const char *name)
{
  char path[SWEEP_PATH_MAX + 64], buf[4096];
  if (sweep_path(path, sizeof path, "%s/%s", dir, name)) return;
  FILE *fp = fopen(path, "r");
  if (!fp) return;
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, fp)) > 0)
    fwrite(buf, 1, n, stdout);
  fclose(fp);
  fflush(stdout);
}

static char *join_argv(int argc, char **argv)
{
  size_t len = 1;
  for (int i = 0; i < argc; i++)
    len += strlen(argv[i]) + 1;
  char *out = calloc(len, 1);
  for (int i = 0; out && i < argc; i++)
    strcat(strcat(out, i ? " " : ""), argv[i]);
  return out;
}

static void list_tasks(const struct sweep *s)
{
  const char **v = calloc((size_t)s->d->n_axes + 1, sizeof *v);
  if (!v) return;
  for (long i = 0; i < s->n_todo; i++) {
    sweep_task_values(s, s->todo[i], v);
    printf("%ld", s->todo[i]);
    for (int k = 0; k < s->d->n_axes; k++)
      printf(" %s=%s", s->d->axes[k].name, v[k]);
    printf("\n");
  }
  printf("%ld of %ld tasks to run in %s\n", s->n_todo, s->total, s->out);
  free(v);
}

/* Is argument i a request for our help? -help and --help (not "-help petsc", which PETSc answers), and -h
 * without a value (-h is also the time-step axis: "-h 1e-3" is not help). */
static int is_help(int argc, char **argv, int i, int *petsc)
{
  const char *a = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;
  if (strcmp(a, "-help") == 0 || strcmp(a, "--help") == 0) {
    if (next && strcmp(next, "petsc") == 0) return *petsc = 1, 0;
    return 1;
  }
  if (strcmp(a, "-h") == 0) {
    double x;
    return !next || (next[0] == '-' && option_parse_real(next, &x) != 0);
  }
  return 0;
}

int sweep_main(const struct sweep_driver *d, int argc, char **argv)
{
  struct sweep s;
  int rc = 0, want_help = 0, petsc_help = 0, pargc = 0;
  MPI_Comm self_inner = MPI_COMM_NULL;
  struct sweep_driver *with_standard = NULL;
  memset(&s, 0, sizeof s);
  s.d = d;
  s.lock_fd = -1;
  char *cmd = join_argv(argc, argv);
  /* Our -help is taken out before PETSc sees it (PETSc would print its generic block first); "-help petsc"
   * goes to PETSc as "-help". */
  char **pargv = calloc((size_t)argc + 1, sizeof *pargv);
  if (!cmd || !pargv) {
    free(cmd);
    free(pargv);
    return 1;
  }
  for (int i = 0; i < argc; i++) {
    if (i > 0 && is_help(argc, argv, i, &petsc_help)) {
      want_help = 1;
      continue;
    }
    if (i > 0 && petsc_help && strcmp(argv[i], "petsc") == 0 &&
        (strcmp(argv[i - 1], "-help") == 0 || strcmp(argv[i - 1], "--help") == 0))
      continue;
    pargv[pargc++] = strcmp(argv[i], "--help") == 0 ? "-help" : argv[i];
  }
  /* MPI first, so that a missing options file is reported once, cleanly, with exit 2 (PETSc would
   * print a stack of errors and exit 1). */
  sweep_launcher_note();
  if (MPI_Init(&pargc, &pargv) != MPI_SUCCESS) {
    free(cmd);
    free(pargv);
    return 1;
  }
  s.comm = MPI_COMM_WORLD; /* bench/ is the one layer that knows the world communicator */
  MPI_Comm_rank(s.comm, &s.rank);
  for (int i = 1; i + 1 < pargc && !rc; i++)
    if (strcmp(pargv[i], "-options_file") == 0 && access(pargv[i + 1], R_OK) != 0) {
      if (s.rank == 0) fprintf(stderr, "error: cannot read the options file %s\n", pargv[i + 1]);
      rc = 2;
    }
  if (rc || PetscInitialize(&pargc, &pargv, NULL, NULL)) {
    free(cmd);
    free(pargv);
    MPI_Finalize();
    return rc ? rc : 1;
  }
  s.argv_line = cmd;
  MPI_Comm_rank(s.comm, &s.rank);
  MPI_Comm_size(s.comm, &s.size);
  int hl = 0;
  MPI_Get_processor_name(s.host, &hl);
  if (petsc_help) goto finalize; /* PETSc printed its options */
  if (d->steps_observed) {       /* the standard observers' columns follow the driver's */
    if (!(with_standard = sweep_driver_with_standard_columns(d))) {
      rc = 1;
      goto finalize;
    }
    s.d = with_standard;
  }
  if (want_help) {
    if (sweep_axes_parse(&s)) sweep_axes_free(&s); /* help for the defaults when the axes are bad */
    if (s.rank == 0) print_help(&s);
    goto finalize;
  }
  rc = sweep_axes_parse(&s) || parse_engine(&s) ? 2 : 0;
  s.options = fingerprint(d);
  if (!rc && !s.options) rc = 1;
  if (!rc && d->setup && d->setup(&s.ctx)) rc = 2;
  if (!rc && sweep_check_method_options(&s)) rc = 2;
  MPI_Allreduce(MPI_IN_PLACE, &rc, 1, MPI_INT, MPI_MAX, s.comm);
  if (!rc && check_unused(&s)) rc = 2;
  MPI_Allreduce(MPI_IN_PLACE, &rc, 1, MPI_INT, MPI_MAX, s.comm);
  if (rc) goto finalize;
  if (s.dry_run) { /* list what would run, touching nothing; a clashing -out is refused already */
    char *none = calloc((size_t)s.total + 1, 1);
    rc = s.rank == 0 ? sweep_check_run_dir(&s) : 0;
    MPI_Bcast(&rc, 1, MPI_INT, 0, s.comm);
    if (!rc) rc = !none || sweep_build_todo(&s, none);
    if (!rc && s.rank == 0) list_tasks(&s);
    free(none);
    goto finalize;
  }
  if (s.rank == 0) rc = sweep_prepare_run_dir(&s);
  MPI_Bcast(&rc, 1, MPI_INT, 0, s.comm);
  if (rc) goto finalize;
  /* Tasks run in forked children that share this rank's MPI transport: a child that makes MPI progress
   * can take a message meant for its parent, and the sweep then waits forever (seen with TAO/SNES tasks
   * on 2 ranks: 4 hangs in 5 runs). PETSc objects on PETSC_COMM_SELF duplicate it on first use
   * (MPI_Comm_dup, a progressing call); duplicating it here, once, caches the inner communicator so that
   * children find it and make no progressing MPI calls. */
  if (PetscCommDuplicate(PETSC_COMM_SELF, &self_inner, NULL)) {
    rc = 1;
    goto finalize;
  }
  sweep_iso_now(s.start_iso, sizeof s.start_iso);
  s.t_start = MPI_Wtime();
  if (s.rank == 0) {
    if (!s.quiet)
      fprintf(stderr, "[%s] %ld tasks to run (%ld selected of %ld) on %d ranks -> %s\n", d->experiment,
              s.n_todo, s.n_selected, s.total, s.size, s.out);
    if (write_meta(&s, 0)) rc = 1; /* a directory that takes no meta.json will not take the rows either */
  }
  MPI_Bcast(&rc, 1, MPI_INT, 0, s.comm);
  if (rc) goto finalize;
  int stopped = sweep_run(&s);
  if (s.rank == 0 && stopped) {
    /* nothing is claimed that is not in the ledger: no tables, no finished meta.json */
    fprintf(stderr,
            "[%s] stopped: %ld of %ld tasks are in the ledger %s; the others did not run or were lost. "
            "Make room and continue with -resume\n",
            d->experiment, s.n_done, s.n_todo, s.ledger_path);
    rc = 1;
  } else if (s.rank == 0) {
    sweep_iso_now(s.end_iso, sizeof s.end_iso);
    fclose(s.ledger);
    s.ledger = NULL;
    sweep_progress(&s, 1);
    if (write_meta(&s, 1)) rc = 1;
    if (!s.slice_tag[0]) {
      if (sweep_merge(s.out, NULL) || sweep_summarize(s.out))
        rc = 1;
      else if (s.plots && sweep_plot(s.out))
        fprintf(stderr, "[%s] plots failed (tables are written)\n", d->experiment);
      link_latest(&s);
      if (!s.quiet) print_file(s.out, "summary.md");
    }
    double wall = s.t_end - s.t_start, bound = s.task_seconds_sum / s.size;
    if (s.task_seconds_max > bound) bound = s.task_seconds_max;
    if (!s.quiet)
      fprintf(stderr,
              "[%s] parallel efficiency %.2f (task seconds %.3g / (%d ranks x wall %.3g s)); wall / "
              "max(sum/ranks, "
              "longest task) = %.2f\n[%s] results in %s\n",
              d->experiment, wall > 0 ? s.task_seconds_sum / (s.size * wall) : 0.0, s.task_seconds_sum,
              s.size, wall, bound > 0 ? wall / bound : 0.0, d->experiment, s.out);
  }
  MPI_Bcast(&rc, 1, MPI_INT, 0, s.comm);
finalize:
  if (s.ctx && d->teardown) d->teardown(s.ctx);
  if (self_inner != MPI_COMM_NULL) PetscCommDestroy(&self_inner);
  if (s.ledger) fclose(s.ledger);
  if (s.lock_fd >= 0) close(s.lock_fd); /* after the merge: the tables are this run's too */
  sweep_axes_free(&s);
  free(with_standard);
  free(s.todo);
  free(s.options);
  free(cmd);
  free(pargv);
  PetscFinalize();
  MPI_Finalize();
  return rc;
}
