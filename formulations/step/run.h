/* run.h — the one run loop (design.md contract 6): a simulation stepped a given number of steps of size h,
 * or until a step's solve gives no answer or an observer says stop, returning ONE run summary. What an
 * experiment measures per step hangs on the loop as observers (PETSc's TSMonitorSet / TSSetPreStep): each
 * has its own context and destroy, and is called in list order.
 *
 * Run summary columns (drivers report these quantities under these names, with this meaning only):
 *   steps            steps taken: stepper calls, including a last one whose solve gave no answer
 *   failed_steps     steps whose solve did not converge (an approximate answer still advances the state)
 *   failed_at        simulated time at the START of the first failed step [s]; NAN (empty column): none
 *   completed        1 when every requested step was taken and advanced the state (the last may have
 *                    failed and still advanced, e.g. under a stop-on-failure observer)
 *   step_seconds     mean wall seconds per step, the whole step: detect + assemble + solve + recover [s]
 *   solve_seconds    mean wall seconds per step in the solver only (its own timing, summed over rounds) [s]
 *   cpu_seconds      process CPU seconds of the whole loop, observers included [s]
 *   rows_mean        mean rows (unknowns) of the complementarity problem per step
 *   rows_first       rows of the first step's problem
 *   contacts_mean    mean potential contacts per step
 *   max_penetration  largest depth -gap over every step's detected contacts (state at the step start) [m]
 *   iterations       solver iterations (pivots for pivoting methods) over all steps and rounds
 *   fp_iterations    mean assemble -> solve rounds per step (1 unless the formulation iterates)
 *   fp_iterations_max  most rounds in one step
 *   halvings         failed (half) steps taken again as two halves (the formulation's -step_halvings)
 *   cold_retries     failed (half) steps solved when taken again cold (the formulation's -step_cold_retry)
 *   fallbacks        failed steps solved when taken again whole by the fallback solver (the formulation's
 *                    -step_fallback_solver)
 *   residual_max     largest checker residual / scale over the steps
 *   energy           kinetic + potential energy at the end [J]
 *   t                simulated time at the end [s]
 * Means are over the steps taken (0 when none). */
#ifndef CB_RUN_H
#define CB_RUN_H

#include "simulation.h"

/* What an observer callback returns. */
enum run_verdict { RUN_CONTINUE = 0, RUN_STOP = 1, RUN_ERROR = -1 };

/* Why a run ended. */
enum run_end { RUN_END_COMPLETED = 0, RUN_END_NO_ANSWER, RUN_END_OBSERVER };

struct run_summary {
  long steps, failed_steps;
  double failed_at;
  int completed;
  double step_seconds, solve_seconds, cpu_seconds;
  double detect_seconds, assemble_seconds; /* means per step of those two phases (wall) */
  double rows_mean, contacts_mean;
  int rows_first;
  double max_penetration;
  long iterations;
  double fp_iterations;
  int fp_iterations_max;
  long halvings;
  long cold_retries; /* failed (half) steps solved when taken again cold (-step_cold_retry) */
  long fallbacks;    /* failed steps solved when taken again by the fallback solver (-step_fallback_solver) */
  double residual_max;
  double energy, t;
  enum solve_status first_failed_status; /* the first failed step's solve status (converged: none) */
  long first_failed_step;                /* its number, 1-based (0: none) */
  enum run_end end;
  const char *stopped_by; /* the observer that said stop (RUN_END_OBSERVER), else NULL */
};

/* The status of a run that failed a step: "not_applicable" when its first step already failed with the
 * solver's not_applicable (the solver does not take the problems this formulation makes: a pair that cannot
 * run, not a failure of either), else "solve_failed". */
const char *run_failed_status(const struct run_summary *s);

/* Callbacks may be NULL. k is the step's number, 1-based. begin and end see the whole run; before_step may
 * change the world (spawn bodies) and sees the step-start state; after_step sees the step's record with the
 * state after it (unchanged when rec->advanced is 0). Every observer's after_step is called for a step even
 * when an earlier one says stop. An observer that reports per-step values for a trace names them in
 * columns (comma-separated) and writes them, for the last step, with values (NAN: no value). */
struct run_observer {
  const char *name;
  void *ctx;
  int (*begin)(void *ctx, struct simulation *sim, double h, long steps);
  int (*before_step)(void *ctx, struct simulation *sim, long k, double h);
  int (*after_step)(void *ctx, const struct simulation *sim, long k, const struct step_record *rec);
  int (*end)(void *ctx, const struct simulation *sim, const struct run_summary *sum);
  void (*destroy)(void *ctx);
  const char *columns;
  int n_columns;
  void (*values)(void *ctx, double *v);
};

/* The most steps one run may take: per-step arrays, traces and the drivers' counters hold an int. */
#define RUN_STEPS_MAX 2147483647L

/* The number of steps of size h in t_end, the one rule of every driver: t_end / h rounded to the nearest
 * integer when it is within 1e-9 (relative) of one — 0.3 / 0.1 is 2.9999999999999996 in floating point and
 * means 3 steps — else rounded down (the last partial step is not taken). -1 when no run can have that
 * count: t_end or h not a positive finite number, t_end shorter than one step, or more than RUN_STEPS_MAX
 * steps; run_step_count_refused says which, for the option's error message. */
long run_step_count(double t_end, double h);
/* 0 when run_step_count(t_end, h) is a count; else 1 with the reason in why ("t_end 0.05 is shorter than
 * one step of h 0.1"). */
int run_step_count_refused(double t_end, double h, char *why, size_t n);
/* The same rule for a count given as such (a driver's -steps N): 0 when a run can take steps steps (1 to
 * RUN_STEPS_MAX); else 1 with the reason in why. */
int run_steps_refused(long steps, char *why, size_t n);
/* Steps sim up to `steps` steps of size h (the driver's count, run_step_count(t_end, h)) with the
 * observers, filling *out. Returns 0 when the run ended for one of the reasons of enum run_end (a failed
 * solve is data, not an error), nonzero on an internal error (a step failed outside its solve, or an
 * observer returned RUN_ERROR); *out then holds the steps taken so far. */
int simulation_run(struct simulation *sim, double h, long steps, struct run_observer *obs, int n_obs,
                   struct run_summary *out);

/* Calls each observer's destroy and zeroes the entries. */
void run_observers_destroy(struct run_observer *obs, int n_obs);

#endif
