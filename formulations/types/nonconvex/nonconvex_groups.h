/* nonconvex_groups.h — what the nonconvex formulations (Egan, Berard & Trinkle, Secs. III-VII and the
 * appendix) share: (1) which potential contacts form nonconvex groups (nonconvex_groups.c), (2) the LCP
 * blocks common to the max (eqs. 32-33) and summation (eqs. 34-35) forms and recovery (nonconvex_lcp.c).
 * Invariants: sides are ordered nonconvex first (each group contiguous), then convex; every side derives
 * from one detected contact. 2D only (what 3D needs: below). */

/* Sides (2D; nonconvex_groups.c). Every detected contact in which a polygon vertex or a disc centre (the
 * "point") faces a polygon part Q of another body becomes point-against-edge-line constraints ("sides").
 * For each corner q of Q within the detection threshold of the point, the pair (point, q) contributes the
 * edges of the local Minkowski difference (the translational C-space obstacle) at that vertex pair: the
 * point against q's edges whose normal lies in -N_P(point), and q against the point's own edges whose
 * reversed normal lies in N_Q(q) (N: normal cones, within 0.02 rad; a disc's cone is every direction, so
 * it gets both edges at q). Parallel candidates are one side (the one whose point projects inside its
 * edge). Free space near the pair is the UNION of these half-planes (Egan Fig. 2b): one side is an
 * ordinary convex constraint, two or more form a group. So a vertex near a vertex, a disc at a corner and
 * a point on an edge near its end (the neighbouring edge then enters only to bound the first, Sec. VII
 * Fig. 8) give groups; a body lying flush on a face near its corner gives one convex side (Fig. 5: the
 * cones meet in one ray); no corner near: the contact's own edge, convex. Half-planes and disc-disc
 * contacts are always convex. A vertex pair is given sides once (vertex-vertex contacts would otherwise
 * add it from both vertices). A nonconvex body is a union of convex parts: its exterior is the
 * INTERSECTION over parts of each part's exterior, so per-part groups joined by the LCP's "and" are exact
 * — at a reflex corner of the union (a container's inner corner, the bottom of a hole) each part gives its
 * own constraint and the intersection is the right (locally convex) free space. An edge that lies against
 * another part of the same body (a seam, e.g. tiles of a floor) is not boundary and never a side.
 * Order: groups in detection order, within a group corner by corner counter-clockwise from the contact's
 * feature (q's incoming edge, outgoing edge, then the point's edges); then the convex sides.
 * 3D (not done): sides would be the polyhedron faces within the threshold of a vertex (a vertex-face or
 * vertex-vertex contact near a convex edge or vertex of the other part), and an edge-edge contact would
 * need the two faces of each convex edge, i.e. the faces of the local Minkowski difference; the seam test
 * would probe just outside a face instead of an edge.
 *
 * LCP blocks (nonconvex_lcp.c): the columns W_y, W_x (side normals), W_f (2 tangents per side with
 * mu > 0: a frictionless side has no friction rows, as its cone is the point 0), the tail
 * [p_y; p_x; p_f; s] shared by both forms, and recovery nu+ = nu_free + M^-1 (W_n p_n + W_f p_f) (eq. 3). */

#ifndef CB_NONCONVEX_GROUPS_H
#define CB_NONCONVEX_GROUPS_H

#include "contact_set.h"
#include "jacobian.h"

struct nc_side {
  /* The side as a contact (world.h conventions): a = the point's body, b = the edge's body; n = the edge's
   * outward unit normal; gap = signed distance of the point from the edge's LINE minus the disc radius;
   * pa = the point (minus radius * n for a disc), pb = its projection on the line; fb = FEATURE_EDGE. */
  struct contact c;
  int group;   /* nonconvex group index, -1 for a convex side */
  int source;  /* index of the detected contact it was derived from */
  int passive; /* bounds its group's union but carries no impulse (see nc_groups_build) */
};

struct nc_cand;

struct nc_groups {
  int ns, ny, nx, ng; /* sides: the ny nonconvex ones first (each group contiguous), then nx convex */
  struct nc_side *side;
  int *group_start; /* ng + 1: group j holds sides [group_start[j], group_start[j + 1]) */
  int cap_side, cap_group;
  /* scratch */
  struct nc_side *tmp; /* the convex sides */
  int cap_tmp;
  double *poly; /* two world-frame polygons */
  int cap_poly;
  struct nc_cand *cand; /* candidate sides of one point */
  int cap_cand;
  int *pairs; /* vertex pairs already given sides: (shape, vertex, shape, vertex) */
  int npairs, cap_pairs;
};

