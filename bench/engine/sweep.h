/* sweep.h — the sweep engine every driver runs on (design.md contracts 7-10).
 * A driver declares its axes (each an option taking a comma-separated list, e.g. -h 1e-3,2e-3), its result
 * columns and run(task) -> row; sweep_main does the rest: options and -help, the task list (the cartesian
 * product of the axes; task ids are stable: the LAST axis varies fastest, independent of the number of
 * ranks), a per-task GSL RNG seeded from (-seed BASE, task id) alone, dynamic self-scheduling over MPI in
 * shrinking chunks (sweep_schedule.h)
 * (rank 0 dispatches and keeps the ledger while its own tasks run; costliest tasks first when the driver
 * gives a cost estimate), each task in a forked child with a wall-time limit (a hung or crashing task is a
 * recorded status, never the end of the sweep), the ledger (each finished row written and flushed at
 * once: the checkpoint behind -resume and -rerun_failed), progress with rate and ETA, and at the end
 * tasks.csv, summary.csv/.md, meta.json and plots in the run directory.
 *
 * Run directory (results/<experiment>/<run>/, or the driver's results_dir instead of <experiment>, or
 * -out DIR):
 *   ledger.csv (ledger.K-of-N.csv for -slice K/N)  finished rows in completion order; a damaged last line
 *                    (torn, with or without a newline) is set aside on resume into ledger.csv.damaged and its
 *                    task redone; for a repeated task id the last row wins
 *   ledger.lock (ledger.K-of-N.lock)  flock'd by rank 0 for the whole run (host and pid inside): a second
 *                    run on the same ledger is refused (exit 2); slices lock only their own ledger
 *   tasks.csv        task_id, the axis columns, status, the driver's columns, task_seconds, rank, host;
 *                    one row per task, sorted by id. Only *_seconds, rank and host differ between ranks.
 *   experiment.txt   what aggregation, plots and bench_compare need ("key value" lines: experiment, title,
 *                    axes, group, metrics, higher_better (the metrics of role SWEEP_METRIC_HIGHER), costs,
 *                    info, plot_x, series, log_x, options, units: a list of name=unit for the axes and
 *                    columns whose help ends in "[unit]", floors: name=value for the columns with a
 *                    noise floor, counts: the costs that are deterministic counts)
 *   summary.csv/.md  per group (rundir.h, summary.c): count, applicable, successes, success_rate, each
 *                    metric's median/q1/q3 over successful rows, each cost's median (successful rows) and
 *                    total (all rows); empty field = no value.
 *   plots/           gnuplot scripts, data, PNG and SVG (plot.c): each metric and cost vs plot_x per
 *                    series, success rates, performance profiles for solver benchmarks
 *   meta.json        git sha + dirty flag, host, ranks, PETSc/GSL/MPI versions, options, start/end, wall,
 *                    parallel efficiency
 * Status: the driver sets one per row; "ok" and "converged" are successes, "not_applicable" rows are left
 * out of success rates; the engine itself records "time_limit" (over -task_time_limit), "crashed" (the
 * task died by a signal), "error" (run returned nonzero or the row could not be produced) and
 * "interrupted" (SIGINT or SIGTERM, or a failed write, stopped the run while the task ran: no result, left
 * out of tasks.csv, and -resume redoes it). A file of the run that cannot be written stops the run with exit
 * 1; SIGINT / SIGTERM with 130 / 143.
 */
#ifndef CB_SWEEP_H
#define CB_SWEEP_H

#include "option_table.h"
#include "results.h"
#include "world.h"

#include <gsl/gsl_rng.h>

/* SWEEP_OPTION: the axis is a declared formulation or solver option (its name is the option's, without the
 * '-': "stewart_trinkle_detection", "lemke_block"); each task's options object gets the task's value, and the
 * values are checked against the declaring table's type, range and choices. Any such option given as a
 * comma list on the command line or in an options file becomes an axis of this kind by itself, after the
 * driver's axes; a driver declares one only to place it (and give it a default list). */
enum sweep_axis_kind { SWEEP_REAL, SWEEP_INT, SWEEP_STRING, SWEEP_FORMULATION, SWEEP_SOLVER, SWEEP_OPTION };

/* What an axis says about a task (design.md, "Three plug-in axes"): an INSTANCE axis fixes what is
 * simulated or solved (scene, size, seed, problem class) and takes part in the task's seed; a METHOD axis
 * says how (formulation, solver, time step, their options) and does not, so every method of a sweep sees
 * the same instances. */
enum sweep_axis_role { SWEEP_METHOD = 0, SWEEP_INSTANCE = 1 };

