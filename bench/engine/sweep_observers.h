/* sweep_observers.h — the standard observers of a task's run (design.md contract 6): the physics checks
 * every time-stepping driver reports (physics_check.h: the same criteria for every formulation, Le Lidec
 * et al. 2024), a per-step trace (-trace DIR) and dumps of failed problems (-cp_dump_failed DIR), read here
 * in the bench layer so the stepper reads no options and writes no files. A driver builds its physics
 * observers (observers.h), then calls sweep_observers_standard once; the trace takes the columns of the
 * observers before it. The engine adds the checks' columns (SWEEP_STANDARD_COLUMNS) to the driver's. */
#ifndef CB_SWEEP_OBSERVERS_H
#define CB_SWEEP_OBSERVERS_H

#include "observers.h"
#include "physics_check.h"
#include "sweep.h"

/* For a driver's .help. */
#define SWEEP_OBSERVERS_HELP                                                                                 \
  "  -trace DIR           per-step CSV per task: DIR/EXPERIMENT_taskID.csv (existing directory): step, t,\n" \
  "                       status, contacts, rows, iterations, fp_iterations, residual, solve_seconds,\n"     \
  "                       step_seconds, energy, max_penetration, the experiment's own columns, then\n"       \
  "                       phys_penetration, phys_signorini, phys_coulomb, phys_dissipation,\n"               \
  "                       phys_energy_gain (the physics checks of the step)\n"                               \
  "  -cp_dump_failed DIR  the first 5 failed problems of a task as plain files replayable by cpsolve:\n"     \
  "                       DIR/EXPERIMENT_taskID_stepK.txt\n"

/* The trace columns every trace starts with (the experiment's observers' columns follow). */
#define SWEEP_TRACE_COLUMNS                                                                                  \
  "step,t,status,contacts,rows,iterations,fp_iterations,residual,solve_seconds,step_seconds,energy,"         \
  "max_penetration"

/* Appends to obs[*n ..] (cap entries in all) ONE observer: the physics checks (their max and mean over the
 * run go into the task's row, columns SWEEP_STANDARD_COLUMNS), and what the options ask for: the trace of
 * task (its columns: SWEEP_TRACE_COLUMNS, those of obs[0 .. *n) in order, then the checks') and the
 * failed-problem dump. 0 on success; 1 when there is no room or no memory (a message says so). Release with
 * run_observers_destroy. */
int sweep_observers_standard(const struct sweep_task *task, struct run_observer *obs, int *n, int cap);

/* The columns the standard observer fills in every time-stepping driver's tasks.csv: for each check of
 * physics_check.h, phys_<check>_max and phys_<check>_mean over the steps that advanced. Role info (in
 * tasks.csv, not judged by bench_compare: a baseline written before them still compares). */
extern const struct sweep_column sweep_standard_columns[];
extern const int sweep_n_standard_columns;

/* A malloc'd copy of d with sweep_standard_columns after its own columns (free() releases it); NULL when
 * out of memory. The engine runs a .steps_observed driver through it. */
struct sweep_driver *sweep_driver_with_standard_columns(const struct sweep_driver *d);

#endif
