/* test_geom3d.c — the 3D geometry module: quaternion identities and kinematics, polyhedron mass
 * properties against closed forms (box; icosahedron I = V phi^2 a^2 / 10 per unit density), qhull hulls
 * of random points, the potential-contact sets of the 3D narrow phase (box flat on a plane, sphere on a
 * plane, box corner on a box face, crossed edges, stacked boxes) and the exact overlap volume of two
 * polyhedra against closed forms and a Monte-Carlo estimate (GSL RNG). */
#include "check.h"
#include "contact3d.h"
#include "geom3d.h"
#include "hull3d.h"
#include "overlap3d.h"
#include "solver_fixture.h"
#include "world_detect.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>

static void test_quaternions(void)
{
  double ax1[3] = {1, 2, 3}, ax2[3] = {-0.3, 0.1, 0.7}, p[4], q[4], pq[4], Rp[9], Rq[9], Rpq[9], RpRq[9];
  quat_from_axis_angle(ax1, 0.7, p);
  quat_from_axis_angle(ax2, -1.9, q);
  quat_mul(p, q, pq);
  quat_to_matrix(p, Rp);
  quat_to_matrix(q, Rq);
  quat_to_matrix(pq, Rpq);
  mat3_mul(Rp, Rq, RpRq);
  CHECK(max_abs_diff(Rpq, RpRq, 9) < 1e-15, "quat: R(p q) = R(p) R(q)");
  double pc[4], one[4], id[4];
  quat_conj(p, pc);
  quat_mul(p, pc, one);
  quat_identity(id);
  CHECK(max_abs_diff(one, id, 4) < 1e-15, "quat: p p* = 1");
  double v[3] = {0.3, -1.2, 2.5}, r1[3], r2[3];
  quat_rotate(p, v, r1);
  mat3_vec(Rp, v, r2);
  CHECK(max_abs_diff(r1, r2, 3) < 1e-15, "quat: rotate agrees with the matrix");
  CHECK_CLOSE(vec3_norm(r1), vec3_norm(v), 1e-14, "quat: rotation keeps lengths");
  CHECK_CLOSE(mat3_det(Rp), 1.0, 1e-14, "quat: det R = 1");
  double back[4];
  quat_from_matrix(Rpq, back);
  if (back[0] * pq[0] < 0)
    for (int k = 0; k < 4; k++)
      back[k] = -back[k];
  CHECK(max_abs_diff(back, pq, 4) < 1e-14, "quat: from_matrix inverts to_matrix");
  /* A half turn about x has w = 0: the other pivots of Shepperd's method. */
  double x[3] = {1, 0, 0}, half[4], Rh[9], hb[4];
  quat_from_axis_angle(x, M_PI, half);
  quat_to_matrix(half, Rh);
  quat_from_matrix(Rh, hb);
  CHECK(fabs(fabs(hb[1]) - 1.0) < 1e-15 && fabs(hb[0]) < 1e-15, "quat: from_matrix of a half turn");
  /* Constant angular velocity for 1 s: q(1) = rotation by |w| about w; explicit steps are O(h) accurate. */
  double w[3] = {0.4, -0.8, 1.1}, qi[4], exact[4];
  quat_identity(qi);
  for (int i = 0; i < 100000; i++)
    quat_integrate(qi, w, 1e-5);
  quat_from_axis_angle(w, vec3_norm(w), exact);
  CHECK(max_abs_diff(qi, exact, 4) < 1e-4, "quat: integrate matches the exact rotation (err %.2e)",
        max_abs_diff(qi, exact, 4));
  CHECK_CLOSE(qi[0] * qi[0] + qi[1] * qi[1] + qi[2] * qi[2] + qi[3] * qi[3], 1.0, 1e-14,
              "quat: integrate keeps unit length");
}

