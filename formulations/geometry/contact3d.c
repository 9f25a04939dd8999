/* contact3d.c — the 3D narrow phase: shape-pair dispatch for world_detect (contact3d_shapes) and the
 * smooth kernels (sphere-sphere, sphere-plane, polyhedron-plane, sphere-polyhedron); polyhedron pairs are
 * in contact3d_poly.c. Contacts are potential ones (gap <= threshold, design.md contract 5), with the
 * convention of world.h: n from b towards a, gap = n . (pa - pb), negative when penetrating. */
#include "contact3d.h"

#include "contact3d_superellipsoid.h"
#include "geom3d.h"

#include <math.h>
#include <string.h>

static int push(struct contact_set *out, double gap, const double n[3], const double pa[3],
                const double pb[3], enum feature_kind fa, int ida, enum feature_kind fb, int idb)
{
  struct contact c = {
      .a = -1, .b = -1, .sa = -1, .sb = -1, .gap = gap, .fa = fa, .fb = fb, .ida = ida, .idb = idb};
  memcpy(c.n, n, sizeof c.n);
  memcpy(c.pa, pa, sizeof c.pa);
  memcpy(c.pb, pb, sizeof c.pb);
  return contact_set_push(out, &c);
}

void contact3d_flip(struct contact *c)
{
  struct contact f = *c;
  c->a = f.b, c->b = f.a, c->sa = f.sb, c->sb = f.sa;
  c->fa = f.fb, c->fb = f.fa, c->ida = f.idb, c->idb = f.ida;
  for (int k = 0; k < 3; k++)
    c->n[k] = -f.n[k], c->pa[k] = f.pb[k], c->pb[k] = f.pa[k];
}

int contact3d_sphere_sphere(const double ca[3], double ra, const double cb[3], double rb, double threshold,
                            struct contact_set *out)
{
  double n[3], pa[3], pb[3];
  vec3_sub(ca, cb, n);
  double dist = vec3_normalize(n);
  if (dist - ra - rb > threshold) return 0;
  if (!(dist > 0.0)) n[0] = 0, n[1] = 0, n[2] = 1; /* concentric: any direction is as good */
  memcpy(pa, ca, sizeof pa);
  vec3_axpy(-ra, n, pa);
  memcpy(pb, cb, sizeof pb);
  vec3_axpy(rb, n, pb);
  return push(out, dist - ra - rb, n, pa, pb, FEATURE_SURFACE, 0, FEATURE_SURFACE, 0);
}

int contact3d_sphere_plane(const double c[3], double r, const double n[3], double d, double threshold,
                           struct contact_set *out)
{
  double s = vec3_dot(n, c) - d, pa[3], pb[3];
  if (s - r > threshold) return 0;
  memcpy(pa, c, sizeof pa);
  vec3_axpy(-r, n, pa);
  memcpy(pb, c, sizeof pb);
  vec3_axpy(-s, n, pb);
  return push(out, s - r, n, pa, pb, FEATURE_SURFACE, 0, FEATURE_SURFACE, 0);
}

int contact3d_polyhedron_plane(const struct hull3d_placed *a, const double n[3], double d, double threshold,
                               struct contact_set *out)
{
  if (vec3_dot(n, a->centre) - d - a->radius > threshold) return 0;
  for (int i = 0; i < a->ph->nv; i++) {
    const double *v = a->v + 3 * i;
    double s = vec3_dot(n, v) - d, pb[3];
    if (s > threshold) continue;
    memcpy(pb, v, sizeof pb);
    vec3_axpy(-s, n, pb);
    if (push(out, s, n, v, pb, FEATURE_VERTEX, i, FEATURE_SURFACE, 0)) return 1;
  }
  return 0;
}

/* Closest point q on segment [p0, p1] to x; returns the parameter t in [0, 1]. */
static double segment_closest(const double p0[3], const double p1[3], const double x[3], double q[3])
{
  double d[3], r[3];
  vec3_sub(p1, p0, d);
  vec3_sub(x, p0, r);
  double dd = vec3_dot(d, d), t = dd > 0.0 ? vec3_dot(r, d) / dd : 0.0;
  t = fmin(1.0, fmax(0.0, t));
  memcpy(q, p0, 3 * sizeof *q);
  vec3_axpy(t, d, q);
  return t;
}

