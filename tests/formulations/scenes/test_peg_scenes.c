/* test_peg_scenes.c — the PEG experiments' scenes and metrics (../shared/notes/peg-experiments.md): the
 * body-set loader reads all ten stored sets (skipped without ../shared/data) and names file and line for
 * malformed input; our generator is deterministic per seed and follows the paper's recipe; the spawning
 * rule gives 20-21 bodies in 5 s; the box's overlap metric ignores wall-wall pairs; the standard-model trap
 * count on known configurations (and through the stepper, -1 in 3D); separating-axis depth, normal and
 * point; the corrective contact in 2D and 3D. */
#include "check.h"
#include "formulation.h"
#include "geom2d.h"
#include "hull3d.h"
#include "observers.h"
#include "overlap2d.h"
#include "peg2d.h"
#include "sat2d.h"
#include "scenes.h"
#include "solver_fixture.h"

#include <math.h>
#include <petscsys.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void test_bodysets(void)
{
  const char *dir = check_shared_data();
  if (!dir) {
    check_skip("the ten stored body sets: no shared data folder (../shared/data or CB_SHARED_DATA)");
    return;
  }
  char path[512], err[512];
  snprintf(path, sizeof path, "%s/peg/box2d_bodysets.txt", dir);
  struct peg_body_spec specs[30];
  int total = 0, ok_all = 1;
  for (int set = 1; set <= 10; set++) {
    int n = 0;
    int rc = scene_peg_bodyset_load(path, set, specs, 30, &n, err, sizeof err);
    if (rc) printf("# %s\n", err);
    int sane = rc == 0 && n == 25;
    for (int k = 0; k < n && sane; k++) {
      const struct peg_body_spec *b = &specs[k];
      double side = k % 2 == 0 ? b->x[0] : -b->x[0]; /* alternating sides, the set's own first side */
      sane = b->mass == 0.25 && b->inertia == 0.003 && b->n >= 3 && b->n <= 10 && b->x[1] == 0.8 &&
             fabs(b->x[0]) == 0.5 && b->v[0] == -1.4 * b->x[0] && geom2d_area(b->n, b->xy) > 0.0 &&
             (k == 0 || side == (specs[0].x[0]));
    }
    ok_all = ok_all && sane;
    total += n;
  }
  CHECK(ok_all && total == 250, "body sets: all ten sets load, 25 polygons each, alternating sides (%d)",
        total);
  int n = 0;
  scene_peg_bodyset_load(path, 1, specs, 30, &n, err, sizeof err);
  CHECK(n > 0 && specs[0].n == 6 && specs[0].x[0] == -0.5 && specs[0].theta == 1.7756348145290264 &&
            specs[0].xy[0] == 0.08938508298525225 && specs[0].xy[11] == -0.06936222854896265,
        "body sets: set a polygon 1 as stored (6 vertices, rot0, first and last coordinates)");
  scene_peg_bodyset_load(path, 2, specs, 30, &n, err, sizeof err);
  CHECK(n > 0 && specs[0].x[0] == 0.5 && specs[0].v[0] == -0.7, "body sets: set b starts on the right");
  int rc = scene_peg_bodyset_load(path, 3, specs, 10, &n, err, sizeof err);
  CHECK(rc == 1 && n == 0 && strstr(err, "more than 10 polygons"),
        "body sets: room for 10 only is an error (%s)", err);
}

/* Writes text to a temporary file; the path in path (caller unlinks). */
static int write_temp(const char *text, char *path, size_t len)
{
  snprintf(path, len, "/tmp/cb_bodyset_XXXXXX");
  int fd = mkstemp(path);
  if (fd < 0) return 1;
  FILE *fp = fdopen(fd, "w");
  if (!fp) return 1;
  fputs(text, fp);
  fclose(fp);
  return 0;
}

static void expect_error(const char *text, int set, int line, const char *what)
{
  char path[64], err[512], want[128];
  struct peg_body_spec specs[4];
  int n = -1;
  if (write_temp(text, path, sizeof path)) {
    CHECK(0, "bad body set (%s): temporary file", what);
    return;
  }
  int rc = scene_peg_bodyset_load(path, set, specs, 4, &n, err, sizeof err);
  snprintf(want, sizeof want, "%s:%d: ", path, line);
  CHECK(rc == 1 && n == 0 && strncmp(err, want, strlen(want)) == 0 && strstr(err, what),
        "bad body set rejected with file:line: %s (\"%s\")", what, rc ? err : "accepted");
  unlink(path);
}