static void test_box_mass(void)
{
  struct polyhedron *b = hull3d_box(0.5, 1.0, 1.5);
  CHECK(b && b->nv == 8 && b->nf == 6 && b->ne == 12, "box: 8 vertices, 6 merged faces, 12 edges");
  if (!b) return;
  int quads = 1;
  for (int f = 0; f < b->nf; f++)
    quads &= b->face_start[f + 1] - b->face_start[f] == 4;
  CHECK(quads, "box: every face is a quadrilateral");
  CHECK_CLOSE(b->volume, 6.0, 1e-13, "box: volume 1 x 2 x 3");
  CHECK(vec3_norm(b->centroid) < 1e-14, "box: centroid at the origin");
  double I[9] = {6.0 * (4 + 9) / 12, 0, 0, 0, 6.0 * (1 + 9) / 12, 0, 0, 0, 6.0 * (1 + 4) / 12};
  CHECK(max_abs_diff(b->inertia, I, 9) < 1e-13, "box: inertia V (b^2 + c^2) / 12 per axis");
  double d[3] = {0.3, -0.2, 0.7}, Ic[9], Ic0[9];
  hull3d_central_inertia(b, 2.0, Ic0);
  hull3d_translate(b, d);
  CHECK(max_abs_diff(b->centroid, d, 3) < 1e-14, "box: translated centroid");
  hull3d_central_inertia(b, 2.0, Ic);
  CHECK(max_abs_diff(Ic, Ic0, 9) < 1e-13, "box: central inertia invariant under translation");
  polyhedron_free(b);
}

static void test_icosahedron_mass(void)
{
  const double phi = 0.5 * (1 + sqrt(5.0)), R = 0.5;
  struct polyhedron *p = hull3d_icosahedron(R);
  CHECK(p && p->nv == 12 && p->nf == 20 && p->ne == 30, "icosahedron: 12 vertices, 20 faces, 30 edges");
  if (!p) return;
  double a = R / sqrt(1 + phi * phi) * 2.0; /* edge: two vertices (0, ±s, s phi) */
  double V = 5.0 / 12.0 * (3 + sqrt(5.0)) * a * a * a;
  CHECK_CLOSE(p->volume, V, 1e-14, "icosahedron: volume 5/12 (3 + sqrt 5) a^3");
  double I = V * phi * phi * a * a / 10.0, Iexp[9] = {I, 0, 0, 0, I, 0, 0, 0, I};
  CHECK(max_abs_diff(p->inertia, Iexp, 9) < 1e-14, "icosahedron: isotropic inertia V phi^2 a^2 / 10");
  CHECK_CLOSE(hull3d_bound_radius(p), R, 1e-15, "icosahedron: circumradius");
  polyhedron_free(p);
}

static void test_random_hulls(gsl_rng *rng)
{
  int ok_contain = 1, ok_euler = 1, ok_planes = 1, ok_orient = 1, built = 0;
  for (int trial = 0; trial < 20; trial++) {
    int n = 8 + 10 * trial;
    double *x = malloc(3 * (size_t)n * sizeof *x);
    for (int i = 0; i < 3 * n; i++)
      x[i] = 2.0 * gsl_rng_uniform(rng) - 1.0 + (i % 3 == 0 ? 5.0 : 0.0);
    struct polyhedron *p = hull3d_create(n, x);
    if (p) {
      built++;
      for (int i = 0; i < n; i++)
        ok_contain &= hull3d_contains(p, x + 3 * i, 1e-12);
      ok_euler &= p->nv - p->ne + p->nf == 2;
      for (int f = 0; f < p->nf; f++) {
        ok_planes &= fabs(vec3_norm(p->fn + 3 * f) - 1.0) < 1e-14;
        int s = p->face_start[f], m = p->face_start[f + 1] - s;
        for (int k = 0; k < m; k++)
          ok_planes &= fabs(vec3_dot(p->fn + 3 * f, p->v + 3 * p->face_vert[s + k]) - p->fd[f]) < 1e-12;
        /* Counter-clockwise from outside: the first triangle's normal agrees with the face normal. */
        double e1[3], e2[3], c[3];
        vec3_sub(p->v + 3 * p->face_vert[s + 1], p->v + 3 * p->face_vert[s], e1);
        vec3_sub(p->v + 3 * p->face_vert[s + 2], p->v + 3 * p->face_vert[s], e2);
        vec3_cross(e1, e2, c);
        ok_orient &= vec3_dot(c, p->fn + 3 * f) > 0.0;
      }
      ok_contain &= hull3d_contains(p, p->centroid, -1e-6); /* strictly inside */
    }
    polyhedron_free(p);
    free(x);
  }
  CHECK(built == 20, "hull: 20 random hulls built (%d)", built);
  CHECK(ok_contain, "hull: every input point and the centroid inside the hull");
  CHECK(ok_euler, "hull: V - E + F = 2");
  CHECK(ok_planes, "hull: unit face normals, vertices on their face planes");
  CHECK(ok_orient, "hull: faces counter-clockwise seen from outside");
  double flat[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};
  CHECK(hull3d_create(4, flat) == NULL, "hull: coplanar points are refused (NULL)");
  struct polyhedron *r = hull3d_random(rng, 30, 0.5);
  CHECK(r && vec3_norm(r->centroid) < 1e-14 && r->volume > 0.0 && hull3d_bound_radius(r) <= 1.0,
        "hull: hull3d_random is centred, within twice its radius");
  polyhedron_free(r);
}