int contact3d_face_contains(const struct hull3d_placed *p, int f, const double x[3], double tol)
{
  const struct polyhedron *ph = p->ph;
  int s = ph->face_start[f], m = ph->face_start[f + 1] - s;
  for (int k = 0; k < m; k++) {
    const double *v0 = p->v + 3 * ph->face_vert[s + k], *v1 = p->v + 3 * ph->face_vert[s + (k + 1) % m];
    double e[3], r[3], c[3];
    vec3_sub(v1, v0, e);
    vec3_sub(x, v0, r);
    vec3_cross(e, r, c);
    /* Counter-clockwise about the outward normal: inside points are on the left of every edge. */
    if (vec3_dot(c, p->fn + 3 * f) < -tol * vec3_norm(e)) return 0;
  }
  return 1;
}

int contact3d_sphere_polyhedron(const double c[3], double r, const struct hull3d_placed *b, double threshold,
                                struct contact_set *out)
{
  const struct polyhedron *ph = b->ph;
  double d0[3];
  vec3_sub(c, b->centre, d0);
  if (vec3_norm(d0) - r - b->radius > threshold) return 0;
  double tol = 1e-12 * b->radius, smax = -HUGE_VAL;
  int fbest = 0;
  for (int f = 0; f < ph->nf; f++) {
    double s = vec3_dot(b->fn + 3 * f, c) - b->fd[f];
    if (s > smax) smax = s, fbest = f;
  }
  double n[3] = {0, 0, 1}, pa[3], pb[3] = {0, 0, 0}, best = HUGE_VAL;
  enum feature_kind fb = FEATURE_FACE;
  int idb = fbest;
  if (smax <= 0.0) { /* centre inside: the least-penetrated face is the nearest boundary point */
    memcpy(n, b->fn + 3 * fbest, sizeof n);
    memcpy(pb, c, sizeof pb);
    vec3_axpy(-smax, n, pb);
    best = smax;
  } else {
    /* Outside: the nearest point lies inside a face, inside an edge or at a vertex; take the nearest
     * candidate of each kind (exact for a convex polyhedron). */
    for (int f = 0; f < ph->nf; f++) {
      double s = vec3_dot(b->fn + 3 * f, c) - b->fd[f], q[3];
      if (s < 0.0 || s >= best) continue;
      memcpy(q, c, sizeof q);
      vec3_axpy(-s, b->fn + 3 * f, q);
      if (!contact3d_face_contains(b, f, q, tol)) continue;
      best = s, fb = FEATURE_FACE, idb = f;
      memcpy(pb, q, sizeof pb);
    }
    for (int e = 0; e < ph->ne; e++) {
      double q[3], dq[3];
      double t = segment_closest(b->v + 3 * ph->edge_vert[2 * e], b->v + 3 * ph->edge_vert[2 * e + 1], c, q);
      vec3_sub(c, q, dq);
      double dist = vec3_norm(dq);
      if (dist >= best * (1.0 + 1e-12)) continue;
      best = dist;
      memcpy(pb, q, sizeof pb);
      if (t > 0.0 && t < 1.0)
        fb = FEATURE_EDGE, idb = e;
      else
        fb = FEATURE_VERTEX, idb = ph->edge_vert[2 * e + (t >= 1.0)];
    }
    vec3_sub(c, pb, n);
    vec3_normalize(n);
  }
  if (best - r > threshold) return 0;
  memcpy(pa, c, sizeof pa);
  vec3_axpy(-r, n, pa);
  return push(out, best - r, n, pa, pb, FEATURE_SURFACE, 0, fb, idb);
}

/* World placement of a shape's body. */
static void shape_frame(const struct world *w, int s, double R[9], double x[3])
{
  const struct body *b = &w->bodies[w->shapes[s].body];
  world_rotation(w, b, R);
  memcpy(x, b->x, 3 * sizeof *x);
}

static int kind_rank(enum shape_kind k)
{
  switch (k) {
  case SHAPE_SPHERE: return 0;
  case SHAPE_POLYHEDRON: return 1;
  case SHAPE_PLANE: return 2;
  default: return -1;
  }
}

