/* peg3d.c — the polytopal exact geometry (PEG) contact model in 3D, Williams, Lu & Trinkle 2016, Sec. 5.2
 * (see peg_lcp.h). Potential contacts between polyhedron parts of bodies that may collide, within delta
 * (-peg_distance_3d, 0.1 m as the authors' code) at the current configuration:
 *   vertex-face: a vertex of one part within delta of a face (the face polygon, not its plane) of the
 *     other, both ways; n = the face's outward normal, gap = signed distance to its plane;
 *   edge-edge: two non-parallel edges (flat edges of triangulated faces left out) whose segments come
 *     within delta; n = +-(e_a x e_b), the sign that maximises eq. 31's applicability; gap along n.
 * Model, single primary contact per constraint (Sec. 5.3):
 *   a vertex near one face: U (eq. 34) when applicable (eq. 30, epsilon_theta -peg_applicability);
 *   a vertex near several faces (an edge: vertex-edge, eq. 36; a vertex: vertex-vertex, eq. 37): ONE
 *     I-constraint over them — the vertex stays outside at least one of the faces, which for a convex
 *     part is exactly "outside the part" near that feature — primary the most applicable contact, the
 *     others kappa (cumulative slacks, eqs. 45-46);
 *   vertex-edge (two faces f1, f2 meeting at a non-flat edge e_b): X(C(e_i, e_b), C(v, f_k)) for each edge
 *     e_i of the vertex with an applicable edge-edge contact on e_b, f_k the face on whose side e_i points
 *     (eq. 36: the edge may cross e_b only when the vertex passes on that face's side);
 *   an edge-edge contact whose closest points are interior to both edges and that is in no X: U (eq. 35).
 *   vertex-vertex (a vertex near several faces of another part that meet at a vertex, and that vertex near
 *     faces at the first): per face pair X({C(va, fb), C(vb, fa)}, {C(ea_r, eb_s)}) (eq. 38), the edges of
 *     fa at va against those of fb at vb with applicable detected edge-edge contacts.
 * Friction as in 2D: Stewart-Trinkle's polyhedral cone (-friction_dirs directions) on every
 * impulse-carrying contact when mu > 0. */
#include "geom3d.h"
#include "hull3d.h"
#include "peg_lcp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Interior of an edge for the edge-edge U: closest-point parameters in (tol, 1 - tol). */
static const double peg3d_interior = 1e-6;
/* Faces whose normals agree this closely are coplanar (a triangulated face's diagonal is a flat edge). */
static const double peg3d_flat = 1e-9;

static int may_collide(const struct world *w, int i, int j)
{
  const struct body *a = &w->bodies[i], *b = &w->bodies[j];
  if (a->is_static && b->is_static) return 0;
  if (a->group != 0 && a->group == b->group) return 0;
  return 1;
}

/* Closest point parameters s, t of segments p0 + s d0 and q0 + t d1 (both in [0, 1]); returns |gap|^2. */
static double segments_closest(const double p0[3], const double d0[3], const double q0[3], const double d1[3],
                               double *s, double *t)
{
  double r[3];
  vec3_sub(p0, q0, r);
  double a = vec3_dot(d0, d0), e = vec3_dot(d1, d1), f = vec3_dot(d1, r), c = vec3_dot(d0, r);
  double b = vec3_dot(d0, d1), den = a * e - b * b;
  double ss = den > 1e-300 ? (b * f - c * e) / den : 0.0;
  ss = fmin(1.0, fmax(0.0, ss));
  double tt = (b * ss + f) / e;
  if (tt < 0.0) {
    tt = 0.0;
    ss = fmin(1.0, fmax(0.0, -c / a));
  } else if (tt > 1.0) {
    tt = 1.0;
    ss = fmin(1.0, fmax(0.0, (b - c) / a));
  }
  double x[3], y[3], g[3];
  for (int k = 0; k < 3; k++)
    x[k] = p0[k] + ss * d0[k], y[k] = q0[k] + tt * d1[k];
  vec3_sub(x, y, g);
  *s = ss, *t = tt;
  return vec3_dot(g, g);
}

