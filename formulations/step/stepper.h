/* stepper.h — one time step (design.md contract 6): detect -> assemble -> solve -> recover -> position
 * update, and the record of what the step did. stepper.c has the rules (when a failed solve still advances
 * the state, which phases are timed). */
#ifndef CB_STEPPER_H
#define CB_STEPPER_H

#include "formulation.h"

struct step_record {
  double t; /* time at the end of the step */
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
  /* Standard-model traps at the step start (2D, every formulation; -1 in 3D: not counted): (vertex, corner)
   * sets of PEG potential contacts, a vertex near both edges at a corner of another polygon (peg2d.h). */
  int traps;
  /* Anitescu-Hart's normal velocity error: over the contacts that push (pn_j above the checker's zero,
   * -cp_tol times the solve's scale), |n_j' nu+ + gap_j / h|, the violation of the complementarity of
   * eq. 6-7 (mu lambda_j for LCP2); mean and max, 0 when no contact pushes or the state did not advance. */
  int nv_contacts; /* contacts counted */
  double nv_error_mean, nv_error_max;
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
/* Normal impulses of the last step, one per contact. */
const double *stepper_impulses(const struct stepper *st);
/* The last step's solution z (its last round's), *n entries; valid until the next step. */
const double *stepper_solution(const struct stepper *st, int *n);

#endif
