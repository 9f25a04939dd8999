/* test_peg3d.c — known answers for PEG in 3D (Williams, Lu & Trinkle 2016, Sec. 5.2; peg3d.c) on hand-built
 * pairs of boxes, one step of h = 0.01 from a gap of 0.01 m with the upper box falling at 2 m/s (so the
 * unconstrained step would penetrate by 0.01 m), solved by Lemke:
 *   a cube corner on a face — one vertex-face contact, a U row (eq. 34);
 *   crossed edges — one edge-edge contact with interior closest points, a U row (eq. 35), normal vertical;
 *   an edge on an edge (parallel, the upper one shorter) — each end vertex near the two faces of the lower
 *     edge: an I (eq. 36) each, with X rows between the vertex's slanted edges and the faces (eq. 36);
 *   a vertex on a vertex — each vertex near the other's three faces: an I with two kappa contacts each
 *     (eq. 37, cumulative slacks), and per face pair an X over the two vertex-face and the edge-edge
 *     contacts there (eq. 38);
 * in each: the rows built, a positive impulse that stops the approach (the box's vertical velocity after
 * the step is -gap / h = -1 m/s, so it lands exactly), and no overlap after the step (exact intersection
 * volume, overlap3d). Also the paper's standard model (-stewart_trinkle_detection paper) on the crossed-edge
 * and corner pairs: the vertex-face contacts both ways within 0.07 m, none for edges. */
#include "check.h"
#include "contact3d.h"
#include "formulation.h"
#include "geom3d.h"
#include "hull3d.h"
#include "peg_lcp.h"
#include "run.h"
#include "solver_fixture.h"
#include "stewart_trinkle.h"

#include <math.h>
#include <petscsys.h>

static const double H = 0.01, V0 = 2.0, GAP = 0.01;

/* Body 0: static box (half extents lo) rotated by qlo; body 1: dynamic box (he), rotated by qhi, placed so
 * that its lowest point is GAP above the static box's highest point, directly above it, falling at V0. */
static struct world *pair(const double lo[3], const double qlo[4], const double he[3], const double qhi[4])
{
  struct world *w = world_create(3);
  if (!w) return NULL;
  int b0 = world_add_body(w, 1, 0, 0);
  world_add_polyhedron(w, b0, hull3d_box(lo[0], lo[1], lo[2]));
  memcpy(w->bodies[b0].q, qlo, 4 * sizeof *qlo);
  int b1 = world_add_body(w, 0, 1.0, 1.0);
  world_add_polyhedron(w, b1, hull3d_box(he[0], he[1], he[2]));
  memcpy(w->bodies[b1].q, qhi, 4 * sizeof *qhi);
  hull3d_central_inertia(w->shapes[1].polyhedron, 1.0, w->bodies[b1].inertia3);
  w->gravity[2] = 0.0;
  if (world_finalize(w)) {
    world_destroy(&w);
    return NULL;
  }
  /* heights of the extreme vertices */
  double top = -HUGE_VAL, bottom = HUGE_VAL, R[9], x[3];
  for (int s = 0; s < 2; s++) {
    const struct polyhedron *ph = w->shapes[s].polyhedron;
    world_rotation(w, &w->bodies[s], R);
    for (int i = 0; i < ph->nv; i++) {
      mat3_vec(R, ph->v + 3 * i, x);
      if (s == 0)
        top = fmax(top, x[2]);
      else
        bottom = fmin(bottom, x[2]);
    }
  }
  w->bodies[b1].x[2] = top - bottom + GAP;
  w->bodies[b1].v[2] = -V0;
  return w;
}

struct outcome {
  int ok, nc, nu, ni, nx, ncont, vv, nee, nvf, xvv, xcont;
  int x_groups_ok; /* each X group (a pair and its continuations): both vertex-face ways, an edge-edge */
  double vz, overlap, impulse;
  int rows; /* the LCP's size */
};