/* Distance of x to face f (polygon) of the placed polyhedron, given its plane distance psi. */
static double face_distance(const struct hull3d_placed *P, int f, const double x[3], double psi)
{
  const struct polyhedron *ph = P->ph;
  int s0 = ph->face_start[f], m = ph->face_start[f + 1] - s0;
  double q[3];
  memcpy(q, x, sizeof q);
  vec3_axpy(-psi, P->fn + 3 * f, q);
  int inside = 1;
  double best = HUGE_VAL;
  for (int k = 0; k < m; k++) {
    const double *v0 = P->v + 3 * ph->face_vert[s0 + k], *v1 = P->v + 3 * ph->face_vert[s0 + (k + 1) % m];
    double e[3], r[3], c[3];
    vec3_sub(v1, v0, e);
    vec3_sub(q, v0, r);
    vec3_cross(e, r, c);
    if (vec3_dot(c, P->fn + 3 * f) < 0.0) inside = 0;
    double ee = vec3_dot(e, e), t = ee > 0.0 ? fmin(1.0, fmax(0.0, vec3_dot(r, e) / ee)) : 0.0, d[3];
    for (int i = 0; i < 3; i++)
      d[i] = x[i] - (v0[i] + t * e[i]);
    best = fmin(best, vec3_norm(d));
  }
  return inside ? fabs(psi) : best;
}

static int vertex_faces(const struct world *w, int sa, int sb, const struct hull3d_placed *A,
                        const struct hull3d_placed *B, double delta, struct contact_set *out)
{
  for (int i = 0; i < A->ph->nv; i++) {
    const double *p = A->v + 3 * i;
    double d0[3];
    vec3_sub(p, B->centre, d0);
    if (vec3_norm(d0) > B->radius + delta) continue;
    for (int f = 0; f < B->ph->nf; f++) {
      const double *n = B->fn + 3 * f;
      double psi = vec3_dot(n, p) - B->fd[f];
      if (psi > delta || psi < -delta || face_distance(B, f, p, psi) > delta) continue;
      struct contact c = {.a = w->shapes[sa].body, .b = w->shapes[sb].body, .sa = sa, .sb = sb, .gap = psi};
      memcpy(c.n, n, sizeof c.n);
      memcpy(c.pa, p, sizeof c.pa);
      memcpy(c.pb, p, sizeof c.pb);
      vec3_axpy(-psi, n, c.pb);
      c.fa = FEATURE_VERTEX, c.ida = i, c.fb = FEATURE_FACE, c.idb = f;
      c.mu = w->mu;
      if (contact_set_push(out, &c)) return 1;
    }
  }
  return 0;
}

/* Unit direction in face f, perpendicular to edge e and pointing into the face (world frame, placed). */
static void face_tangent(const struct hull3d_placed *P, int e, int f, double t[3])
{
  const struct polyhedron *ph = P->ph;
  const double *v0 = P->v + 3 * ph->edge_vert[2 * e], *v1 = P->v + 3 * ph->edge_vert[2 * e + 1];
  double d[3], c[3] = {0, 0, 0}, r[3];
  vec3_sub(v1, v0, d);
  vec3_cross(P->fn + 3 * f, d, t);
  vec3_normalize(t);
  int s0 = ph->face_start[f], m = ph->face_start[f + 1] - s0;
  for (int k = 0; k < m; k++)
    vec3_axpy(1.0 / m, P->v + 3 * ph->face_vert[s0 + k], c);
  vec3_sub(c, v0, r);
  if (vec3_dot(r, t) < 0.0) vec3_scale(t, -1.0, t);
}

static int flat_edge(const struct hull3d_placed *P, int e)
{
  const int *ef = P->ph->edge_face + 2 * e;
  return vec3_dot(P->fn + 3 * ef[0], P->fn + 3 * ef[1]) > 1.0 - peg3d_flat;
}

/* Eq. 31 for the normal n (from b towards a): a's faces at e_a on n's side, b's at e_b on the other. */
static double edge_edge_appl(const struct hull3d_placed *A, int ea, const struct hull3d_placed *B, int eb,
                             const double n[3])
{
  double appl = HUGE_VAL, t[3];
  for (int k = 0; k < 2; k++) {
    face_tangent(A, ea, A->ph->edge_face[2 * ea + k], t);
    appl = fmin(appl, vec3_dot(n, t));
    face_tangent(B, eb, B->ph->edge_face[2 * eb + k], t);
    appl = fmin(appl, -vec3_dot(n, t));
  }
  return appl;
}