static void test_bodyset_errors(void)
{
  const char *good = "# comment\n1 1 -0.5 0.8 0.1 0.7 0 0 0.25 0.003 3 0 0 0.1 0 0 0.1\n";
  char path[64], err[512];
  struct peg_body_spec specs[4];
  int n = 0;
  write_temp(good, path, sizeof path);
  int rc = scene_peg_bodyset_load(path, 1, specs, 4, &n, err, sizeof err);
  CHECK(rc == 0 && n == 1 && specs[0].n == 3 && specs[0].xy[2] == 0.1 && specs[0].v[0] == 0.7,
        "good body set: one triangle read");
  rc = scene_peg_bodyset_load(path, 2, specs, 4, &n, err, sizeof err);
  CHECK(rc == 1 && strstr(err, "no polygons of set 2"), "good body set: an absent set is an error (%s)", err);
  unlink(path);
  rc = scene_peg_bodyset_load("/nonexistent/bodysets.txt", 1, specs, 4, &n, err, sizeof err);
  CHECK(rc == 1 && strstr(err, "/nonexistent/bodysets.txt:0: cannot open"), "missing file: %s", err);
  expect_error("1 1 -0.5 0.8 0.1 0.7 0 0 0.25 0.003 3 0 0 0.1 0 0 zero\n", 1, 1, "'zero' is not a number");
  expect_error("\n1 1 -0.5 0.8 0.1 0.7 0 0 0.25 0.003 3 0 0 0.1 0 0\n", 1, 2, "3 vertices need 17");
  expect_error("11 1 -0.5 0.8 0.1 0.7 0 0 0.25 0.003 3 0 0 0.1 0 0 0.1\n", 1, 1, "not an integer in 1..10");
  expect_error("1 2 -0.5 0.8 0.1 0.7 0 0 0.25 0.003 3 0 0 0.1 0 0 0.1\n", 1, 1, "expected 1");
  expect_error("1 1 -0.5 0.8 0.1 0.7 0 0 0.25 0.003 3 0 0 0 0.1 0.1 0\n", 1, 1, "not counter-clockwise");
  expect_error("1 1 -0.5 0.8 0.1 0.7 0 0 -1 0.003 3 0 0 0.1 0 0 0.1\n", 1, 1, "must be positive");
  expect_error("1 1 -0.5 0.8 0.1 0.7 0 0 0.25 0.003 2 0 0 0.1 0\n", 1, 1, "not an integer in 3..");
  expect_error("1 1 -0.5\n", 1, 1, "needs at least 11");
  /* a bad line of another set is still an error */
  expect_error("1 1 -0.5 0.8 0.1 0.7 0 0 0.25 0.003 3 0 0 0.1 0 0 0.1\n2 1 x\n", 1, 2, "'x' is not a number");
}

/* Member by member: memcmp would also compare the padding after n. */
static int same_specs(const struct peg_body_spec *a, const struct peg_body_spec *b, int n)
{
  for (int k = 0; k < n; k++) {
    const struct peg_body_spec *p = &a[k], *q = &b[k];
    int same = p->n == q->n && p->x[0] == q->x[0] && p->x[1] == q->x[1] && p->theta == q->theta &&
               p->v[0] == q->v[0] && p->v[1] == q->v[1] && p->w == q->w && p->mass == q->mass &&
               p->inertia == q->inertia;
    for (int i = 0; same && i < 2 * PEG_BODY_MAX_VERTS; i++)
      same = p->xy[i] == q->xy[i];
    if (!same) return 0;
  }
  return 1;
}

static void test_generator(void)
{
  struct peg_body_spec a[25], b[25], c[25];
  int rc = scene_peg_bodyset_generate(7, 25, a) || scene_peg_bodyset_generate(7, 25, b) ||
           scene_peg_bodyset_generate(8, 25, c);
  CHECK(rc == 0, "generator: three sets generated");
  CHECK(rc == 0 && same_specs(a, b, 25), "generator: the same seed gives the same polygons");
  CHECK(rc == 0 && !same_specs(a, c, 25), "generator: another seed gives other polygons");
  int ok = 1;
  for (int k = 0; k < 25; k++) {
    const struct peg_body_spec *s = &a[k];
    double r = 0.0;
    for (int i = 0; i < s->n; i++)
      r = fmax(r, hypot(s->xy[2 * i], s->xy[2 * i + 1]));
    /* hull of points of the 0.25-square shifted by their mean: inside |x| <= 0.25 sqrt 2, origin inside */
    struct polygon *p = polygon_create(s->n, s->xy);
    int origin_inside = p != NULL;
    for (int i = 0; p && i < p->n; i++)
      origin_inside = origin_inside && p->ed[i] > 0.0;
    polygon_free(p);
    ok = ok && s->n >= 3 && s->n <= 10 && geom2d_area(s->n, s->xy) > 0.0 && r < 0.25 * M_SQRT2 &&
         origin_inside && s->mass == 0.25 && s->inertia == 0.003 && s->theta >= 0.0 && s->theta < 2 * M_PI &&
         s->x[0] == (k % 2 ? 0.5 : -0.5) && s->v[0] == (k % 2 ? -0.7 : 0.7) && s->x[1] == 0.8;
  }
  CHECK(ok,
        "generator: hulls of <= 10 points, scale 0.25, origin inside, mass 0.25, J 0.003, sides alternate");
}