/* Builds the sides and groups of the contacts cs (threshold: the detection threshold). 0 on success, 1 on
 * allocation failure. g is reused across calls; nc_groups_free releases it.
 * Passive sides (our addition to Egan's forms): a side of a group whose line the point lies behind
 * (gap < min(0, G - 1e-3 threshold), G the group's largest gap) — e.g. the wall below a corner for a vertex
 * sliding on the top towards it — still bounds the union (Fig. 8) but may not push: both the max and the
 * summation LCPs otherwise admit an impulse that drags the point across that line within one step (a block
 * launched at 8.5 m/s in the Fig. 1 scene). The side of largest gap is never passive. */
int nc_groups_build(const struct world *w, const struct contact_set *cs, double threshold,
                    struct nc_groups *g);
void nc_groups_free(struct nc_groups *g);

/* The shared LCP pieces of one step. Column layout: ns normal columns (side order), then the friction
 * columns (2 per side with mu > 0, +t then -t). Unknown layout of the tail, from offset o:
 * [p_y (ny); p_x (nx); p_f (nf); s (nsl)]. */
struct nc_lcp {
  struct nc_groups g;
  int nf, nsl;      /* friction columns, slack unknowns */
  struct jcol *col; /* ns + nf */
  double *rhs;      /* ns + nf: W^T nu_free, plus gap / h on the normal columns (Egan eq. 7) */
  int *fric;        /* ns + 1: friction columns of side i are ns + [fric[i], fric[i + 1]) */
  int *slack;       /* ns: slack index of side i, -1 if frictionless */
  double *nu_free, *work;
  int ndof, cap_col, cap_side;
  int passive_sides; /* -nc_passive_sides (default 1); 0: every side may push, as Egan's forms are printed */
};

/* The data of nonconvex_max and nonconvex_sum (f->data): the shared LCP pieces and the form's one
 * constant (max: gamma, sum: epsilon), > 0 when fixed by its option, 0 (the option's default) for the
 * per-step value. */
struct formulation;
enum { NC_SUM_RHS_EQ35, NC_SUM_RHS_EQ30 };
struct nc_form {
  struct nc_lcp lcp;
  double param;
  double param_used; /* the value of the last assemble */
  int sum_rhs;       /* nonconvex_sum's group row (-nc_sum_rhs): NC_SUM_RHS_EQ35 or NC_SUM_RHS_EQ30 */
};
int nc_form_create(struct formulation *f);
void nc_form_destroy(struct formulation *f);
/* The row both forms declare (one -nc_passive_sides for the pair; option_table.h). */
#define NC_PASSIVE_SIDES_OPTION                                                                              \
  {                                                                                                          \
    "nc_passive_sides", OPT_BOOL, offsetof(struct nc_form, lcp.passive_sides), "1", NULL,                    \
        "passive sides: a side the point lies behind bounds its group but may not push (0: Egan's forms)"    \
  }

/* Sides, columns and right-hand sides for (w, cs, h). 0 on success. */
int nc_lcp_setup(struct nc_lcp *L, const struct world *w, const struct contact_set *cs, double h,
                 double threshold);
void nc_lcp_free(struct nc_lcp *L);
/* Unknowns in the tail. */
static inline int nc_lcp_tail_size(const struct nc_lcp *L) { return L->g.ns + L->nf + L->nsl; }
/* Writes sign * W_i^T M^-1 [W_n W_f] into row[o .. o + ns + nf) for side i and returns the side's free gap
 * rate a_i(p = 0) = W_i^T nu_free + gap_i / h (Egan eqs. 10-11 with friction and external impulses). */
double nc_lcp_gap_rate_row(const struct nc_lcp *L, int i, double sign, double *row, int o);
/* Rows of p_x, p_f and s (eq. 32 rows 7-9 / eq. 34 rows 3-5) into the n-unknown LCP p, tail at offset o.
 */
void nc_lcp_fill_tail(const struct nc_lcp *L, double *M, double *q, int n, int o);
/* nu (w->ndof) from the tail of z at offset o; pn[k] (cs->n) = the sum of the normal impulses of the sides
 * derived from detected contact k. */
void nc_lcp_recover(const struct nc_lcp *L, const struct contact_set *cs, const double *z, int o, double *nu,
                    double *pn);
/* Normal impulses of the sides of the last recover call are z[o .. o + ns). */

/* Speed bound of the fastest point: max over dynamic bodies of |v| + |omega| r_bound + h (|g| + |f| / m). */
double nc_fastest_point_speed(const struct world *w, double h);

#endif