/* One step of form (its option / value pairs opts, NULL: its defaults) with Lemke. */
static struct outcome step(struct world *w, const char *form, const char *const *opts)
{
  struct outcome o = {0};
  struct simulation sim;
  struct run_summary sum;
  if (!test_sim_open(&sim, w, form, "lemke", opts) || simulation_run(&sim, H, 1, NULL, 0, &sum)) goto cleanup;
  o.ok = sum.failed_steps == 0;
  const struct contact_set *cs = stepper_contacts(sim.st);
  const double *pn = stepper_impulses(sim.st);
  o.nc = cs->n;
  o.rows = sim.f->rows.total;
  for (int i = 0; i < cs->n; i++) {
    o.impulse += pn[i];
    o.nee += cs->c[i].fa == FEATURE_EDGE && cs->c[i].fb == FEATURE_EDGE;
    o.nvf += cs->c[i].fa == FEATURE_VERTEX && cs->c[i].fb == FEATURE_FACE;
  }
  if (strcmp(form, "peg") == 0) {
    const struct peg_model *m = peg_type_model(sim.f);
    o.nu = m->nu, o.ni = m->ni, o.nx = m->nx, o.vv = m->vv, o.xvv = m->xvv;
    for (int j = 0; j < m->ni; j++)
      o.ncont += m->in[j].cont;
    for (int j = 0; j < m->nx; j++)
      o.xcont += m->x[j].cont;
    o.x_groups_ok = m->nx > 0;
    for (int j0 = 0; j0 < m->nx;) {
      int j1 = j0 + 1, ab = 0, ba = 0, ee = 0;
      while (j1 < m->nx && m->x[j1].cont)
        j1++;
      for (int j = j0 - 1; j < j1; j++) {
        const struct contact *c = &cs->c[j < j0 ? m->x[j0].primary : m->x[j].kappa];
        ab += c->fa == FEATURE_VERTEX && c->sa == 1;
        ba += c->fa == FEATURE_VERTEX && c->sa == 0;
        ee += c->fa == FEATURE_EDGE;
      }
      if (ab != 1 || ba != 1 || ee < 1) o.x_groups_ok = 0;
      j0 = j1;
    }
  }
  o.vz = w->bodies[1].v[2];
  o.overlap = contact3d_overlap_volume(w, 0, 1);
cleanup:
  sim.w = NULL;
  simulation_close(&sim);
  return o;
}

static void expect_landing(const char *name, struct outcome o)
{
  CHECK(o.ok, "%s: the step's LCP solved", name);
  CHECK(o.impulse > 0.0, "%s: a positive normal impulse (%g)", name, o.impulse);
  CHECK_CLOSE(o.vz, -GAP / H, 1e-8, "%s: lands exactly: v_z = -gap / h (%.12g)", name, o.vz);
  CHECK(o.overlap >= 0.0 && o.overlap < 1e-12, "%s: no overlap after the step (volume %g)", name, o.overlap);
}

/* The orientations of the cases: identity; a cube's corner down (its diagonal (1,1,1) turned onto -z) and
 * up (onto +z, the static box); an edge along x at the top and at the bottom (turned about x); an edge along
 * y (a bar along y turned about y). */
struct poses {
  double id[4], corner_down[4], corner_up[4], edge_x[4], edge_y[4];
};

static struct poses make_poses(void)
{
  struct poses p = {.id = {1, 0, 0, 0}};
  double axis[3], diag[3] = {1, 1, 1}, down[3] = {0, 0, -1}, up[3] = {0, 0, 1}, ax[3] = {1, 0, 0},
                  ay[3] = {0, 1, 0};
  vec3_normalize(diag);
  vec3_cross(diag, down, axis);
  quat_from_axis_angle(axis, acos(vec3_dot(diag, down)), p.corner_down);
  vec3_cross(diag, up, axis);
  quat_from_axis_angle(axis, acos(vec3_dot(diag, up)), p.corner_up);
  quat_from_axis_angle(ax, M_PI / 4, p.edge_x);
  quat_from_axis_angle(ay, M_PI / 4, p.edge_y);
  return p;
}

/* The boxes' half extents. */
static const double BIG[3] = {2, 2, 0.5}, CUBE[3] = {0.25, 0.25, 0.25}, BAR[3] = {1.0, 0.2, 0.2},
                    SHORTBAR[3] = {0.5, 0.2, 0.2}, YBAR[3] = {0.2, 1.0, 0.2};

