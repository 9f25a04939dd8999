/* peg_lcp.h — the PEG constraint model and its LCP (Williams, Lu & Trinkle 2016), shared by the peg and
 * lnc formulations. From PEG potential contacts (peg2d.h) it builds unilateral U (eq. 32: a vertex near one
 * edge), intercontact I and cross-contact X constraints (eq. 33: a vertex va near the corner vb of another
 * polygon gives I(va; eb_prev, eb_next), I(vb; ea_prev, ea_next), X(C(va, eb_prev), C(vb, ea_next)) and
 * X(C(va, eb_next), C(vb, ea_prev)); edges named counter-clockwise around each polygon), filtered by the
 * relaxed applicability of eq. 29, each I with a single primary contact (eq. 24), and assembles the pure
 * LCP of eqs. 48-49 with nu eliminated, plus Stewart-Trinkle friction on impulse-carrying contacts. */
#ifndef CB_PEG_LCP_H
#define CB_PEG_LCP_H

#include "formulation.h"
#include "peg2d.h"

struct peg_settings {
  struct peg2d_params
      detect;           /* delta rule, prediction, swept test (-P_distance_factor, _distance_min, ...) */
  double applicability; /* epsilon_theta = sin(theta): applicable iff appl > this (-P_applicability) */
  double swap_tol;      /* primary-swap heuristic threshold (-P_swap_tol), default 1e-3 m */
  int cross;            /* 1: PEG (X constraints); 0: LNC (no X) */
  double distance_3d;   /* 3D proximity distance (-P_distance_3d), default 0.1 m as the authors' code */
};

void peg_settings_default(struct peg_settings *s, int cross);
/* The declared options of a PEG-family formulation, -<P>_distance_factor ... -<P>_swap_tol (P "peg" or
 * "lnc", a string literal): offsets into struct peg_settings, which is the first member of the state
 * peg_type_create puts in f->data. The defaults are peg_settings_default's. */
#define PEG_SETTINGS_N_OPTIONS 7
#define PEG_SETTINGS_OPTIONS(P)                                                                              \
  {P "_distance_factor",                                                                                     \
   OPT_REAL,                                                                                                 \
   offsetof(struct peg_settings, detect.distance_factor),                                                    \
   "0.5",                                                                                                    \
   "[0,inf)",                                                                                                \
   "proximity distance delta = max(factor h, min): the factor [m per s of step]"},                           \
      {P "_distance_min", OPT_REAL,  offsetof(struct peg_settings, detect.distance_min),                     \
       "0.0008",          "[0,inf)", "proximity distance delta = max(factor h, min): the minimum [m]"},      \
      {P "_predict", OPT_BOOL, offsetof(struct peg_settings, detect.predict),                                \
       "1",          NULL,     "also detect at the predicted configuration q + h nu"},                       \
      {P "_swept", OPT_BOOL, offsetof(struct peg_settings, detect.swept),                                    \
       "1",        NULL,     "also accept a vertex crossing an edge between the two configurations"},        \
      {P "_applicability",                                                                                   \
       OPT_REAL,                                                                                             \
       offsetof(struct peg_settings, applicability),                                                         \
       "-0.2",                                                                                               \
       "[-1,1]",                                                                                             \
       "epsilon_theta = sin theta of the relaxed applicability test (eq. 29)"},                              \
      {P "_swap_tol", OPT_REAL,  offsetof(struct peg_settings, swap_tol),                                    \
       "1e-3",        "[0,inf)", "primary-swap heuristic threshold [m]"},                                    \
      {P "_distance_3d",                                                                                     \
       OPT_REAL,                                                                                             \
       offsetof(struct peg_settings, distance_3d),                                                           \
       "0.1",                                                                                                \
       "(0,inf)",                                                                                            \
       "3D: vertex-face and edge-edge proximity distance [m]"},
void peg_settings_view(const struct peg_settings *s, const char *prefix, FILE *out);

/* One I- or X-constraint in single-primary form (eq. 24 with |C_iota| = |C_kappa| = 1): slack c with
 *   0 <= c + psi_primary - psi_kappa  perp  c >= 0      (eq. 20)
 *   0 <= c + psi_primary              perp  p >= 0      (eq. 24; for X, the auxiliary impulse that turns
 *                                                        inequality 21 into a complementarity condition)
 * p acts along the primary contact's normal. Indices into the contact set. */
struct peg_pair {
  int primary, kappa;
  /* 1: this pair continues the previous pair's constraint in the same list (same primary, the same
   * impulse): an I with several kappa contacts, as in 3D where a vertex meets three or more faces. Its
   * slacks are cumulative (eq. 45's lower-triangular E_I1, eq. 46's row of ones E_I2), so the sum of the
   * group's slacks is max(0, max_kappa psi_kappa - psi_primary). 0 (2D always): a constraint of its own. */
  int cont;
};

