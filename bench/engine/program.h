/* program.h — start-up of every program: the command line, options files and PETSC_OPTIONS are read and
 * checked here before PETSc sees anything, then MPI and PETSc start, and the program gets the run's
 * options as an explicit PETSc options object. PETSc's global database (what PETSc reads when given NULL)
 * is filled only by PetscInitialize, from a command line rebuilt from the same checked pairs plus
 * -skip_petscrc, with PETSC_OPTIONS unset: PETSc reads nothing by itself, and its runtime options
 * (-log_view, -malloc_debug, -info) still work. program_args.c reads (pure, no MPI, unit-tested),
 * program.c starts and stops. */
#ifndef CB_PROGRAM_H
#define CB_PROGRAM_H

#include "option_table.h"

#include <stddef.h>

/* An options file larger than this is refused before it is read. */
#define PROGRAM_OPTIONS_FILE_MAX (16u * 1024u * 1024u)

/* What a program takes besides options. Words are read as PETSc does: a word is an option name when it is
 * '-' (or "--") followed by a letter and is not a number ("-1e-3" and "-inf" are values); an option takes at
 * most ONE value, the next word when that is not an option name (a list is one word: -theta 10,30). */
struct program_spec {
  const char *name;  /* for messages and help: "cpsolve" */
  const char *usage; /* what follows the name in a usage line: "BASELINE_DIR NEW_DIR [options]" */
  /* bare words (not options, not an option's value) the program takes, e.g. bench_compare 2..2; words
   * beyond positional_max are errors; fewer than positional_min too, unless help is asked */
  int positional_min, positional_max;
  /* NULL-terminated: options that never take a value ("-no_plots"), so that the word after them is a
   * positional word (bench_plot RUN_DIR -no_plots RUN_DIR2 would otherwise give -no_plots a value) */
  const char *const *flags;
  /* NULL-terminated: options whose value is every following bare word (cpsolve's -f a.txt b.txt; in a file,
   * up to the end of the line). Their words come back through program_list; they are not put in the
   * options object nor given to PETSc. */
  const char *const *lists;
  /* "-h" followed by a bare word is the option -h (a driver's time-step axis, "-h 1e-3,2e-3"); a "-h" with
   * no such word is help. When 0, "-h" is always help (a flag). */
  int h_is_time_step;
  /* 1: a serial tool that uses neither MPI nor PETSc's solvers (bench_plot, bench_merge): neither is started,
   * so that it runs where MPI cannot (no launcher, no rsh agent); its options are still an options object.
   * PETSc's runtime options (-log_view, ...) are then unused options like any other, and "-help petsc"
   * prints the tool's help alone. */
  int no_mpi;
};

/* One option as the sources left it (after precedence): name as first written ("-theta"), value (NULL:
 * none; list options: NULL and the words) and where the value in force came from ("command line",
 * "PETSC_OPTIONS", "FILE:LINE"). */
struct program_pair {
  char *name, *value, *where;
  int n_words;
  char **words;
};

/* What the reader makes of the sources. notes: "-seeds 3 (command line) replaces -seeds 10 (x.opts:4)",
 * one per replaced value, in the order the sources were read. */
struct program_args {
  int help;       /* -help, --help, or -h as help (see h_is_time_step) */
  int help_petsc; /* -help petsc / --help petsc: PETSc prints its own options as well (help is set too) */
  int n_pairs;
  struct program_pair *pairs;
  int n_positional;
  char **positional;
  int n_notes;
  char **notes;
};

/* The sources besides the command line (program_start fills them from the environment; tests by hand). */
struct program_sources {
  const char *petsc_options;        /* PETSC_OPTIONS (NULL: unset) */
  const char *petsc_options_yaml;   /* PETSC_OPTIONS_YAML: refused when set and not empty */
  const char *const *default_files; /* NULL-terminated; each read when it exists, unless -skip_petscrc */
};

