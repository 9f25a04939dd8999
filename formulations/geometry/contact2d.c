/* contact2d.c — 2D narrow phase (see contact2d.h). Every polygon vertex is tested against the other part
 * (its closest boundary feature when outside, its least-penetrated edge when inside), both ways, so a pair
 * of polygons yields the vertex-edge and vertex-vertex contacts Stewart-Trinkle and PEG linearise
 * (Egan et al. eq. 5: one row per current or potential contact). Duplicates (vertex-vertex found from both
 * sides, coincident corners of aligned boxes) are dropped by comparing contact points.
 * Depth is measured per vertex; for a vertex inside (or touching) the other polygon the edge is chosen among
 * those within the threshold of the least penetration by how well it faces the vertex's own edges, so
 * equal-width boxes stacked or sunk along a common side line get vertical normals (point_polygon). */
#include "contact2d.h"

#include "contact2d_convex.h"
#include "contact2d_superellipse.h"
#include "geom2d.h"
#include "overlap2d.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Coincident-contact tolerance (absolute, world units): points closer than this are the same contact. */
static const double contact2d_same_point = 1e-9;
/* A vertex this close to (or inside) a polygon counts as touching: its normal comes from an edge, never from
 * the vertex-to-vertex direction, which is undefined at zero distance. */
static const double contact2d_touch = 1e-9;

struct world_poly {
  int n;
  double *v, *en, *ed; /* world frame */
};

struct closest {
  double dist; /* signed distance of the point to the polygon (> 0 outside) */
  double q[2]; /* closest boundary point (projection on the least-penetrated edge when inside) */
  double n[2]; /* outward unit normal of the polygon at q */
  enum feature_kind f;
  int id;
};

static int world_poly_make(const struct world *w, const struct shape *s, struct world_poly *p)
{
  const struct polygon *pg = s->polygon;
  const struct body *b = &w->bodies[s->body];
  p->n = pg->n;
  p->v = malloc((size_t)pg->n * 5 * sizeof *p->v);
  if (!p->v) return 1;
  p->en = p->v + 2 * pg->n;
  p->ed = p->v + 4 * pg->n;
  geom2d_world_polygon(w, s, p->v);
  double c = cos(b->theta), sn = sin(b->theta);
  for (int i = 0; i < pg->n; i++) {
    double nx = pg->en[2 * i], ny = pg->en[2 * i + 1];
    p->en[2 * i] = c * nx - sn * ny;
    p->en[2 * i + 1] = sn * nx + c * ny;
    p->ed[i] = p->en[2 * i] * p->v[2 * i] + p->en[2 * i + 1] * p->v[2 * i + 1];
  }
  return 0;
}

/* Signed distance of p to P and its closest feature. adj (or NULL): the outward normals of the two edges
 * of the polygon whose vertex p is. A point inside or touching (within contact2d_touch) takes the edge
 * that best faces one of adj's edges among those within `slack` of the least penetration: for exactly
 * aligned boxes (coincident corners, or sunk along a common side line) the least-penetration edge alone is
 * the side edge, whose horizontal normal is wrong; the facing edge is the one the vertex's own edge lies on.
 */
