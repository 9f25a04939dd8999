/* test_peg.c — the PEG and LNC formulations (Williams, Lu & Trinkle 2016) on hand-checkable
 * configurations: a vertex near an edge gives one U row with the Stewart-Trinkle entries (eq. 32); two
 * diamonds tip to tip give I, I, X, X with the edges' normals and X pairing the contacts on one side
 * (eq. 33), LNC the two I only; applicability (eq. 29) and the run trimming filter contacts; the LCP rows of
 * eqs. 45-46 carry the slack; a box on a box with one coincident corner and a triangle on a ledge
 * (overhanging or corner on corner) stay at rest; friction (our addition) sticks and slides on an incline as
 * Coulomb says; the triangle drop at h = 0.016 completes, its overlap orders of magnitude below the
 * corrective model's. */
#include "check.h"
#include "formulation.h"
#include "geom2d.h"
#include "overlap2d.h"
#include "peg_lcp.h"
#include "run.h"
#include "sat2d.h"
#include "scenes.h"
#include "stepper.h"

#include <math.h>
#include <petscsys.h>
#include <stdio.h>
#include <string.h>

static const char *solver_name = "lemke";

/* A polygon body (static when m = 0) at (x, y, th); the body index or -1. */
static int add_poly(struct world *w, double m, double J, int n, const double *xy, double x, double y,
                    double th)
{
  int b = world_add_body(w, m == 0.0, m, J);
  if (b < 0 || world_add_polygon(w, b, n, xy) < 0) return -1;
  w->bodies[b].x[0] = x;
  w->bodies[b].x[1] = y;
  w->bodies[b].theta = th;
  return b;
}

static struct formulation *make(const char *name)
{
  struct formulation *f = NULL;
  if (formulation_create(name, &f, NULL, 0)) return NULL;
  return f;
}

/* detect + assemble with formulation f at step h; returns the problem (caller destroys) or NULL. */
static struct cp_problem *assemble(struct formulation *f, const struct world *w, double h,
                                   struct contact_set *cs)
{
  struct cp_problem *p = NULL;
  contact_set_clear(cs);
  if (f->type->detect(f, w, h, cs) || f->type->assemble(f, w, cs, h, &p)) return NULL;
  return p;
}

static void test_vertex_edge(void)
{
  const double box[8] = {-1, -0.2, 1, -0.2, 1, 0, -1, 0}, tri[6] = {0, -0.1, 0.1, 0.1, -0.1, 0.1};
  struct world *w = world_create(2);
  add_poly(w, 0, 0, 4, box, 0, 0, 0);
  int t = add_poly(w, 1.0, 0.01, 3, tri, 0.3, 0.1 + 1e-4, 0);
  world_finalize(w);
  struct formulation *f = make("peg");
  struct contact_set cs = {0};
  struct cp_problem *p = assemble(f, w, 0.01, &cs);
  const struct peg_model *m = peg_type_model(f);
  CHECK(p && cs.n == 1, "vertex-edge: one potential contact (%d)", cs.n);
  if (p && cs.n == 1) {
    const struct contact *c = &cs.c[0];
    CHECK(c->a == t && c->b == 0 && c->fa == FEATURE_VERTEX && c->fb == FEATURE_EDGE && c->idb == 2,
          "vertex-edge: the triangle's vertex against the box's top edge");
    CHECK_CLOSE(c->gap, 1e-4, 1e-15, "vertex-edge: gap");
    CHECK(fabs(c->n[0]) < 1e-15 && fabs(c->n[1] - 1.0) < 1e-15, "vertex-edge: normal (0, 1)");
    CHECK_CLOSE(peg2d_applicability(w, c), 0.2 / hypot(0.1, 0.2), 1e-14, "vertex-edge: applicability");
    CHECK(m->nu == 1 && m->ni == 0 && m->nx == 0 && p->n == 1, "vertex-edge: one U row (U %d I %d X %d n %d)",
          m->nu, m->ni, m->nx, p->n);
    /* r = (0, -0.1) is parallel to n: M = 1/m; q = n . nu_free + psi/h = -g h + 1e-4 / h */
    CHECK_CLOSE(p->M[0], 1.0, 1e-14, "vertex-edge: M = n' M^-1 n");
    CHECK_CLOSE(p->q[0], -9.81 * 0.01 + 0.01, 1e-14, "vertex-edge: q = Gn' nu_free + psi / h");
  }
  cp_destroy(&p);
  struct solver *s = NULL;
  struct stepper *st = NULL;
  struct step_record rec;
  solver_create(solver_name, &s, NULL, 0);
  stepper_create(&st);
  int rc = stepper_step(st, w, f, s, 0.01, &rec);
  CHECK(rc == 0 && !rec.failed, "vertex-edge: step solved");
  CHECK_CLOSE(w->bodies[t].x[1], 0.1, 1e-12, "vertex-edge: the vertex lands exactly on the edge");
  CHECK_CLOSE(stepper_impulses(st)[0], 0.0881, 1e-12, "vertex-edge: impulse m (g h - psi / h)");
  stepper_destroy(&st);
  solver_destroy(&s);
  contact_set_free(&cs);
  formulation_destroy(&f);
  world_destroy(&w);
}

