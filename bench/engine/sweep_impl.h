/* sweep_impl.h — the engine's private state, shared by its files: sweep.c (main flow, options, help),
 * sweep_task.c (axes, task ids, seeding, rows), sweep_run.c (MPI scheduling, forked tasks, time limits),
 * sweep_ledger.c (run directory, ledger, resume, merge, meta.json). Drivers include sweep.h only. */
#ifndef CB_SWEEP_IMPL_H
#define CB_SWEEP_IMPL_H

#include "run_files.h"
#include "sweep.h"
#include "sweep_schedule.h"

#include <mpi.h>
#include <stdio.h>

struct sweep_axis_values {
  int n;
  char **v; /* n values as strings */
};

struct program;

struct sweep {
  const struct sweep_driver *d;
  const struct program *program; /* start-up's: the run's options and their sources */
  void *ctx;
  /* The run's options (program start-up): the checked (name, value) pairs, later sources having replaced
   * earlier ones (value NULL for a bare flag), and the object made from them, which the engine's, the
   * axes' and the unused-option checks read. base: the same without the axes' options, with the driver's
   * option_defaults (setup's object; every task's object starts from it). */
  int n_pairs;
  char **pair_name, **pair_value;
  PetscOptions options, base;
  struct sweep_driver *with_option_axes; /* d with the option axes appended (owned), or NULL */
  /* The method probes (sweep_method.c): the formulation and solver axes (-1: none) and, per (formulation,
   * solver) pair of their values, which axes of kind SWEEP_OPTION it reads. */
  int form_axis, solver_axis;
  unsigned char *reads;
  MPI_Comm comm;
  int rank, size;
  char host[256];
  /* axes */
  struct sweep_axis_values *ax; /* d->n_axes */
  long total;                   /* number of tasks in the full product */
  /* engine options */
  char out[SWEEP_PATH_MAX];
  char ledger_path[SWEEP_PATH_MAX];
  int stamped; /* out is the default results/<experiment>/<time stamp>: a fresh folder of this run alone */
  char slice_tag[64]; /* "" or "K-of-N" */
  int resume, rerun_failed, quiet, use_fork, plots, dry_run;
  int task_batch;        /* tasks one forked child runs before it is replaced by a fresh one (-task_batch) */
  long task_chunk;       /* most tasks one request of a worker gets (-task_chunk) */
  long task_lo, task_hi; /* -tasks i:j (half-open), default 0:total */
  char tasks_text[OPTION_STRING_MAX]; /* -tasks as given */
  long slice_k, slice_n;              /* -slice K/N: ids with id % N == K */
  unsigned long base_seed;
  double time_limit;
  double sim_t_end; /* time-stepping drivers (sweep_task.steps): the driver's -t_end */
  int step_axis;    /* and its h axis; -1: the driver does not step in time */
  long fixed_steps; /* -steps N of such a driver, replacing t_end / h; 0: not given */
  int blas_threads; /* -blas_threads: OpenBLAS threads per rank */
  char trace_dir[OPTION_STRING_MAX], dump_dir[OPTION_STRING_MAX]; /* time-stepping drivers */
  struct sweep_capture capture;                                   /* time-stepping drivers: -cp_capture ... */
  char *fingerprint; /* canonical option string of the run's method settings */
  char *argv_line;   /* the full command line, for meta.json */
  /* the work list (rank 0): ids still to run, costliest first, and how many of them a request gets */
  long *todo;
  long n_todo, n_selected;
  struct sweep_schedule sched;
  /* tallies (rank 0) */
  long n_done, n_failed;
  double task_seconds_sum, task_seconds_max;
  double ledger_seconds; /* rank 0: wall spent appending rows to the ledger (the bookkeeping's share) */
  double t_start, t_end;
  char start_iso[32], end_iso[32];
  FILE *ledger;
  /* rank 0: the advisory lock on this run's ledger (ledger*.lock next to it), held for the whole run; -1 */
  int lock_fd;
  int ledger_failed; /* rank 0: a ledger write failed; the run stops and claims nothing more */
  /* rank 0: why the run stopped before its work list was done (sweep_run's answer): 0 it did not; else
   * SWEEP_STOP_WRITE (a write of the run failed: the ledger, a task's trace or dump, a -cp_capture batch)
   * or SWEEP_STOP_SIGNAL (SIGINT or SIGTERM: signal, or 0 when only a task on another rank was
   * interrupted); why says what. */
  int stop, signal;
  char stop_why[1024];
};

/* sweep_task.c */
int sweep_axes_parse(struct sweep *s);
/* A time-stepping driver's step count (sweep_task.steps) for every value of its h axis: nonzero (rank 0
 * names -t_end, -h and why) when one is impossible. Runs after the axes and the driver's settings. */
int sweep_check_steps(struct sweep *s);
/* A time-stepping driver's -steps N (an int option "steps", sweep_task.steps), before the driver's settings
 * are read: N through the step-count rule (rank 0 names -steps and why); nonzero when refused. */
int sweep_check_step_option(struct sweep *s);
/* sweep_options.c: the engine's options into s (nonzero after a message), the unused-option check (nonzero
 * when any option was not read; rank 0 names each), and -help for this run. */
int sweep_parse_engine(struct sweep *s);
/* The folder under results/ of runs without -out: the driver's results_dir, or its experiment's name. */
const char *sweep_results_dir(const struct sweep *s);
int sweep_check_task_range(struct sweep *s);
/* The run directory and the ledger path in it (ledger.csv, ledger.K-of-N.csv); nonzero when too long. */
int sweep_set_out(struct sweep *s, const char *out);
int sweep_check_unused(const struct sweep *s);
void sweep_print_help(const struct sweep *s);
void sweep_axes_free(struct sweep *s);

