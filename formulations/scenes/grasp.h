/* grasp.h — the Brost–Christiansen lock piece grasped by a parallel-jaw gripper (Chakraborty, Berard,
 * Akella & Trinkle, "A geometrically implicit time-stepping method...", Sec. 6.4, eqs. (56)–(61), with the
 * 2.5D model of Berard et al., "daVinci Code", ICRA 2007: ../shared/notes/grasp-study.md).
 *
 * Frames and units (SI): the world origin is the gripper centre, the midpoint of the two fingertip vertices;
 * the fingertips lie on Y = 0 and the fingers occupy Y <= 0 (eqs. (58) and (60): the top edge) with the
 * inside edges X = s (right, eq. (59)) and X = -s (left, eq. (61)): the jaws close symmetrically, one
 * coordinate s (half the opening). The part (pose x_g, y_g, theta_g) starts at (-x, -y): the gripper centre
 * at (x, y) relative to the part's centre, as in the paper's Fig. 9.
 *
 * The part is the union of a disc and six superellipse teeth (eqs. (56)–(57)). The printed eq. (56) reads
 * "- 20.75", a radius of 4.56 mm, which the teeth (centred at radius 20.75 mm) and the daVinci Code paper's
 * "slightly more than 40 mm in diameter" contradict: the disc's radius is 20.75 mm (the constant should be
 * 20.75^2) and the teeth sit on its rim. The teeth are axis-aligned in the part's frame (eq. (57) has no
 * rotation), with semi-axes 2.3 mm and 1.1 mm and exponent 4. */
#ifndef CB_GRASP_H
#define CB_GRASP_H

#include "solver.h"

#include <gsl/gsl_rng.h>

#define GRASP_TEETH        6
#define GRASP_COMPONENTS   (1 + GRASP_TEETH) /* component 0 is the disc, 1..6 the teeth */
#define GRASP_MAX_CONTACTS 8  /* finger-part contacts kept per step (2 fingers x components near) */
#define GRASP_MAX_DIRS     16 /* friction directions per support point */

extern const double grasp_tooth_angle[GRASP_TEETH]; /* theta_1..theta_6 [rad], as printed */
#define GRASP_DISC_RADIUS 20.75e-3                  /* [m] */
#define GRASP_TOOTH_A     2.3e-3                    /* tooth semi-axis along the part's x [m] */
#define GRASP_TOOTH_B     1.1e-3                    /* tooth semi-axis along the part's y [m] */

/* A contact between a finger and one convex component of the part, at the start of a step. */
struct grasp_contact {
  int finger;     /* +1 right, -1 left */
  int component;  /* 0 disc, 1..6 tooth */
  double gap;     /* signed distance [m] (< 0: overlap) */
  double n[2];    /* unit normal from the part to the finger (world) */
  double r[2];    /* part's contact point relative to the part's centre (world axes) [m] */
  double impulse; /* normal impulse of the last step [N s] */
};

/* The per-trial quantities the experiment leaves unknown but bounded (drawn per trial) and the settings. */
struct grasp_params {
  double mass, inertia;       /* part [kg], [kg m^2] */
  double jaw_mass;            /* each jaw [kg] */
  double close_speed;         /* commanded closing speed of each jaw [m/s] */
  double close_force;         /* force limit of each jaw's controller [N] */
  double mu_support, mu_grip; /* Coulomb coefficients: part-support (each tripod point), part-fingers */
  double support_damping;     /* linear (viscous) support damping [N s/m]; the torque uses the tripod */
  double g;                   /* gravity [m/s^2] (out of plane: sets the support's normal forces only) */
  double tripod[3][2];        /* support points in the part's frame [m] */
  double normal[3];           /* their normal forces from statics with m g [N] */
  int n_dirs;                 /* friction directions per support point (the polygonal friction disc) */
};