/* Two diamonds (half-diagonal s = 0.2) tip to tip, 0.001 apart; the lower one static. */
static struct world *diamonds(void)
{
  const double s = 0.2, d[8] = {0, -s, s, 0, 0, s, -s, 0};
  struct world *w = world_create(2);
  add_poly(w, 0, 0, 4, d, 0, 0, 0);
  add_poly(w, 1.0, 0.02, 4, d, 0, 2 * s + 0.001, 0);
  world_finalize(w);
  return w;
}

static int same_vertex(const struct contact *a, const struct contact *b)
{
  return a->sa == b->sa && a->ida == b->ida && a->sb == b->sb;
}

static void test_vertex_vertex(void)
{
  struct world *w = diamonds();
  struct formulation *f = make("peg");
  struct contact_set cs = {0};
  struct cp_problem *p = assemble(f, w, 0.01, &cs);
  const struct peg_model *m = peg_type_model(f);
  CHECK(p && cs.n == 4, "vertex-vertex: four potential contacts (%d)", cs.n);
  for (int i = 0; i < cs.n; i++) {
    CHECK_CLOSE(cs.c[i].gap, 0.001 / sqrt(2.0), 1e-12, "vertex-vertex: contact %d gap 0.001 / sqrt 2", i);
    CHECK_CLOSE(peg2d_applicability(w, &cs.c[i]), 0.0, 1e-12, "vertex-vertex: contact %d applicability 0", i);
  }
  CHECK(m->nu == 0 && m->ni == 2 && m->nx == 2 && m->vv == 2,
        "vertex-vertex: I, I, X, X (U %d I %d X %d vv %d)", m->nu, m->ni, m->nx, m->vv);
  for (int k = 0; k < m->ni && p; k++) {
    const struct contact *a = &cs.c[m->in[k].primary], *b = &cs.c[m->in[k].kappa];
    /* one vertex against the two edges at the other corner: normals (+-1, 1)/sqrt 2 (upper vertex) or
     * (+-1, -1)/sqrt 2 (lower vertex, against the upper diamond's lower edges) */
    int ok = same_vertex(a, b) && fabs(fabs(a->n[0]) - M_SQRT1_2) < 1e-12 &&
             fabs(a->n[0] + b->n[0]) < 1e-12 && fabs(a->n[1] - b->n[1]) < 1e-12 &&
             fabs(fabs(a->n[1]) - M_SQRT1_2) < 1e-12;
    CHECK(ok, "vertex-vertex: I %d joins one vertex's contacts with both edges' normals", k);
  }
  for (int k = 0; k < m->nx && p; k++) {
    const struct contact *a = &cs.c[m->x[k].primary], *b = &cs.c[m->x[k].kappa];
    /* X pairs the upper vertex's contact with one side's edge and the lower vertex's contact with the
     * same side's edge: corners passing on that side satisfy both (eq. 16) */
    CHECK(a->sa != b->sa && a->n[0] * b->n[0] > 0.0 && a->n[1] * b->n[1] < 0.0,
          "vertex-vertex: X %d pairs the two vertices' contacts on one side (n_x %.3f, %.3f)", k, a->n[0],
          b->n[0]);
  }
  CHECK(p && p->n == 8 && f->rows.normal == 4 && f->rows.other == 4,
        "vertex-vertex: 4 impulse rows + 4 slack rows (n %d)", p ? p->n : -1);
  if (p && p->n == 8) {
    /* slack row of pair j: (G_primary - G_kappa)' nu+ + c_j + (psi_p - psi_k) / h; equal gaps here */
    int ok = 1;
    for (int j = 0; j < 4; j++) {
      const double *row = p->M + (size_t)(4 + j) * 8;
      ok = ok && row[4 + j] == 1.0 && p->M[(size_t)j * 8 + 4 + j] == 1.0;
      for (int c = 4; c < 8; c++)
        ok = ok && (c == 4 + j || row[c] == 0.0);
    }
    CHECK(ok, "vertex-vertex: each pair's slack enters its primary row and its slack row with coefficient 1");
    /* q of the slack rows: G' nu_free for the moving upper diamond (body 1, nu_free = (0, -g h, 0), no
     * rotation) is +n_y (-g h) when it is body a, -n_y (-g h) when it is body b; equal gaps cancel */
    int okq = 1;
    for (int j = 0; j < 4; j++) {
      const struct peg_pair *pr = j < 2 ? &m->in[j] : &m->x[j - 2];
      const struct contact *a = &cs.c[pr->primary], *b = &cs.c[pr->kappa];
      double ga = (a->a == 1 ? 1.0 : -1.0) * a->n[1] * (-9.81 * 0.01);
      double gb = (b->a == 1 ? 1.0 : -1.0) * b->n[1] * (-9.81 * 0.01);
      okq = okq && fabs(p->q[4 + j] - (ga - gb)) < 1e-14 && fabs(p->q[j] - ga - a->gap / 0.01) < 1e-14;
    }
    CHECK(okq,
          "vertex-vertex: q = G_p' nu_free (+ psi_p / h) and (G_p - G_k)' nu_free (+ (psi_p - psi_k) / h)");
  }
  cp_destroy(&p);
  formulation_destroy(&f);

  f = make("lnc");
  p = assemble(f, w, 0.01, &cs);
  m = peg_type_model(f);
  CHECK(p && m->nu == 0 && m->ni == 2 && m->nx == 0 && p->n == 4,
        "lnc: the same corner gives I, I without X (I %d X %d n %d)", m->ni, m->nx, p ? p->n : -1);
  cp_destroy(&p);
  formulation_destroy(&f);
  contact_set_free(&cs);
  world_destroy(&w);
}

