/* sweep_observers.h — the standard observers of a task's run (design.md contract 6): a per-step trace
 * (-trace DIR) and dumps of failed problems (-cp_dump_failed DIR), read here in the bench layer so the
 * stepper reads no options and writes no files. A driver builds its physics observers (observers.h),
 * then calls sweep_observers_standard once; the trace takes the columns of the observers before it. */
#ifndef CB_SWEEP_OBSERVERS_H
#define CB_SWEEP_OBSERVERS_H

#include "observers.h"
#include "sweep.h"

/* For a driver's .help. */
#define SWEEP_OBSERVERS_HELP                                                                                 \
  "  -trace DIR           per-step CSV per task: DIR/EXPERIMENT_taskID.csv (existing directory): step, t,\n" \
  "                       status, contacts, rows, iterations, fp_iterations, residual, solve_seconds,\n"     \
  "                       step_seconds, energy, max_penetration, then the experiment's own columns\n"        \
  "  -cp_dump_failed DIR  the first 5 failed problems of a task as plain files replayable by cpsolve:\n"     \
  "                       DIR/EXPERIMENT_taskID_stepK.txt\n"

/* The trace columns every trace starts with (the experiment's observers' columns follow). */
#define SWEEP_TRACE_COLUMNS                                                                                  \
  "step,t,status,contacts,rows,iterations,fp_iterations,residual,solve_seconds,step_seconds,energy,"         \
  "max_penetration"

/* Appends to obs[*n ..] (cap entries in all) the observers the options ask for: the trace of task (its
 * columns: SWEEP_TRACE_COLUMNS, then those of obs[0 .. *n) in order) and the failed-problem dump. 0 on
 * success; 1 when there is no room or no memory (a message says so). Release with run_observers_destroy. */
int sweep_observers_standard(const struct sweep_task *task, struct run_observer *obs, int *n, int cap);

#endif
