/* contact3d_poly.c — potential contacts between two convex polyhedra (contact3d.h), the feature pairs of
 * Stewart-Trinkle style time-stepping in 3D and of PEG (Williams-Lu-Trinkle: vertex-face and edge-edge):
 *  - vertex of one body / face of the other: the vertex within the threshold of the face plane and
 *    projecting inside the face (its Voronoi slab); a vertex inside the other body pairs with the face it
 *    penetrates least (ties broken towards the face looking at the vertex's body);
 *  - edge-edge: closest points interior to both segments, n = the cross product oriented out of b, kept
 *    only when n lies in b's and -n in a's edge normal cone (the edges really face each other), so the
 *    plane through the edge pair separates the bodies to first order;
 *  - vertex-edge / vertex-vertex for a separated vertex in the Voronoi region of the other body's edge or
 *    vertex, with the vertex also the nearest point of its own body;
 * then contacts with the same points and normal (a shared corner seen from both sides) are merged. */
#include "contact3d.h"
#include "geom3d.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct pp_ctx {
  const struct hull3d_placed *a, *b;
  double threshold, tol; /* tol: a length, relative to the bodies' size */
  struct contact_set *out;
  int first; /* index in out of this pair's first contact, for merging */
};

static int same_contact(const struct contact *c, const double n[3], const double pa[3], const double pb[3],
                        double tol)
{
  double d1[3], d2[3];
  vec3_sub(c->pa, pa, d1);
  vec3_sub(c->pb, pb, d2);
  return vec3_norm(d1) <= tol && vec3_norm(d2) <= tol && vec3_dot(c->n, n) >= 1.0 - 1e-9;
}

/* Appends a contact given with the vertex/feature owner order of (a, b); flip = 1 when the roles were
 * computed with b's feature first (then n, points and features are swapped here). */
static int pp_push(struct pp_ctx *x, int flip, double gap, const double n[3], const double p1[3],
                   const double p2[3], enum feature_kind f1, int id1, enum feature_kind f2, int id2)
{
  struct contact c = {
      .a = -1, .b = -1, .sa = -1, .sb = -1, .gap = gap, .fa = f1, .fb = f2, .ida = id1, .idb = id2};
  memcpy(c.n, n, sizeof c.n);
  memcpy(c.pa, p1, sizeof c.pa);
  memcpy(c.pb, p2, sizeof c.pb);
  if (flip) contact3d_flip(&c);
  for (int k = x->first; k < x->out->n; k++)
    if (same_contact(&x->out->c[k], c.n, c.pa, c.pb, x->tol)) return 0;
  return contact_set_push(x->out, &c);
}

/* n in the normal cone of edge e of p: n = alpha n1 + beta n2 with alpha, beta >= 0 (up to tol). */
static int in_edge_cone(const struct hull3d_placed *p, int e, const double n[3], double tol)
{
  const struct polyhedron *ph = p->ph;
  const double *n1 = p->fn + 3 * ph->edge_face[2 * e], *n2 = p->fn + 3 * ph->edge_face[2 * e + 1];
  double d[3], c[3];
  vec3_sub(p->v + 3 * ph->edge_vert[2 * e + 1], p->v + 3 * ph->edge_vert[2 * e], d);
  vec3_normalize(d);
  vec3_cross(n1, n2, c);
  double sgn = vec3_dot(c, d) >= 0.0 ? 1.0 : -1.0;
  vec3_cross(n1, n, c);
  double alpha_side = sgn * vec3_dot(c, d);
  vec3_cross(n, n2, c);
  double beta_side = sgn * vec3_dot(c, d);
  double m[3];
  vec3_add(n1, n2, m);
  return alpha_side >= -tol && beta_side >= -tol && vec3_dot(n, m) > 0.0;
}

/* Vertex i of p is the point of p nearest to x (x - v points into v's normal cone): no neighbour of v
 * is closer along x - v. */
static int vertex_faces(const struct hull3d_placed *p, int i, const double x[3], double tol)
{
  const struct polyhedron *ph = p->ph;
  const double *v = p->v + 3 * i;
  double d[3];
  vec3_sub(x, v, d);
  double len = vec3_norm(d);
  for (int e = 0; e < ph->ne; e++) {
    int j;
    if (ph->edge_vert[2 * e] == i)
      j = ph->edge_vert[2 * e + 1];
    else if (ph->edge_vert[2 * e + 1] == i)
      j = ph->edge_vert[2 * e];
    else
      continue;
    double u[3];
    vec3_sub(p->v + 3 * j, v, u);
    if (vec3_dot(d, u) > tol * len * vec3_norm(u)) return 0;
  }
  return 1;
}