struct peg_model {
  int nu, ni, nx;
  int *u;              /* nu contact indices carrying U constraints */
  struct peg_pair *in; /* ni I-constraints */
  struct peg_pair *x;  /* nx X-constraints kept (both contacts applicable) */
  int vv;              /* vertex-corner pairs found (each gives at most one I) */
  int xvv;             /* 3D: X groups of the vertex-vertex case (eq. 38), one per face pair */
  int cap;             /* capacity of u, in, x (contacts) */
  struct peg2d_key *keys;
  int *run;
  double *appl;
  unsigned char *used; /* per contact: 1 = in a U, 2 = in an I */
};

void peg_model_free(struct peg_model *m);
/* The model's I-constraints: the pairs of in that start a constraint (a 3D group of several kappa
 * contacts is one). */
int peg_model_i_constraints(const struct peg_model *m);
/* Room for n contacts (u, in, keys, appl, used: n; x: 2 n). 0, or 1 on allocation failure. */
int peg_model_reserve(struct peg_model *m, int n);
/* Classifies the contacts (fa = VERTEX, fb = EDGE, polygon parts; others are ignored). 0 on success. */
int peg_model_build(struct peg_model *m, const struct world *w, const struct contact_set *cs,
                    const struct peg_settings *s);

/* PEG in 3D (peg3d.c; Sec. 5.2): potential contacts between polyhedron parts within -P_distance_3d
 * (vertex-face both ways, edge-edge of non-parallel edges), and the model: a vertex near one face gives U
 * (eq. 34), near several faces one I over them (eqs. 36-37: the vertex stays outside at least one of the
 * faces, primary the most applicable), near an edge also X between each of its own edges and the face on
 * that edge's side (eq. 36); an edge-edge contact with closest points inside both edges gives U (eq. 35).
 * Applicability eqs. 30-31. 0, or 1 on allocation failure. */
int peg3d_detect(const struct world *w, const struct peg_settings *s, double h, struct contact_set *out);
int peg3d_model_build(struct peg_model *m, const struct world *w, const struct contact_set *cs,
                      const struct peg_settings *s);
/* Standard-model traps in 3D, the analogue of peg2d_count_traps: on the PEG potential contacts of the state
 * (default settings), the vertices near two or more non-coplanar faces of one other part (vertex-edge,
 * vertex-vertex: where the standard model enforces every face and PEG an I-constraint). The count, or -1
 * on failure. */
int peg3d_count_traps(const struct world *w, struct contact_set *scratch);
/* Applicability of a 3D PEG contact (eq. 30 vertex-face, eq. 31 edge-edge); -2 for other kinds. */
double peg3d_applicability(const struct world *w, const struct contact *c);

/* The LCP (unknowns and rows in this order): p_U (nu), p_I (one per constraint: the pairs of in and x that
 * do not continue the previous one), c (ni + nx), then, when any impulse-carrying contact has mu > 0, beta
 * (kdir per such contact) and lambda (1 per contact). */
struct peg_lcp;
int peg_lcp_create(struct peg_lcp **L);
void peg_lcp_destroy(struct peg_lcp **L);
/* kdir: friction directions per friction contact (2D: 2, +t and -t; 3D: -friction_dirs). */
int peg_lcp_assemble(struct peg_lcp *L, const struct peg_model *m, const struct world *w,
                     const struct contact_set *cs, double h, int kdir, struct cp_problem **p,
                     struct row_counts *rows);
/* nu (w->ndof) and pn (cs->n: each contact's normal impulse, summed over the constraints it is primary in).
 */
int peg_lcp_recover(const struct peg_lcp *L, const struct world *w, const struct contact_set *cs,
                    const double *z, double *nu, double *pn);

/* Formulation glue shared by peg.c (cross = 1, options -peg_...) and lnc.c (cross = 0, -lnc_...): f->data
 * holds the settings, the model of the last assembly and the LCP workspace. */
int peg_type_create(struct formulation *f, int cross);
/* The check a range cannot express: delta's factor and minimum not both 0. 0, or 1 with msg. */
int peg_type_set_from_options(struct formulation *f, const char *prefix, char *msg, size_t len);
int peg_type_detect(struct formulation *f, const struct world *w, double h, struct contact_set *cs);
int peg_type_assemble(struct formulation *f, const struct world *w, const struct contact_set *cs, double h,
                      struct cp_problem **p);
int peg_type_recover(struct formulation *f, const struct world *w, const struct contact_set *cs, double h,
                     const double *z, double *nu, double *pn);
void peg_type_destroy(struct formulation *f);
void peg_type_view(const struct formulation *f, const char *prefix, FILE *out);
/* The model built by the last assemble (tests and drivers inspect U / I / X). */
const struct peg_model *peg_type_model(const struct formulation *f);

#endif
