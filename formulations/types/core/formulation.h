/* formulation.h — the formulation type table, its registry, and the stepper (design.md contracts 4, 6).
 * A formulation turns (world, contacts, h) into a complementarity problem (assemble) and a solution z
 * back into new generalised velocities and contact impulses (recover). Chosen by name: -formulation NAME.
 * The stepper (stepper.c): detect -> assemble -> solve -> recover -> semi-implicit Euler position update
 * (q += h nu+, quaternions renormalised), timing each phase; a fixed-point formulation (optional iterate
 * hook) gets several assemble -> solve rounds per step. Options: -formulation (default stewart_trinkle),
 * -friction_dirs (3D, default 4), -contact_threshold (default: world's), -step_halvings (default 0),
 * -step_cold_retry (default 0), -step_fallback_solver (default none), declared in formulation_options, and
 * each type's own, declared in its table (option_table.h). Messages are returned, never printed: lifecycle
 * calls fill a caller's buffer; assemble / recover / detect / iterate fill f->message. */
#ifndef CB_FORMULATION_H
#define CB_FORMULATION_H

#include "contact_set.h"
#include "solver.h"

#include <stdio.h>

enum formulation_dims { FORMULATION_2D = 1, FORMULATION_3D = 2 };

/* Problem rows by the constraint kind they encode. */
struct row_counts {
  int normal;   /* unilateral non-penetration rows */
  int friction; /* friction-direction rows (beta / p_f) */
  int slack;    /* friction-cone rows (lambda / s) */
  int joint;    /* bilateral joint rows */
  int velocity; /* free velocity unknowns of a mixed LCP */
  int other;    /* auxiliary rows of nonconvex / implicit formulations */
  int total;
};

struct formulation;

/* What an iterate hook asks of the stepper after a round's converged solve. */
enum formulation_round {
  FORMULATION_ROUND_DONE = 0,      /* the step's answer is this round's z */
  FORMULATION_ROUND_AGAIN = 1,     /* the formulation updated its state from z: assemble and solve again */
  FORMULATION_ROUND_NO_FIXED_POINT /* iteration cap reached unconverged: z is used, status max_iterations */
};

struct formulation_type {
  const char *name;
  const char *summary; /* one line: what it is valid for */
  const char *paper;   /* paper and equations implemented */
  unsigned dims;       /* mask of enum formulation_dims */
  unsigned shapes;     /* mask of enum shape_kind it handles */
  unsigned joints;     /* mask of enum formulation_dims in which bilateral joints are supported */
  unsigned drives;     /* ... the world's support friction and motors (bounded_block.h) */
  int frictionless;    /* 1 if it has no friction model: not applicable to a world with mu > 0 */
  /* Its own options, declared (option_table.h): full names without the leading '-' (no prefix is added:
   * the nonconvex pair shares -nc_...), offsets into the state struct create() allocates in f->data. */
  const struct option_decl *options;
  int n_options;
  /* Allocates the state in f->data; the declared fields get their defaults afterwards (formulation_create
   * applies the table), so create sets only what is not an option. */
  int (*create)(struct formulation *f);
  /* Optional: checks across fields (or values a range cannot express) after the table has been read;
   * 0, or 1 with msg naming the option. */
  int (*set_from_options)(struct formulation *f, char *msg, size_t len);
  /* Build *p (allocated here, freed by the caller with cp_destroy) from the world and its contacts;
   * fills f->rows. Return 0 on success. */
  int (*assemble)(struct formulation *f, const struct world *w, const struct contact_set *cs, double h,
                  struct cp_problem **p);
  /* From the solution z: nu (w->ndof new generalised velocities) and pn (cs->n normal impulses over the
   * step, i.e. force * h for force-level formulations). Return 0 on success. */
  int (*recover)(struct formulation *f, const struct world *w, const struct contact_set *cs, double h,
                 const double *z, double *nu, double *pn);
  /* Required when the type takes drives (.drives): from the same z, the impulse over the step of the
   * world's support friction and motors as one generalised impulse g (w->ndof entries, written), so that
   * the physics checks (physics_check.h) do not take it for the contacts' friction. */
  void (*drive_impulse)(struct formulation *f, const struct world *w, const double *z, double *g);
  /* Optional: the formulation's own contact detection (NULL: world_detect with f->threshold). h is the
   * step about to be taken (PEG's proximity distance and predicted configuration depend on it). */
  int (*detect)(struct formulation *f, const struct world *w, double h, struct contact_set *cs);
  /* Optional (fixed-point methods, e.g. anitescu_hart_lcp1): called after each converged solve of a step
   * with its z; returns an enum formulation_round, negative on failure. f->round tells assemble which
   * round it builds (0: the step's first, so it must reset any state carried from the last step). */
  int (*iterate)(struct formulation *f, const struct world *w, const struct contact_set *cs, double h,
                 const double *z);
  void (*destroy)(struct formulation *f);
  void (*view)(const struct formulation *f, FILE *out);
  /* Optional: the state carried from one step into the next one's problem (the implicit formulations'
   * previous answer per shape pair, which shifts their unknowns), as doubles, so that a problem corpus can
   * assemble a step's problem again exactly. carry_get writes at most cap doubles into buf and returns the
   * count it needs (-1: this state cannot be exported); carry_set replaces the state (0, or 1 when buf is
   * not such a state). NULL: the formulation carries nothing that changes its next problem. */
  int (*carry_get)(const struct formulation *f, double *buf, int cap);
  int (*carry_set)(struct formulation *f, const double *buf, int n);
  /* Optional: drop the carried state, so that the next assemble starts cold (every pair as if new): what
   * -step_cold_retry retries a failed step from. NULL: nothing carried, no cold retry. */
  void (*forget)(struct formulation *f);
};