/* Pair in canonical order (sphere before polyhedron before plane): s1 plays a, s2 plays b. */
static int pair_kernel(const struct world *w, int s1, int s2, double threshold, struct contact_set *out)
{
  const struct shape *A = &w->shapes[s1], *B = &w->shapes[s2];
  double Ra[9], xa[3], Rb[9], xb[3], ca[3], cb[3], nb[3];
  shape_frame(w, s1, Ra, xa);
  shape_frame(w, s2, Rb, xb);
  mat3_vec(Ra, A->c, ca);
  vec3_add(ca, xa, ca);
  mat3_vec(Rb, B->c, cb);
  vec3_add(cb, xb, cb);
  mat3_vec(Rb, B->n, nb);
  double db = B->d + vec3_dot(nb, xb);
  struct hull3d_placed pa = {0}, pb = {0};
  int rc = 0;
  if (A->kind == SHAPE_POLYHEDRON && hull3d_place(A->polyhedron, Ra, xa, &pa)) return 1;
  if (B->kind == SHAPE_POLYHEDRON && hull3d_place(B->polyhedron, Rb, xb, &pb)) {
    hull3d_placed_free(&pa);
    return 1;
  }
  if (A->kind == SHAPE_SPHERE && B->kind == SHAPE_SPHERE)
    rc = contact3d_sphere_sphere(ca, A->radius, cb, B->radius, threshold, out);
  else if (A->kind == SHAPE_SPHERE && B->kind == SHAPE_POLYHEDRON)
    rc = contact3d_sphere_polyhedron(ca, A->radius, &pb, threshold, out);
  else if (A->kind == SHAPE_SPHERE && B->kind == SHAPE_PLANE)
    rc = contact3d_sphere_plane(ca, A->radius, nb, db, threshold, out);
  else if (A->kind == SHAPE_POLYHEDRON && B->kind == SHAPE_POLYHEDRON)
    rc = contact3d_polyhedron_polyhedron(&pa, &pb, threshold, out);
  else if (A->kind == SHAPE_POLYHEDRON && B->kind == SHAPE_PLANE)
    rc = contact3d_polyhedron_plane(&pa, nb, db, threshold, out);
  else
    rc = 2;
  hull3d_placed_free(&pa);
  hull3d_placed_free(&pb);
  return rc;
}

int contact3d_supported(enum shape_kind a, enum shape_kind b)
{
  if (a == SHAPE_SUPERELLIPSOID || b == SHAPE_SUPERELLIPSOID) return contact3d_superellipsoid_supported(a, b);
  return kind_rank(a) >= 0 && kind_rank(b) >= 0 && !(a == SHAPE_PLANE && b == SHAPE_PLANE);
}

int contact3d_shapes(const struct world *w, int sa, int sb, double threshold, struct contact_set *out)
{
  if (w->shapes[sa].kind == SHAPE_SUPERELLIPSOID || w->shapes[sb].kind == SHAPE_SUPERELLIPSOID)
    return contact3d_superellipsoid_shapes(w, sa, sb, threshold, out);
  int ra = kind_rank(w->shapes[sa].kind), rb = kind_rank(w->shapes[sb].kind);
  if (ra < 0 || rb < 0) return 2;
  int swap = ra > rb, first = out->n;
  int rc = swap ? pair_kernel(w, sb, sa, threshold, out) : pair_kernel(w, sa, sb, threshold, out);
  for (int k = first; k < out->n; k++) {
    struct contact *c = &out->c[k];
    if (swap) contact3d_flip(c);
    c->sa = sa, c->sb = sb;
    c->a = w->shapes[sa].body, c->b = w->shapes[sb].body;
  }
  return rc;
}

double contact3d_overlap_volume(const struct world *w, int sa, int sb)
{
  const struct shape *A = &w->shapes[sa], *B = &w->shapes[sb];
  if (A->kind != SHAPE_POLYHEDRON || B->kind != SHAPE_POLYHEDRON) return -1.0;
  double Ra[9], xa[3], Rb[9], xb[3];
  shape_frame(w, sa, Ra, xa);
  shape_frame(w, sb, Rb, xb);
  struct overlap3d r;
  if (overlap3d_compute(A->polyhedron, Ra, xa, B->polyhedron, Rb, xb, &r, NULL)) return -1.0;
  return r.volume;
}