/* A box (0.4 x 0.2) on a wider static box, their left corners coincident, 0.0005 apart. */
static struct world *corner_boxes(double gap)
{
  const double lower[8] = {-0.5, -0.2, 0.5, -0.2, 0.5, 0, -0.5, 0};
  const double upper[8] = {-0.2, -0.1, 0.2, -0.1, 0.2, 0.1, -0.2, 0.1};
  struct world *w = world_create(2);
  add_poly(w, 0, 0, 4, lower, 0, 0, 0);
  add_poly(w, 1.0, (0.16 + 0.04) / 12.0, 4, upper, -0.3, 0.1 + gap, 0);
  world_finalize(w);
  return w;
}

static void test_applicability_filter(void)
{
  struct world *w = corner_boxes(0.0005);
  struct formulation *f = make("peg");
  struct contact_set cs = {0};
  struct cp_problem *p = assemble(f, w, 0.01, &cs);
  const struct peg_model *m = peg_type_model(f);
  CHECK(p && cs.n == 5, "corner boxes: five potential contacts (%d)", cs.n);
  int inapplicable = 0;
  for (int i = 0; i < cs.n; i++) {
    double a = peg2d_applicability(w, &cs.c[i]);
    inapplicable += fabs(a + 1.0) < 1e-12;
    CHECK(fabs(a) < 1e-12 || fabs(a + 1.0) < 1e-12, "corner boxes: contact %d applicability 0 or -1 (%g)", i,
          a);
  }
  CHECK(inapplicable == 2, "corner boxes: the two side-edge contacts are inapplicable (%d)", inapplicable);
  /* the right bottom vertex on the top edge: U; the corner: I, I and the X of the two vertical normals;
   * the X of the two side contacts (both inapplicable) is dropped */
  CHECK(m->nu == 1 && m->ni == 2 && m->nx == 1, "corner boxes: U, I, I, X (U %d I %d X %d)", m->nu, m->ni,
        m->nx);
  int ok = 1;
  for (int k = 0; k < m->ni; k++)
    ok = ok && fabs(cs.c[m->in[k].primary].n[0]) < 1e-12 && fabs(cs.c[m->in[k].kappa].n[1]) < 1e-12;
  CHECK(ok, "corner boxes: each I's primary is the applicable (vertical) contact, the side one is kappa");
  if (m->nx == 1)
    CHECK(fabs(cs.c[m->x[0].primary].n[0]) < 1e-12 && fabs(cs.c[m->x[0].kappa].n[0]) < 1e-12,
          "corner boxes: the X joins the two vertical contacts");
  cp_destroy(&p);

  /* a hand-made run: vertex 0 of the upper box against edges 3, 0, 1 of the lower (wrapping past the
   * last edge) with applicability -1, -1, 0: the end pair (3, 0) is trimmed, the corner 1 stays; its
   * vertex has no contacts back, so PEG puts a U on the more applicable contact (the authors' fallback)
   * and LNC keeps the I */
  contact_set_clear(&cs);
  int edges[3] = {1, 3, 0};
  for (int k = 0; k < 3; k++) {
    struct contact c = {.a = 1, .b = 0, .sa = 1, .sb = 0, .fa = FEATURE_VERTEX, .fb = FEATURE_EDGE, .ida = 0};
    c.idb = edges[k];
    c.n[1] = 1.0;
    c.gap = 0.001;
    contact_set_push(&cs, &c);
  }
  struct peg_settings set;
  struct peg_model mm = {0};
  peg_settings_default(&set, 1);
  int rc = peg_model_build(&mm, w, &cs, &set);
  CHECK(rc == 0 && mm.vv == 1 && mm.ni == 0 && mm.nu == 1 && cs.c[mm.u[0]].idb == 1,
        "trim: one corner of the wrapped run, no contacts back: U on edge 1 (vv %d I %d U %d)", mm.vv, mm.ni,
        mm.nu);
  set.cross = 0;
  rc = peg_model_build(&mm, w, &cs, &set);
  CHECK(rc == 0 && mm.vv == 1 && mm.ni == 1 && mm.nu == 0, "trim (lnc): the corner's I (vv %d I %d U %d)",
        mm.vv, mm.ni, mm.nu);
  if (mm.ni == 1)
    CHECK(cs.c[mm.in[0].primary].idb == 1 && cs.c[mm.in[0].kappa].idb == 0,
          "trim (lnc): primary edge 1 (applicable), kappa edge 0");
  set.cross = 1;
  /* a lone inapplicable contact gives nothing; a lone applicable one a U */
  cs.n = 1;
  cs.c[0].idb = 3;
  peg_model_build(&mm, w, &cs, &set);
  CHECK(mm.nu == 0 && mm.ni == 0, "filter: a lone inapplicable contact is dropped");
  cs.c[0].idb = 2;
  peg_model_build(&mm, w, &cs, &set);
  CHECK(mm.nu == 1 && mm.u[0] == 0, "filter: a lone applicable contact is a U");
  set.applicability = 0.5;
  peg_model_build(&mm, w, &cs, &set);
  CHECK(mm.nu == 0, "filter: epsilon_theta = 0.5 drops it (applicability 0)");
  peg_model_free(&mm);
  contact_set_free(&cs);
  formulation_destroy(&f);
  world_destroy(&w);
}