static int edge_edges(const struct world *w, int sa, int sb, const struct hull3d_placed *A,
                      const struct hull3d_placed *B, double delta, struct contact_set *out)
{
  const struct polyhedron *pa = A->ph, *pb = B->ph;
  for (int ea = 0; ea < pa->ne; ea++) {
    if (flat_edge(A, ea)) continue;
    const double *a0 = A->v + 3 * pa->edge_vert[2 * ea], *a1 = A->v + 3 * pa->edge_vert[2 * ea + 1];
    double da[3];
    vec3_sub(a1, a0, da);
    for (int eb = 0; eb < pb->ne; eb++) {
      if (flat_edge(B, eb)) continue;
      const double *b0 = B->v + 3 * pb->edge_vert[2 * eb], *b1 = B->v + 3 * pb->edge_vert[2 * eb + 1];
      double db[3], n[3], s, t;
      vec3_sub(b1, b0, db);
      vec3_cross(da, db, n);
      if (vec3_norm(n) <= 1e-9 * vec3_norm(da) * vec3_norm(db)) continue; /* parallel */
      if (segments_closest(a0, da, b0, db, &s, &t) > delta * delta) continue;
      vec3_normalize(n);
      double m[3];
      vec3_scale(n, -1.0, m);
      if (edge_edge_appl(A, ea, B, eb, m) > edge_edge_appl(A, ea, B, eb, n)) memcpy(n, m, sizeof n);
      struct contact c = {.a = w->shapes[sa].body, .b = w->shapes[sb].body, .sa = sa, .sb = sb};
      for (int k = 0; k < 3; k++)
        c.pa[k] = a0[k] + s * da[k], c.pb[k] = b0[k] + t * db[k];
      memcpy(c.n, n, sizeof c.n);
      double g[3];
      vec3_sub(c.pa, c.pb, g);
      c.gap = vec3_dot(n, g);
      c.fa = FEATURE_EDGE, c.ida = ea, c.fb = FEATURE_EDGE, c.idb = eb;
      c.mu = w->mu;
      if (contact_set_push(out, &c)) return 1;
    }
  }
  return 0;
}

static int place_shape(const struct world *w, int s, struct hull3d_placed *P)
{
  double R[9];
  const struct body *b = &w->bodies[w->shapes[s].body];
  world_rotation(w, b, R);
  return hull3d_place(w->shapes[s].polyhedron, R, b->x, P);
}

int peg3d_detect(const struct world *w, const struct peg_settings *s, double h, struct contact_set *out)
{
  (void)h;
  double delta = s->distance_3d;
  int rc = 0;
  for (int i = 0; i < w->ns && !rc; i++)
    for (int j = i + 1; j < w->ns && !rc; j++) {
      const struct shape *A = &w->shapes[i], *B = &w->shapes[j];
      if (A->kind != SHAPE_POLYHEDRON || B->kind != SHAPE_POLYHEDRON || A->body == B->body) continue;
      if (!may_collide(w, A->body, B->body)) continue;
      double d[3];
      vec3_sub(w->bodies[A->body].x, w->bodies[B->body].x, d);
      if (vec3_norm(d) > A->radius + B->radius + delta) continue;
      struct hull3d_placed pa = {0}, pb = {0};
      rc = place_shape(w, i, &pa) || place_shape(w, j, &pb) || vertex_faces(w, i, j, &pa, &pb, delta, out) ||
           vertex_faces(w, j, i, &pb, &pa, delta, out) || edge_edges(w, i, j, &pa, &pb, delta, out);
      hull3d_placed_free(&pa);
      hull3d_placed_free(&pb);
    }
  return rc;
}

/* World-frame vector of a body-frame one. */
static void to_world(const struct world *w, int body, const double v[3], double out[3])
{
  double R[9];
  world_rotation(w, &w->bodies[body], R);
  mat3_vec(R, v, out);
}

