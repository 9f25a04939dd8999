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
  double h_last;    /* the length of the last (half) step taken: h unless halved; contacts, impulses and
                       the solution are that step's */
};

struct stepper;
int stepper_create(struct stepper **st);
void stepper_destroy(struct stepper **st);
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
 * valid until the next step. */
const struct cp_problem *stepper_problem(const struct stepper *st);

#endif
