/* sweep.c — sweep_main: the program every driver is (design.md contracts 7-9). Recipe: parse options
 * (engine, axes, the driver's own) -> rank 0 prepares the run directory (or refuses, exit 2) -> every rank
 * runs tasks (sweep_run.c) -> rank 0 merges the ledger into tasks.csv, summarises and plots. Bad input is
 * found before any task runs, reported once by rank 0, and every rank exits 2. */
#include "formulation.h"
#include "sweep_impl.h"

#include <petscsys.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Options that steer a run but do not change its results: left out of the fingerprint that -resume and
 * a shared run directory must match. */
static const char *const run_control[] = {
    "-out",       "-run",      "-resume",  "-rerun_failed",    "-quiet", "-tasks",        "-slice",
    "-task_fork", "-no_plots", "-dry_run", "-task_time_limit", "-help",  "-options_left", NULL};

static const char engine_help[] =
    "Sweep options (every driver):\n"
    "  -out DIR              run directory (default results/<experiment>/<YYYYmmdd-HHMMSS>, linked as "
    "latest)\n"
    "  -run NAME             run name under results/<experiment>/ (instead of the time stamp)\n"
    "  -resume               continue the run in -out: skip finished tasks, redo a torn last line\n"
    "  -rerun_failed         like -resume, and also redo the tasks whose status is a failure\n"
    "  -task_time_limit S    wall seconds per task; a task over it is killed and recorded as time_limit\n"
    "                        (default 0 = none)\n"
    "  -tasks I:J            run only the tasks with I <= id < J\n"
    "  -slice K/N            run only the tasks with id % N == K (0 <= K < N; for job arrays: each slice\n"
    "                        writes ledger.K-of-N.csv; bin/bench_merge DIR builds the tables afterwards)\n"
    "  -seed BASE            base of every task's seed: task seed = splitmix64(BASE, task id) (default 1)\n"
    "  -seeds N              number of seeds, for drivers with a seed axis\n"
    "  -task_fork 0|1        run each task in a forked child (default 1: time limit enforced, a crash is a\n"
    "                        status); 0 runs tasks in-process, e.g. under a debugger\n"
    "  -no_plots             skip the gnuplot plots at the end\n"
    "  -dry_run              list the tasks this run would do and stop\n"
    "  -quiet                no progress lines on stderr\n"
    "  -options_file F       read options from F (PETSc; lines like -h 1e-3,2e-3)\n";

static int is_run_control(const char *name)
{
  for (int i = 0; run_control[i]; i++)
    if (strcmp(name, run_control[i]) == 0) return 1;
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
static char *fingerprint(void)
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
    if (is_run_control(p[i].name)) continue;
    if (out[0]) strcat(out, " ");
    strcat(out, p[i].name);
    if (p[i].value) strcat(strcat(out, " "), p[i].value);
  }
cleanup:
  free(p);
  PetscFree(all);
  return out;
}

static void print_help(const struct sweep_driver *d)
{
  printf("bench_%s — %s\n\nAxes (comma-separated lists; one task per combination):\n", d->experiment,
         d->title);
  for (int k = 0; k < d->n_axes; k++) {
    const struct sweep_axis *a = &d->axes[k];
    char opt[96];
    if (strcmp(a->name, SWEEP_SEEDS_AXIS) == 0)
      snprintf(opt, sizeof opt, "-seeds N");
    else
      snprintf(opt, sizeof opt, "%s a,b,...", a->option ? a->option : "");
    if (!a->option && strcmp(a->name, SWEEP_SEEDS_AXIS) != 0)
      snprintf(opt, sizeof opt, "-%s a,b,...", a->name);
    printf("  %-24s %s (default %s)\n", opt, a->help ? a->help : "", a->def ? a->def : "");
  }
  printf("\nColumns of tasks.csv besides task_id, the axes, status, task_seconds, rank, host:\n");
  static const char *const role[] = {"metric", "cost", "info"};
  for (int j = 0; j < d->n_columns; j++)
    printf("  %-24s %-6s %s\n", d->columns[j].name, role[d->columns[j].role],
           d->columns[j].help ? d->columns[j].help : "");
  if (d->help) printf("\nOptions of this driver:\n%s", d->help);
  printf("\n%s\nFormulations: ", engine_help);
  formulation_registry_names(stdout);
  printf("\nSolvers: ");
  solver_registry_names(stdout);
  printf("\n(-formulation all / -cp_solver all take every one; each has its own -<name>_... options)\n");
}

static int parse_range(const char *txt, long *lo, long *hi, char sep)
{
  char *end;
  *lo = strtol(txt, &end, 10);
  if (*end != sep) return 1;
  *hi = strtol(end + 1, &end, 10);
  return *end != '\0';
}