static void point_polygon(const struct world_poly *P, const double p[2], const double *adj, double slack,
                          struct closest *c)
{
  int imax = 0;
  double dmax = -INFINITY;
  for (int i = 0; i < P->n; i++) {
    double d = P->en[2 * i] * p[0] + P->en[2 * i + 1] * p[1] - P->ed[i];
    if (d > dmax) {
      dmax = d;
      imax = i;
    }
  }
  if (dmax <= contact2d_touch) {
    if (adj) {
      double best = -INFINITY;
      for (int i = 0; i < P->n; i++) {
        double d = P->en[2 * i] * p[0] + P->en[2 * i + 1] * p[1] - P->ed[i];
        if (d < dmax - slack - contact2d_touch) continue;
        double face = fmax(-(P->en[2 * i] * adj[0] + P->en[2 * i + 1] * adj[1]),
                           -(P->en[2 * i] * adj[2] + P->en[2 * i + 1] * adj[3]));
        /* facing first; among equally facing edges the shallower one */
        double score = face + 1e-3 * d / (slack + contact2d_touch);
        if (score > best) {
          best = score;
          imax = i;
        }
      }
      dmax = P->en[2 * imax] * p[0] + P->en[2 * imax + 1] * p[1] - P->ed[imax];
    }
    c->dist = dmax;
    c->n[0] = P->en[2 * imax];
    c->n[1] = P->en[2 * imax + 1];
    c->q[0] = p[0] - dmax * c->n[0];
    c->q[1] = p[1] - dmax * c->n[1];
    c->f = FEATURE_EDGE;
    c->id = imax;
    return;
  }
  double best = INFINITY;
  for (int i = 0; i < P->n; i++) {
    const double *u = P->v + 2 * i, *v = P->v + 2 * ((i + 1) % P->n);
    double ex = v[0] - u[0], ey = v[1] - u[1], len2 = ex * ex + ey * ey;
    double t = ((p[0] - u[0]) * ex + (p[1] - u[1]) * ey) / len2;
    double qx, qy;
    enum feature_kind f = FEATURE_EDGE;
    int id = i;
    if (t <= 0.0) {
      qx = u[0], qy = u[1], f = FEATURE_VERTEX;
    } else if (t >= 1.0) {
      qx = v[0], qy = v[1], f = FEATURE_VERTEX, id = (i + 1) % P->n;
    } else {
      qx = u[0] + t * ex, qy = u[1] + t * ey;
    }
    double d = hypot(p[0] - qx, p[1] - qy);
    if (d < best) {
      best = d;
      c->q[0] = qx;
      c->q[1] = qy;
      c->f = f;
      c->id = id;
      if (f == FEATURE_EDGE) {
        c->n[0] = P->en[2 * i];
        c->n[1] = P->en[2 * i + 1];
      } else {
        c->n[0] = (p[0] - qx) / d;
        c->n[1] = (p[1] - qy) / d;
      }
    }
  }
  c->dist = best;
}

static int is_duplicate(const struct contact_set *out, int first, const struct contact *c)
{
  for (int k = first; k < out->n; k++) {
    const struct contact *o = &out->c[k];
    if (fabs(o->pa[0] - c->pa[0]) + fabs(o->pa[1] - c->pa[1]) < contact2d_same_point &&
        fabs(o->pb[0] - c->pb[0]) + fabs(o->pb[1] - c->pb[1]) < contact2d_same_point)
      return 1;
  }
  return 0;
}

static void contact_init(struct contact *c, const struct world *w, int sa, int sb)
{
  memset(c, 0, sizeof *c);
  c->sa = sa;
  c->sb = sb;
  c->a = w->shapes[sa].body;
  c->b = w->shapes[sb].body;
}

static void set2(double *dst, double x, double y)
{
  dst[0] = x;
  dst[1] = y;
  dst[2] = 0.0;
}

/* Vertices of polygon P (shape sp) against polygon Q (shape sq). When flip is 0, P is part a; otherwise P
 * is part b and the contact is written from a's (= Q's) side. */