static int count_features(const struct contact_set *s, enum feature_kind fa, enum feature_kind fb)
{
  int k = 0;
  for (int i = 0; i < s->n; i++)
    k += s->c[i].fa == fa && s->c[i].fb == fb;
  return k;
}

/* A placed polyhedron from an axis-angle rotation and a position. */
static void place(const struct polyhedron *p, const double axis[3], double angle, const double x[3],
                  struct hull3d_placed *out)
{
  double q[4], R[9];
  quat_from_axis_angle(axis, angle, q);
  quat_to_matrix(q, R);
  hull3d_place(p, R, x, out);
}

/* The narrow phase's cases: the plane's normal, the origin, and the contact threshold. */
static const double UP[3] = {0, 0, 1}, ORIGIN[3] = {0, 0, 0}, THR = 0.01;

/* Box flat on a plane: exactly its 4 bottom vertices; a sphere on a plane: one contact, gap = height - r. */
static void test_contacts_plane(const struct polyhedron *unit)
{
  struct contact_set s = {0};
  struct hull3d_placed a;
  double xa[3] = {0.2, -0.1, 0.5 + 1e-3};
  place(unit, UP, 0.3, xa, &a);
  contact3d_polyhedron_plane(&a, UP, 0.0, THR, &s);
  int ok = s.n == 4 && count_features(&s, FEATURE_VERTEX, FEATURE_SURFACE) == 4;
  for (int i = 0; i < s.n; i++)
    ok &= fabs(s.c[i].gap - 1e-3) < 1e-14 && fabs(s.c[i].n[2] - 1) < 1e-15;
  CHECK(ok, "contact: box flat on a plane gives its 4 bottom vertices (%d contacts)", s.n);
  hull3d_placed_free(&a);

  contact_set_clear(&s);
  double c[3] = {1, 2, 0.3};
  contact3d_sphere_plane(c, 0.25, UP, 0.0, THR, &s);
  CHECK(s.n == 0, "contact: a sphere 0.05 above the plane is beyond the threshold 0.01");
  contact_set_clear(&s);
  c[2] = 0.255;
  contact3d_sphere_plane(c, 0.25, UP, 0.0, THR, &s);
  CHECK(s.n == 1 && fabs(s.c[0].gap - 0.005) < 1e-15 && fabs(s.c[0].pb[2]) < 1e-15 && s.c[0].pa[2] > 0.0,
        "contact: sphere on a plane, gap 0.005, points on both bodies");
  contact_set_free(&s);
}

/* Box corner on a box face: the cube's diagonal vertical, one vertex-face contact; in the other order the
 * normal and the features swap. */