struct formulation {
  const struct formulation_type *type;
  int friction_dirs;   /* friction directions per contact in 3D (2D always uses 2) */
  double threshold;    /* contact detection threshold; < 0 means the world's */
  int step_halvings;   /* the stepper takes a step whose solve failed again as two halves, this deep */
  int step_cold_retry; /* ... after first taking it once more from the cold start (type->forget) */
  char step_fallback_solver[OPTION_STRING_MAX]; /* ... and then whole with this solver ("none": not) */
  struct row_counts rows;
  int round; /* set by the stepper before each assemble: 0, 1, ... within the current step */
  void *data;
  PetscOptions own_options; /* the values given through formulation_set_option (owned; NULL when none) */
  /* Why the last assemble / recover / detect / iterate failed ("" when it did not say); the caller prints
   * it. Cleared by nobody: a failing hook overwrites it. */
  char message[256];
};

/* The options every formulation reads (-friction_dirs, -contact_threshold, -step_halvings,
 * -step_cold_retry, -step_fallback_solver), offsets into struct formulation. */
extern const struct option_decl formulation_options[];
extern const int formulation_n_options;

/* Registry (formulations/formulation_registry.c). */
extern const struct formulation_type *const formulation_registry[];
const struct formulation_type *formulation_find(const char *name);
void formulation_registry_names(FILE *out);

/* The failure return of an assemble / recover / detect / iterate hook: fills f->message (printf-style,
 * the formulation's name first) and returns 1. */
int formulation_fail(struct formulation *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Lifecycle. formulation_create fails (1, msg listing the valid names) for an unknown name; the
 * formulation it makes has every declared option at its default. msg (len bytes) may be NULL. */
int formulation_create(const char *name, struct formulation **f, char *msg, size_t len);
/* Reads the common options, then the type's table into f->data, then its set_from_options hook, from opts
 * (the run's or the task's options object). 0, or 1 with msg naming the option, the value and what is
 * wrong. */
int formulation_set_from_options(struct formulation *f, PetscOptions opts, char *msg, size_t len);
/* Typed setter for code and tests: option (full name, with or without '-': "-nc_gamma") takes value; the
 * formulation's settings become its defaults plus every value set this way so far, read and checked as a
 * run reads a task's options object. 1 with msg for an option it does not read or a bad value (the earlier
 * settings stay). */
int formulation_set_option(struct formulation *f, const char *option, const char *value, char *msg,
                           size_t len);
/* -help: the common options and the type's own, one line each (option_print). */
void formulation_print_options(FILE *out, const struct formulation_type *t);
/* Every declared option name of the common table and all registered types, without the '-', each once
 * (the nonconvex pair share -nc_passive_sides): for "did you mean" over a misspelt option. *names is
 * malloc'd (free it; the strings are the tables' own); returns the count, -1 on allocation failure. */
int formulation_option_names(const char ***names);
/* The declaring row of option (with or without '-'; the common table's or any registered type's), NULL when
 * no formulation declares it. */
const struct option_decl *formulation_option_decl(const char *option);
void formulation_destroy(struct formulation **f);
/* The option values in effect (formulation_state.c): one "-name value" line per declared option, common and
 * the type's own, doubles as %.17g; what formulation_options_apply gives back exactly. 0, or 1 when len is
 * too small. */
int formulation_options_text(const struct formulation *f, char *buf, size_t len);
/* The carried state (see carry_get): *n doubles in a malloc'd *buf (NULL when n = 0). 0, or 1 when the type
 * cannot export it (the problem is then not rebuildable) or out of memory. */
int formulation_carry_get(const struct formulation *f, double **buf, int *n);
int formulation_carry_set(struct formulation *f, const double *buf, int n); /* 0, or 1 with f->message */
void formulation_view(const struct formulation *f, FILE *out);
int formulation_supports(const struct formulation *f,
                         const struct world *w); /* 1 if dims/shapes/joints/friction fit */

/* Friction directions: k unit tangents orthogonal to n (dim 2: k = 2, +t and -t; dim 3: k evenly spaced
 * about n starting from the world axis least aligned with n, projected). dirs: 3k doubles. */
void formulation_tangents(int dim, const double n[3], int k, double *dirs);

#endif