/* Outcomes (the reader sees why a cell fails). */
enum grasp_outcome {
  GRASP_OUTER_TEETH, /* success: the fingers hold the outer edges of the outer-most teeth (1 and 6) */
  GRASP_OTHER_TEETH, /* held, at least one finger on a tooth, not the goal */
  GRASP_ROUND,       /* held on the round part, not diametrically */
  GRASP_DIAMETRIC,   /* held on the round part at nearly opposite points */
  GRASP_LOST,        /* the jaws closed without holding the part (or one finger free) */
  GRASP_SOLVER_FAILURE,
  GRASP_OUTCOMES
};
const char *grasp_outcome_name(enum grasp_outcome o);

/* Geometry (grasp_geometry.c). The component's support point in world direction d (unit) for the part
 * at pose q; returns the support value d . p. */
double grasp_support(const double q[3], int component, const double d[2], double p[2]);
/* Signed distance between component and the finger's quadrant (jaw half-opening s), the normal from the
 * part to the finger and the part's contact point; fills c (finger, component, gap, n, r). */
void grasp_finger_gap(const double q[4], int finger, int component, struct grasp_contact *c);
/* The finger-part contacts with gap < margin (at most GRASP_MAX_CONTACTS, nearest first). */
int grasp_detect(const double q[4], double margin, struct grasp_contact *c);
/* Largest |X| of the part (any point) from the gripper centre: the jaws start just outside it. */
double grasp_part_extent(const double q[3]);

/* The tripod (p is read only; not const: C11 does not convert double[3][2] to const): normal forces from
 * statics (sum N = m g, moments about the centre of mass zero). Returns 0 when every N_i >= 0 (the centre of
 * mass inside the tripod), 1 otherwise. */
int grasp_tripod_statics(double p[3][2], double m, double g, double N[3]);
/* Draws the uncertain quantities from rng: the tripod (three points at 120 degrees apart, each turned by up
 * to +-30 degrees, radii in [0.3, 0.9] R, redrawn until every normal force is >= 10 % of m g / 3), then the
 * support and the gripper friction coefficients, uniform on (support[0], support[1]] and (grip[0], grip[1]].
 * The numbers drawn do not depend on the ranges (each coefficient is an affine image of one uniform), so the
 * same rng state gives the same tripod and the same quantiles under any bounds. */
void grasp_draw(gsl_rng *rng, const double support[2], const double grip[2], struct grasp_params *p);

/* Classification of a final configuration from the contacts that carry load (impulse > load_min). */
enum grasp_outcome grasp_classify(const struct grasp_contact *c, int nc, double load_min, double s_min,
                                  double s);

/* A trial's settings: the registered formulations step scene grasp by the run loop (grasp_run.h). */
struct grasp_trial_opts {
  double h, t_max;    /* step [s], simulated time limit [s] */
  double rest_speed;  /* at rest: every speed (part, rim speed of the rotation, jaws) below it [m/s] */
  int rest_steps;     /* ... for this many consecutive steps with a finger loaded */
  double margin;      /* contacts kept when closer than this [m] */
  double s_min;       /* the jaws closed: half-opening at which the fingers meet [m] */
  double start_clear; /* the jaws start this far outside the part's extent [m] */
};

struct grasp_result {
  enum grasp_outcome outcome;
  int at_rest;              /* ended at rest (else: time limit, lost or solver failure) */
  long steps;               /* steps taken */
  double t;                 /* simulated time at the end [s] */
  double skipped;           /* of which skipped: the jaws closing freely, the part still [s] */
  double q[4];              /* final state */
  double solve_seconds;     /* total in the solver */
  double rows_sum;          /* sum over steps of the LCP size */
  long pivots;              /* sum of solver iterations */
  int retries;              /* failed (half) steps solved when taken again cold (-step_cold_retry) */
  int halved;               /* failed steps (or half steps) taken as two halves (-step_halvings) */
  int fallbacks;            /* failed steps solved by the fallback solver (-step_fallback_solver) */
  enum solve_status status; /* the failed solve's status (outcome solver_failure) */
  int n_contacts;           /* loaded contacts at the end */
  struct grasp_contact contact[GRASP_MAX_CONTACTS];
  char message[160];
};

#endif