/* Runs `steps` steps; returns the failed solves, -1 on a stepper error. */
static int run(struct world *w, const char *form, double h, int steps)
{
  struct formulation *f = make(form);
  struct solver *s = NULL;
  struct stepper *st = NULL;
  int failed = -1;
  if (!f || solver_create(solver_name, &s, NULL, 0) || stepper_create(&st)) goto cleanup;
  failed = 0;
  for (int i = 0; i < steps; i++) {
    struct step_record rec;
    if (stepper_step(st, w, f, s, h, &rec)) {
      failed = -1;
      break;
    }
    failed += rec.failed;
  }
cleanup:
  stepper_destroy(&st);
  solver_destroy(&s);
  formulation_destroy(&f);
  return failed;
}

static void test_rest(const char *form)
{
  struct world *w = corner_boxes(0.0);
  int failed = run(w, form, 0.01, 100);
  const struct body *b = &w->bodies[1];
  double moved = fabs(b->x[0] + 0.3) + fabs(b->x[1] - 0.1) + fabs(b->theta);
  CHECK(failed == 0 && moved < 1e-9,
        "%s: box on a box, corners coincident, stays at rest (%d failed, moved %g)", form, failed, moved);
  world_destroy(&w);

  /* an equilateral triangle (side 0.3) on a ledge x <= 0: overhanging (two U), then corner on corner */
  const double ledge[8] = {-1, -0.2, 0, -0.2, 0, 0, -1, 0}, hh = 0.3 * sqrt(3.0) / 2.0;
  const double tri[6] = {-0.15, -hh / 3, 0.15, -hh / 3, 0, 2 * hh / 3};
  for (int corner = 0; corner < 2; corner++) {
    double x0 = corner ? -0.15 : -0.05;
    w = world_create(2);
    add_poly(w, 0, 0, 4, ledge, 0, 0, 0);
    add_poly(w, 1.0, 0.0075, 3, tri, x0, hh / 3, 0);
    world_finalize(w);
    failed = run(w, form, 0.01, 100);
    b = &w->bodies[1];
    moved = fabs(b->x[0] - x0) + fabs(b->x[1] - hh / 3) + fabs(b->theta);
    CHECK(failed == 0 && moved < 1e-9, "%s: triangle on a ledge (%s) stays at rest (%d failed, moved %g)",
          form, corner ? "corner on corner" : "overhanging", failed, moved);
    world_destroy(&w);
  }
}

