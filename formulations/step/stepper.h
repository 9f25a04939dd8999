/* stepper.h — one time step (design.md contract 6): detect -> assemble -> solve -> recover -> position
 * update, and the record of what the step did. stepper.c has the rules (when a failed solve still advances
 * the state, which phases are timed). */
#ifndef CB_STEPPER_H
#define CB_STEPPER_H

#include "formulation.h"

struct step_record {
  double t_start; /* simulated time at the start of the step */
  double t;       /* time at the end of the step (t_start when the state did not advance) */
  int contacts;
  struct row_counts rows;
  struct solve_result solve; /* over all rounds: iterations and seconds summed, the last round's residual,
                                the first non-converged round's status (max_iterations for a fixed-point
                                cap) */
  int fp_iterations;         /* assemble -> solve rounds (1 unless the formulation iterates) */
  int failed;             /* the solve did not converge (see stepper.c for when the state still advances) */
  int advanced;           /* the state was advanced */
  double max_penetration; /* max over this step's detected contacts of -gap (state at the step start) */
  double energy;          /* kinetic + potential after the step */
  double seconds_detect, seconds_assemble, seconds_solve, seconds_recover;
  int halvings;     /* times a (half) step that failed was taken again as two halves (-step_halvings) */
  int cold_retries; /* times a (half) step that failed was solved when taken again cold (-step_cold_retry) */
  int fallbacks;    /* 1 when the step failed its retries and the fallback solver solved it, taken again
                       whole (-step_fallback_solver) */
  double h_last;    /* the length of the last (half) step taken: h unless halved; contacts, impulses and
                       the solution are that step's */
};

struct stepper;
int stepper_create(struct stepper **st);
void stepper_destroy(struct stepper **st);
/* The solver that takes a step again whole when its retries (cold retry, halvings) failed with the step's
 * solver (the formulation's -step_fallback_solver; simulation_open lends it). NULL: none. */
void stepper_set_fallback(struct stepper *st, struct solver *fallback);
/* One step of size h: see the header comment. Returns nonzero only for failures outside the solve
 * (allocation, unsupported geometry); a failed solve is recorded in rec. */
int stepper_step(struct stepper *st, struct world *w, struct formulation *f, struct solver *s, double h,
                 struct step_record *rec);
/* The contacts of the last step (valid until the next step). */
const struct contact_set *stepper_contacts(const struct stepper *st);
/* The last step's recovered velocities nu+ (w->ndof entries; valid when rec->advanced). */
const double *stepper_velocity(const struct stepper *st);
/* Normal impulses of the last step, one per contact. */
const double *stepper_impulses(const struct stepper *st);
/* The world's support friction and motors over the last step as one generalised impulse (ndof entries),
 * or NULL when the formulation does not report them (it takes no drives). */
const double *stepper_drive_impulse(const struct stepper *st);
/* The last step's solution z (its last round's), *n entries; valid until the next step. */
const double *stepper_solution(const struct stepper *st, int *n);
/* The last step's complementarity problem (its last round's; NULL before a step or when assembly failed);
 * valid until the next step. After a step taken again (cold retry, halving) it is the last attempt's. */
const struct cp_problem *stepper_problem(const struct stepper *st);
/* Called once in a step whose first solve (first attempt, first round) did not converge, right after that
 * solve, with its problem p (assembled from the state at the step's start, at the step's h), its result and
 * its rows; p is valid only during the call. Why: the stepper then takes the step again (cold retry,
 * halving), and what stepper_problem shows afterwards is another problem, of another length and state (the
 * corpus capture keeps the problem the step failed on, which its world at the step's start rebuilds).
 * fn NULL: none. */
/* Called for each (half) step the stepper keeps that advanced the state, right after it: once for a step,
 * for each half of a halved one (an attempt a cold retry or a halving replaced is not kept). start: the nb
 * bodies at its start (valid during the call); h: its length; rec: its record. The world and
 * stepper_contacts, stepper_impulses, stepper_drive_impulse and stepper_velocity are that (half) step's. Why:
 * after a halved step those show its last half only, which the state change over the whole step does not
 * match (the physics checks judge each kept half). Called with start NULL (nb 0, h 0, rec NULL) when the
 * stepper withdraws the (half) steps it reported so far in this step: it takes the whole step again with the
 * fallback solver (stepper_set_fallback) from the step's start. Nonzero from fn stops the step
 * (stepper_step returns 1). fn NULL: none. */
typedef int (*stepper_substep_fn)(void *ctx, const struct body *start, int nb, double h,
                                  const struct step_record *rec);
void stepper_on_substep(struct stepper *st, stepper_substep_fn fn, void *ctx);
typedef void (*stepper_first_failure_fn)(void *ctx, const struct cp_problem *p, const struct solve_result *r,
                                         const struct row_counts *rows);
void stepper_on_first_failure(struct stepper *st, stepper_first_failure_fn fn, void *ctx);

#endif