static int vertices_against(const struct world *w, int sp, const struct world_poly *P, int sq,
                            const struct world_poly *Q, int flip, double thr, struct contact_set *out,
                            int first)
{
  for (int i = 0; i < P->n; i++) {
    struct closest cl = {0};
    int prev = (i + P->n - 1) % P->n;
    const double adj[4] = {P->en[2 * prev], P->en[2 * prev + 1], P->en[2 * i], P->en[2 * i + 1]};
    point_polygon(Q, P->v + 2 * i, adj, thr > 0.0 ? thr : 0.0, &cl);
    if (cl.dist > thr) continue;
    struct contact c;
    if (!flip) {
      contact_init(&c, w, sp, sq);
      set2(c.n, cl.n[0], cl.n[1]);
      set2(c.pa, P->v[2 * i], P->v[2 * i + 1]);
      set2(c.pb, cl.q[0], cl.q[1]);
      c.fa = FEATURE_VERTEX, c.ida = i, c.fb = cl.f, c.idb = cl.id;
    } else {
      contact_init(&c, w, sq, sp);
      set2(c.n, -cl.n[0], -cl.n[1]);
      set2(c.pa, cl.q[0], cl.q[1]);
      set2(c.pb, P->v[2 * i], P->v[2 * i + 1]);
      c.fa = cl.f, c.ida = cl.id, c.fb = FEATURE_VERTEX, c.idb = i;
    }
    c.gap = cl.dist;
    if (is_duplicate(out, first, &c)) continue;
    if (contact_set_push(out, &c)) return 1;
  }
  return 0;
}

/* A vertex-vertex contact that shares its vertex with a vertex-edge contact of the same pair, at nearly the
 * same points (within the threshold), describes the same corner with a less reliable normal; and a
 * vertex-edge plus edge-vertex pair at nearly the same points (within a tenth of the threshold) with nearly
 * the same normal (cos > 0.999: two corners meeting along almost parallel edges) is one constraint twice.
 * Keeping both gives the LCP nearly parallel rows (Lemke then ends on rays or loses accuracy in piles), so
 * the vertex-vertex one, or the later one, goes. */
static int shares_corner(const struct contact *vv, const struct contact *o, double tol)
{
  if (o->fa == FEATURE_VERTEX && o->fb == FEATURE_VERTEX) return 0;
  int same = (o->fa == FEATURE_VERTEX && o->ida == vv->ida) || (o->fb == FEATURE_VERTEX && o->idb == vv->idb);
  double d = fabs(o->pa[0] - vv->pa[0]) + fabs(o->pa[1] - vv->pa[1]) + fabs(o->pb[0] - vv->pb[0]) +
             fabs(o->pb[1] - vv->pb[1]);
  return same && d <= tol;
}

static int same_constraint(const struct contact *c, const struct contact *o, double tol)
{
  double d = fabs(o->pa[0] - c->pa[0]) + fabs(o->pa[1] - c->pa[1]) + fabs(o->pb[0] - c->pb[0]) +
             fabs(o->pb[1] - c->pb[1]);
  return d <= tol && c->n[0] * o->n[0] + c->n[1] * o->n[1] > 0.999;
}

static void drop_redundant_corners(struct contact_set *out, int first, double thr)
{
  double tol = thr > contact2d_same_point ? thr : contact2d_same_point;
  int m = first;
  for (int k = first; k < out->n; k++) {
    const struct contact *c = &out->c[k];
    int drop = 0;
    if (c->fa == FEATURE_VERTEX && c->fb == FEATURE_VERTEX)
      for (int j = first; j < out->n && !drop; j++)
        drop = j != k && shares_corner(c, &out->c[j], tol);
    /* compare with the kept ones only, so that one of two near-equal contacts survives */
    for (int j = first; j < m && !drop; j++)
      drop = same_constraint(c, &out->c[j], 0.1 * tol);
    if (!drop) out->c[m++] = *c;
  }
  out->n = m;
}

static int polygon_polygon(const struct world *w, int sa, int sb, double thr, struct contact_set *out)
{
  struct world_poly A = {0}, B = {0};
  int rc = 1, first = out->n;
  if (world_poly_make(w, &w->shapes[sa], &A) || world_poly_make(w, &w->shapes[sb], &B)) goto cleanup;
  if (vertices_against(w, sa, &A, sb, &B, 0, thr, out, first)) goto cleanup;
  if (vertices_against(w, sb, &B, sa, &A, 1, thr, out, first)) goto cleanup;
  drop_redundant_corners(out, first, thr);
  rc = 0;
cleanup:
  free(A.v);
  free(B.v);
  return rc;
}

