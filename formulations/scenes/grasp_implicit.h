/* grasp_implicit.h — one step of a grasp trial as the geometrically implicit mixed NCP (Chakraborty, Berard,
 * Akella & Trinkle, Sec. 3-4 and 6.4): grasp_trial.c's run loop calls it when the trial's formulation is
 * geometric_implicit. */
#ifndef CB_GRASP_IMPLICIT_H
#define CB_GRASP_IMPLICIT_H

#include "grasp.h"

struct grasp_implicit;
int grasp_implicit_create(struct grasp_implicit **g);
void grasp_implicit_destroy(struct grasp_implicit **g);
/* Forgets the last step's answers (a new trial starts cold). */
void grasp_implicit_reset(struct grasp_implicit *g);

/* A predictor of the step (the explicit LCP's answer for the same pairs, SI): the velocities after the
 * step, each pair's normal impulse and the jaw motor's impulse. */
struct grasp_predictor {
  double u[4];
  double pn[GRASP_MAX_CONTACTS];
  double pm;
};

/* 1 when some pair in c has no answer from the last step (or the trial has just started). */
int grasp_implicit_fresh(const struct grasp_implicit *g, const struct grasp_contact *c, int nc);

/* One step from st (SI) with the finger-part pairs c[0 .. nc-1] detected at the step's start. The guess:
 * with pred NULL, the last step's answers per pair (o->warm_start) and the detected points; with pred, the
 * detected points with the predictor's velocities and impulses. Solves the step's NCP with s and, when it
 * converged, writes the new velocities and poses into st (not st->t) and the pairs' normal impulses [N s]
 * into c[k].impulse. Returns 0 when solved, 1 when the solve failed (sr says how), 2 when out of memory;
 * *rows: the NCP's size. */
int grasp_implicit_step(struct grasp_implicit *g, struct solver *s, const struct grasp_params *pp,
                        const struct grasp_trial_opts *o, const struct grasp_predictor *pred,
                        struct grasp_state *st, struct grasp_contact *c, int nc, struct solve_result *sr,
                        int *rows);

/* The step's NCP without solving it (for tests): the unknowns z are shifted by the guess (warm: the last
 * step's answers where there are some), z = 0 being the guess; the problem belongs to g. */
struct cp_problem *grasp_implicit_assemble(struct grasp_implicit *g, const struct grasp_params *pp,
                                           const struct grasp_trial_opts *o, const struct grasp_state *st,
                                           const struct grasp_contact *c, int nc, int warm);

#endif
