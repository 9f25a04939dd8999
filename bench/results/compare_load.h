/* compare_load.h — the tables of bench_compare read a row at a time (compare.c judges what this file
 * gathers): each run's tasks.csv is streamed once, checked (duplicate task ids and axis values, metric and
 * cost cells that are no number: the checks of compare_check_table), -map applied, its rows grouped (the
 * group keys' canonical form; groups in order of first appearance) and written, one line per row, to an
 * external sort (extsort.h) by group, pairing key (the axes that are no group key) and row, so that a
 * group's rows come back together and the two runs' rows of a group meet in key order.
 * The baseline's spread.csv (spread.h), when given, is joined onto its rows as they stream by (ascending
 * task ids) and travels in their sorted lines.
 * Memory: the groups' keys and sizes and the sort's budget; compare.c holds a group pair it judges only
 * below its budget and streams larger ones (compare_rows_join): never the tables. */
#ifndef CB_COMPARE_LOAD_H
#define CB_COMPARE_LOAD_H

#include "compare.h"

#include <stdio.h>

/* One run's side of a comparison. */
struct compare_side {
  const struct rundir *r;
  int n_keys, n_pair, nv;
  int *key_col, *pair_col, *val_col; /* group keys, pairing axes, compared columns (the new run's roles) */
  int id_col;
  int has_spread; /* the lines carry the spread of each compared column (the baseline's spread.csv) */
  int n_groups, cap_groups;
  char **key;   /* n_groups * n_keys: each group's key values as its first row holds them (after -map) */
  long *size;   /* rows per group */
  long *offset; /* where each group's lines start in sorted */
  FILE *sorted; /* the rows, a line each, by (group, pairing key, row) (unlinked temporary file) */
};

/* -map as the loader applies it: active[k * n_keys + c] when the new run holds from[k] in group column c
 * (after the maps before it), which renames it there, drops the new run's rows of to[k] and the baseline's
 * rows of from[k] in that column; drop_new / drop_base count those rows per (k, c). */
struct compare_maps {
  int n, n_keys;
  char *const *from, *const *to;
  unsigned char *active;
  long *drop_new, *drop_base;
};

/* Which maps act where (a pass over the new run per map and group column). 0; 2 with a message when a from
 * value is in no group column. */
int compare_maps_make(const struct rundir *n, const struct compare_options *o, struct compare_maps *m);
void compare_maps_free(struct compare_maps *m);

/* Streams r's tasks.csv into s: side 0 baseline, 1 new; the compared columns are roles' metrics then costs,
 * the pairing axes pair's axes that are no group key and are in both tables (other); sp (NULL: none) the
 * spread joined onto the rows by task id. 0, or 2 with a message (a corrupt table, a write error, task ids
 * that the spread's join finds descending). */
int compare_load(struct compare_side *s, const struct rundir *r, int side, const struct rundir *roles,
                 const struct rundir *pair, const struct rundir *other, const struct compare_maps *m,
                 struct spread *sp, size_t sort_bytes);
void compare_side_free(struct compare_side *s);

/* One row of a group as the join reads it: data row, outcome (1 success, 0 failure, -1 not applicable),
 * status (index into compare_status_name), its nv values (NAN when none) and, on a side with a spread, the
 * status flips of its perturbed runs and each value's spread (NAN: not measured; spread NULL otherwise). */
struct compare_task {
  int row;
  signed char outcome;
  int status, flips;
  const double *v, *spread;
};
/* Called per row of the join: a baseline row and its paired new row, or one of them alone (the other NULL).
 * 0 to go on; non-zero stops the join (an error). */
typedef int (*compare_visit)(void *ctx, const struct compare_task *b, const struct compare_task *n);
/* Reads baseline group g (of b) and new group m (of n) in pairing-key order and pairs their rows by pairing
 * key (each baseline row, in table order, with the first unpaired new row of its key in table order),
 * calling visit per row or pair: the group's rows pass by, none is held. 0, or 2 with a message. */
int compare_rows_join(const struct compare_side *b, int g, const struct compare_side *n, int m,
                      compare_visit visit, void *ctx);

/* A group's rows held (compare_rows_read): the fields of compare_task per row, the paired row of the other
 * run (-1 none); s and flips only on a side with a spread. Rows of a group are counted in int. */
struct compare_rows {
  long n, cap;
  int nv;
  int *row;
  signed char *outcome;
  int *status;
  double *v;
  int *partner;
  double *s; /* nv per row */
  int *flips;
};
/* compare_rows_join into rb and rn. 0, or 2 with a message. */
int compare_rows_read(const struct compare_side *b, int g, const struct compare_side *n, int m,
                      struct compare_rows *rb, struct compare_rows *rn);
void compare_rows_free(struct compare_rows *r);
/* The text of status index k (statuses are interned as the rows are read). */
const char *compare_status_name(int k);
void compare_status_reset(void);

/* 1 when the two fields are equal as text or as numbers (how group keys match between runs). */
int compare_fields_equal(const char *a, const char *b);

#endif