static void test_spawner(void)
{
  struct peg_body_spec specs[25];
  scene_peg_bodyset_generate(3, 25, specs);
  const double hs[3] = {0.001, 0.003, 0.016};
  const int want[3] = {20, 21, 20};
  const long second[3] = {251, 84, 17};
  for (int i = 0; i < 3; i++) {
    struct world *w = scene_peg_box(0.0);
    struct scene_spawner sp;
    scene_spawner_init(&sp, specs, 25, 0.25, hs[i]);
    long steps = run_step_count(5.0, hs[i]);
    int fails = 0;
    for (long k = 1; k <= steps; k++)
      fails += scene_spawner_before_step(&sp, w, k) < 0;
    CHECK(fails == 0 && sp.added == want[i] && w->nb == want[i] + 1 &&
              scene_spawner_step_of(&sp, 2) == second[i],
          "spawner h = %g: %d bodies in %ld steps, body 2 at step %ld", hs[i], sp.added, steps,
          scene_spawner_step_of(&sp, 2));
    const struct body *b = &w->bodies[1];
    CHECK(b->x[0] == -0.5 && b->x[1] == 0.8 && b->v[0] == 0.7 && b->mass == 0.25 && b->inertia == 0.003 &&
              w->ndof == 3 * want[i],
          "spawner h = %g: body 1 in its initial state, %d dofs", hs[i], w->ndof);
    world_destroy(&w);
  }
  CHECK(run_step_count(5.0, 0.007) == 714 && run_step_count(1.5, 1e-4) == 15000,
        "step count floor(T / h) in floating point");
}

static void test_box_and_overlap(void)
{
  struct world *w = scene_peg_box(0.0);
  CHECK(w && w->nb == 1 && w->ns == 3 && w->bodies[0].is_static && w->gravity[1] == -9.8,
        "box: one static body of three rectangles, g = 9.8");
  /* the walls overlap the floor (x in [-1, -0.8] x [-0.4, 0]), but static-static pairs are not measured */
  CHECK(world_total_overlap_2d(w) == 0.0 && world_max_penetration_2d(w) == 0.0,
        "box: wall-floor overlap is not counted");
  const double sq[8] = {-0.1, -0.1, 0.1, -0.1, 0.1, 0.1, -0.1, 0.1};
  struct peg_body_spec s = {.n = 4, .x = {-0.75, 0.095}, .mass = 0.25, .inertia = 0.003};
  memcpy(s.xy, sq, sizeof sq);
  scene_peg_add_body(w, &s); /* 0.05 into the left wall, 0.005 into the floor (the corner counted twice,
                              * once per part, as the authors' three wall bodies count it) */
  s.x[0] = -0.6;
  s.x[1] = 0.25;
  scene_peg_add_body(w, &s); /* overlaps the first by 0.05 x 0.045 */
  double want = 0.05 * 0.2 + 0.2 * 0.005 + 0.05 * 0.045;
  CHECK_CLOSE(world_total_overlap_2d(w), want, 1e-12, "box: total overlap = wall + floor + polygon pair");
  CHECK_CLOSE(world_max_penetration_2d(w), 0.05, 1e-12, "box: deepest SAT overlap 0.05 (into the wall)");
  world_destroy(&w);

  w = scene_triangle_drop();
  double v0[6], v1[6];
  geom2d_world_polygon(w, &w->shapes[0], v0);
  geom2d_world_polygon(w, &w->shapes[1], v1);
  /* the static triangle's right edge and the falling triangle's lower-left edge are parallel */
  double best = 1.0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      const double *a0 = v0 + 2 * i, *a1 = v0 + 2 * ((i + 1) % 3), *b0 = v1 + 2 * j,
                   *b1 = v1 + 2 * ((j + 1) % 3);
      double ex = a1[0] - a0[0], ey = a1[1] - a0[1], fx = b1[0] - b0[0], fy = b1[1] - b0[1];
      best = fmin(best, fabs(ex * fy - ey * fx) / (hypot(ex, ey) * hypot(fx, fy)));
    }
  CHECK(w && w->nb == 2 && w->bodies[1].mass == 1.0 && w->bodies[1].inertia == 0.649519 && best < 1e-7,
        "triangle drop: two triangles, mass 1, J 0.649519, facing edges parallel (sin %.1e)", best);
  world_destroy(&w);
}