/* Reads the sources, lowest precedence first: the default files (~/.petscrc, ./.petscrc, ./petscrc) <
 * PETSC_OPTIONS < the options files of the command line in their order < the command line's own words. An
 * options file (-options_file F on the command line, in PETSC_OPTIONS or in another file) counts at its
 * include point; its format: lines, '#' outside quotes starts a comment, several "-name value" pairs may
 * share a line, a double-quoted value may hold spaces and '#', an option's value is on its line. A later
 * source replacing an earlier one's value makes a note; one source giving an option twice with different
 * values is an error (with the same value it is fine). Option names compare case-insensitively, as in
 * PETSc. Refused, with the word and where it came from (FILE:LINE): a word that is neither an option, nor
 * its value, nor an allowed positional or list word; an options file that includes itself (directly or
 * not: the chain is named), that is not a regular file (directory, FIFO, device: checked before reading,
 * and a FIFO is never waited on), that is larger than PROGRAM_OPTIONS_FILE_MAX, unreadable or holds NUL
 * bytes; what PETSc would read differently and we do not support: "alias" lines, -prefix_push,
 * -prefix_pop, -options_file_yaml, -options_string_yaml, YAML files, PETSC_OPTIONS_YAML, "--name" (other
 * than --help), "-name=value", a quoted value PETSc would take for an option name. Values have no length
 * limit. 0 on success; 2 bad input and 1 out of memory, with msg (the first problem found). args is
 * always valid for program_args_free afterwards. */
int program_args_parse(const struct program_spec *spec, int argc, char **argv,
                       const struct program_sources *src, struct program_args *args, char *msg, size_t len);
void program_args_free(struct program_args *args);

/* A running program. */
struct program {
  int rank, size;       /* in MPI_COMM_WORLD */
  PetscOptions options; /* the run's options (owned; destroyed by program_end): read these, never NULL */
  int help;             /* print the program's own help and exit 0, running nothing */
  int help_petsc;       /* "-help petsc": PETSc has printed its options (help is set too) */
  int n_positional;
  char **positional;  /* the bare words, in command-line order */
  char *command_line; /* argv joined by spaces, as given (meta.json) */
  const char *name;   /* spec->name */
  struct program_args args;
  char **petsc_argv; /* PETSc's argv: PETSc keeps it (PetscGetArgs) until program_end */
  int started_petsc;
};

/* Starts a program: MPI_Init (unless MPI is initialised already: a caller that must run something before
 * MPI starts, e.g. blas_core_select, calls it first; or spec->no_mpi), then reads every source
 * (program_args_parse) on every rank, prints the notes on rank 0, and starts PETSc (not with no_mpi). 0 ok; 2
 * bad input (rank 0 has printed "error: ..." once); 1 infrastructure. Whatever it returns, end with
 * program_end(p, rc). */
int program_start(const struct program_spec *spec, int argc, char **argv, struct program *p);
/* Destroys p->options, finalises PETSc and MPI (if initialised, whoever started it) and frees p; returns
 * rc, so that main can end with "return program_end(&p, rc);". */
int program_end(struct program *p, int rc);

/* A tool's whole life: program_start, then run(p) unless the start failed, then program_end; returns the
 * exit status (the start's when it failed, else run's). */
int program_main(const struct program_spec *spec, int argc, char **argv, int (*run)(const struct program *p));

/* The words of list option name ("-f"), NULL with *n = 0 when it was not given. */
char **program_list(const struct program *p, const char *name, int *n);
/* The value of option name in p->options, marked read (NULL when not set; "" when set without a value).
 * The text lives as long as p->options: no copy, no length limit. */
const char *program_value(const struct program *p, const char *name);
/* text split at commas into *n items: one malloc'd block (free(items) frees all); NULL on failure. An
 * empty text is one empty item. */
char **program_split_list(const char *text, int *n);

/* After every reader has run: each option of p->options that nothing read (and that PETSc did not take
 * for itself at start-up) is an error, printed by rank 0 as "error: -x is not an option of this run (did
 * you mean -y?)", the nearest among the -names of table d and the full names more[]; explain, when not
 * NULL, may say more about a name (return 1 with msg: "-pgs_omega is an option of solver pgs, which this
 * run does not use"). Returns the number of such options (0: none), -1 on failure. */
int program_report_unused(const struct program *p, const struct option_decl *d, int n_d,
                          const char *const *more, int n_more,
                          int (*explain)(const char *name, char *msg, size_t len));

#endif