/* Vertex-face candidates of the vertices of p against the faces of q (flip: p is body b). */
static int vertices_faces(struct pp_ctx *x, const struct hull3d_placed *p, const struct hull3d_placed *q,
                          int flip)
{
  const struct polyhedron *pp = p->ph, *qp = q->ph;
  double toward[3]; /* from q's centre to p's: breaks ties between equally penetrated faces */
  vec3_sub(p->centre, q->centre, toward);
  for (int i = 0; i < pp->nv; i++) {
    const double *v = p->v + 3 * i;
    double smax = -HUGE_VAL, score = -HUGE_VAL;
    int fbest = -1;
    for (int f = 0; f < qp->nf; f++) {
      double s = vec3_dot(q->fn + 3 * f, v) - q->fd[f];
      if (s > smax + x->tol) {
        smax = s, fbest = f, score = vec3_dot(q->fn + 3 * f, toward);
      } else if (s > smax - x->tol && vec3_dot(q->fn + 3 * f, toward) > score) {
        smax = s > smax ? s : smax, fbest = f, score = vec3_dot(q->fn + 3 * f, toward);
      }
    }
    if (smax > x->threshold + x->tol) continue;
    for (int f = 0; f < qp->nf; f++) {
      const double *n = q->fn + 3 * f;
      double s = vec3_dot(n, v) - q->fd[f], proj[3];
      if (s > x->threshold) continue;
      /* Inside q (smax <= tol) only the least-penetrated face counts; outside, any face whose slab
       * holds the vertex. */
      if (smax <= x->tol ? f != fbest : s < -x->tol) continue;
      memcpy(proj, v, sizeof proj);
      vec3_axpy(-s, n, proj);
      if (smax > x->tol && !contact3d_face_contains(q, f, proj, x->tol)) continue;
      if (pp_push(x, flip, s, n, v, proj, FEATURE_VERTEX, i, FEATURE_FACE, f)) return 1;
    }
  }
  return 0;
}

/* Vertex-edge and vertex-vertex candidates: vertices of p outside q, in the Voronoi region of an edge or
 * vertex of q and nearest points of p themselves. */
static int vertices_edges(struct pp_ctx *x, const struct hull3d_placed *p, const struct hull3d_placed *q,
                          int flip, int with_vertices)
{
  const struct polyhedron *pp = p->ph, *qp = q->ph;
  for (int i = 0; i < pp->nv; i++) {
    const double *v = p->v + 3 * i;
    double dc[3];
    vec3_sub(v, q->centre, dc);
    if (vec3_norm(dc) > q->radius + x->threshold) continue;
    for (int e = 0; e < qp->ne; e++) {
      const double *q0 = q->v + 3 * qp->edge_vert[2 * e], *q1 = q->v + 3 * qp->edge_vert[2 * e + 1];
      double d[3], r[3], c[3], n[3];
      vec3_sub(q1, q0, d);
      vec3_sub(v, q0, r);
      double t = vec3_dot(r, d) / vec3_dot(d, d);
      if (t <= 1e-9 || t >= 1.0 - 1e-9) continue;
      memcpy(c, q0, sizeof c);
      vec3_axpy(t, d, c);
      vec3_sub(v, c, n);
      double dist = vec3_normalize(n);
      if (dist > x->threshold || dist <= x->tol) continue;
      if (!in_edge_cone(q, e, n, 1e-9) || !vertex_faces(p, i, c, 1e-9)) continue;
      if (pp_push(x, flip, dist, n, v, c, FEATURE_VERTEX, i, FEATURE_EDGE, e)) return 1;
    }
    if (!with_vertices) continue;
    for (int j = 0; j < qp->nv; j++) {
      const double *u = q->v + 3 * j;
      double n[3];
      vec3_sub(v, u, n);
      double dist = vec3_normalize(n);
      if (dist > x->threshold || dist <= x->tol) continue;
      if (!vertex_faces(q, j, v, 1e-9) || !vertex_faces(p, i, u, 1e-9)) continue;
      if (pp_push(x, flip, dist, n, v, u, FEATURE_VERTEX, i, FEATURE_VERTEX, j)) return 1;
    }
  }
  return 0;
}

/* Edge-edge candidates. The lines' closest points solve the 2x2 normal equations; a pair counts when
 * both parameters are interior, the gap is within the threshold, and the edges face each other. */
