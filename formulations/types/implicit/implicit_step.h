/* implicit_step.h — the one assembler of the geometrically implicit family (Chakraborty, Berard, Akella &
 * Trinkle): geometric_implicit (a rigid pair, Secs. 3-4, eqs. (15)-(22)) and quasi_rigid (a compliant layer
 * on a rigid core, Sec. 5.1, eqs. (33)-(38)), each in 2D and 3D; one mixed NCP per step. A contact's
 * unknowns: free  a1 (dim), a2 (dim), [delta_bar, delta: quasi_rigid], [p_t (2D) | p_t, p_o, p_r (3D):
 * friction] comp  l1, l2_1 .. l2_m2 (body 2's inequalities), p_n | p_ns, p_nr, [sigma: friction] z = [nu;
 * every contact's free block; every contact's complementarity block], stored SHIFTED by the initial guess
 * (the previous step's answer for the same pair of shapes, implicit_answers.h, else the detection) so that
 * the stepper's z = 0 start is a warm start: the unknowns are x = guess + z, with lower bounds -guess on the
 * complementarity part (a box MCP). Side 0 is body 1 (the compliant body) and carries a single function; side
 * 1 is body 2 (the rigid body): one function, or a polygon's (polyhedron's) m2 half-planes (half-spaces),
 * Sec. 4.3. A 2D world's joints, motors and support friction (implicit_drives.h) add free unknowns after the
 * contacts' free blocks (joint impulses, the bounded groups' impulses) and one complementarity unknown per
 * group (sigma) after the contacts' complementarity blocks, started at 0. A model (struct implicit_model)
 * says what differs: which side is which, a contact's rows, the refinements of the guess (the row counts are
 * the layout's); a closed-form model (tzitzouris_pang) drops the points and the multipliers l1, l2: its free
 * block is the friction, its complementarity block p_n, sigma. The F and J callbacks allocate nothing: x and
 * F's room, the evaluations of body 2's inequalities and the half-plane pool are sized at assemble. */
#ifndef CB_IMPLICIT_STEP_H
#define CB_IMPLICIT_STEP_H

#include "formulation.h"
#include "implicit_answers.h"
#include "implicit_drives.h"
#include "implicit_scaling.h"
#include "implicit_side.h"
#include "implicit_side3.h"

struct implicit_contact {
  struct gi_side s2[2];  /* 2D sides: [0] body 1 (one function), [1] body 2 */
  struct gi_side3 s3[2]; /* 3D sides */
  int sa, sb;            /* their world shapes (the warm-start key) */
  double mu;
  int m2;   /* inequalities of body 2: 1, or a polygon's edges / a polyhedron's faces */
  int g2;   /* with m2 > 1: where body 2's half-planes (half-spaces) start in implicit_step.pool */
  int comp; /* where the contact's complementarity block starts in z */
  int axis; /* 3D: the world axis the friction frame's t is projected from (kept while the pair persists) */
  double delta0; /* quasi_rigid: the deflection at the start of the step (damping) */
};

/* Where a contact's unknowns (and rows) are; -1 for those the model or the world does not have. */
struct implicit_index {
  int a1, a2;  /* the points (dim each) */
  int db, dl;  /* quasi_rigid's delta_bar, delta */
  int pt;      /* p_t (3D: p_t, p_o, p_r at pt .. pt + 2) */
  int l1, l2;  /* the multipliers: body 1's, the first of body 2's m2 */
  int pn, pnr; /* p_n (quasi_rigid: p_ns), quasi_rigid's p_nr */
  int sg;      /* sigma */
};

struct implicit_step;