static void disc_centre(const struct world *w, const struct shape *s, double c[3])
{
  world_point(w, &w->bodies[s->body], s->c, c);
}

static int disc_disc(const struct world *w, int sa, int sb, double thr, struct contact_set *out)
{
  const struct shape *A = &w->shapes[sa], *B = &w->shapes[sb];
  double ca[3], cb[3];
  disc_centre(w, A, ca);
  disc_centre(w, B, cb);
  double dx = ca[0] - cb[0], dy = ca[1] - cb[1], dist = hypot(dx, dy);
  double gap = dist - A->radius - B->radius;
  if (gap > thr) return 0;
  struct contact c;
  contact_init(&c, w, sa, sb);
  if (dist > 0.0)
    set2(c.n, dx / dist, dy / dist);
  else
    set2(c.n, 0.0, 1.0); /* concentric discs: any direction is as good; pick +y */
  set2(c.pa, ca[0] - A->radius * c.n[0], ca[1] - A->radius * c.n[1]);
  set2(c.pb, cb[0] + B->radius * c.n[0], cb[1] + B->radius * c.n[1]);
  c.gap = gap;
  c.fa = c.fb = FEATURE_SURFACE;
  return contact_set_push(out, &c);
}

static int disc_polygon(const struct world *w, int sa, int sb, double thr, struct contact_set *out)
{
  const struct shape *A = &w->shapes[sa];
  struct world_poly B = {0};
  if (world_poly_make(w, &w->shapes[sb], &B)) return 1;
  double ca[3];
  disc_centre(w, A, ca);
  struct closest cl = {0};
  point_polygon(&B, ca, NULL, 0.0, &cl);
  free(B.v);
  double gap = cl.dist - A->radius;
  if (gap > thr) return 0;
  struct contact c;
  contact_init(&c, w, sa, sb);
  set2(c.n, cl.n[0], cl.n[1]);
  set2(c.pa, ca[0] - A->radius * cl.n[0], ca[1] - A->radius * cl.n[1]);
  set2(c.pb, cl.q[0], cl.q[1]);
  c.gap = gap;
  c.fa = FEATURE_SURFACE;
  c.fb = cl.f;
  c.idb = cl.id;
  return contact_set_push(out, &c);
}

/* World normal and offset of a half-plane part: solid {x : n . x <= d}. */
static void halfplane_world(const struct world *w, const struct shape *s, double n[3], double *d)
{
  const struct body *b = &w->bodies[s->body];
  world_vector(w, b, s->n, n);
  *d = s->d + n[0] * b->x[0] + n[1] * b->x[1];
}

static int disc_halfplane(const struct world *w, int sa, int sb, double thr, struct contact_set *out)
{
  const struct shape *A = &w->shapes[sa];
  double n[3], d, ca[3];
  halfplane_world(w, &w->shapes[sb], n, &d);
  disc_centre(w, A, ca);
  double s = n[0] * ca[0] + n[1] * ca[1] - d, gap = s - A->radius;
  if (gap > thr) return 0;
  struct contact c;
  contact_init(&c, w, sa, sb);
  set2(c.n, n[0], n[1]);
  set2(c.pa, ca[0] - A->radius * n[0], ca[1] - A->radius * n[1]);
  set2(c.pb, ca[0] - s * n[0], ca[1] - s * n[1]);
  c.gap = gap;
  c.fa = c.fb = FEATURE_SURFACE;
  return contact_set_push(out, &c);
}