static void test_contacts_corner(const struct polyhedron *unit, const struct polyhedron *big)
{
  struct contact_set s = {0};
  struct hull3d_placed a, b;
  double axis[3] = {1, -1, 0}, h = 0.5 * sqrt(3.0), xc[3] = {0.1, 0.2, 1 + h + 0.002};
  place(unit, axis, acos(1 / sqrt(3.0)), xc, &a); /* (-1,-1,-1)/sqrt 3 turned to (0,0,-1) */
  place(big, UP, 0.0, ORIGIN, &b);
  contact3d_polyhedron_polyhedron(&a, &b, THR, &s);
  CHECK(s.n == 1 && s.c[0].fa == FEATURE_VERTEX && s.c[0].fb == FEATURE_FACE &&
            fabs(s.c[0].gap - 0.002) < 1e-12 && fabs(s.c[0].n[2] - 1) < 1e-12 &&
            fabs(s.c[0].pb[0] - 0.1) < 1e-12 && fabs(s.c[0].pb[2] - 1) < 1e-12,
        "contact: box corner on a box face, one vertex-face contact (%d)", s.n);
  contact_set_clear(&s);
  contact3d_polyhedron_polyhedron(&b, &a, THR, &s);
  CHECK(s.n == 1 && s.c[0].fa == FEATURE_FACE && s.c[0].fb == FEATURE_VERTEX &&
            fabs(s.c[0].n[2] + 1) < 1e-12 && fabs(s.c[0].gap - 0.002) < 1e-12,
        "contact: swapped order flips the normal and the features");
  hull3d_placed_free(&a);
  hull3d_placed_free(&b);
  contact_set_free(&s);
}

/* Crossed edges: a bar along x turned 45 deg about x above a bar along y turned 45 deg about y; then
 * penetrating by 0.004: still one edge-edge contact, with a negative gap. */
static void test_contacts_crossed_edges(void)
{
  struct contact_set s = {0};
  struct polyhedron *barx = hull3d_box(1, 0.5, 0.5), *bary = hull3d_box(0.5, 1, 0.5);
  struct hull3d_placed a, b;
  double ex[3] = {1, 0, 0}, ey[3] = {0, 1, 0}, r2 = 0.5 * sqrt(2.0), xe[3] = {0.05, -0.1, 2 * r2 + 0.003};
  place(barx, ex, M_PI / 4, xe, &a);
  place(bary, ey, M_PI / 4, ORIGIN, &b);
  contact3d_polyhedron_polyhedron(&a, &b, THR, &s);
  CHECK(s.n == 1 && count_features(&s, FEATURE_EDGE, FEATURE_EDGE) == 1 && fabs(s.c[0].gap - 0.003) < 1e-12 &&
            fabs(s.c[0].n[2] - 1) < 1e-12 && fabs(s.c[0].pa[0] - 0.0) < 1e-12 &&
            fabs(s.c[0].pa[1] + 0.1) < 1e-12,
        "contact: crossed edges give one edge-edge contact, normal +z from b to a (%d)", s.n);
  contact_set_clear(&s);
  hull3d_placed_free(&a);
  xe[2] = 2 * r2 - 0.004;
  place(barx, ex, M_PI / 4, xe, &a);
  contact3d_polyhedron_polyhedron(&a, &b, THR, &s);
  CHECK(s.n == 1 && s.c[0].fa == FEATURE_EDGE && fabs(s.c[0].gap + 0.004) < 1e-12,
        "contact: penetrating crossed edges, gap -0.004 (%d)", s.n);
  hull3d_placed_free(&a);
  hull3d_placed_free(&b);
  contact_set_free(&s);
  polyhedron_free(barx);
  polyhedron_free(bary);
}

/* A small box resting on a big one: 4 vertex-face contacts; two equal boxes stacked: the shared corners are
 * reported once each. */
static void test_contacts_stacked(const struct polyhedron *unit, const struct polyhedron *big)
{
  struct contact_set s = {0};
  struct hull3d_placed a, b;
  double xs[3] = {0.2, 0.1, 1.5};
  place(unit, UP, 0.4, xs, &a);
  place(big, UP, 0.0, ORIGIN, &b);
  contact3d_polyhedron_polyhedron(&a, &b, THR, &s);
  CHECK(s.n == 4 && count_features(&s, FEATURE_VERTEX, FEATURE_FACE) == 4,
        "contact: small box resting on a big box, 4 vertex-face contacts (%d)", s.n);
  hull3d_placed_free(&a);
  contact_set_clear(&s);
  double xt[3] = {0, 0, 2.0};
  place(big, UP, 0.0, xt, &a);
  contact3d_polyhedron_polyhedron(&a, &b, THR, &s);
  int ok = s.n == 4;
  for (int i = 0; i < s.n; i++)
    ok &= fabs(s.c[i].n[2] - 1) < 1e-12 && fabs(s.c[i].gap) < 1e-12;
  CHECK(ok, "contact: equal stacked boxes, 4 corner contacts with normal +z (%d)", s.n);
  hull3d_placed_free(&a);
  hull3d_placed_free(&b);
  contact_set_free(&s);
}