static int may_collide(const struct world *w, int i, int j)
{
  const struct body *a = &w->bodies[i], *b = &w->bodies[j];
  return !(a->is_static && b->is_static) && !(a->group != 0 && a->group == b->group);
}

double contact3d_total_overlap(const struct world *w)
{
  double total = 0.0;
  for (int sa = 0; sa < w->ns; sa++)
    for (int sb = sa + 1; sb < w->ns; sb++) {
      const struct shape *A = &w->shapes[sa], *B = &w->shapes[sb];
      if (A->kind != SHAPE_POLYHEDRON || B->kind != SHAPE_POLYHEDRON || A->body == B->body) continue;
      if (!may_collide(w, A->body, B->body)) continue;
      double d[3];
      vec3_sub(w->bodies[A->body].x, w->bodies[B->body].x, d);
      if (vec3_norm(d) >= A->radius + B->radius) continue; /* bounding spheres apart */
      double v = contact3d_overlap_volume(w, sa, sb);
      if (v < 0.0) return -1.0;
      total += v;
    }
  return total;
}

int contact3d_corrective(const struct world *w, int sa, int sb, struct contact_set *out)
{
  const struct shape *A = &w->shapes[sa], *B = &w->shapes[sb];
  if (A->kind != SHAPE_POLYHEDRON || B->kind != SHAPE_POLYHEDRON) return 1;
  double Ra[9], xa[3], Rb[9], xb[3];
  shape_frame(w, sa, Ra, xa);
  shape_frame(w, sb, Rb, xb);
  struct overlap3d r;
  if (overlap3d_compute(A->polyhedron, Ra, xa, B->polyhedron, Rb, xb, &r, NULL)) return 1;
  if (!(r.volume > 0.0)) return 0;
  struct hull3d_placed pa = {0}, pb = {0};
  if (hull3d_place(A->polyhedron, Ra, xa, &pa) || hull3d_place(B->polyhedron, Rb, xb, &pb)) {
    hull3d_placed_free(&pa);
    return 1;
  }
  /* m lies in both bodies, so every psi is <= 0; the largest is the shallowest way out. A face of b
   * pushes a along its outward normal; a face of a pushes a against its own. */
  double best = -HUGE_VAL, n[3] = {0, 0, 1};
  enum feature_kind fa = FEATURE_NONE, fb = FEATURE_NONE;
  int ida = 0, idb = 0;
  for (int f = 0; f < pb.ph->nf; f++) {
    double psi = vec3_dot(pb.fn + 3 * f, r.vertex_mean) - pb.fd[f];
    if (psi > best)
      best = psi, fa = FEATURE_NONE, fb = FEATURE_FACE, ida = 0, idb = f, vec3_scale(pb.fn + 3 * f, 1.0, n);
  }
  for (int f = 0; f < pa.ph->nf; f++) {
    double psi = vec3_dot(pa.fn + 3 * f, r.vertex_mean) - pa.fd[f];
    if (psi > best)
      best = psi, fa = FEATURE_FACE, fb = FEATURE_NONE, ida = f, idb = 0, vec3_scale(pa.fn + 3 * f, -1.0, n);
  }
  hull3d_placed_free(&pa);
  hull3d_placed_free(&pb);
  struct contact c = {.a = A->body,
                      .b = B->body,
                      .sa = sa,
                      .sb = sb,
                      .gap = 2.0 * best,
                      .fa = fa,
                      .fb = fb,
                      .ida = ida,
                      .idb = idb,
                      .mu = w->mu};
  memcpy(c.n, n, sizeof c.n);
  memcpy(c.pa, r.vertex_mean, sizeof c.pa);
  vec3_axpy(best, n, c.pa);
  memcpy(c.pb, r.vertex_mean, sizeof c.pb);
  vec3_axpy(-best, n, c.pb);
  return contact_set_push(out, &c);
}
