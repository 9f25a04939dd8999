/* option_table.h — declared options (design.md, Configuration): every option of a solver, formulation,
 * scene, driver or the engine is one row of its type's table — name, type, default, range, help — and is
 * read by the one reader here, which checks the type (a whole number is a whole number: "3x" and "1e" are
 * refused), the range, and that the value is not empty. The reader goes through the PETSc options database,
 * so PETSc marks what was read; whatever nobody read is an error of the run (option_unused).
 *
 * A table row names the field it fills by offset into the owner's settings struct; the default is given as
 * text, so that -help prints exactly what the field gets. Fields: OPT_REAL double, OPT_INT int,
 * OPT_BOOL int (0/1), OPT_STRING char[OPTION_STRING_MAX], OPT_CHOICE int (index into the
 * "a|b|c" list). Ranges are interval text for REAL and INT: "[0,1]", "(0,inf)", "[1,1000000]"; NULL or
 * "" = any finite value. Messages are returned, never printed: the caller decides where they go. */
#ifndef CB_OPTION_TABLE_H
#define CB_OPTION_TABLE_H

#include <stddef.h>
#include <stdio.h>

/* PETSc's options object, declared as petscsystypes.h does (the PETSc headers bring complex.h's I along) */
typedef struct _n_PetscOptions *PetscOptions;

#define OPTION_STRING_MAX 256

enum option_type { OPT_REAL, OPT_INT, OPT_BOOL, OPT_STRING, OPT_CHOICE };

struct option_decl {
  const char *name; /* without the leading '-' and without the prefix: "pivot_tol" with prefix "lemke_" */
  enum option_type type;
  size_t offset;     /* of the field in the settings struct */
  const char *def;   /* default value as text ("" for an empty string) */
  const char *range; /* REAL / INT: "[lo,hi]" with ( ) for open ends and inf; CHOICE: "a|b|c" */
  const char *help;  /* one line; a trailing "[unit]" names the unit */
};

/* Fills obj from the defaults, then from the options object opts: -<prefix><name> for every row. opts is
 * the run's or the task's object (never NULL in production code: NULL is PETSc's global database, which
 * only program start-up fills). prefix may be NULL. 0 on success; 1 with msg naming the option, the value
 * and what is wrong. Values have no length limit short of OPTION_STRING_MAX for OPT_STRING fields. */
int option_read(const struct option_decl *d, int n, PetscOptions opts, const char *prefix, void *obj,
                char *msg, size_t len);
/* Checks text against the row (type, range, choices) without storing it: 0 good, 1 with msg. */
int option_check_value(const struct option_decl *o, const char *full, const char *text, char *msg,
                       size_t len);
/* Only the defaults (no database): for objects made outside a run, e.g. in tests. 0 on success. */
int option_defaults(const struct option_decl *d, int n, void *obj, char *msg, size_t len);
/* One line per row: "  -prefixname <type>  help (default D; range R)". */
void option_print(FILE *out, const struct option_decl *d, int n, const char *prefix);

/* Strict number parsing (shared with the sweep axes and the tools): the whole text must be the number,
 * finite, no trailing characters. 0 on success. */
int option_parse_real(const char *text, double *x);
int option_parse_int(const char *text, long *x);
/* Is x inside the interval text r ("[lo,hi]", "(0,inf)", NULL = any)? 1 yes, 0 no, -1 malformed range. */
int option_in_range(const char *r, double x);

/* The typed setters' common part (solver_set_option, formulation_set_option): option (with or without '-')
 * takes value in *own (an options object of the owner's, created on first use) and reread(obj, *own) reads
 * them all again; an option the reread left unread, or a value it refuses, restores the earlier value (or
 * its absence) and the settings, and returns 1 with msg naming owner ("solver lemke"). */
int option_set_kept(PetscOptions *own, const char *option, const char *value,
                    int (*reread)(void *obj, PetscOptions o, char *msg, size_t len), void *obj,
                    const char *owner, char *msg, size_t len);
/* The options set in opts that nothing has read so far, i.e. that the run does not use. Returns their
 * number (0: none); names[i] / values[i] are malloc'd copies, freed by option_unused_free. PETSc's own
 * bookkeeping options (-options_file, -options_left, -help ...) are left out. -1 on failure. */
int option_unused(PetscOptions opts, char ***names, char ***values);
void option_unused_free(int n, char **names, char **values);
/* The candidate closest to name by edit distance (NULL when none is close: at most a third of the
 * length, at least 2 edits allowed). */
const char *option_nearest(const char *name, const char *const *candidates, int n);

#endif