static int edges_edges(struct pp_ctx *x)
{
  const struct hull3d_placed *a = x->a, *b = x->b;
  const struct polyhedron *ap = a->ph, *bp = b->ph;
  /* b's edge midpoints (times 2) and half lengths, for the bounding-sphere reject of every pair. */
  double *mid = malloc(4 * (size_t)bp->ne * sizeof *mid), *half = mid + 3 * bp->ne;
  if (!mid) return 1;
  for (int j = 0; j < bp->ne; j++) {
    const double *q0 = b->v + 3 * bp->edge_vert[2 * j], *q1 = b->v + 3 * bp->edge_vert[2 * j + 1];
    double db[3];
    vec3_add(q0, q1, mid + 3 * j);
    vec3_sub(q1, q0, db);
    half[j] = 0.5 * vec3_norm(db);
  }
  int rc = 0;
  for (int i = 0; i < ap->ne && !rc; i++) {
    const double *p0 = a->v + 3 * ap->edge_vert[2 * i], *p1 = a->v + 3 * ap->edge_vert[2 * i + 1];
    double da[3], ma[3];
    vec3_sub(p1, p0, da);
    vec3_add(p0, p1, ma);
    double A = vec3_dot(da, da), reach_a = 0.5 * sqrt(A) + x->threshold;
    for (int j = 0; j < bp->ne; j++) {
      const double *q0 = b->v + 3 * bp->edge_vert[2 * j], *q1 = b->v + 3 * bp->edge_vert[2 * j + 1];
      double db[3], n[3], r[3], mm[3], reach = reach_a + half[j];
      vec3_sub(ma, mid + 3 * j, mm);
      if (vec3_dot(mm, mm) > 4.0 * reach * reach) continue; /* segments' bounding spheres apart */
      vec3_sub(q1, q0, db);
      double C = vec3_dot(db, db);
      vec3_cross(da, db, n);
      double len2 = vec3_dot(n, n);
      if (len2 <= 1e-18 * A * C) continue; /* parallel: vertex-face covers it */
      vec3_scale(n, 1.0 / sqrt(len2), n);
      vec3_sub(p0, q0, r);
      double gap = vec3_dot(n, r);
      double B = vec3_dot(da, db);
      double D = vec3_dot(da, r), E = vec3_dot(db, r), det = A * C - B * B;
      double s = (B * E - C * D) / det, t = (A * E - B * D) / det;
      if (s <= 1e-9 || s >= 1.0 - 1e-9 || t <= 1e-9 || t >= 1.0 - 1e-9) continue;
      double m[3];
      vec3_add(b->fn + 3 * bp->edge_face[2 * j], b->fn + 3 * bp->edge_face[2 * j + 1], m);
      if (vec3_dot(n, m) < 0.0) vec3_scale(n, -1.0, n), gap = -gap;
      if (gap > x->threshold) continue;
      double mn[3];
      vec3_scale(n, -1.0, mn);
      if (!in_edge_cone(b, j, n, 1e-9) || !in_edge_cone(a, i, mn, 1e-9)) continue;
      double pa[3], pb[3];
      memcpy(pa, p0, sizeof pa);
      vec3_axpy(s, da, pa);
      memcpy(pb, q0, sizeof pb);
      vec3_axpy(t, db, pb);
      /* A penetrating pair must really be inside the other body, else it is a far-side pair. */
      if (gap < 0.0 && (!hull3d_placed_contains(b, pa, x->tol) || !hull3d_placed_contains(a, pb, x->tol)))
        continue;
      if (pp_push(x, 0, gap, n, pa, pb, FEATURE_EDGE, i, FEATURE_EDGE, j)) {
        rc = 1;
        break;
      }
    }
  }
  free(mid);
  return rc;
}

int contact3d_polyhedron_polyhedron(const struct hull3d_placed *a, const struct hull3d_placed *b,
                                    double threshold, struct contact_set *out)
{
  double d[3];
  vec3_sub(a->centre, b->centre, d);
  if (vec3_norm(d) > a->radius + b->radius + threshold) return 0;
  struct pp_ctx x = {a, b, threshold, 1e-9 * (a->radius + b->radius), out, out->n};
  if (vertices_faces(&x, a, b, 0) || vertices_faces(&x, b, a, 1)) return 1;
  if (vertices_edges(&x, a, b, 0, 1) || vertices_edges(&x, b, a, 1, 0)) return 1;
  return edges_edges(&x);
}