/* A corner on a face, crossed edges, an edge on an edge: the PEG rows of each, and a landing. */
static void test_simple_pairs(const struct poses *q)
{
  struct world *w = pair(BIG, q->id, CUBE, q->corner_down);
  struct outcome o = step(w, "peg", NULL);
  CHECK(o.nvf == 1 && o.nee == 0 && o.nu == 1 && o.ni == 0 && o.nx == 0,
        "corner on a face: one vertex-face contact, one U (contacts %d: vf %d ee %d; U %d I %d X %d)", o.nc,
        o.nvf, o.nee, o.nu, o.ni, o.nx);
  expect_landing("corner on a face", o);
  world_destroy(&w);

  w = pair(BAR, q->edge_x, YBAR, q->edge_y);
  o = step(w, "peg", NULL);
  CHECK(o.nee == 1 && o.nu == 1 && o.ni == 0 && o.nx == 0,
        "crossed edges: one edge-edge contact, one U (contacts %d: vf %d ee %d; U %d I %d X %d)", o.nc, o.nvf,
        o.nee, o.nu, o.ni, o.nx);
  expect_landing("crossed edges", o);
  world_destroy(&w);

  w = pair(BAR, q->edge_x, SHORTBAR, q->edge_x);
  o = step(w, "peg", NULL);
  CHECK(o.ni == 2 && o.ncont == 0 && o.nx == 4 && o.nu == 0,
        "edge on an edge: two vertex-edge I (one kappa each), four X (contacts %d: vf %d ee %d; U %d I %d X "
        "%d)",
        o.nc, o.nvf, o.nee, o.nu, o.ni, o.nx);
  expect_landing("edge on an edge", o);
  world_destroy(&w);
}

/* How far the upper box's lowest vertex is outside the static box (body 0, at the origin): the largest of
 * its signed distances to the static box's face planes, >= 0 when outside. */
static double lowest_vertex_outside(const struct world *w)
{
  double R[9], x[3], best = -HUGE_VAL;
  const struct polyhedron *A = w->shapes[1].polyhedron, *B = w->shapes[0].polyhedron;
  int low = 0;
  world_rotation(w, &w->bodies[1], R);
  for (int i = 0; i < A->nv; i++) {
    mat3_vec(R, A->v + 3 * i, x);
    if (i == 0 || x[2] < best) best = x[2], low = i;
  }
  mat3_vec(R, A->v + 3 * low, x);
  vec3_add(x, w->bodies[1].x, x);
  double Rb[9], xb[3], worst = -HUGE_VAL;
  world_rotation(w, &w->bodies[0], Rb);
  for (int f = 0; f < B->nf; f++) {
    mat3_tvec(Rb, x, xb); /* the static box sits at the origin */
    worst = fmax(worst, vec3_dot(B->fn + 3 * f, xb) - B->fd[f]);
  }
  return worst;
}

/* A vertex on a vertex: the I rows over three faces each, and eq. 38's X per face pair. */
static void test_vertex_on_vertex(const struct poses *q)
{
  struct world *w = pair(CUBE, q->corner_up, CUBE, q->corner_down);
  struct outcome o = step(w, "peg", NULL);
  CHECK(o.ni == 4 && o.ncont == 2 && o.vv == 2 && o.nu == 0,
        "vertex on a vertex: two I over three faces each (I rows %d, continued %d, vertices %d, U %d)", o.ni,
        o.ncont, o.vv, o.nu);
  /* Eq. 38: one X per face pair (fa at the lower vertex, fb at the upper: 3 x 3), each over both
   * vertex-face contacts C(va, fb), C(vb, fa) and the applicable edge-edge contacts of fa's and fb's edges
   * at the vertices (6 of the 9 edge pairs are non-parallel and detected); single primary, the rest
   * continuing it. With them the impulse stops the approach exactly, as on a flat face. */
  CHECK(o.nee == 6 && o.xvv == 9 && o.nx == 33 && o.nx - o.xcont == 9,
        "vertex on a vertex: eq. 38 X per face pair (edge-edge %d, X groups %d, X rows %d, continued %d)",
        o.nee, o.xvv, o.nx, o.xcont);
  CHECK(o.x_groups_ok,
        "vertex on a vertex: every eq. 38 X holds both vertex-face contacts and >= 1 edge-edge");
  expect_landing("vertex on a vertex", o);
  double worst = lowest_vertex_outside(w);
  CHECK(worst > -1e-9, "vertex on a vertex: the lower vertex stays outside the other cube (%g)", worst);
  world_destroy(&w);
}

/* Standard-model traps in 3D (peg3d_count_traps): a vertex near two or more faces of one part — none for a
 * corner on a face, the two end vertices of the upper edge on an edge, both vertices of a vertex on a
 * vertex. */