int sweep_option_axes_add(
    struct sweep *s); /* appends an axis per method option given as a list; 1: no memory */
void sweep_option_axes_free(struct sweep *s);
/* A value of an option axis against its declaring row; nonzero (rank 0 says why) when bad. */
int sweep_check_option_value(const struct sweep *s, const char *option, const char *value);
int sweep_base_options(struct sweep *s); /* s->base; 1 on failure */
/* The driver's option_defaults and option_fixed a task's object gets ("-a v -b w": those the run does not
 * give), to fp: experiment.txt's driver_options line. */
void sweep_driver_options_print(const struct sweep *s, FILE *fp);
/* Marks used in s->options whatever o read (the unused-option check reads s->options). */
void sweep_mark_used(const struct sweep *s, PetscOptions o);
/* Creates every formulation x solver pair of the sweep with each option-axis value (a bad value stops the
 * run: nonzero after a message) and records what each pair reads. */
int sweep_probe_methods(struct sweep *s);
/* Task id's options object (*o, the caller destroys it); *unread names an option axis the task's methods do
 * not read while the task has a value other than the axis's first (the task is then not_applicable). */
int sweep_task_options(const struct sweep *s, long id, PetscOptions *o, const char **unread);
void sweep_task_values(const struct sweep *s, long id, const char **values);
/* A task's answer that starts with this character is no row but the message of a write the run could not
 * make (sweep_task_write_failed); ledger lines start with a task id. */
#define SWEEP_WRITE_FAILED '!'
/* Runs task id in this process (the fork child or -task_fork 0); returns a malloc'd ledger fragment
 * "status,col1,...,colN", SWEEP_WRITE_FAILED and a message, or NULL on an internal error. */
char *sweep_task_execute(const struct sweep *s, long id);
/* The ledger line of a task (without newline), malloc'd: id, axes, fragment (or status + empty columns
 * when fragment is NULL and status is given), task_seconds, rank, host. */
char *sweep_ledger_line(const struct sweep *s, long id, const char *fragment, const char *status,
                        double seconds);
char *sweep_header_line(const struct sweep *s);
int sweep_axis_is_instance(const struct sweep_axis *a);
unsigned long sweep_instance_seed(const struct sweep *s, const char *const *values);

/* sweep_perturb.c: -perturb_initial and -perturb_seed (time-stepping drivers, whose worlds the engine
 * builds), declared once: the engine checks them before any task, each task reads them from its own
 * options object. */
struct sweep_perturb_settings {
  double eps;
  int seed;
};
extern const struct option_decl sweep_perturb_options[];
extern const int sweep_n_perturb_options;
/* Moves the initial state of w's dynamic bodies as -perturb_initial says (nothing when it is 0). 0, or 1
 * with a message in msg. */
int sweep_perturb_world(const struct sweep_task *t, struct world *w, char *msg, size_t len);

/* sweep_run.c */
enum { SWEEP_STOP_WRITE = 1, SWEEP_STOP_SIGNAL = 2 };
/* The status of a task the run stopped while it ran (SIGINT, SIGTERM, or a write of the run that failed):
 * not a result, so -resume runs the task again. */
#define SWEEP_INTERRUPTED "interrupted"
/* Runs the work list; on rank 0 returns s->stop (0: every task ran). SIGINT and SIGTERM stop the run: the
 * running tasks are recorded as interrupted and no more are started. */
int sweep_run(struct sweep *s);
/* Called before MPI_Init: remembers the launcher (mpirun, slurmstepd) so that every rank stops when it
 * dies instead of running on as an orphan, and whether SIGINT was ignored (a background job of a script:
 * it stays ignored). */
void sweep_launcher_note(void);

/* sweep_signals.c: SIGINT and SIGTERM before the task loop end the set-up at once (exit 128 + the signal,
 * a message) and remove the run folder it made. setup installs the handler (again after PetscInitialize,
 * which may put its own); rank: only rank 0 speaks; folder: rank 0's run folder, before set-up writes
 * into it: its set-up files (sweep_setup_files) not there yet are removed, and the folder when made is 1
 * (NULL: none); restore: the handlers the process started with (after the
 * task loop, and on every way out). */
void sweep_signals_setup(const char *experiment);
void sweep_signals_rank(int rank);
void sweep_signals_folder(const struct sweep *s, int made);
void sweep_signals_restore(void);

/* sweep_ledger.c */
/* The files set-up writes into the run folder (lock, experiment.txt, ledger, meta.json, their temporary
 * files) into path[0..max-1]: their number. */
int sweep_setup_files(const struct sweep *s, char (*path)[SWEEP_PATH_MAX + 320], int max);
int sweep_check_run_dir(const struct sweep *s); /* read-only: experiment/options clash -> 2 */
int sweep_prepare_run_dir(struct sweep *s);     /* rank 0: dir, refusal rules, experiment.txt, ledger, todo */
/* The work list: selected ids (-tasks, -slice) not marked in done, costliest first. */
int sweep_build_todo(struct sweep *s, const char *done);
/* Appends line and its newline; nonzero with the reason in why when the write failed. */
int sweep_ledger_append(struct sweep *s, const char *line, char *why, size_t why_len);
int sweep_write_meta(struct sweep *s, int finished); /* sweep_meta.c */
/* 1 when the run directory is a checkout of another commit than the build's, or a clean one where the build
 * was dirty (said on say, when not NULL), else 0 (sweep_meta.c) */
int sweep_build_differs(FILE *say);
void sweep_progress(struct sweep *s, int final);

/* The run's title: the driver's run_title when it gives one, else its title, else the experiment. */
const char *sweep_title(const struct sweep *s);

#endif
