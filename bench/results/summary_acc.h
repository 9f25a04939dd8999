/* summary_acc.h — tasks.csv read a row at a time into what summary.csv and summary.md need (summary.c): per
 * group (the "group" keys; groups in order of first appearance, keys equal as rundir_group compares them)
 * the row counts by outcome, each metric's and cost's exact median and quartiles over the successful rows
 * (a share metric's share) and each cost's total over every row (cellstats.h: the values through an
 * external sort); and the failures by status.
 * Memory: the groups' keys and numbers and the sort's budget, never the table nor its values. */
#ifndef CB_SUMMARY_ACC_H
#define CB_SUMMARY_ACC_H

#include "cellstats.h"
#include "rundir.h"
#include "strmap.h"

#define SUMMARY_STATUSES 32 /* distinct failure statuses listed in summary.md */

struct summary_group {
  char **key; /* the key values of the group's first row, as written */
  int count, applicable, successes;
};

struct summary_acc {
  int n_keys, n_metrics, n_costs;
  int *key_col, *val_col, status_col; /* val_col: the metrics' columns, then the costs' */
  int n, cap;                         /* groups */
  struct summary_group *g;
  /* per group: columns metrics (CELLSTATS_QUARTILES, a share metric CELLSTATS_SHARE), costs (QUARTILES:
   * the median), costs again (CELLSTATS_TOTAL: the total over every row) */
  struct cellstats st;
  double *v;                /* a row's values in those columns */
  struct strmap raw, canon; /* key text as written -> group; canonical key -> group */
  long nrow;
  int nfail, nna, ncorrupt, ndistinct;
  char *distinct[SUMMARY_STATUSES]; /* failure statuses, in order of first appearance */
  int tally[SUMMARY_STATUSES];
};

/* Reads r's tasks.csv (r from rundir_read_header: its columns, no rows) into a. 0, or 2 with a message. */
int summary_acc_read(const struct rundir *r, struct summary_acc *a);
void summary_acc_free(struct summary_acc *a);

#endif