/* Engine options; messages on rank 0. Returns nonzero on bad input. */
static int parse_engine(struct sweep *s)
{
  char buf[256];
  PetscBool set;
  PetscInt ival;
  PetscReal rval;
  const int say = s->rank == 0;
  s->use_fork = 1;
  s->plots = 1;
  s->base_seed = 1;
  PetscOptionsHasName(NULL, NULL, "-resume", &set), s->resume = set;
  PetscOptionsHasName(NULL, NULL, "-rerun_failed", &set), s->rerun_failed = set;
  PetscOptionsHasName(NULL, NULL, "-quiet", &set), s->quiet = set;
  PetscOptionsHasName(NULL, NULL, "-no_plots", &set), s->plots = !set;
  PetscOptionsHasName(NULL, NULL, "-dry_run", &set), s->dry_run = set;
  ival = 1;
  if (PetscOptionsGetInt(NULL, NULL, "-task_fork", &ival, NULL)) goto bad_value;
  s->use_fork = ival != 0;
  ival = 1;
  if (PetscOptionsGetInt(NULL, NULL, "-seed", &ival, NULL)) goto bad_value;
  s->base_seed = (unsigned long)ival;
  rval = 0.0;
  if (PetscOptionsGetReal(NULL, NULL, "-task_time_limit", &rval, NULL)) goto bad_value;
  if (rval < 0.0) {
    if (say) fprintf(stderr, "error: -task_time_limit must be >= 0 seconds\n");
    return 1;
  }
  s->time_limit = rval;
  s->task_lo = 0;
  s->task_hi = s->total;
  if (PetscOptionsGetString(NULL, NULL, "-tasks", buf, sizeof buf, &set)) goto bad_value;
  if (set && (parse_range(buf, &s->task_lo, &s->task_hi, ':') || s->task_lo < 0 || s->task_hi > s->total ||
              s->task_lo >= s->task_hi)) {
    if (say) fprintf(stderr, "error: -tasks %s: expected I:J with 0 <= I < J <= %ld\n", buf, s->total);
    return 1;
  }
  if (PetscOptionsGetString(NULL, NULL, "-slice", buf, sizeof buf, &set)) goto bad_value;
  if (set) {
    if (parse_range(buf, &s->slice_k, &s->slice_n, '/') || s->slice_n < 1 || s->slice_k < 0 ||
        s->slice_k >= s->slice_n) {
      if (say) fprintf(stderr, "error: -slice %s: expected K/N with 0 <= K < N\n", buf);
      return 1;
    }
    snprintf(s->slice_tag, sizeof s->slice_tag, "%ld-of-%ld", s->slice_k, s->slice_n);
  }
  char run[256] = "";
  if (PetscOptionsGetString(NULL, NULL, "-run", run, sizeof run, NULL)) goto bad_value;
  if (PetscOptionsGetString(NULL, NULL, "-out", s->out, sizeof s->out, &set)) goto bad_value;
  if (!set) {
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
bad_value:
  if (say) fprintf(stderr, "error: a sweep option has a malformed value (see -help)\n");
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

int sweep_main(const struct sweep_driver *d, int argc, char **argv)
{
  struct sweep s;
  int rc = 0;
  memset(&s, 0, sizeof s);
  s.d = d;
  char *cmd = join_argv(argc, argv);
  /* MPI first, so that a missing options file is reported once, cleanly, with exit 2 (PETSc would
   * print a stack of errors and exit 1). */
  if (MPI_Init(&argc, &argv) != MPI_SUCCESS) return 1;
  s.comm = MPI_COMM_WORLD; /* bench/ is the one layer that knows the world communicator */
  MPI_Comm_rank(s.comm, &s.rank);
  for (int i = 1; i + 1 < argc && !rc; i++)
    if (strcmp(argv[i], "-options_file") == 0 && access(argv[i + 1], R_OK) != 0) {
      if (s.rank == 0) fprintf(stderr, "error: cannot read the options file %s\n", argv[i + 1]);
      rc = 2;
    }
  if (rc || PetscInitialize(&argc, &argv, NULL, NULL)) {
    free(cmd);
    MPI_Finalize();
    return rc ? rc : 1;
  }
  s.argv_line = cmd;
  MPI_Comm_rank(s.comm, &s.rank);
  MPI_Comm_size(s.comm, &s.size);
  int hl = 0;
  MPI_Get_processor_name(s.host, &hl);
  PetscBool want_help;
  PetscOptionsHasName(NULL, NULL, "-help", &want_help);
  if (want_help) {
    if (s.rank == 0) print_help(d);
    goto finalize;
  }
  rc = sweep_axes_parse(&s) || parse_engine(&s) ? 2 : 0;
  s.options = fingerprint();
  if (!rc && !s.options) rc = 1;
  if (!rc && d->setup && d->setup(&s.ctx)) rc = 2;
  MPI_Allreduce(MPI_IN_PLACE, &rc, 1, MPI_INT, MPI_MAX, s.comm);
  if (rc) goto finalize;
  if (s.dry_run) { /* list what would run, touching nothing */
    char *none = calloc((size_t)s.total + 1, 1);
    rc = !none || sweep_build_todo(&s, none);
    if (!rc && s.rank == 0) list_tasks(&s);
    free(none);
    goto finalize;
  }
  if (s.rank == 0) rc = sweep_prepare_run_dir(&s);
  MPI_Bcast(&rc, 1, MPI_INT, 0, s.comm);
  if (rc) goto finalize;
  sweep_iso_now(s.start_iso, sizeof s.start_iso);
  s.t_start = MPI_Wtime();
  if (s.rank == 0) {
    if (!s.quiet)
      fprintf(stderr, "[%s] %ld tasks to run (%ld selected of %ld) on %d ranks -> %s\n", d->experiment,
              s.n_todo, s.n_selected, s.total, s.size, s.out);
    sweep_write_meta(&s, 0);
  }
  sweep_run(&s);
  if (s.rank == 0) {
    sweep_iso_now(s.end_iso, sizeof s.end_iso);
    fclose(s.ledger);
    s.ledger = NULL;
    sweep_progress(&s, 1);
    if (sweep_write_meta(&s, 1)) fprintf(stderr, "error: cannot write meta.json in %s\n", s.out), rc = 1;
    if (!s.slice_tag[0]) {
      if (sweep_merge(s.out) || sweep_summarize(s.out))
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
  sweep_axes_free(&s);
  free(s.todo);
  free(s.options);
  free(cmd);
  PetscFinalize();
  MPI_Finalize();
  return rc;
}