double peg3d_applicability(const struct world *w, const struct contact *c)
{
  if (c->sa < 0 || c->sb < 0) return -2.0;
  const struct polyhedron *A = w->shapes[c->sa].polyhedron, *B = w->shapes[c->sb].polyhedron;
  if (!A || !B) return -2.0;
  if (c->fa == FEATURE_VERTEX && c->fb == FEATURE_FACE) { /* eq. 30 */
    double appl = HUGE_VAL;
    for (int e = 0; e < A->ne; e++) {
      int v0 = A->edge_vert[2 * e], v1 = A->edge_vert[2 * e + 1];
      if (v0 != c->ida && v1 != c->ida) continue;
      const double *p = A->v + 3 * c->ida, *q = A->v + 3 * (v0 == c->ida ? v1 : v0);
      double d[3], dw[3];
      vec3_sub(q, p, d);
      vec3_normalize(d);
      to_world(w, c->a, d, dw);
      appl = fmin(appl, vec3_dot(c->n, dw));
    }
    return appl == HUGE_VAL ? -2.0 : appl;
  }
  if (c->fa == FEATURE_EDGE && c->fb == FEATURE_EDGE) { /* eq. 31 with the sign detection chose */
    double appl = HUGE_VAL;
    const struct polyhedron *P[2] = {A, B};
    const int id[2] = {c->ida, c->idb}, body[2] = {c->a, c->b};
    for (int side = 0; side < 2; side++) {
      const struct polyhedron *ph = P[side];
      int e = id[side], v0 = ph->edge_vert[2 * e];
      double d[3];
      vec3_sub(ph->v + 3 * ph->edge_vert[2 * e + 1], ph->v + 3 * v0, d);
      for (int k = 0; k < 2; k++) {
        int f = ph->edge_face[2 * e + k], s0 = ph->face_start[f], m = ph->face_start[f + 1] - s0;
        double t[3], cen[3] = {0, 0, 0}, r[3], tw[3];
        vec3_cross(ph->fn + 3 * f, d, t);
        vec3_normalize(t);
        for (int i = 0; i < m; i++)
          vec3_axpy(1.0 / m, ph->v + 3 * ph->face_vert[s0 + i], cen);
        vec3_sub(cen, ph->v + 3 * v0, r);
        if (vec3_dot(r, t) < 0.0) vec3_scale(t, -1.0, t);
        to_world(w, body[side], t, tw);
        appl = fmin(appl, side == 0 ? vec3_dot(c->n, tw) : -vec3_dot(c->n, tw));
      }
    }
    return appl;
  }
  return -2.0;
}

/* The edge of polyhedron ph separating faces f1 and f2, or -1. */
static int common_edge(const struct polyhedron *ph, int f1, int f2)
{
  for (int e = 0; e < ph->ne; e++) {
    int g0 = ph->edge_face[2 * e], g1 = ph->edge_face[2 * e + 1];
    if ((g0 == f1 && g1 == f2) || (g0 == f2 && g1 == f1)) return e;
  }
  return -1;
}

/* The edge-edge contact (part sa edge ea, part sb edge eb), or -1. keys: sorted contact indices. */
static int find_edge_edge(const struct contact_set *cs, const int *keys, int n, int sa, int sb, int ea,
                          int eb)
{
  for (int k = 0; k < n; k++) {
    const struct contact *c = &cs->c[keys[k]];
    if (c->fa == FEATURE_EDGE && c->sa == sa && c->sb == sb && c->ida == ea && c->idb == eb) return keys[k];
  }
  return -1;
}

/* X-constraints of a vertex v (part sa) near the non-flat edge eb of part sb between faces f1 (contact c1)
 * and f2 (c2): each edge of v with an applicable edge-edge contact on eb, paired with the face on whose
 * side it points (eq. 36). */
