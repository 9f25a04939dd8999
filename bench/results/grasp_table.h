/* grasp_table.h — a bench_grasp run's tasks.csv as the grasp tools read it (bench_grasp_map's cells,
 * bench_grasp_pair's trial-by-trial pairing): the columns they need, and the group a trial belongs to —
 * friction range / formulation / solver, then /name=value for each sensitivity axis (friction_support,
 * friction_gripper, close_force, or any axis a later driver adds) that the run varies or sets off its
 * default, so that a run of the defaults keeps the groups (and map file names) of the runs made before those
 * axes existed. */
#ifndef CB_GRASP_TABLE_H
#define CB_GRASP_TABLE_H

#include "table.h"

#include <stddef.h>

/* The outcomes of a trial (bench_grasp's outcome column), the success first; an index past them is any
 * other status (the engine's: time_limit, crashed, error). */
#define GRASP_OUTCOMES 6
extern const char *const grasp_outcomes[GRASP_OUTCOMES];
/* the success's index: the fingers hold the outer edges of the outer-most teeth */
#define GRASP_SUCCESS 0
/* name's index in grasp_outcomes, GRASP_OUTCOMES when it is none of them */
int grasp_outcome_index(const char *name);

/* A group's text: "medium/geometric_implicit/fb_newton/close_force=2" fits easily. */
#define GRASP_GROUP_MAX 224

struct grasp_table {
  struct table_stream ts;
  int friction, formulation, solver, x, y, seed, status, outcome; /* column indices */
  int n_axes;    /* the axis columns: 1 .. n_axes (after task_id, before status) */
  int *in_group; /* per axis column: named in the group */
};

/* Opens the tasks table at path, checks its columns and finds the axes that name groups (a first pass over
 * the rows): 0; 1 when the file does not exist (no message); 2 after a message naming it (who: the
 * program's name, the message's first word). */
int grasp_table_open(struct grasp_table *g, const char *path, const char *who);
void grasp_table_close(struct grasp_table *g);

/* The current row's group (g->ts.field) into out. */
void grasp_table_group(const struct grasp_table *g, char *out, size_t len);

/* A group without its formulation and solver (friction range and sensitivity axes): what runs of different
 * methods compare on. */
void grasp_group_key(const char *group, char *key, size_t len);

/* A field as a number (table_number's rule): NAN when empty or not a number. */
double grasp_number(const char *s);

/* A cell's key in hash maps: the group (or group key) and (x, y), equal numbers (0 and -0 too) alike. */
void grasp_cell_key(char *key, size_t len, const char *group, double x, double y);

#endif
