/* stewart_trinkle_paper.c — the standard contact model's detection as the PEG paper's experiments ran it
 * (Williams, Lu & Trinkle 2016, Sec. 2 and Sec. 6; the authors' cd_vertex_poly.m, summarised in
 * ../shared/notes/peg-experiments.md): -stewart_trinkle_detection paper. Every vertex of one part against
 * every edge (2D) or face (3D) of the other, both ways, whose LINE / PLANE is within eps (|signed
 * distance| < eps) and whose projection falls within eps beyond the segment's ends (2D) or the face's edges
 * (3D, our analogue); normal = the edge's / face's outward normal (from b, the edge's body, towards a, the
 * vertex's), gap = the signed distance. No closest-feature selection: a vertex near a corner gets BOTH
 * half-spaces, the overconstraint (standard-model trap, Sec. 1.2.3) that PEG removes. Polygon and
 * polyhedron parts only (other kinds are left out of this detection). */
#include "geom2d.h"
#include "geom3d.h"
#include "hull3d.h"
#include "overlap2d.h"
#include "stewart_trinkle.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int may_collide(const struct world *w, int i, int j)
{
  const struct body *a = &w->bodies[i], *b = &w->bodies[j];
  if (a->is_static && b->is_static) return 0;
  if (a->group != 0 && a->group == b->group) return 0;
  return 1;
}

/* Vertices of polygon A (world, va) against the edges of B (world vb, nb vertices). */
static int vertex_edges_2d(const struct world *w, int sa, int sb, const double *va, int na, const double *vb,
                           int nb, double eps, struct contact_set *out)
{
  for (int i = 0; i < na; i++) {
    const double *p = va + 2 * i;
    for (int e = 0; e < nb; e++) {
      const double *u = vb + 2 * e, *v = vb + 2 * ((e + 1) % nb);
      double ex = v[0] - u[0], ey = v[1] - u[1], len = hypot(ex, ey);
      if (!(len > 0.0)) continue;
      ex /= len, ey /= len;
      double nx = ey, ny = -ex; /* outward for counter-clockwise polygons */
      double psi = nx * (p[0] - u[0]) + ny * (p[1] - u[1]);
      if (!(psi < eps && psi > -eps)) continue;
      double t = ex * (p[0] - u[0]) + ey * (p[1] - u[1]);
      if (-t > eps || t - len > eps) continue; /* "far outside" either end */
      struct contact c = {.a = w->shapes[sa].body, .b = w->shapes[sb].body, .sa = sa, .sb = sb, .gap = psi};
      c.n[0] = nx, c.n[1] = ny;
      c.pa[0] = p[0], c.pa[1] = p[1];
      c.pb[0] = p[0] - psi * nx, c.pb[1] = p[1] - psi * ny;
      c.fa = FEATURE_VERTEX, c.ida = i, c.fb = FEATURE_EDGE, c.idb = e;
      c.mu = w->mu;
      if (contact_set_push(out, &c)) return 1;
    }
  }
  return 0;
}

/* Distance beyond the boundary of face f of the placed polyhedron of the projection q (on its plane): the
 * largest signed distance of q past one of the face's edge lines (<= 0 inside). */
static double beyond_face(const struct hull3d_placed *P, int f, const double q[3])
{
  const struct polyhedron *ph = P->ph;
  int s = ph->face_start[f], m = ph->face_start[f + 1] - s;
  double worst = -HUGE_VAL;
  for (int k = 0; k < m; k++) {
    const double *v0 = P->v + 3 * ph->face_vert[s + k], *v1 = P->v + 3 * ph->face_vert[s + (k + 1) % m];
    double e[3], o[3], r[3];
    vec3_sub(v1, v0, e);
    vec3_cross(e, P->fn + 3 * f, o); /* in the face plane, pointing out of the face (counter-clockwise) */
    if (vec3_normalize(o) == 0.0) continue;
    vec3_sub(q, v0, r);
    double d = vec3_dot(o, r);
    if (d > worst) worst = d;
  }
  return worst;
}