/* Two diamonds (half-diagonal 0.2) tip to tip, gap g; the lower one static. */
static struct world *diamonds(double g, double dx)
{
  const double s = 0.2, d[8] = {0, -s, s, 0, 0, s, -s, 0};
  struct world *w = world_create(2);
  int a = world_add_body(w, 1, 0, 0);
  world_add_polygon(w, a, 4, d);
  int b = world_add_body(w, 0, 1.0, 0.02);
  world_add_polygon(w, b, 4, d);
  w->bodies[b].x[0] = dx;
  w->bodies[b].x[1] = 2 * s + g;
  world_finalize(w);
  return w;
}

static void test_traps(void)
{
  struct contact_set cs = {0};
  struct world *w = diamonds(0.001, 0.0);
  CHECK(peg2d_count_traps(w, 0.01, &cs) == 2,
        "traps: tip to tip, each vertex near both edges of the other corner");
  world_destroy(&w);
  w = diamonds(0.001, 0.1); /* the upper tip over the middle of an edge: vertex-edge only */
  CHECK(peg2d_count_traps(w, 0.01, &cs) == 0, "traps: a tip over an edge is no trap");
  world_destroy(&w);
  w = diamonds(0.02, 0.0); /* out of reach for h = 0.01 (delta 0.005), in reach for h = 0.05 */
  CHECK(peg2d_count_traps(w, 0.01, &cs) == 0 && peg2d_count_traps(w, 0.05, &cs) == 2,
        "traps: the proximity grows with h (delta = max(0.5 h, 0.0008))");
  world_destroy(&w);

  /* through the run loop's trap observer, for a formulation that does not use PEG's contacts */
  struct simulation sim;
  struct run_observer o = {0};
  struct run_trap_stats traps = {0};
  struct run_summary sum = {0};
  PetscOptions none = test_options_object(NULL); /* the run's options: none */
  int rc = simulation_open(&sim, diamonds(0.001, 0.0), "stewart_trinkle", "pgs", none) ||
           run_observer_traps(&o, &traps) || simulation_run(&sim, 0.01, 1, &o, 1, &sum);
  CHECK(rc == 0 && traps.steps == 1 && traps.traps == 2 && traps.steps_with_traps == 1,
        "traps: the observer counts 2 for stewart_trinkle (%ld)", traps.traps);
  /* PEG's model on the same contacts: one I-constraint per trapped tip (Sec. 3) */
  CHECK(traps.i_constraints == 2 && traps.steps_with_i == 1,
        "traps: PEG forms an I-constraint at each of the 2 corners (%ld)", traps.i_constraints);
  simulation_close(&sim);
  rc = simulation_open(&sim, diamonds(0.001, 0.1), "stewart_trinkle", "pgs", none) ||
       simulation_run(&sim, 0.01, 1, &o, 1, &sum);
  CHECK(rc == 0 && traps.steps == 1 && traps.traps == 0 && traps.i_constraints == 0 &&
            traps.steps_with_i == 0,
        "traps: a tip over an edge: no trap, no I-constraint (%ld, %ld)", traps.traps, traps.i_constraints);
  simulation_close(&sim);
  w = world_create(3);
  const double c[3] = {0, 0, 0};
  int b = world_add_body(w, 0, 1.0, 1.0);
  world_add_sphere(w, b, c, 0.1);
  world_finalize(w);
  rc = simulation_open(&sim, w, "stewart_trinkle", "pgs", none) || simulation_run(&sim, 0.01, 1, &o, 1, &sum);
  CHECK(rc == 0 && sum.steps == 1 && traps.steps == 1 && traps.traps == 0 && traps.i_constraints == 0,
        "traps: counted in 3D too (peg3d_count_traps), none for a lone sphere");
  simulation_close(&sim);
  PetscOptionsDestroy(&none);
  run_observers_destroy(&o, 1);
  contact_set_free(&cs);
}