struct sweep_axis {
  const char *name;          /* the CSV column; the option is -name unless option is set */
  const char *option;        /* NULL: "-" name. The solver axis is {"solver", "-cp_solver", ...} */
  enum sweep_axis_kind kind; /* FORMULATION / SOLVER values are checked against their registries */
  const char *def;           /* default list, e.g. "1e-3,2e-3" */
  const char *help;          /* one line for -help */
  int not_grouped;           /* 1: not a summary group key (repeats such as seeds are aggregated over) */
  enum sweep_axis_role role; /* SWEEP_METHOD unless set; the seeds axis is always an instance axis */
  /* REAL / INT axes: the interval every value must lie in, as in option_table.h ("(0,inf)", "[2,3]"; NULL =
   * any number). Checked with the axis, before any task: an h of 0 would otherwise run every task to its
   * time limit or fail deep in a solver. Last, so that initialisers without it stay valid. */
  const char *range;
};

/* A "seeds" axis is special: -seeds N (default from def, a single integer) expands to the values
 * 0..N-1 (N - 1 must lie in its range when one is given), it is never a group key, and it is an instance
 * axis. Only a driver with a seeds axis takes
 * -seeds and -seed BASE (elsewhere they are unused options, hence errors). */
#define SWEEP_SEEDS_AXIS "seed"

enum sweep_column_role {
  SWEEP_METRIC,        /* accuracy metric, lower is better (errors, residuals): median/quartiles in summaries,
                          checked by bench_compare */
  SWEEP_COST,          /* cost (name ends in _seconds for times): median and total, ratio-tested by compare */
  SWEEP_INFO,          /* reported in tasks.csv only (text or numbers) */
  SWEEP_METRIC_HIGHER, /* accuracy metric, higher is better (pass flags, kept speed): as SWEEP_METRIC, and
                          listed under "higher_better" so that bench_compare reads a fall as the regression */
};

struct sweep_column {
  const char *name;
  enum sweep_column_role role;
  const char *help; /* with units */
  /* Noise floor of a metric (absolute, in the column's unit; 0 = none): bench_compare never calls a change
   * between two values both at or under it a verdict (residuals under the solve tolerance, overlaps of
   * round-off size). Written to experiment.txt as "floors name=value,...". */
  double floor;
  /* 1 for a deterministic count with role SWEEP_COST (iterations, pivots, rows): bench_compare judges it by
   * its ratio alone, as cost evidence that needs no repeats. Listed under "counts" in experiment.txt (and
   * still under "costs", so summaries keep its median and total). */
  int count;
  /* What kind of quantity a metric or count is, for bench_compare (compare.h):
   * 1: a per-step quantity — a solve's residual, its iterations or pivots: its noise is the solve's, so a
   *    metric's noise floor is the run's solve tolerance -cp_tol (the engine writes max(floor, cp_tol);
   *    declared here once, for every driver), and a change beyond the floors and tolerances is a verdict;
   * 0: a trajectory outcome — final or mean errors, overlaps, energies, trap counts, rows or steps over a
   *    run: rounding changes move it as far as the trajectory is chaotic, so bench_compare judges it
   *    against the spread the baseline measured under -perturb_initial (bench/regress -baseline) and with
   *    a paired test over the instances. Listed under "per_step" in experiment.txt. */
  int per_step;
  /* 1 for a metric whose value is 0 or 1 per task (the experiment's success, an outcome class): summaries
   * and plots show the share of tasks with 1 among those that ran and its Wilson 95 % interval (share.h)
   * instead of a median and quartiles, which of a 0/1 column say nothing. Listed under "shares" in
   * experiment.txt. */
  int share;
};

struct sweep_driver;

/* -cp_capture FILE (this rank's file; "" = off), -cp_capture_every K, -cp_capture_step S, -cp_capture_failed,
 * -cp_capture_max N: the standard observer appends the steps' problems to an HDF5 corpus (corpus.h). */
struct sweep_capture {
  char path[OPTION_STRING_MAX];
  int every, failed_only;
  long step; /* > 0: only this step of each task (every is then not used) */
  long max;
  char git_sha[64]; /* the build's commit, "+dirty" when its tracked files differed (build_info.h) */
};

