/* physics_check.h — the physics of a step judged the same way for every formulation (the common physical
 * criteria of ContactBench, Le Lidec et al. 2024, Sec. 4): computed from the step-start and step-end
 * states, the stepper's contacts, their normal impulses p_n (the formulation's recover hook, the one impulse
 * form every formulation gives), the world's drives' impulse g (support friction and motors: the
 * drive_impulse hook of the formulations that take them) and nu+ — never from a formulation's own residual.
 * The tangential impulses are not part of that common form, so they are recovered from the momentum balance
 * (physics_check.c): M (nu+ - nu_free) = sum_i (W_n,i p_n,i + W_t,i lambda_t,i) + g + joint impulses.
 *
 * Per step (physics_step; a halved step (-step_halvings) is judged half by half, each kept half with its own
 * start state, contacts, impulses and length: the step's value is the worst half's, its energy gain the
 * halves' sum); trace columns phys_penetration, phys_signorini, phys_coulomb, phys_dissipation,
 * phys_energy_gain:
 *   penetration  deepest overlap after the step by the shared detection (world_detect, threshold 0) [m]
 *   signorini    max over contacts of p_n (gap / h + v_n+)^+: an impulse on a contact that opens [J]
 *   coulomb      max over contacts of (|lambda_t| - mu p_n)^+, the TRUE cone (a pyramid's corners show) [N s]
 *   dissipation  max over contacts of (lambda_t . v_t+ + mu p_n |v_t+|)^+: friction that does not take the
 *                most power out of the sliding (maximum dissipation; 0 when it opposes sliding at the cone's
 *                edge) [J]
 *   energy_gain  (E+ - E - W)^+, kinetic + potential, W = h (f . v+ + tau . omega+) + g . nu+ the work of
 *                the applied forces and torques and of the drives' impulse g over the step (a motor adds
 *                energy lawfully) [J]
 * v_n+, v_t+: relative velocities after the step along the contact's normal and tangents, with the Jacobian
 * of the step-start state (the one the formulation used). */
#ifndef CB_PHYSICS_CHECK_H
#define CB_PHYSICS_CHECK_H

#include "run.h"

enum { PHYSICS_N_CHECKS = 5 };

/* The observer's trace columns, in the order of physics_step.v. */
#define PHYSICS_TRACE_COLUMNS "phys_penetration,phys_signorini,phys_coulomb,phys_dissipation,phys_energy_gain"

/* The checks' names in order (the trace's and the summary columns' stems). */
extern const char *const physics_check_names[PHYSICS_N_CHECKS];

struct physics_step {
  double v[PHYSICS_N_CHECKS]; /* penetration, signorini, coulomb, dissipation, energy_gain */
  double fit;                 /* |residual| / |nu+ - nu_free| of the tangential recovery (0: exact) */
};

/* One step's checks. w0: the world at the step start (its bodies as they were: positions, velocities);
 * w1: the world after the step; cs: the contacts the step used, pn their normal impulses; drive: the
 * world's support friction and motors as one generalised impulse (stepper_drive_impulse; NULL: none), taken
 * out of the momentum balance before the friction is fitted and counted in the work; nu (w1->ndof): nu+.
 * 0 on success, 1 on allocation or LAPACK failure. */
int physics_check_step(const struct world *w0, const struct world *w1, const struct contact_set *cs,
                       const double *pn, const double *drive, const double *nu, double h,
                       struct physics_step *out);

/* Over a run's steps that advanced the state. */
struct run_physics_stats {
  long steps;                    /* steps checked */
  double max[PHYSICS_N_CHECKS];  /* worst over the steps */
  double mean[PHYSICS_N_CHECKS]; /* mean over the steps of each step's value */
  double fit_max;                /* worst tangential-recovery residual */
};

/* The run-loop observer of the checks (run.h). Trace columns: phys_penetration, phys_signorini,
 * phys_coulomb, phys_dissipation, phys_energy_gain (empty when the step did not advance). */
int run_observer_physics(struct run_observer *o, struct run_physics_stats *out);

#endif