static void vertex_edge_cross(struct peg_model *m, const struct world *w, const struct contact_set *cs,
                              const struct peg_settings *s, const int *keys, int nk, int c1, int c2, int eb)
{
  const struct contact *c = &cs->c[c1];
  const struct polyhedron *A = w->shapes[c->sa].polyhedron, *B = w->shapes[c->sb].polyhedron;
  int is_a = c->sa < c->sb; /* edge-edge contacts are stored with the lower shape index as a */
  double u1[3], u2[3];
  /* in-face directions away from eb in faces f1 and f2, world frame */
  {
    struct hull3d_placed P = {0};
    if (place_shape(w, c->sb, &P)) return;
    face_tangent(&P, eb, cs->c[c1].idb, u1);
    face_tangent(&P, eb, cs->c[c2].idb, u2);
    hull3d_placed_free(&P);
  }
  for (int e = 0; e < A->ne; e++) {
    int v0 = A->edge_vert[2 * e], v1 = A->edge_vert[2 * e + 1];
    if (v0 != c->ida && v1 != c->ida) continue;
    int ce = is_a ? find_edge_edge(cs, keys, nk, c->sa, c->sb, e, eb)
                  : find_edge_edge(cs, keys, nk, c->sb, c->sa, eb, e);
    if (ce < 0 || !(m->appl[ce] > s->applicability)) continue;
    double d[3], dw[3];
    vec3_sub(A->v + 3 * (v0 == c->ida ? v1 : v0), A->v + 3 * c->ida, d);
    to_world(w, c->a, d, dw);
    int face = vec3_dot(dw, u1) >= vec3_dot(dw, u2) ? c1 : c2;
    if (m->nx >= 2 * m->cap) return;
    m->x[m->nx++] = (struct peg_pair){ce, face, 0};
    m->used[ce] |= 2;
  }
  (void)B;
}

/* The vertex-face contact (part sa vertex v, part sb face f), or -1. */
static int find_vertex_face(const struct contact_set *cs, const int *keys, int n, int sa, int sb, int v,
                            int f)
{
  for (int k = 0; k < n; k++) {
    const struct contact *c = &cs->c[keys[k]];
    if (c->fa == FEATURE_VERTEX && c->sa == sa && c->sb == sb && c->ida == v && c->idb == f) return keys[k];
  }
  return -1;
}

/* The (at most two) edges of face f of ph that meet vertex v; returns how many. */
static int face_edges_at(const struct polyhedron *ph, int f, int v, int e[2])
{
  int k = 0;
  for (int i = 0; i < ph->ne && k < 2; i++) {
    const int *ev = ph->edge_vert + 2 * i, *ef = ph->edge_face + 2 * i;
    if ((ev[0] == v || ev[1] == v) && (ef[0] == f || ef[1] == f)) e[k++] = i;
  }
  return k;
}

static int face_has_vertex(const struct polyhedron *ph, int f, int v)
{
  for (int k = ph->face_start[f]; k < ph->face_start[f + 1]; k++)
    if (ph->face_vert[k] == v) return 1;
  return 0;
}

/* Eq. 38, vertex-vertex: va (part sa, the lower shape index) near vb (part sb), each near faces of the
 * other. For every face pair (fa at va, fb at vb) with both vertex-face contacts C(va, fb), C(vb, fa):
 *   X({C(va, fb), C(vb, fa)}, {C(ea_r, eb_s)})
 * over the edges ea_r of fa at va and eb_s of fb at vb whose edge-edge contact was detected (feasibility)
 * and is applicable (eq. 31). The paper writes the edge set as {C(ea1, eb1), C(ea2, eb2)} without fixing
 * which edge of fa goes with which of fb; every applicable pairing r, s is taken (a weaker OR, never a
 * spurious trap). Single primary (the most applicable, ties to the larger gap) with the others as kappa:
 * one auxiliary impulse and cumulative slacks (eqs. 45-46), as the vertex's I. Nothing is added when no
 * edge pair qualifies (the paper enforces these X only for applicable, feasible edges). */