static void test_sat_corrective(void)
{
  const double a[8] = {0, 0, 1, 0, 1, 1, 0, 1}, b[8] = {0.8, 0.99, 1.8, 0.99, 1.8, 1.99, 0.8, 1.99};
  struct sat2d_result r;
  int rc = sat2d_polygons(4, b, 4, a, &r);
  CHECK(rc == 1, "sat: overlapping squares");
  CHECK_CLOSE(r.depth, 0.01, 1e-12, "sat: least overlap 0.01 (vertical)");
  CHECK(fabs(r.n[0]) < 1e-15 && fabs(r.n[1] - 1.0) < 1e-15, "sat: axis (0, 1) from b (lower) to a (upper)");
  CHECK(fabs(r.point[0] - 0.9) < 1e-12 && fabs(r.point[1] - 0.995) < 1e-12,
        "sat: point = vertex average of the overlap (0.9, 0.995)");
  const double far[8] = {2, 2, 3, 2, 3, 3, 2, 3};
  CHECK(sat2d_polygons(4, far, 4, a, &r) == 0, "sat: separated squares");

  /* corrective through the stepper's detect: one contact per overlapping pair */
  struct world *w = world_create(2);
  const double sq[8] = {-0.5, -0.5, 0.5, -0.5, 0.5, 0.5, -0.5, 0.5};
  int s0 = world_add_body(w, 1, 0, 0);
  world_add_polygon(w, s0, 4, sq);
  int s1 = world_add_body(w, 0, 1.0, 1.0 / 6.0);
  world_add_polygon(w, s1, 4, sq);
  w->bodies[s1].x[0] = 0.2;
  w->bodies[s1].x[1] = 0.99;
  world_finalize(w);
  struct formulation *f = NULL;
  struct contact_set cs = {0};
  struct cp_problem *p = NULL;
  formulation_create("corrective", &f, NULL, 0);
  rc = f->type->detect(f, w, 0.01, &cs) || f->type->assemble(f, w, &cs, 0.01, &p);
  CHECK(rc == 0 && cs.n == 1, "corrective 2D: one contact (%d)", cs.n);
  if (cs.n == 1) {
    const struct contact *c = &cs.c[0];
    /* a = the static square (shape 0), b = the upper one: the normal points from b to a, i.e. down */
    CHECK_CLOSE(c->gap, -0.01, 1e-12, "corrective 2D: gap = -(least overlap)");
    CHECK(c->a == 0 && c->b == 1 && fabs(c->n[1] + 1.0) < 1e-15, "corrective 2D: normal (0, -1) from b to a");
    CHECK(fabs(0.5 * (c->pa[0] + c->pb[0]) - 0.1) < 1e-12 &&
              fabs(0.5 * (c->pa[1] + c->pb[1]) - 0.495) < 1e-12 &&
              fabs(c->n[1] * (c->pa[1] - c->pb[1]) - c->gap) < 1e-15,
          "corrective 2D: points straddle the overlap's vertex average (0.1, 0.495)");
    CHECK(p && p->n == 4, "corrective 2D: the standard model's rows (1 normal, 2 friction, 1 slack)");
  }
  cp_destroy(&p);
  world_destroy(&w);

  /* 3D: a cube sunk 0.05 into a static cube -> contact3d_corrective's contact, gap 2 psi = -0.05 */
  w = world_create(3);
  int c0 = world_add_body(w, 1, 0, 0);
  world_add_polyhedron(w, c0, hull3d_box(0.5, 0.5, 0.5));
  int c1 = world_add_body(w, 0, 1.0, 1.0 / 6.0);
  world_add_polyhedron(w, c1, hull3d_box(0.5, 0.5, 0.5));
  w->bodies[c1].x[0] = 0.3;
  w->bodies[c1].x[2] = 0.95;
  world_finalize(w);
  contact_set_clear(&cs);
  rc = f->type->detect(f, w, 0.01, &cs);
  CHECK(rc == 0 && cs.n == 1 && fabs(cs.c[0].gap + 0.05) < 1e-9 && fabs(fabs(cs.c[0].n[2]) - 1.0) < 1e-12,
        "corrective 3D: one contact, gap -0.05, vertical normal (%d)", cs.n);
  world_destroy(&w);
  formulation_destroy(&f);
  contact_set_free(&cs);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  test_bodysets();
  test_bodyset_errors();
  test_generator();
  test_spawner();
  test_box_and_overlap();
  test_traps();
  test_sat_corrective();
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