/* The small box on a triangulated big box (PEG's block meshes): still 4 vertex-face contacts; where its
 * bottom edges cross the top face's diagonal, edge-edge contacts with the same normal. */
static void test_contacts_triangulated(const struct polyhedron *unit, const struct polyhedron *big)
{
  struct contact_set s = {0};
  struct polyhedron *tri = hull3d_triangulate(big);
  CHECK(tri && tri->nf == 12 && tri->ne == 18 && fabs(tri->volume - 8.0) < 1e-13,
        "triangulate: a box becomes 12 triangles, 18 edges, same volume");
  struct hull3d_placed a, bt;
  double xs[3] = {0.2, 0.1, 1.5 + 0.002};
  place(unit, UP, 0.4, xs, &a);
  place(tri, UP, 0.0, ORIGIN, &bt);
  contact3d_polyhedron_polyhedron(&a, &bt, THR, &s);
  int ok =
      count_features(&s, FEATURE_VERTEX, FEATURE_FACE) == 4 &&
      count_features(&s, FEATURE_VERTEX, FEATURE_FACE) + count_features(&s, FEATURE_EDGE, FEATURE_EDGE) ==
          s.n;
  for (int i = 0; i < s.n; i++)
    ok &= fabs(s.c[i].n[2] - 1) < 1e-12 && fabs(s.c[i].gap - 0.002) < 1e-12;
  CHECK(ok, "contact: small box on a triangulated box, 4 vertex-face (+ %d diagonal edge-edge) at gap 0.002",
        s.n - 4);
  hull3d_placed_free(&a);
  hull3d_placed_free(&bt);
  contact_set_free(&s);
  polyhedron_free(tri);
}

/* Sphere above a box edge: an edge feature, normal along the diagonal. */
static void test_contacts_sphere_edge(const struct polyhedron *big)
{
  struct contact_set s = {0};
  struct hull3d_placed b;
  place(big, UP, 0.0, ORIGIN, &b);
  double cs[3] = {1 + 0.2 / sqrt(2.0), 0.3, 1 + 0.2 / sqrt(2.0) + 0.001 / sqrt(2.0)};
  contact3d_sphere_polyhedron(cs, 0.2, &b, THR, &s);
  CHECK(s.n == 1 && s.c[0].fb == FEATURE_EDGE && fabs(s.c[0].n[0] - s.c[0].n[2]) < 1e-2 && s.c[0].gap > 0.0 &&
            s.c[0].gap < 0.002,
        "contact: sphere over a box edge, edge feature (%d)", s.n);
  hull3d_placed_free(&b);
  contact_set_free(&s);
}

/* The potential-contact sets of the 3D narrow phase, on a unit cube and a 2 x 2 x 2 box. */
static void test_contacts(void)
{
  struct polyhedron *unit = hull3d_box(0.5, 0.5, 0.5), *big = hull3d_box(1, 1, 1);
  test_contacts_plane(unit);
  test_contacts_corner(unit, big);
  test_contacts_crossed_edges();
  test_contacts_stacked(unit, big);
  test_contacts_triangulated(unit, big);
  test_contacts_sphere_edge(big);
  polyhedron_free(unit);
  polyhedron_free(big);
}

/* Monte-Carlo volume of A (at the origin, identity) intersected with B (Rb, xb): N samples in A's box. */
static double mc_overlap(gsl_rng *rng, const struct polyhedron *A, double half, const struct polyhedron *B,
                         const double Rb[9], const double xb[3], int N, double *sigma)
{
  int hits = 0;
  for (int i = 0; i < N; i++) {
    double x[3], d[3], local[3];
    for (int k = 0; k < 3; k++)
      x[k] = half * (2 * gsl_rng_uniform(rng) - 1);
    vec3_sub(x, xb, d);
    mat3_tvec(Rb, d, local);
    hits += hull3d_contains(A, x, 0.0) && hull3d_contains(B, local, 0.0);
  }
  double box = 8 * half * half * half, p = (double)hits / N;
  *sigma = box * sqrt(p * (1 - p) / N);
  return box * p;
}