static void test_traps(const struct poses *q)
{
  struct contact_set ts = {0};
  int t[3];
  struct world *w = pair(BIG, q->id, CUBE, q->corner_down);
  t[0] = peg3d_count_traps(w, &ts);
  world_destroy(&w);
  w = pair(BAR, q->edge_x, SHORTBAR, q->edge_x);
  t[1] = peg3d_count_traps(w, &ts);
  world_destroy(&w);
  w = pair(CUBE, q->corner_up, CUBE, q->corner_down);
  t[2] = peg3d_count_traps(w, &ts);
  world_destroy(&w);
  contact_set_free(&ts);
  CHECK(t[0] == 0 && t[1] == 2 && t[2] == 2,
        "3D traps: corner on a face %d (0), edge on an edge %d (2), vertex on a vertex %d (2)", t[0], t[1],
        t[2]);
}

/* The frictionless standard model (-stewart_trinkle_frictionless, eqs. 8-9): at mu = 0 one row per contact
 * instead of 1 + friction_dirs + 1, and the same step as with the (inert) friction block. The paper's
 * detection (the pair's world has no closest-feature threshold). */
static void test_frictionless(const struct poses *q)
{
  struct world *w = pair(BIG, q->id, CUBE, q->corner_down);
  struct outcome full = step(w, "stewart_trinkle", OPTS("-stewart_trinkle_detection", "paper"));
  world_destroy(&w);
  w = pair(BIG, q->id, CUBE, q->corner_down);
  struct outcome bare =
      step(w, "stewart_trinkle",
           OPTS("-stewart_trinkle_detection", "paper", "-stewart_trinkle_frictionless", "1"));
  world_destroy(&w);
  CHECK(full.ok && bare.ok && full.nc >= 1 && bare.nc == full.nc && full.rows == 6 * full.nc &&
            bare.rows == bare.nc,
        "stewart_trinkle frictionless: %d contacts, rows %d with friction (4 directions), %d without",
        bare.nc, full.rows, bare.rows);
  CHECK_CLOSE(bare.vz, full.vz, 1e-12, "stewart_trinkle frictionless: the same step (v_z %.12g, %.12g)",
              bare.vz, full.vz);
  CHECK_CLOSE(bare.vz, -GAP / H, 1e-8, "stewart_trinkle frictionless: lands exactly (v_z %.12g)", bare.vz);
}

/* The paper's standard model in 3D: a corner GAP above a face — one vertex-face row; a cube resting 0.01
 * above a corner-up cube: the lower vertex is near three faces of the upper cube, and the upper cube's
 * lowest vertex near three of the lower's: six rows (closest: fewer). */
static void test_paper_detection(const struct poses *q)
{
  struct formulation *f = NULL;
  struct contact_set cs = {0};
  char msg[256] = "";
  int rc = formulation_create("stewart_trinkle", &f, msg, sizeof msg) ||
           formulation_set_option(f, "-stewart_trinkle_detection", "paper", msg, sizeof msg);
  CHECK(rc == 0, "stewart_trinkle -stewart_trinkle_detection paper reads (%s)", msg);
  if (rc == 0) {
    struct world *w = pair(BIG, q->id, CUBE, q->corner_down);
    rc = f->type->detect(f, w, H, &cs);
    CHECK(rc == 0 && cs.n == 1 && cs.c[0].fa == FEATURE_VERTEX && cs.c[0].fb == FEATURE_FACE &&
              fabs(cs.c[0].gap - GAP) < 1e-12,
          "paper detection 3D: a corner 0.01 above a face gives one vertex-face contact (%d)", cs.n);
    world_destroy(&w);
    contact_set_clear(&cs);
    w = pair(CUBE, q->corner_up, CUBE, q->corner_down);
    rc = f->type->detect(f, w, H, &cs);
    CHECK(rc == 0 && cs.n == 6, "paper detection 3D: vertex on a vertex gives 6 vertex-face rows (%d)", cs.n);
    world_destroy(&w);
  }
  contact_set_free(&cs);
  formulation_destroy(&f);
}

int main(int argc, char **argv)
{
  PetscInitialize(&argc, &argv, NULL, NULL);
  struct poses q = make_poses();
  test_simple_pairs(&q);
  test_vertex_on_vertex(&q);
  test_traps(&q);
  test_frictionless(&q);
  test_paper_detection(&q);
  int code = check_finish();
  PetscFinalize();
  return code;
}