/* A box on a static slab tilted by theta (both polygons): friction on the PEG U contacts. */
static void test_friction(double theta_deg, double mu)
{
  double th = theta_deg * M_PI / 180.0, h = 1e-3, g = 9.81;
  const double slab[8] = {-2, -0.5, 2, -0.5, 2, 0, -2, 0},
               box[8] = {-0.2, -0.1, 0.2, -0.1, 0.2, 0.1, -0.2, 0.1};
  struct world *w = world_create(2);
  w->mu = mu;
  add_poly(w, 0, 0, 4, slab, 0, 0, th);
  add_poly(w, 2.0, 2.0 * (0.16 + 0.04) / 12.0, 4, box, -0.1 * sin(th), 0.1 * cos(th), th);
  world_finalize(w);
  const struct body *b = &w->bodies[1];
  double s0 = b->x[0] * cos(th) + b->x[1] * sin(th);
  int failed = run(w, "peg", h, 1000);
  double vs = b->v[0] * cos(th) + b->v[1] * sin(th), ds = b->x[0] * cos(th) + b->x[1] * sin(th) - s0;
  CHECK(failed == 0, "peg friction %g deg mu %g: every solve converged (%d failed)", theta_deg, mu, failed);
  if (tan(th) <= mu) {
    CHECK(fabs(ds) < 1e-9, "peg friction %g deg mu %g: sticks (drift %g after 1 s)", theta_deg, mu, ds);
  } else {
    double a = -vs / (1000 * h), exact = g * (sin(th) - mu * cos(th));
    CHECK(fabs(a - exact) <= 1e-6 * exact, "peg friction %g deg mu %g: a = %.12g vs %.12g", theta_deg, mu, a,
          exact);
  }
  world_destroy(&w);
}