struct sweep_task {
  const struct sweep_driver *driver;
  long id;
  int n_axes;
  const char *const *value; /* the axis values as given (strings), in axis order */
  /* splitmix64 of the base seed (-seed) and the values of the instance axes: the same for every method
   * (formulation, solver, h, ...) of one instance, and independent of the number of ranks and of the
   * task's position in the sweep. rng is a GSL mt19937 seeded with it. */
  unsigned long instance_seed;
  gsl_rng *rng;
  double time_limit; /* seconds, 0 = none (the engine enforces it; long loops may also check) */
  /* A driver that declares a real option "t_end" and a real axis "h" steps in time: steps is
   * run_step_count(t_end, the task's h), the one count its run takes. The engine checks it for every h
   * before any task, so an impossible count (t_end shorter than h, more than RUN_STEPS_MAX) is refused at
   * the option (exit 2). Such a driver may also declare an int option "steps" (default 0: not given):
   * -steps N then replaces t_end / h for every task, checked by the same rule (run_steps_refused: 0 or more
   * than RUN_STEPS_MAX refused at -steps, exit 2). 0 for other drivers. */
  long steps;
  /* Time-stepping drivers (.steps_observed): -trace DIR and -cp_dump_failed DIR, read by the engine before
   * any task ("" = off); sweep_observers_standard turns them into observers. */
  const char *trace_dir, *dump_dir;
  /* The task's row, for the standard observers' columns (sweep_observers.h); set by the engine. */
  struct sweep_row *row;
  const struct sweep_capture *capture; /* NULL or path "": no capture */
  /* The task's own options object: the run's options (command line, options files) with the task's values
   * of the option axes (SWEEP_OPTION) and the driver's option_defaults; what simulation_open, the
   * formulations, solvers and scenes of this task read. Made by the engine for each task, destroyed after. */
  PetscOptions options;
};

struct sweep_row;
struct trace_plot;

struct sweep_driver {
  const char *experiment; /* results/<experiment>/...; [a-z0-9_] */
  const char *title;      /* one line: what and which paper/figure */
  const char *help;       /* notes printed by -help under the driver's options (statuses, ...); may be NULL */
  /* The driver's own options (not axes), declared (option_table.h; full names without '-'); read by the
   * engine before setup into the settings struct the driver's setup gets. */
  const struct option_decl *options;
  int n_options;
  /* 1 for a time-stepping driver that attaches the standard observers (sweep_observers.h): the engine
   * then takes -trace DIR and -cp_dump_failed DIR (elsewhere they are unused options, hence errors). */
  int steps_observed;
  const struct sweep_axis *axes;
  int n_axes;
  const struct sweep_column *columns;
  int n_columns;
  const char *plot_x; /* axis on the x of the plots (NULL: "h" when there is such an axis) */
  const char *series; /* comma-separated axes whose values make a plot's series (NULL: formulation,solver
                         where present) */
  /* Formulation and solver options this experiment sets unless the run gives them ("-nc_gamma 100
   * -nc_epsilon 0.02": the paper's values): they go into every task's options object. NULL: none. */
  const char *option_defaults;
  /* Formulation and solver options the experiment sets itself, because its metrics assume them (the
   * paper's friction ellipsoid): in every task's object; a run that gives one another value (or an axis)
   * is refused, naming both. NULL: none. */
  const char *option_fixed;
  /* The driver's settings struct (its options' offsets point into it; 0: none). The engine allocates it
   * zeroed on every rank, reads the declared options into it from the run's options (a bad value: exit 2,
   * named), and passes it as ctx to every hook; it frees it after teardown. */
  size_t settings_size;
  /* Optional: work beyond reading the options, once per rank before any task (a reference run, a file
   * opened); nonzero = bad input (exit 2, the driver prints what is wrong). options is the run's options
   * object without the option axes (what such work's formulations and solvers read). */
  int (*setup)(void *ctx, PetscOptions options);
  /* Optional: the default list of an axis whose def is NULL, from the driver's settings (called after
   * setup; the text stays valid until teardown), e.g. every problem of a corpus that the run's filters
   * keep. NULL: no default (the axis must be given). */
  const char *(*axis_default)(void *ctx, const char *axis);
  /* Optional: checks the axes' values against each other and the driver's settings, on every rank after
   * setup and before anything is written (also for -dry_run): values as for prepare (axis i in driver
   * order). Nonzero: bad input (exit 2; rank 0's driver prints what is wrong). */
  int (*check_axes)(void *ctx, const int *n_values, char *const *const *values);
  /* Optional: the run's title when it depends on the axes' values (called after check_axes; NULL keeps
   * .title), e.g. bench_solvers' over the problem families the run holds: meta.json, experiment.txt, the
   * summary's heading and the plots' titles take it. */
  const char *(*run_title)(void *ctx);
  /* Optional: called on every rank after setup, once the run directory is ready and before any task (not
   * for -help or -dry_run), with the axes' values as given (axis i in driver order: n_values[i] strings
   * values[i][0..]; the seeds axis expanded to 0..N-1): work that many tasks share and only the selected
   * values need, such as a reference solution per instance. Nonzero: the run stops (exit 1; the driver
   * prints why). */
  int (*prepare)(void *ctx, const int *n_values, char *const *const *values);
  /* Optional: relative cost estimate of a task; the engine hands out the costliest first. */
  double (*cost)(const struct sweep_task *t, void *ctx);
  /* Runs one task and fills the row (sweep_row_*). Returns 0 when the row is filled (whatever its status),
   * nonzero on an internal error (the engine records status "error"). Runs in a forked child. */
  int (*run)(const struct sweep_task *t, void *ctx, struct sweep_row *row);
  void (*teardown)(void *ctx); /* optional: frees what setup allocated inside the settings */
  /* Optional, time-stepping drivers: plots of each task's -trace table (plot_trace.h), drawn by rank 0 after
   * the sweep (unless -no_plots) for every task of the run that left one: DIR/EXPERIMENT_taskID_NAME.png. */
  const struct trace_plot *trace_plots;
  int n_trace_plots;
  /* Optional: the folder under results/ that holds the runs made without -out (and their latest link); NULL:
   * the experiment's name. For an experiment whose results/<experiment>/ holds committed data. */
  const char *results_dir;
};

