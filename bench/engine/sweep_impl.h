/* sweep_impl.h — the engine's private state, shared by its files: sweep.c (main flow, options, help),
 * sweep_task.c (axes, task ids, seeding, rows), sweep_run.c (MPI scheduling, forked tasks, time limits),
 * sweep_ledger.c (run directory, ledger, resume, merge, meta.json). Drivers include sweep.h only. */
#ifndef CB_SWEEP_IMPL_H
#define CB_SWEEP_IMPL_H

#include "run_files.h"
#include "sweep.h"

#include <mpi.h>
#include <stdio.h>

struct sweep_axis_values {
  int n;
  char **v; /* n values as strings */
};

struct sweep {
  const struct sweep_driver *d;
  void *ctx;
  MPI_Comm comm;
  int rank, size;
  char host[256];
  /* axes */
  struct sweep_axis_values *ax; /* d->n_axes */
  long total;                   /* number of tasks in the full product */
  /* engine options */
  char out[SWEEP_PATH_MAX];
  char ledger_path[SWEEP_PATH_MAX];
  char slice_tag[64]; /* "" or "K-of-N" */
  int resume, rerun_failed, quiet, use_fork, plots, dry_run;
  int task_batch;        /* tasks one forked child runs before it is replaced by a fresh one (-task_batch) */
  long task_lo, task_hi; /* -tasks i:j (half-open), default 0:total */
  long slice_k, slice_n; /* -slice K/N: ids with id % N == K */
  unsigned long base_seed;
  double time_limit;
  char trace_dir[OPTION_STRING_MAX], dump_dir[OPTION_STRING_MAX]; /* time-stepping drivers */
  struct sweep_capture capture;                                   /* time-stepping drivers: -cp_capture ... */
  char *options;   /* canonical option string (the fingerprint) */
  char *argv_line; /* the full command line, for meta.json */
  /* the work list (rank 0): ids still to run, costliest first */
  long *todo;
  long n_todo, n_selected;
  /* tallies (rank 0) */
  long n_done, n_failed;
  double task_seconds_sum, task_seconds_max;
  double t_start, t_end;
  char start_iso[32], end_iso[32];
  FILE *ledger;
  /* rank 0: the advisory lock on this run's ledger (ledger*.lock next to it), held for the whole run; -1 */
  int lock_fd;
  int ledger_failed; /* rank 0: a ledger write failed; the run stops and claims nothing more */
};

/* sweep_task.c */
int sweep_axes_parse(struct sweep *s);
/* sweep_options.c: the engine's options into s (nonzero after a message), the unused-option check (nonzero
 * when any option was not read; rank 0 names each), and -help for this run. */
int sweep_parse_engine(struct sweep *s);
int sweep_check_unused(const struct sweep *s);
void sweep_print_help(const struct sweep *s);
void sweep_axes_free(struct sweep *s);
/* Reads the own options of every formulation and solver the axes name, once, before any task (after the
 * driver's setup, which may set defaults of its own): a bad value stops the run, and PETSc marks them
 * used, so that only options nobody reads are left for check_unused. Nonzero on bad input. */
int sweep_check_method_options(const struct sweep *s);
void sweep_task_values(const struct sweep *s, long id, const char **values);
/* Runs task id in this process (the fork child or -task_fork 0); returns a malloc'd ledger fragment
 * "status,col1,...,colN" or NULL on an internal error. */
char *sweep_task_execute(const struct sweep *s, long id);
/* The ledger line of a task (without newline), malloc'd: id, axes, fragment (or status + empty columns
 * when fragment is NULL and status is given), task_seconds, rank, host. */
char *sweep_ledger_line(const struct sweep *s, long id, const char *fragment, const char *status,
                        double seconds);
char *sweep_header_line(const struct sweep *s);
int sweep_axis_is_instance(const struct sweep_axis *a);
unsigned long sweep_instance_seed(const struct sweep *s, const char *const *values);

/* sweep_run.c */
/* Nonzero when the run was stopped: a ledger write failed (rank 0; the message is printed). */
int sweep_run(struct sweep *s);
/* Called before MPI_Init: remembers the launcher (mpirun, slurmstepd) so that every rank stops when it
 * dies instead of running on as an orphan. */
void sweep_launcher_note(void);

/* sweep_ledger.c */
int sweep_check_run_dir(const struct sweep *s); /* read-only: experiment/options clash -> 2 */
int sweep_prepare_run_dir(struct sweep *s);     /* rank 0: dir, refusal rules, experiment.txt, ledger, todo */
/* The work list: selected ids (-tasks, -slice) not marked in done, costliest first. */
int sweep_build_todo(struct sweep *s, const char *done);
int sweep_ledger_append(struct sweep *s, const char *line);
int sweep_write_meta(struct sweep *s, int finished); /* sweep_meta.c */
void sweep_progress(struct sweep *s, int final);

#endif