static void vertex_vertex_cross(struct peg_model *m, const struct world *w, const struct contact_set *cs,
                                const struct peg_settings *s, const int *keys, int nk, int g0, int g1)
{
  const struct contact *c0 = &cs->c[keys[g0]];
  if (c0->sa > c0->sb) return; /* each vertex pair once, from the lower shape's vertex */
  const struct polyhedron *A = w->shapes[c0->sa].polyhedron, *B = w->shapes[c0->sb].polyhedron;
  int va = c0->ida;
  for (int vb = 0; vb < B->nv; vb++) {
    /* vertex-vertex only: va near at least two faces of B at vb, vb near at least two faces of A at va */
    int near_b = 0, near_a = 0;
    for (int k = g0; k < g1; k++)
      near_b += face_has_vertex(B, cs->c[keys[k]].idb, vb);
    for (int fa = 0; fa < A->nf && near_b >= 2; fa++)
      near_a += face_has_vertex(A, fa, va) && find_vertex_face(cs, keys, nk, c0->sb, c0->sa, vb, fa) >= 0;
    if (near_b < 2 || near_a < 2) continue;
    for (int k = g0; k < g1; k++) {
      int cab = keys[k], fb = cs->c[cab].idb;
      if (!face_has_vertex(B, fb, vb)) continue;
      for (int fa = 0; fa < A->nf; fa++) {
        if (!face_has_vertex(A, fa, va)) continue;
        int cba = find_vertex_face(cs, keys, nk, c0->sb, c0->sa, vb, fa);
        if (cba < 0) continue;
        int ea[2], eb[2], na = face_edges_at(A, fa, va, ea), nb = face_edges_at(B, fb, vb, eb);
        int set[6] = {cab, cba}, ns = 2;
        for (int r = 0; r < na; r++)
          for (int t = 0; t < nb; t++) {
            int ce = find_edge_edge(cs, keys, nk, c0->sa, c0->sb, ea[r], eb[t]);
            if (ce >= 0 && m->appl[ce] > s->applicability) set[ns++] = ce;
          }
        if (ns == 2 || m->nx + ns - 1 > 2 * m->cap) continue;
        int best = 0;
        for (int i = 1; i < ns; i++)
          if (m->appl[set[i]] > m->appl[set[best]] ||
              (m->appl[set[i]] == m->appl[set[best]] && cs->c[set[i]].gap > cs->c[set[best]].gap))
            best = i;
        int first = 1;
        for (int i = 0; i < ns; i++) {
          if (i == best) continue;
          m->x[m->nx++] = (struct peg_pair){set[best], set[i], !first};
          first = 0;
        }
        /* no used flag: an edge-edge contact interior to both edges keeps its own U (eq. 35), which the
         * weaker OR of this X does not replace; the vertex-face contacts are in the vertices' I already */
        m->xvv++;
      }
    }
  }
}