/* The whole program: PetscInitialize, options, the sweep, aggregation, PetscFinalize. Returns the exit
 * status for main: 0 the sweep completed (task failures are data, not errors), 1 an infrastructure
 * failure (a file of the run could not be written), 2 bad input or usage, 130 / 143 SIGINT / SIGTERM
 * stopped it (128 + the signal, as a shell reports a program the signal ended). */
int sweep_main(const struct sweep_driver *d, int argc, char **argv);
/* The task's world, built through the scene registry (scene.h) from a spec made like printf
 * ("incline_3d:theta=%.17g:mu=%.17g"): the scene's declared options from the task's options object, the
 * spec's inline values winning; a random scene draws from the task's rng. NULL after a message on stderr. */
struct world *sweep_task_world(const struct sweep_task *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* In a task: a file the run was asked to write for it (a -trace table, a -cp_dump_failed problem) could not
 * be written (a full disk): the run stops once the task has ended, exit 1, with this message naming the
 * file; the task gets no row, so -resume runs it again. The first message of a task is kept. */
void sweep_task_write_failed(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The option that sets an axis: its .option, or "-" and its name (a static buffer of a few slots). */
const char *sweep_axis_option(const struct sweep_axis *a);

/* Is value one of axis k's values (for check_axes)? */
int sweep_values_have(const int *n_values, char *const *const *values, int k, const char *value);

/* Axis values of a task, by axis name (a name the driver did not declare is a programming error:
 * message and NAN / 0 / ""). */
double sweep_task_real(const struct sweep_task *t, const char *axis);
long sweep_task_int(const struct sweep_task *t, const char *axis);
const char *sweep_task_string(const struct sweep_task *t, const char *axis);

/* Row fields by column name. Unset columns stay empty. Text is sanitised (commas and newlines become
 * ';' and ' '). Numbers are written with 17 significant digits (%.17g), so reruns compare exactly. */
void sweep_row_status(struct sweep_row *r, const char *status);
void sweep_row_set(struct sweep_row *r, const char *column, double value);
void sweep_row_set_int(struct sweep_row *r, const char *column, long value);
void sweep_row_set_text(struct sweep_row *r, const char *column, const char *text);
/* A per-step quantity's distribution over a run: columns PREFIX_mean, PREFIX_median, PREFIX_q1, PREFIX_q3
 * (GSL's quantiles) and PREFIX_max from the n values of v, which it sorts; nothing when n is 0. */
void sweep_row_set_distribution(struct sweep_row *r, const char *prefix, double *v, size_t n);

/* Merges every ledger*.csv of run_dir into tasks.csv (sorted by id, last row of an id wins). 0 on
 * success (*n_missing, if not NULL, gets the number of tasks of the sweep with no row yet; stderr names
 * their ids and, for slice ledgers, the slices to run again); 2 when the ledgers disagree on columns or
 * there are none. */
int sweep_merge(const char *run_dir, long *n_missing);
/* After a merge (bench_merge): the run's meta.json from tasks.csv and experiment.txt — tasks present,
 * missing and failed, summed task seconds, and the slices' meta.K-of-N.json files it came from. */
int sweep_write_merged_meta(const char *run_dir);

#endif
