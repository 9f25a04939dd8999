/* sweep.c — sweep_main: the program every driver is (design.md contracts 7-9). Recipe: parse options
 * (engine, axes, the driver's own) -> rank 0 prepares the run directory (or refuses, exit 2) -> every rank
 * runs tasks (sweep_run.c) -> rank 0 merges the ledger into tasks.csv, summarises and plots. Bad input is
 * found before any task runs, reported once by rank 0, and every rank exits 2. */
#include "blas_core.h"
#include "formulation.h"
#include "option_table.h"
#include "plot_trace.h"
#include "program.h"
#include "sweep_capture.h"
#include "sweep_impl.h"
#include "sweep_observers.h"

#include <cblas.h>
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
    "-out", "-run", "-resume", "-rerun_failed", "-quiet", "-tasks", "-slice", "-task_fork", "-task_batch",
    "-task_chunk", "-no_plots", "-dry_run", "-task_time_limit", "-help", "-options_left",
    /* observers: they watch the tasks that run and change no number of theirs (a resumed run may add a
     * trace or dump the failed steps of the tasks it redoes) */
    "-trace", "-cp_dump_failed", "-cp_capture", "-cp_capture_every", "-cp_capture_step", "-cp_capture_failed",
    "-cp_capture_max",
    /* timing only with 1 thread per rank; with more docs/sweeps.md says what may change */
    "-blas_threads", NULL};

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
  const char *name, *value;
};

static int by_name(const void *a, const void *b)
{
  return strcmp(((const struct opt_pair *)a)->name, ((const struct opt_pair *)b)->name);
}

/* The canonical option string: every option but the run-control ones and the axes, sorted by name,
 * "-a v -b w". */
static char *fingerprint(const struct sweep *s)
{
  struct opt_pair *p = calloc((size_t)s->n_pairs + 1, sizeof *p);
  size_t len = 2;
  int n = 0;
  char *out = NULL;
  if (!p) return NULL;
  for (int i = 0; i < s->n_pairs; i++) {
    if (is_run_control(s->d, s->pair_name[i])) continue;
    p[n].name = s->pair_name[i];
    p[n++].value = s->pair_value[i];
    len += strlen(s->pair_name[i]) + (s->pair_value[i] ? strlen(s->pair_value[i]) : 0) + 2;
  }
  qsort(p, (size_t)n, sizeof *p, by_name);
  out = calloc(len, 1);
  for (int i = 0; out && i < n; i++) {
    if (out[0]) strcat(out, " ");
    strcat(out, p[i].name);
    if (p[i].value) strcat(strcat(out, " "), p[i].value);
  }
  free(p);
  return out;
}

/* The run's options as the start-up's reader left them (name, value pairs; list options have none here)
 * and its object, borrowed from p. */
static int run_options_from_program(struct sweep *s, const struct program *p)
{
  s->options = p->options;
  s->pair_name = calloc((size_t)p->args.n_pairs + 1, sizeof *s->pair_name);
  s->pair_value = calloc((size_t)p->args.n_pairs + 1, sizeof *s->pair_value);
  if (!s->pair_name || !s->pair_value) return 1;
  for (int i = 0; i < p->args.n_pairs; i++) {
    s->pair_name[s->n_pairs] = p->args.pairs[i].name;
    s->pair_value[s->n_pairs++] = p->args.pairs[i].value;
  }
  return 0;
}

