/* spread.h — how far a baseline's trajectory outcomes move under a change that alters nothing physical
 * (sweep.h: -perturb_initial), measured per task and stored beside the baseline as spread.csv:
 *   task_id, runs (perturbed runs behind the row), status_flips (how many of them ended with another status
 *   than the baseline's task), then one column per outcome (each metric and count that is not a per-step
 *   quantity): max over the perturbed runs of |perturbed - baseline| over the runs where both succeeded
 *   (empty: none did).
 * bench/regress -baseline writes it (bin/bench_spread); bench_compare reads it (compare.h). */
#ifndef CB_SPREAD_H
#define CB_SPREAD_H

#include "rundir.h"

struct spread {
  struct table *t; /* spread.csv as read */
  int id_col, runs_col, flips_col;
  long *id; /* the rows' task ids, ascending (spread_read checks), for a binary search */
};

/* The columns of r that are trajectory outcomes: its metrics and counts not listed under per_step. */
int spread_is_outcome(const struct rundir *r, const char *name);
/* Writes nominal->dir/spread.csv from the nominal run and n perturbed runs of the same sweep (the same
 * experiment and task ids). 0, or 2 with a message. */
int spread_write(const struct rundir *nominal, struct rundir *const *perturbed, int n, double perturb);
/* Reads dir/spread.csv into *sp: 0; 1 when there is none (*sp NULL, no message: the baseline measured no
 * spread); 2 with a message when it is unreadable or lacks its columns. */
int spread_read(const char *dir, struct spread **sp);
void spread_destroy(struct spread **sp);
/* The spread of column name for the task whose task_id is id: NAN when not measured (no row, no column, or
 * no perturbed run that succeeded). */
double spread_of(const struct spread *sp, const char *id, const char *name);
/* How many perturbed runs of task id ended with another status than the baseline (0 when not measured). */
int spread_status_flips(const struct spread *sp, const char *id);

#endif