/* Triangle drop (PEG paper experiment; ../shared/notes/peg-experiments.md) for 1.5 s. */
static int drop(const char *form, double h, double *x, double *y, double *overlap)
{
  struct world *w = scene_triangle_drop();
  struct formulation *f = make(form);
  struct solver *s = NULL;
  struct stepper *st = NULL;
  int failed = -1;
  *x = *y = NAN; /* no position when the set-up fails */
  *overlap = 0.0;
  if (!w || !f || solver_create(solver_name, &s, NULL, 0) || stepper_create(&st)) goto cleanup;
  failed = 0;
  for (long k = 0, n = run_step_count(1.5, h); k < n; k++) {
    struct step_record rec;
    if (stepper_step(st, w, f, s, h, &rec)) {
      failed = -1;
      break;
    }
    failed += rec.failed;
    *overlap = fmax(*overlap, world_total_overlap_2d(w));
  }
  *x = w->bodies[1].x[0];
  *y = w->bodies[1].x[1];
cleanup:
  stepper_destroy(&st);
  solver_destroy(&s);
  formulation_destroy(&f);
  world_destroy(&w);
  return failed;
}

static void test_triangle_drop(void)
{
  double x, y, ov, xr, yr, ovr, xc, yc, ovc, xs, ys, ovs;
  int failed = drop("peg", 0.016, &x, &y, &ov);
  int fr = drop("peg", 0.002, &xr, &yr, &ovr);
  int fc = drop("corrective", 0.016, &xc, &yc, &ovc);
  int fs = drop("stewart_trinkle", 0.016, &xs, &ys, &ovs);
  printf("# triangle drop h = 0.016: peg x %.6f y %.6f overlap %.3e; corrective x %.6f overlap %.3e; "
         "stewart_trinkle x %.6f overlap %.3e (failed %d); peg h = 0.002: x %.6f y %.6f\n",
         x, y, ov, xc, ovc, xs, ovs, fs, xr, yr);
  CHECK(failed == 0 && fr == 0 && fc == 0, "triangle drop: peg (h 0.016, 0.002) and corrective complete");
  CHECK(x > 3.5 && y < -3.0, "triangle drop: peg slides past the corner and falls off (x %.3f, y %.3f)", x,
        y);
  CHECK(fabs(x - xr) < 0.05 && fabs(y - yr) < 0.1,
        "triangle drop: peg at h 0.016 ends near h 0.002 (%.4f, %.4f)", x - xr, y - yr);
  CHECK(ov < 1e-9 && ov < 1e-5 * ovc,
        "triangle drop: peg's overlap %.3e is orders of magnitude below corrective's %.3e", ov, ovc);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  if (!solver_find(solver_name)) solver_name = "pgs";
  test_vertex_edge();
  test_vertex_vertex();
  test_applicability_filter();
  test_rest("peg");
  test_rest("lnc");
  test_friction(20.0, 0.5);
  test_friction(15.0, 0.1);
  test_triangle_drop();
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