int peg3d_model_build(struct peg_model *m, const struct world *w, const struct contact_set *cs,
                      const struct peg_settings *s)
{
  int n = cs->n;
  m->nu = m->ni = m->nx = m->vv = m->xvv = 0;
  /* room for eq. 38's X groups (up to five pairs per face pair) beyond the 2 n pairs of the 2D layout */
  if (peg_model_reserve(m, n > 0 ? 4 * n : 1)) return 1;
  int *keys = m->run, nk = 0;
  double eps = s->applicability;
  /* grouped by (part a, part b, vertex, face); edge-edge contacts sorted after every vertex-face one */
  for (int i = 0; i < n; i++) {
    const struct contact *c = &cs->c[i];
    m->used[i] = 0;
    m->appl[i] = peg3d_applicability(w, c);
    if (m->appl[i] > -1.5)
      m->keys[nk++] =
          (struct peg2d_key){c->sa + (c->fa == FEATURE_EDGE ? w->ns : 0), c->sb, c->ida, c->idb, i};
  }
  qsort(m->keys, (size_t)nk, sizeof *m->keys, peg2d_key_compare);
  for (int k = 0; k < nk; k++)
    keys[k] = m->keys[k].index;
  for (int g0 = 0; g0 < nk;) {
    const struct contact *c0 = &cs->c[keys[g0]];
    int g1 = g0 + 1;
    if (c0->fa != FEATURE_VERTEX) break; /* edge-edge contacts follow */
    while (g1 < nk && cs->c[keys[g1]].fa == FEATURE_VERTEX && cs->c[keys[g1]].sa == c0->sa &&
           cs->c[keys[g1]].sb == c0->sb && cs->c[keys[g1]].ida == c0->ida)
      g1++;
    if (g1 - g0 == 1) {
      if (m->appl[keys[g0]] > eps) m->used[keys[g0]] |= 1;
    } else {
      /* the primary: the most applicable, ties to the larger gap */
      int best = keys[g0];
      for (int k = g0 + 1; k < g1; k++) {
        int c = keys[k];
        if (m->appl[c] > m->appl[best] || (m->appl[c] == m->appl[best] && cs->c[c].gap > cs->c[best].gap))
          best = c;
      }
      if (m->appl[best] > eps) {
        m->vv++;
        int first = 1;
        for (int k = g0; k < g1; k++) {
          if (keys[k] == best) continue;
          m->in[m->ni++] = (struct peg_pair){best, keys[k], !first};
          first = 0;
          m->used[keys[k]] |= 2;
        }
        m->used[best] |= 2;
        if (s->cross && g1 - g0 == 2) {
          const struct polyhedron *B = w->shapes[c0->sb].polyhedron;
          int c1 = keys[g0], c2 = keys[g0 + 1], eb = common_edge(B, cs->c[c1].idb, cs->c[c2].idb);
          if (eb >= 0) {
            double n1[3], n2[3];
            to_world(w, c0->b, B->fn + 3 * cs->c[c1].idb, n1);
            to_world(w, c0->b, B->fn + 3 * cs->c[c2].idb, n2);
            if (vec3_dot(n1, n2) <= 1.0 - peg3d_flat) vertex_edge_cross(m, w, cs, s, keys, nk, c1, c2, eb);
          }
        }
        if (s->cross && g1 - g0 >= 2) vertex_vertex_cross(m, w, cs, s, keys, nk, g0, g1);
      }
    }
    g0 = g1;
  }
  /* edge-edge U: closest points interior to both edges, applicable, in no X */
  for (int k = 0; k < nk; k++) {
    int i = keys[k];
    const struct contact *c = &cs->c[i];
    if (c->fa != FEATURE_EDGE || m->used[i] || !(m->appl[i] > eps)) continue;
    const struct polyhedron *A = w->shapes[c->sa].polyhedron, *B = w->shapes[c->sb].polyhedron;
    double a0[3], a1[3], b0[3], b1[3], da[3], db[3], sa, tb;
    double R[9], x0[3];
    world_rotation(w, &w->bodies[c->a], R);
    mat3_vec(R, A->v + 3 * A->edge_vert[2 * c->ida], x0), vec3_add(x0, w->bodies[c->a].x, a0);
    mat3_vec(R, A->v + 3 * A->edge_vert[2 * c->ida + 1], x0), vec3_add(x0, w->bodies[c->a].x, a1);
    world_rotation(w, &w->bodies[c->b], R);
    mat3_vec(R, B->v + 3 * B->edge_vert[2 * c->idb], x0), vec3_add(x0, w->bodies[c->b].x, b0);
    mat3_vec(R, B->v + 3 * B->edge_vert[2 * c->idb + 1], x0), vec3_add(x0, w->bodies[c->b].x, b1);
    vec3_sub(a1, a0, da);
    vec3_sub(b1, b0, db);
    segments_closest(a0, da, b0, db, &sa, &tb);
    if (sa > peg3d_interior && sa < 1.0 - peg3d_interior && tb > peg3d_interior && tb < 1.0 - peg3d_interior)
      m->used[i] |= 1;
  }
  for (int i = 0; i < n; i++)
    if (m->used[i] == 1) m->u[m->nu++] = i;
  return 0;
}

/* Contact i closes a trap: an earlier vertex-face contact of the same (vertex, part) on a face that is not
 * coplanar with i's (a triangulated face's two halves make no corner). */
static int closes_trap(const struct contact_set *cs, int i)
{
  const struct contact *c = &cs->c[i];
  for (int j = 0; j < i; j++) {
    const struct contact *d = &cs->c[j];
    if (d->fa == FEATURE_VERTEX && d->sa == c->sa && d->sb == c->sb && d->ida == c->ida &&
        vec3_dot(c->n, d->n) <= 1.0 - peg3d_flat)
      return 1;
  }
  return 0;
}

int peg3d_count_traps(const struct world *w, struct contact_set *scratch)
{
  struct peg_settings s;
  peg_settings_default(&s, 1);
  contact_set_clear(scratch);
  if (peg3d_detect(w, &s, 0.0, scratch)) return -1;
  /* a vertex near two or more non-coplanar faces of one part: the edge / corner the standard model would
   * trap it in. Counted once per (vertex, part), at the first contact that closes it. */
  int count = 0;
  for (int i = 0; i < scratch->n; i++) {
    const struct contact *c = &scratch->c[i];
    if (c->fa != FEATURE_VERTEX || !closes_trap(scratch, i)) continue;
    int counted = 0;
    for (int k = 0; k < i && !counted; k++) {
      const struct contact *d = &scratch->c[k];
      counted = d->fa == FEATURE_VERTEX && d->sa == c->sa && d->sb == c->sb && d->ida == c->ida &&
                closes_trap(scratch, k);
    }
    count += !counted;
  }
  return count;
}