struct implicit_model {
  const char *name; /* the formulation's */
  int nextra;       /* free unknowns between the points and the friction (delta_bar, delta) */
  int npn;          /* normal impulse unknowns: 1 (p_n) or 2 (p_ns, p_nr) */
  int friction;     /* 1: friction unknowns in every world; 0: only in a world with mu > 0 */
  int max_edges;    /* 2D: the most edges of a polygon body 2 (0: no limit) */
  /* 1: the contact points are closed-form functions of the end-of-step poses (tzitzouris_pang): no a1, a2,
   * l1, l2 unknowns, and a contact keeps m2 = 0 (index: -1 for them) */
  int closed_form;
  /* NULL, or 0 when the model takes the pair of world shapes (sa, sb); 1 with msg naming it */
  int (*accept)(const struct world *w, int sa, int sb, char *msg, size_t len);
  /* 1 when the detected contact's shape a is side 0; flat: a half-plane (plane), poly: a polygon
   * (polyhedron) */
  int (*a_first)(int flat_a, int flat_b, int poly_a, int poly_b);
  const char *refusal[2]; /* 2D, 3D: two polygons (polyhedra) in one contact; "%d", "%d": the shapes */
  /* one contact's rows, [dim - 2]: 0, or 1 when they are undefined (no normal, no tangent) */
  int (*rows[2])(const struct implicit_step *d, int i, const double *x, double *F, double *J);
  /* [dim - 2]: the guess of a contact whose body 2 is a polygon (polyhedron); warm: the previous answer is
   * in the guess */
  void (*polytope_guess[2])(struct implicit_step *d, const struct world *w, int i, int warm);
  int sigma_is_friction_2d; /* 1: 2D counts sigma among the friction rows, not as slack (f->rows) */
};

struct implicit_step {
  const struct implicit_model *model;
  double et, eo, er;     /* options: the friction ellipsoid's semi-axes (eq. 5) */
  double k, cdamp, dmax; /* options (quasi_rigid): stiffness, damping, maximum deflection */
  double creep;          /* option (geometric_implicit): the slip speed sticking friction allows [m/s] */
  int cone_degree1;      /* option (geometric_implicit, quasi_rigid): (22) in degree 1 (implicit_cone_row) */
  int equilibrate;       /* option (geometric_implicit): solve the step's NCP in equilibrated units */
  int dim, fr;           /* the step's: 2 or 3; 1 with friction unknowns */
  int ndof, nc, n, nfree;
  double h;
  double *M, *nu0, *papp, *guess;
  double *work; /* 3 n: x = guess + z, F's room for the J callback, z unscaled from the solver's y */
  int cap_work;
  struct implicit_scaling scale; /* the step's equilibration (scale.n = 0: none) */
  double *jac;                   /* n x n: the Jacobian at the guess the scaling is computed from */
  int cap_jac;
  struct implicit_contact *c;
  int cap_c;
  struct convex_fn *pool; /* the polygons' half-planes (polyhedra's half-spaces) of this step's contacts */
  int cap_pool;
  struct side_eval *e2; /* 2D: body 2's inequalities at a2 (room for the largest m2) */
  int cap_e2;
  struct side3_eval *e3; /* 3D: the same */
  int cap_e3;
  struct implicit_answers prev;
  struct implicit_drives dr; /* the world's joints, motors and support points (2D) */
};

/* The formulation_type hooks the two formulations share. create allocates f->data for the model. */
int implicit_step_create(struct formulation *f, const struct implicit_model *model);
void implicit_step_destroy(struct formulation *f);
/* The formulation_type forget hook: the last step's answers dropped, so every pair of the next step is
 * guessed as new (-step_cold_retry). */
void implicit_step_forget(struct formulation *f);
int implicit_step_detect(struct formulation *f, const struct world *w, double h, struct contact_set *cs);
int implicit_step_assemble(struct formulation *f, const struct world *w, const struct contact_set *cs,
                           double h, struct cp_problem **out);
int implicit_step_recover(struct formulation *f, const struct world *w, const struct contact_set *cs,
                          double h, const double *z, double *nu, double *pn);
/* The drive_impulse hook: the world's joints' motors and support friction at the solver's y (2D). */
void implicit_step_drive_impulse(struct formulation *f, const struct world *w, const double *y, double *g);

struct implicit_index implicit_step_index(const struct implicit_step *d, int i);
/* The values a pair's answer holds besides its m2 multipliers in dimension dim (friction slots included). */
int implicit_step_width(const struct implicit_model *m, int dim);

/* The polygon (2D) and polyhedron (3D) guesses of contact i at the predicted pose (implicit_polygon.h,
 * implicit_polyhedron.h). */
void implicit_step_polygon_guess(struct implicit_step *d, const struct world *w, int i, int warm);
void implicit_step_polyhedron_guess(struct implicit_step *d, const struct world *w, int i, int warm);

#endif