static int vertex_faces_3d(const struct world *w, int sa, int sb, const struct hull3d_placed *A,
                           const struct hull3d_placed *B, double eps, struct contact_set *out)
{
  for (int i = 0; i < A->ph->nv; i++) {
    const double *p = A->v + 3 * i;
    for (int f = 0; f < B->ph->nf; f++) {
      const double *n = B->fn + 3 * f;
      double psi = vec3_dot(n, p) - B->fd[f];
      if (!(psi < eps && psi > -eps)) continue;
      double q[3];
      memcpy(q, p, sizeof q);
      vec3_axpy(-psi, n, q);
      if (beyond_face(B, f, q) > eps) continue;
      struct contact c = {.a = w->shapes[sa].body, .b = w->shapes[sb].body, .sa = sa, .sb = sb, .gap = psi};
      memcpy(c.n, n, sizeof c.n);
      memcpy(c.pa, p, sizeof c.pa);
      memcpy(c.pb, q, sizeof c.pb);
      c.fa = FEATURE_VERTEX, c.ida = i, c.fb = FEATURE_FACE, c.idb = f;
      c.mu = w->mu;
      if (contact_set_push(out, &c)) return 1;
    }
  }
  return 0;
}

static int pair_2d(const struct world *w, int sa, int sb, double eps, struct contact_set *out)
{
  int na = w->shapes[sa].polygon->n, nb = w->shapes[sb].polygon->n;
  double *va = malloc(2 * (size_t)(na + nb) * sizeof *va);
  if (!va) return 1;
  double *vb = va + 2 * na;
  geom2d_world_polygon(w, &w->shapes[sa], va);
  geom2d_world_polygon(w, &w->shapes[sb], vb);
  int rc = vertex_edges_2d(w, sa, sb, va, na, vb, nb, eps, out) ||
           vertex_edges_2d(w, sb, sa, vb, nb, va, na, eps, out);
  free(va);
  return rc;
}

static int pair_3d(const struct world *w, int sa, int sb, double eps, struct contact_set *out)
{
  double R[9];
  struct hull3d_placed A = {0}, B = {0};
  const struct body *ba = &w->bodies[w->shapes[sa].body], *bb = &w->bodies[w->shapes[sb].body];
  int rc = 1;
  world_rotation(w, ba, R);
  if (hull3d_place(w->shapes[sa].polyhedron, R, ba->x, &A)) goto cleanup;
  world_rotation(w, bb, R);
  if (hull3d_place(w->shapes[sb].polyhedron, R, bb->x, &B)) goto cleanup;
  rc = vertex_faces_3d(w, sa, sb, &A, &B, eps, out) || vertex_faces_3d(w, sb, sa, &B, &A, eps, out);
cleanup:
  hull3d_placed_free(&A);
  hull3d_placed_free(&B);
  return rc;
}

int stewart_trinkle_paper_detect(const struct world *w, double eps, struct contact_set *out)
{
  int rc = 0;
  for (int i = 0; i < w->ns && !rc; i++)
    for (int j = i + 1; j < w->ns && !rc; j++) {
      const struct shape *A = &w->shapes[i], *B = &w->shapes[j];
      if (A->body == B->body || A->kind != B->kind) continue;
      if (A->kind != SHAPE_POLYGON && A->kind != SHAPE_POLYHEDRON) continue;
      if (!may_collide(w, A->body, B->body)) continue;
      const struct body *ba = &w->bodies[A->body], *bb = &w->bodies[B->body];
      double d2 = 0.0;
      for (int k = 0; k < w->dim; k++)
        d2 += (ba->x[k] - bb->x[k]) * (ba->x[k] - bb->x[k]);
      if (sqrt(d2) > A->radius + B->radius + 2.0 * eps) continue; /* bounding circles / spheres apart */
      rc = A->kind == SHAPE_POLYGON ? pair_2d(w, i, j, eps, out) : pair_3d(w, i, j, eps, out);
    }
  return rc;
}