static void run_options_free(struct sweep *s)
{
  free(s->pair_name);
  free(s->pair_value);
  if (s->base) PetscOptionsDestroy(&s->base);
  free(s->reads);
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

/* results/<experiment>/latest (results_dir's) -> the newest default-named run, for people and scripts. */
static void link_latest(const struct sweep *s)
{
  char want[SWEEP_PATH_MAX], link[SWEEP_PATH_MAX + 16];
  snprintf(want, sizeof want, "results/%s/", sweep_results_dir(s));
  if (strncmp(s->out, want, strlen(want)) != 0 || strchr(s->out + strlen(want), '/')) return;
  snprintf(link, sizeof link, "results/%s/latest", sweep_results_dir(s));
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

/* The driver's trace plots (plot_trace.h) of every task of this run that left a trace (rank 0, after the
 * sweep), titled with the task's axis values. 0; 1 when gnuplot failed on one; 2 when a script could not be
 * written (a message says which). */
static int plot_traces(const struct sweep *s)
{
  const struct sweep_driver *d = s->d;
  const char **v = calloc((size_t)d->n_axes + 1, sizeof *v);
  int bad = v ? 0 : 2;
  for (long i = 0; v && i < s->n_todo && bad < 2; i++) {
    char stem[256], path[SWEEP_PATH_MAX + 300], sub[1024];
    snprintf(stem, sizeof stem, "%s_task%ld", d->experiment, s->todo[i]);
    /* a task that stopped before its run (not applicable, bad scene) left none */
    if (sweep_path(path, sizeof path, "%s/%s.csv", s->trace_dir, stem) || access(path, R_OK)) continue;
    sweep_task_values(s, s->todo[i], v);
    size_t len = (size_t)snprintf(sub, sizeof sub, "task %ld:", s->todo[i]);
    for (int k = 0; k < d->n_axes && len < sizeof sub; k++)
      len += (size_t)snprintf(sub + len, sizeof sub - len, "%s %s = %s", k ? "," : "", d->axes[k].name, v[k]);
    for (int p = 0; p < d->n_trace_plots; p++) {
      int st = plot_trace(s->trace_dir, stem, sub, &d->trace_plots[p]);
      if (st > bad) bad = st;
    }
  }
  free(v);
  return bad;
}

/* The driver's settings (d->settings_size bytes, zeroed) with its declared options read from the run's. */
static int settings_read(struct sweep *s)
{
  char msg[512];
  if (!s->d->settings_size) return 0;
  if (!(s->ctx = calloc(1, s->d->settings_size))) return 1;
  if (!option_read(s->d->options, s->d->n_options, s->base, NULL, s->ctx, msg, sizeof msg)) return 0;
  if (s->rank == 0) fprintf(stderr, "error: %s\n", msg);
  return 1;
}

/* A driver's check_axes or prepare hook with the parsed axis values. */
static int call_with_axes(struct sweep *s, int (*hook)(void *, const int *, char *const *const *))
{
  int n = s->d->n_axes, rc = 1;
  int *nv = malloc(((size_t)n + 1) * sizeof *nv);
  char *const **v = malloc(((size_t)n + 1) * sizeof *v);
  if (nv && v) {
    for (int i = 0; i < n; i++)
      nv[i] = s->ax[i].n, v[i] = s->ax[i].v;
    rc = hook(s->ctx, nv, (char *const *const *)v);
  }
  free(nv);
  free((void *)v);
  return rc != 0;
}

int sweep_values_have(const int *n_values, char *const *const *values, int k, const char *value)
{
  for (int i = 0; i < n_values[k]; i++)
    if (strcmp(values[k][i], value) == 0) return 1;
  return 0;
}

/* Every option and axis read and checked, the driver's settings and setup done, the methods probed, and
 * nothing left unread: 0, or 2 (bad input; every rank agrees) / 1. */
static int sweep_configure(struct sweep *s)
{
  const struct sweep_driver *d = s->d;
  /* the driver's settings first: an axis's default may come from them (axis_default) */
  int rc = sweep_parse_engine(s) || sweep_base_options(s) ? 2 : 0;
  if (!rc) openblas_set_num_threads(s->blas_threads); /* before any BLAS call: setup may run references */
  if (!rc && (sweep_check_step_option(s) || settings_read(s))) rc = 2;
  if (!rc && d->setup && d->setup(s->ctx, s->base)) rc = 2;
  if (!rc && (sweep_axes_parse(s) || sweep_check_task_range(s) || sweep_check_steps(s))) rc = 2;
  s->fingerprint = fingerprint(s);
  if (!rc && !s->fingerprint) rc = 1;
  if (!rc && d->check_axes && call_with_axes(s, d->check_axes)) rc = 2;
  if (!rc) sweep_mark_used(s, s->base); /* what setup and check_axes read */
  if (!rc && sweep_probe_methods(s)) rc = 2;
  MPI_Allreduce(MPI_IN_PLACE, &rc, 1, MPI_INT, MPI_MAX, s->comm);
  if (!rc && sweep_check_unused(s)) rc = 2;
  MPI_Allreduce(MPI_IN_PLACE, &rc, 1, MPI_INT, MPI_MAX, s->comm);
  return rc;
}

/* -dry_run: what would run, touching nothing (a clashing -out is refused already). */
static int sweep_dry_run(struct sweep *s)
{
  char *none = calloc((size_t)s->total + 1, 1);
  int rc = s->rank == 0 ? sweep_check_run_dir(s) : 0;
  MPI_Bcast(&rc, 1, MPI_INT, 0, s->comm);
  if (!rc) rc = !none || sweep_build_todo(s, none);
  if (!rc && s->rank == 0) list_tasks(s);
  free(none);
  return rc;
}

/* The run directory, the driver's prepare hook and the first meta.json, before any task; 0 or 1. Tasks run
 * in forked children that share this rank's MPI transport: a child that makes MPI progress can take a
 * message meant for its parent, and the sweep then waits forever (seen with TAO/SNES tasks on 2 ranks: 4
 * hangs in 5 runs). PETSc objects on PETSC_COMM_SELF duplicate it on first use (MPI_Comm_dup, a progressing
 * call); duplicating it here, once (*self_inner), caches the inner communicator so that children find it and
 * make no progressing MPI calls. */
static int sweep_start_run(struct sweep *s, MPI_Comm *self_inner)
{
  int rc = s->rank == 0 ? sweep_prepare_run_dir(s) : 0;
  MPI_Bcast(&rc, 1, MPI_INT, 0, s->comm);
  if (rc) return rc;
  MPI_Bcast(s->out, sizeof s->out, MPI_CHAR, 0, s->comm); /* rank 0 may have given it a -2 suffix */
  MPI_Bcast(s->ledger_path, sizeof s->ledger_path, MPI_CHAR, 0, s->comm);
  char err[1200];
  if (sweep_capture_start(&s->capture, s->use_fork, err, sizeof err)) { /* each rank its own file */
    fprintf(stderr, "error: -cp_capture: %s\n", err);
    rc = 2;
  }
  MPI_Allreduce(MPI_IN_PLACE, &rc, 1, MPI_INT, MPI_MAX, s->comm);
  if (rc) return rc;
  if (PetscCommDuplicate(PETSC_COMM_SELF, self_inner, NULL)) return 1;
  if (s->d->prepare && call_with_axes(s, s->d->prepare)) rc = 1;
  MPI_Allreduce(MPI_IN_PLACE, &rc, 1, MPI_INT, MPI_MAX, s->comm);
  if (rc) return rc;
  sweep_iso_now(s->start_iso, sizeof s->start_iso);
  s->t_start = MPI_Wtime();
  if (s->rank == 0) {
    if (!s->quiet)
      fprintf(stderr, "[%s] %ld tasks to run (%ld selected of %ld) on %d ranks -> %s\n", s->d->experiment,
              s->n_todo, s->n_selected, s->total, s->size, s->out);
    if (write_meta(s, 0)) rc = 1; /* a directory that takes no meta.json will not take the rows either */
    sweep_build_differs(stderr);  /* a reference made from a binary of another tree must say so */
  }
  MPI_Bcast(&rc, 1, MPI_INT, 0, s->comm);
  return rc;
}

/* Rank 0 after the tasks: meta.json, tasks.csv, the summaries and plots (not for a slice: bench_merge makes
 * them), the latest link, and the efficiency line. 0 or 1. */
static int sweep_finish(struct sweep *s)
{
  const struct sweep_driver *d = s->d;
  int rc = 0;
  sweep_iso_now(s->end_iso, sizeof s->end_iso);
  fclose(s->ledger);
  s->ledger = NULL;
  sweep_progress(s, 1);
  if (write_meta(s, 1)) rc = 1;
  /* a file that cannot be written fails the run (exit 1, the file named above); gnuplot that cannot draw
   * does not: the scripts and data are there to draw from */
  if (!s->slice_tag[0]) {
    int plotted = 0;
    double t[4] = {MPI_Wtime(), 0, 0, 0};
    if (sweep_merge(s->out, NULL) || (t[1] = MPI_Wtime(), sweep_summarize(s->out)) ||
        (t[2] = MPI_Wtime(), s->plots && (plotted = sweep_plot(s->out)) == 2))
      rc = 1;
    t[3] = MPI_Wtime();
    /* what the run spent on its own books, for make bench-engine and anyone whose sweep has many tasks */
    if (!rc && !s->quiet)
      fprintf(stderr,
              "[%s] bookkeeping: ledger %.3f s (in the task loop), merge %.3f s, summary %.3f s, "
              "plots %.3f s\n",
              d->experiment, s->ledger_seconds, t[1] - t[0], t[2] - t[1], t[3] - t[2]);
    else if (plotted)
      fprintf(stderr, "[%s] gnuplot could not draw the plots (tables, scripts and data are written)\n",
              d->experiment);
    link_latest(s);
    if (!s->quiet) print_file(s->out, "summary.md");
  }
  int traced = s->plots && s->trace_dir[0] && d->n_trace_plots ? plot_traces(s) : 0;
  if (traced == 2)
    rc = 1;
  else if (traced)
    fprintf(stderr, "[%s] gnuplot could not draw the trace plots (the traces are written)\n", d->experiment);
  double wall = s->t_end - s->t_start, bound = s->task_seconds_sum / s->size;
  if (s->task_seconds_max > bound) bound = s->task_seconds_max;
  if (!s->quiet)
    fprintf(stderr,
            "[%s] parallel efficiency %.2f (task seconds %.3g / (%d ranks x wall %.3g s)); wall / "
            "max(sum/ranks, longest task) = %.2f\n[%s] results in %s\n",
            d->experiment, wall > 0 ? s->task_seconds_sum / (s->size * wall) : 0.0, s->task_seconds_sum,
            s->size, wall, bound > 0 ? wall / bound : 0.0, d->experiment, s->out);
  return rc;
}

const char *sweep_title(const struct sweep *s)
{
  const char *t = s->d->run_title ? s->d->run_title(s->ctx) : NULL;
  return t ? t : s->d->title ? s->d->title : s->d->experiment;
}

int sweep_main(const struct sweep_driver *d, int argc, char **argv)
{
  struct sweep s;
  struct program p;
  MPI_Comm self_inner = MPI_COMM_NULL;
  struct sweep_driver *with_standard = NULL;
  char name[96];
  memset(&s, 0, sizeof s);
  s.d = d;
  s.lock_fd = -1;
  s.step_axis = -1;
  snprintf(name, sizeof name, "bench_%s", d->experiment);
  const struct program_spec spec = {.name = name, .usage = "[options]", .h_is_time_step = 1};
  sweep_launcher_note();
  sweep_signals_setup(d->experiment); /* a signal in set-up ends it at once, leaving nothing made */
  blas_core_select();                 /* before MPI starts threads and before any BLAS call */
  int rc = program_start(&spec, argc, argv, &p);
  sweep_signals_setup(d->experiment); /* PETSc may have put its own handlers */
  sweep_signals_rank(p.rank);
  if (rc) {
    sweep_signals_restore();
    return program_end(&p, rc);
  }
  s.comm = MPI_COMM_WORLD; /* bench/ is the one layer that knows the world communicator */
  s.rank = p.rank;
  s.size = p.size;
  s.argv_line = p.command_line;
  s.program = &p;
  int hl = 0;
  MPI_Get_processor_name(s.host, &hl);
  if (p.help_petsc) goto finalize; /* PETSc printed its options */
  if (d->steps_observed) {         /* the standard observers' columns follow the driver's */
    if (!(with_standard = sweep_driver_with_standard_columns(d))) {
      rc = 1;
      goto finalize;
    }
    s.d = with_standard;
  }
  if (run_options_from_program(&s, &p) || sweep_option_axes_add(&s)) {
    rc = 1;
    goto finalize;
  }
  if (p.help) {
    if (sweep_axes_parse(&s)) sweep_axes_free(&s); /* help for the defaults when the axes are bad */
    if (s.rank == 0) sweep_print_help(&s);
    goto finalize;
  }
  rc = sweep_configure(&s);
  if (!rc) rc = s.dry_run ? sweep_dry_run(&s) : sweep_start_run(&s, &self_inner);
  if (rc || s.dry_run) goto finalize;
  int stopped = sweep_run(&s);
  if (s.rank == 0 && stopped) {
    /* nothing is claimed that is not in the ledger: no tables, no finished meta.json; a time-stamped run
     * becomes latest, which the same command with -resume continues */
    link_latest(&s);
    if (stopped == SWEEP_STOP_SIGNAL) {
      fprintf(stderr,
              "[%s] %s: %ld of %ld tasks are in the ledger %s; the ones that were running are recorded as "
              "interrupted. Continue with the same command and -resume\n",
              d->experiment, s.stop_why, s.n_done, s.n_todo, s.ledger_path);
      rc = s.signal ? 128 + s.signal : 1; /* as a shell reports a program ended by the signal */
    } else {
      fprintf(
          stderr,
          "error: %s\n[%s] stopped: %ld of %ld tasks are in the ledger %s; the others did not run or were "
          "lost. Make room and continue with the same command and -resume\n",
          s.stop_why, d->experiment, s.n_done, s.n_todo, s.ledger_path);
      rc = 1;
    }
  } else if (s.rank == 0) {
    rc = sweep_finish(&s);
  }
  MPI_Bcast(&rc, 1, MPI_INT, 0, s.comm);
finalize:
  sweep_signals_restore(); /* (sweep_run did after its tasks) */
  sweep_capture_close();   /* a run that stopped before its tasks (closed already after them) */
  if (s.ctx && s.d->teardown) s.d->teardown(s.ctx);
  free(s.ctx);
  if (self_inner != MPI_COMM_NULL) PetscCommDestroy(&self_inner);
  if (s.ledger) fclose(s.ledger);
  if (s.lock_fd >= 0) close(s.lock_fd); /* after the merge: the tables are this run's too */
  sweep_axes_free(&s);
  sweep_option_axes_free(&s);
  run_options_free(&s);
  free(with_standard);
  free(s.todo);
  sweep_schedule_free(&s.sched);
  free(s.fingerprint);
  return program_end(&p, rc);
}
