/* implicit_drives.h — the world's bilateral joints, force-limited motors and support friction as rows of the
 * geometrically implicit mixed NCP (Chakraborty, Berard, Akella & Trinkle, eqs. (20)-(22); 2D worlds).
 * Joints (revolute, prismatic, mirror): one free impulse lambda_j per joint row (jacobian_joint_columns'
 * column J_j and violation phi_j at the start of the step) with the equality row
 *   J_j' nu + phi_j / h = 0                                        (Anitescu & Hart eq. 6's stabilisation)
 * and J_j lambda_j in the Newton-Euler rows (20). Motors and support points: a bounded group, the
 * ellipsoidal law (21)-(22) with the normal impulse KNOWN, mu p_n replaced by the bound B (max_force h for a
 * motor, mu N_i h for a support point): the impulse p (1 component for a motor along its axis, 2 for a
 * support point in the plane, generalised directions d_k = [e_k; r x e_k] at the point) and sigma >= 0 with
 *   d_k' nu - v*_k + sigma p_k / B = 0                              ((21) divided by B, e_t = 1)
 *   0 <= sigma  perp  B - |p|^2 / B >= 0                            ((22) divided by B)
 * and d_k p_k in the Newton-Euler rows, so p opposes the velocity error at the bound |p| = B while it is not
 * zero (sigma = |error| then), and the error vanishes inside it: a box in one dimension, a disc in two (the
 * support model bounds |f_i| <= mu N_i in every direction, so its ellipse is a circle, not the options' e_t).
 * A motor (one dimension) is written as that box: p itself is the group's complementarity unknown, bounded
 * -B <= p <= B, complementary to d' nu - v* + creep p / B (at -B the error is >= 0, at B <= 0, inside 0) —
 * the same law without sigma. Why: in the form with sigma, at the step a grasp study's finger first meets the
 * part every Newton solver (ours, SNES VI, TAO) stalled with the motor's sigma at zero and the penetration
 * left in the merit's floor (the study's former own step, grasp_trial_implicit.c, found this first); the box
 * has no multiplier to leave at zero. B is a constant, so dividing the paper's rows by it changes no
 * solution; it keeps them O(v) and O(p) where B ~ 1e-5 N s would put the paper's B v and B^2 under the
 * solver's absolute tolerance. A group with B = 0 (mu = 0, N_i = 0) has no impulse and no unknowns.
 * Directions, lever arms and joint columns are those of the start of the step (the world's models are posed
 * there, as the velocity-eliminated formulations have them). The unknowns' start is the world's alone
 * (implicit_drives_guess), so nothing is carried. */
#ifndef CB_IMPLICIT_DRIVES_H
#define CB_IMPLICIT_DRIVES_H

#include "jacobian.h"

/* A motor or one support point: its impulse components p_1 .. p_np on one body. */
struct implicit_bounded {
  int dof;          /* the body's first velocity column */
  int np;           /* 1: a motor (along its axis); 2: a support point (world x, y) */
  double d[2][3];   /* each component's generalised direction over (v_x, v_y, omega) */
  double target[2]; /* the velocity d_k' nu is driven to: the motor's speed, 0 for a support */
  double B;         /* the bound [N s] */
};

struct implicit_drives {
  struct jcol *col; /* the joint rows' columns (nj) ... */
  double *phi;      /* ... and violations */
  int nj, cap_j, cap_phi;
  struct implicit_bounded *g; /* the groups */
  int ng, cap_g;
  int nfree;        /* free unknowns: nj joint impulses, then each support point's 2 components */
  int nbox;         /* motors among the groups */
  int free0, comp0; /* where they start in x, and where the groups' complementarity unknowns (ng) start:
                     * a support point's sigma, a motor's impulse p (boxed) */
  double creep; /* the groups' rows read (sigma + creep) p_k / B: a slip of at most creep while sticking */
};

/* The joints' columns and the groups of w for a step of length h (a 2D world); counts in nj, ng, nfree.
 * 0, or 1 on allocation failure. */
int implicit_drives_build(struct implicit_drives *dr, const struct world *w, double h);
/* The rows above at the unknowns x (nu at the bodies' dof columns, free unknowns from free0, sigmas from
 * comp0) into F, their impulses added to the Newton-Euler rows; J (dense, n columns) when not NULL. */
void implicit_drives_rows(const struct implicit_drives *dr, double h, const double *x, double *F, double *J,
                          int n);
/* The groups' impulses at the unknowns x (a support point's components, a motor's p) as one generalised
 * impulse, added to g (ndof entries). */
void implicit_drives_impulse(const struct implicit_drives *dr, const double *x, double *g);
/* The motors' boxes on the unknowns z = x - guess: lo = -B - guess, hi = B - guess at their slots. */
void implicit_drives_bounds(const struct implicit_drives *dr, const double *guess, double *lo, double *hi);
/* The start of the unknowns (into guess, the step's initial point): no joint impulse; each group sliding
 * at its free-flight velocity error e_0 (nu0 + M^-1 p_app, M block-diagonal), sigma = |e_0| and p at the
 * bound against e_0 (both 0 when e_0 = 0): the answer while a group keeps sliding, so a slide or a motor's
 * ramp converges in a step or two. Deterministic in the world's state, so nothing is carried. */
void implicit_drives_guess(const struct implicit_drives *dr, const double *nu0, const double *papp,
                           const double *M, int ndof, double *guess);
void implicit_drives_free(struct implicit_drives *dr);

#endif