static void test_overlap(gsl_rng *rng)
{
  struct polyhedron *cube = hull3d_box(0.5, 0.5, 0.5), *ico = hull3d_icosahedron(0.5), *inter = NULL;
  double I[9], zero[3] = {0, 0, 0}, off[3] = {0.5, 0, 0};
  mat3_identity(I);
  struct overlap3d r;
  int rc = overlap3d_compute(cube, I, zero, cube, I, off, &r, &inter);
  CHECK(rc == 0 && fabs(r.volume - 0.5) < 1e-12 && fabs(r.centroid[0] - 0.25) < 1e-12 && r.nv == 8,
        "overlap: unit cubes offset by (0.5, 0, 0) overlap by 0.5 (%.15g)", r.volume);
  CHECK(inter && fabs(inter->volume - 0.5) < 1e-12, "overlap: the intersection polyhedron is returned");
  polyhedron_free(inter);
  double far[3] = {1.2, 0.3, 0};
  rc = overlap3d_compute(cube, I, zero, cube, I, far, &r, NULL);
  CHECK(rc == 0 && r.volume == 0.0 && r.nv == 0, "overlap: disjoint cubes give 0");
  double touch[3] = {1.0, 0.2, 0.1};
  rc = overlap3d_compute(cube, I, zero, cube, I, touch, &r, NULL);
  CHECK(rc == 0 && fabs(r.volume) < 1e-12, "overlap: face-touching cubes give 0 (%.3g)", r.volume);
  rc = overlap3d_compute(cube, I, zero, cube, I, zero, &r, NULL);
  CHECK(rc == 0 && fabs(r.volume - 1.0) < 1e-12, "overlap: a cube with itself gives its volume");
  /* A cube against a rotated, shifted cube and against an icosahedron: Monte-Carlo within 4 sigma. */
  double axis[3] = {1, 2, 3}, q[4], Rb[9], xb[3] = {0.3, 0.2, -0.1}, sigma;
  quat_from_axis_angle(axis, 0.6, q);
  quat_to_matrix(q, Rb);
  rc = overlap3d_compute(cube, I, zero, cube, Rb, xb, &r, NULL);
  double mc = mc_overlap(rng, cube, 0.5, cube, Rb, xb, 400000, &sigma);
  CHECK(rc == 0 && fabs(r.volume - mc) < 4 * sigma, "overlap: rotated cube %.5f vs Monte-Carlo %.5f +- %.5f",
        r.volume, mc, sigma);
  double xi[3] = {0.45, -0.3, 0.35};
  rc = overlap3d_compute(cube, I, zero, ico, Rb, xi, &r, NULL);
  mc = mc_overlap(rng, cube, 0.5, ico, Rb, xi, 400000, &sigma);
  CHECK(rc == 0 && r.volume > 0.0 && fabs(r.volume - mc) < 4 * sigma,
        "overlap: cube and icosahedron %.5f vs Monte-Carlo %.5f +- %.5f", r.volume, mc, sigma);
  /* Slivers met in a falling pile: an icosahedron face almost flat on a block (a wedge 6e-7 thick) and two
   * icosahedra grazing; both volumes are round-off, and must come back as a tiny non-negative number. */
  struct polyhedron *slab = hull3d_box(5.125, 2.125, 0.125);
  double xs[3] = {0, 0, -0.125},
         q1[4] = {0.89526343780548268, -0.072003415639705484, 0.15694681298263119, 0.41071472211197801};
  double x1[3] = {-1.8963922702450524, -0.78559543376322216, 0.39996201167623696}, R1[9], R2[9];
  quat_to_matrix(q1, R1);
  rc = overlap3d_compute(slab, I, xs, ico, R1, x1, &r, NULL);
  int sliver_ok = rc == 0 && r.volume >= 0.0 && r.volume < 1e-12;
  double q2[4] = {0.32600847570612146, 0.41521632225042832, 0.73275289096337481, 0.42940316753537844},
         x2[3] = {4.3293022678327437, 0.22718024731757716, 0.41466156725761633},
         q3[4] = {-0.31261646065096832, 0.18574596995170317, 0.045221484161742383, 0.93044312053288447},
         x3[3] = {4.3173528469375029, 1.1274601268730249, 0.40269877538692073};
  quat_normalize(q2);
  quat_normalize(q3);
  quat_to_matrix(q2, R1);
  quat_to_matrix(q3, R2);
  rc = overlap3d_compute(ico, R1, x2, ico, R2, x3, &r, NULL);
  sliver_ok &= rc == 0 && r.volume >= 0.0 && r.volume < 1e-12;
  CHECK(sliver_ok, "overlap: near-touching slivers give a tiny non-negative volume, not a failure");
  polyhedron_free(slab);
  polyhedron_free(cube);
  polyhedron_free(ico);
}

