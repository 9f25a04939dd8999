/* rundir.h — a finished run directory as aggregation, plots and bench_compare read it (sweep.h describes
 * the files): experiment.txt parsed into its lists, tasks.csv as a table (through table.h, the one CSV
 * reader), each row's outcome, and rows grouped by any list of columns.
 * Invariants: every column experiment.txt names (axes, group, metrics, costs, series, plot_x) and "status"
 * exist in tasks.csv, and every higher_better name is a metric, or rundir_read fails naming the culprit;
 * groups are numbered in order of first appearance in tasks.csv, so every output built from them has a
 * deterministic order. */
#ifndef CB_RUNDIR_H
#define CB_RUNDIR_H

#include "table.h"

struct rundir_list {
  int n;
  char **name;
};

struct rundir {
  char *dir;
  char *experiment, *title, *plot_x, *options; /* plot_x "" when the driver has none */
  struct rundir_list axes, group, metrics, costs, info, series;
  struct rundir_list higher_better; /* the metrics where higher is better (the others: lower is better) */
  struct rundir_list units;         /* "name=unit" entries */
  int log_x;
  struct table *tasks;
  int status_col;
  struct rundir_list floors; /* "name=value" noise floors of columns (absent in runs of older engines) */
  struct rundir_list counts; /* the costs that are deterministic counts (iterations, pivots, rows) */
  char *labels;              /* "name=help|name=help..." from experiment.txt ("" when absent: an older run) */
  /* the metrics and counts that are per-step quantities (sweep.h); the others are trajectory outcomes
   * (absent in runs of older engines: every column is then an outcome) */
  struct rundir_list per_step;
  struct rundir_list shares; /* the metrics that are 0/1 per task, summarised as shares (sweep.h) */
  struct rundir_list sweeps; /* "axis=v1,v2,..." from the values_<axis> lines: the values the run swept */
};

/* Reads dir/experiment.txt and dir/tasks.csv. 0 on success; 2 with a message naming the file and the
 * problem (missing file, missing key or column). */
int rundir_read(const char *dir, struct rundir **r);
/* As rundir_read, but r->tasks gets tasks.csv's columns and no rows: for a reader that streams the rows
 * (table_stream) and so holds what it keeps of them, not the table. */
int rundir_read_header(const char *dir, struct rundir **r);
/* As rundir_read, but r->tasks keeps only the columns experiment.txt gives a role (status, axes, group,
 * metrics, costs, series, plot_x): the plots of a run read no more. */
int rundir_read_roles(const char *dir, struct rundir **r);
void rundir_destroy(struct rundir **r);

/* The unit of a column or axis from the "units" key, NULL when none is declared. */
const char *rundir_unit(const struct rundir *r, const char *name);
/* The noise floor of a column from the "floors" key, 0 when none is declared. */
double rundir_floor(const struct rundir *r, const char *name);
/* "name [unit]", or just name when it has no unit, into buf. */
void rundir_label(const struct rundir *r, const char *name, char *buf, size_t n);
/* The help text of a column or axis from the "labels" key, with " [unit]" when it has one; falls back to
 * rundir_label when experiment.txt has no help for it. For axis labels and plot keys. */
void rundir_help_label(const struct rundir *r, const char *name, char *buf, size_t n);
/* 1 when value (equal as text, or as numbers) is among the values r swept on axis, or r does not say. */
int rundir_in_sweep(const struct rundir *r, const char *axis, const char *value);
/* Outcome of a row: 1 success (ok, converged), 0 failure, -1 not applicable. */
int rundir_outcome(const struct rundir *r, int row);
/* Replaces l by the comma-separated names of value (empty items skipped); 0 on success. */
int rundir_list_set(struct rundir_list *l, const char *value);
/* Index of name in list, -1 when absent. */
int rundir_list_find(const struct rundir_list *l, const char *name);

struct rundir_groups {
  int n_keys;
  int *key_col; /* table columns of the keys */
  int n;        /* number of groups */
  int *of_row;  /* group of each row */
  int *first;   /* first row of each group: its key values */
  int *start;   /* rows of group g: rows[start[g] .. start[g + 1]), in table order */
  int *rows;
};

/* Groups the rows of r->tasks by the values of the named columns (n_keys may be 0: one group). Keys are
 * compared as text, except that two fields that both parse as numbers are equal when the numbers are. */
int rundir_group(const struct rundir *r, int n_keys, char *const *keys, struct rundir_groups **g);
void rundir_groups_destroy(struct rundir_groups **g);
/* 1 when row a of table ta has the same key values (columns ca) as row b of tb (columns cb). */
int rundir_same_keys(const struct table *ta, int a, const int *ca, const struct table *tb, int b,
                     const int *cb, int n_keys);

/* A field's canonical form, as grouping compares keys: a number's %.17g (so 1e-3 and 0.001 agree), else the
 * text itself. */
void rundir_canonical(const char *s, char *buf, size_t n);
/* The finite values of column col over the rows of group grp (only successful rows when success_only),
 * sorted ascending into out (room for the group's row count); returns how many. */
int rundir_values(const struct rundir *r, const struct rundir_groups *g, int grp, int col, int success_only,
                  double *out);

#endif