static int polygon_halfplane(const struct world *w, int sa, int sb, double thr, struct contact_set *out)
{
  struct world_poly A = {0};
  if (world_poly_make(w, &w->shapes[sa], &A)) return 1;
  double n[3], d;
  halfplane_world(w, &w->shapes[sb], n, &d);
  int rc = 0;
  for (int i = 0; i < A.n && !rc; i++) {
    const double *v = A.v + 2 * i;
    double s = n[0] * v[0] + n[1] * v[1] - d;
    if (s > thr) continue;
    struct contact c;
    contact_init(&c, w, sa, sb);
    set2(c.n, n[0], n[1]);
    set2(c.pa, v[0], v[1]);
    set2(c.pb, v[0] - s * n[0], v[1] - s * n[1]);
    c.gap = s;
    c.fa = FEATURE_VERTEX;
    c.ida = i;
    c.fb = FEATURE_SURFACE;
    rc = contact_set_push(out, &c);
  }
  free(A.v);
  return rc;
}

static void contact_flip(struct contact *c)
{
  int t = c->a;
  c->a = c->b, c->b = t;
  t = c->sa, c->sa = c->sb, c->sb = t;
  t = c->ida, c->ida = c->idb, c->idb = t;
  enum feature_kind f = c->fa;
  c->fa = c->fb, c->fb = f;
  for (int k = 0; k < 3; k++) {
    double p = c->pa[k];
    c->pa[k] = c->pb[k], c->pb[k] = p;
    c->n[k] = -c->n[k];
  }
}

int contact2d_shapes(const struct world *w, int sa, int sb, double threshold, struct contact_set *out)
{
  enum shape_kind ka = w->shapes[sa].kind, kb = w->shapes[sb].kind;
  if (ka > kb) {
    int first = out->n;
    int rc = contact2d_shapes(w, sb, sa, threshold, out);
    for (int k = first; k < out->n; k++)
      contact_flip(&out->c[k]);
    return rc;
  }
  if (ka == SHAPE_DISC && kb == SHAPE_DISC) return disc_disc(w, sa, sb, threshold, out);
  if (ka == SHAPE_DISC && kb == SHAPE_POLYGON) return disc_polygon(w, sa, sb, threshold, out);
  if (ka == SHAPE_DISC && kb == SHAPE_HALFPLANE) return disc_halfplane(w, sa, sb, threshold, out);
  if (ka == SHAPE_POLYGON && kb == SHAPE_POLYGON) return polygon_polygon(w, sa, sb, threshold, out);
  if (ka == SHAPE_POLYGON && kb == SHAPE_HALFPLANE) return polygon_halfplane(w, sa, sb, threshold, out);
  if (ka == SHAPE_DISC && kb == SHAPE_SUPERELLIPSE)
    return contact2d_disc_superellipse(w, sa, sb, threshold, out);
  if (ka == SHAPE_HALFPLANE && kb == SHAPE_SUPERELLIPSE) {
    /* written from the superellipse's side (body a), then turned to (sa, sb) = (half-plane, superellipse) */
    int first = out->n;
    int rc = contact2d_superellipse_halfplane(w, sb, sa, threshold, out);
    for (int k = first; k < out->n; k++)
      contact_flip(&out->c[k]);
    return rc;
  }
  if ((ka == SHAPE_POLYGON || ka == SHAPE_SUPERELLIPSE) && kb == SHAPE_SUPERELLIPSE)
    return contact2d_convex(w, sa, sb, threshold, out);
  return 2;
}

int contact2d_supported(enum shape_kind a, enum shape_kind b)
{
  enum shape_kind lo = a < b ? a : b, hi = a < b ? b : a;
  if (hi == SHAPE_SUPERELLIPSE)
    return lo == SHAPE_DISC || lo == SHAPE_HALFPLANE || lo == SHAPE_POLYGON || lo == SHAPE_SUPERELLIPSE;
  int known = SHAPE_DISC | SHAPE_POLYGON | SHAPE_HALFPLANE;
  return (known & (int)lo) && (known & (int)hi) && !(lo == SHAPE_HALFPLANE && hi == SHAPE_HALFPLANE);
}