/* Through a world: the total overlap over body pairs (static-static excluded) and the corrective contact. */
static void test_world_overlap(void)
{
  struct world *w = world_create(3);
  /* Body 0: static floor block and body 1: a static wall block overlapping it (never measured); bodies
   * 2 and 3: unit cubes overlapping by a 0.1 x 0.7 x 1 slab, both sunk 0.05 into the floor. */
  int b0 = world_add_body(w, 1, 0, 0);
  world_add_polyhedron(w, b0, hull3d_box(2, 2, 0.5));
  w->bodies[b0].x[2] = -0.5;
  int b1 = world_add_body(w, 1, 0, 0);
  world_add_polyhedron(w, b1, hull3d_box(0.25, 2, 1));
  w->bodies[b1].x[0] = 2;
  int b2 = world_add_body(w, 0, 1, 1), s2 = w->ns;
  world_add_polyhedron(w, b2, hull3d_box(0.5, 0.5, 0.5));
  int b3 = world_add_body(w, 0, 1, 1), s3 = w->ns;
  world_add_polyhedron(w, b3, hull3d_box(0.5, 0.5, 0.5));
  w->bodies[b2].x[2] = 0.45;
  w->bodies[b3].x[0] = 0.9;
  w->bodies[b3].x[1] = 0.3;
  w->bodies[b3].x[2] = 0.45;
  world_finalize(w);
  CHECK_CLOSE(contact3d_total_overlap(w), 0.1 * 0.7 * 1.0 + 2 * 0.05 * 1.0 * 1.0, 1e-12,
              "overlap: world total = cube-cube slab + two cube-floor slivers, static pair excluded (%.15g)",
              contact3d_total_overlap(w));
  struct contact_set cs = {0};
  int rc = contact3d_corrective(w, s3, s2, &cs);
  /* Slab x in [0.4, 0.5]: vertex mean x = 0.45, both x faces 0.05 away; n from body 2 to body 3 is +x. */
  CHECK(rc == 0 && cs.n == 1 && fabs(cs.c[0].gap + 0.1) < 1e-12 && fabs(cs.c[0].n[0] - 1) < 1e-12 &&
            fabs(cs.c[0].pa[0] - 0.4) < 1e-12 && fabs(cs.c[0].pb[0] - 0.5) < 1e-12 && cs.c[0].a == b3 &&
            cs.c[0].b == b2,
        "corrective: one contact at the overlap's mean, gap = 2 psi = -0.1, normal +x");
  contact_set_clear(&cs);
  w->bodies[b3].x[0] = 1.2;
  rc = contact3d_corrective(w, s3, s2, &cs);
  CHECK(rc == 0 && cs.n == 0, "corrective: no contact without overlap");
  /* world_detect through the hook: the sunk cube meets the floor with 4 penetrating vertex-face contacts. */
  contact_set_clear(&cs);
  rc = world_detect(w, 0.01, &cs);
  int floor = 0;
  for (int i = 0; i < cs.n; i++)
    floor += (cs.c[i].a == b0 || cs.c[i].b == b0) && (cs.c[i].a == b2 || cs.c[i].b == b2) &&
             fabs(cs.c[i].gap + 0.05) < 1e-12;
  CHECK(rc == 0 && floor == 4, "detect: cube sunk 0.05 into a static block, 4 contacts at gap -0.05 (%d)",
        floor);
  contact_set_free(&cs);
  world_destroy(&w);
}

int main(void)
{
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 20261122);
  test_quaternions();
  test_box_mass();
  test_icosahedron_mass();
  test_random_hulls(rng);
  test_contacts();
  test_overlap(rng);
  test_world_overlap();
  gsl_rng_free(rng);
  return check_finish();
}
