/* test_scenes.c — the scene registry (scene.h): every registered scene builds with its defaults (bodies,
 * finalised, its declared dimension), with and without a random stream; options come from the options
 * object the reader is given (-<scene>_<opt>, or a caller's prefix; always an object of the test's own,
 * never the global database) and from a spec's inline values (which win); a value in one object does not
 * reach a reader given another; a bad value (out of range, malformed, undeclared, given twice) and an
 * unknown scene are refused with a message naming them; a random scene is fixed by its seed, or by the
 * caller's seeded stream when its seed is 0. */
#include "check.h"
#include "scene.h"
#include "scenes.h"
#include "solver_fixture.h"

#include <math.h>
#include <petscsys.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_defaults(void)
{
  PetscOptions none = test_options_object(NULL);
  for (int i = 0; scene_registry[i]; i++) {
    const struct scene_type *t = scene_registry[i];
    char msg[1024] = "";
    struct world *w = NULL;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    int rc = scene_create_from_spec(t->name, rng, &w, msg, sizeof msg);
    CHECK(rc == 0 && w && w->nb > 0 && world_finalize(w) == 0 && w->dim == ((t->dims & SCENE_3D) ? 3 : 2),
          "scene %s builds with its defaults (%d bodies, dim %d) %s", t->name, w ? w->nb : 0, w ? w->dim : 0,
          msg);
    world_destroy(&w);
    rc = scene_create_from_options(t->name, none, NULL, NULL, &w, msg, sizeof msg);
    CHECK(rc == 0 && w && w->nb > 0, "scene %s builds from an empty options object without an rng %s",
          t->name, rc ? msg : "");
    world_destroy(&w);
    gsl_rng_free(rng);
    int named =
        t->name[0] != '\0' && strspn(t->name, "abcdefghijklmnopqrstuvwxyz0123456789_") == strlen(t->name);
    for (int j = 0; j < i; j++)
      named = named && strcmp(scene_registry[j]->name, t->name) != 0;
    CHECK(named && t->summary && t->paper && t->h > 0.0 && t->build && (t->n_options == 0 || t->options),
          "scene %s: a unique [a-z0-9_] name, summary, paper, h and options", t->name);
  }
  PetscOptionsDestroy(&none);
}

/* -<scene>_<opt> must name one option of one scene: "a" with option "b_c" and "a_b" with "c" would clash. */
static void test_option_names_unique(void)
{
  char seen[512][160];
  int n = 0, unique = 1;
  for (int i = 0; scene_registry[i]; i++)
    for (int k = 0; k < scene_registry[i]->n_options && n < 512; k++) {
      snprintf(seen[n], sizeof seen[n], "-%s_%s", scene_registry[i]->name,
               scene_registry[i]->options[k].name);
      for (int j = 0; j < n; j++)
        if (strcmp(seen[j], seen[n]) == 0) {
          printf("# %s is declared twice\n", seen[n]);
          unique = 0;
        }
      n++;
    }
  CHECK(unique && n > 0, "the %d scene options have distinct full names", n);
}

/* Expects a refusal whose message contains every one of the (NULL-terminated) words. */
static void refused(int rc, const char *msg, const char *what, const char *const *words)
{
  int all = 1;
  for (int i = 0; words[i]; i++)
    all = all && strstr(msg, words[i]) != NULL;
  CHECK(rc != 0 && all, "%s is refused naming it: %s", what, msg);
}

static void test_bad_input(void)
{
  char msg[2048] = "";
  struct world *w = NULL;
  int rc = scene_create_from_spec("no_such_scene", NULL, &w, msg, sizeof msg);
  int lists = 1;
  for (int i = 0; scene_registry[i]; i++)
    lists = lists && strstr(msg, scene_registry[i]->name) != NULL;
  CHECK(rc != 0 && !w && strstr(msg, "no_such_scene") && lists,
        "an unknown scene is refused listing the valid ones: %s", msg);
  rc = scene_create_from_spec("no_such_scene:rows=3", NULL, &w, msg, sizeof msg);
  CHECK(rc != 0 && strstr(msg, "'no_such_scene'"), "an unknown scene with options names the scene: %s", msg);

  static const struct {
    const char *spec, *what, *words[3];
  } bad[] = {
      {"cannonball:rows=0", "rows below its range", {"rows", "0", NULL}},
      {"cannonball:rows=3x", "a malformed whole number", {"rows", "3x", NULL}},
      {"cannonball:mu=-0.1", "a negative friction coefficient", {"mu", "-0.1", NULL}},
      {"cannonball:mu=abc", "a malformed real", {"mu", "abc", NULL}},
      {"cannonball:walls=maybe", "a malformed truth value", {"walls", "maybe", NULL}},
      {"cannonball:rowz=3", "an undeclared option", {"rowz", "did you mean rows", NULL}},
      {"cannonball:rows", "an item without a value", {"rows", "opt=value", NULL}},
      {"cannonball:rows=3:rows=4", "an option given twice", {"rows", "twice", NULL}},
      {"incline:theta=90", "an incline of 90 degrees", {"theta", "90", NULL}},
      {"box_stack:n=5:taper=0.3", "a taper that leaves the top box no width", {"taper", "0.3", NULL}},
      {"polygon_box:seed=0", "seed 0 without a random stream", {"seed", "random stream", NULL}},
      {"triangle_drop:mu=1", "an option of a scene that has none", {"mu", "triangle_drop", NULL}},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    msg[0] = '\0';
    rc = scene_create_from_spec(bad[i].spec, NULL, &w, msg, sizeof msg);
    refused(rc || w != NULL ? 1 : 0, msg, bad[i].what, bad[i].words);
    world_destroy(&w);
  }
  /* an options object: a bad value names the full option */
  static const struct {
    const char *option, *value, *words[3];
  } bad_db[] = {
      {"-cannonball_rows", "0", {"-cannonball_rows", "range", NULL}},
      {"-cannonball_rows", "2.5", {"-cannonball_rows", "2.5", NULL}},
      {"-cannonball_threshold", "0", {"-cannonball_threshold", "range", NULL}},
      {"-polygon_box_n", "", {"-polygon_box_n", "needs a value", NULL}},
  };
  for (size_t i = 0; i < sizeof bad_db / sizeof bad_db[0]; i++) {
    const char *spec = strncmp(bad_db[i].option, "-cannon", 7) == 0 ? "cannonball" : "polygon_box";
    PetscOptions o = test_options_object(OPTS(bad_db[i].option, bad_db[i].value[0] ? bad_db[i].value : NULL));
    msg[0] = '\0';
    rc = scene_create_from_options(spec, o, NULL, NULL, &w, msg, sizeof msg);
    char what[128];
    snprintf(what, sizeof what, "%s '%s' in the options object", bad_db[i].option, bad_db[i].value);
    refused(rc, msg, what, bad_db[i].words);
    world_destroy(&w);
    rc = scene_spec_check(spec, o, NULL, msg, sizeof msg);
    CHECK(rc != 0, "scene_spec_check refuses %s too", what);
    PetscOptionsDestroy(&o);
  }
}

static void test_options(void)
{
  char msg[1024] = "";
  struct world *w = NULL;
  int rc = scene_create_from_spec("cannonball:rows=3", NULL, &w, msg, sizeof msg);
  CHECK(rc == 0 && w && w->nb == 1 + 6, "cannonball:rows=3 is the plank and 6 discs (%d bodies)",
        w ? w->nb : 0);
  world_destroy(&w);
  rc = scene_create_from_spec("cannonball:rows=2:walls=1:threshold=0.2", NULL, &w, msg, sizeof msg);
  CHECK(rc == 0 && w && w->nb == 3 + 3 && w->threshold == 0.2, "walls and threshold inline (%d bodies) %s",
        w ? w->nb : 0, msg);
  world_destroy(&w);

  PetscOptions four = test_options_object(OPTS("-cannonball_rows", "4"));
  rc = scene_create_from_options("cannonball", four, NULL, NULL, &w, msg, sizeof msg);
  CHECK(rc == 0 && w && w->nb == 1 + 10, "-cannonball_rows 4 is read (%d bodies)", w ? w->nb : 0);
  world_destroy(&w);
  rc = scene_create_from_options("cannonball:rows=2", four, NULL, NULL, &w, msg, sizeof msg);
  CHECK(rc == 0 && w && w->nb == 1 + 3, "a spec's inline value wins over the options object (%d bodies)",
        w ? w->nb : 0);
  world_destroy(&w);
  rc = scene_create_from_spec("cannonball", NULL, &w, msg, sizeof msg);
  CHECK(rc == 0 && w && w->nb == 1 + 21, "scene_create_from_spec ignores the options (%d bodies)",
        w ? w->nb : 0);
  world_destroy(&w);
  /* another object, while the first is alive: only its own values */
  PetscOptions three = test_options_object(OPTS("-cannonball_rows", "3")), none = test_options_object(NULL);
  rc = scene_create_from_options("cannonball", three, NULL, NULL, &w, msg, sizeof msg);
  CHECK(rc == 0 && w && w->nb == 1 + 6,
        "another object's -cannonball_rows 3 is read, not the first's 4 (%d bodies)", w ? w->nb : 0);
  world_destroy(&w);
  rc = scene_create_from_options("cannonball", none, NULL, NULL, &w, msg, sizeof msg);
  CHECK(rc == 0 && w && w->nb == 1 + 21,
        "an empty object gives the default rows 6, neither 4 nor 3 (%d bodies)", w ? w->nb : 0);
  world_destroy(&w);
  PetscOptions zero = test_options_object(OPTS("-cannonball_rows", "0"));
  rc = scene_spec_check("cannonball", four, NULL, msg, sizeof msg);
  CHECK(rc == 0 && scene_spec_check("cannonball", zero, NULL, msg, sizeof msg) != 0 &&
            strstr(msg, "-cannonball_rows"),
        "scene_spec_check judges each object's own value: 4 passes, 0 is refused (%s)", msg);
  PetscOptionsDestroy(&zero);
  PetscOptionsDestroy(&four);
  PetscOptionsDestroy(&three);
  PetscOptionsDestroy(&none);

  PetscOptions pile = test_options_object(OPTS("-pile_n", "3"));
  rc = scene_create_from_options("polygon_box", pile, "pile_", NULL, &w, msg, sizeof msg);
  CHECK(rc == 0 && w && w->nb == 3 + 3, "a caller's prefix: -pile_n 3 (%d bodies)", w ? w->nb : 0);
  world_destroy(&w);
  PetscOptionsDestroy(&pile);

  rc = scene_create_from_spec("incline:theta=30:mu=0.1", NULL, &w, msg, sizeof msg);
  CHECK(rc == 0 && w && w->nb == 2 && fabs(w->bodies[1].theta - M_PI / 6) < 1e-15 && w->mu == 0.1,
        "incline theta in degrees (30 -> pi/6 rad) and mu");
  world_destroy(&w);

  char *buf = NULL;
  size_t blen = 0;
  FILE *fp = open_memstream(&buf, &blen);
  scene_registry_print(fp);
  fclose(fp);
  CHECK(buf && strstr(buf, "-cannonball_rows") && strstr(buf, "-polygon_box_seed") &&
            strstr(buf, "Anitescu-Hart"),
        "scene_registry_print lists the scenes with their options");
  free(buf);
}

static int same_world(const struct world *a, const struct world *b)
{
  if (!a || !b || a->nb != b->nb || a->ns != b->ns) return 0;
  for (int i = 0; i < a->nb; i++) {
    const struct body *p = &a->bodies[i], *q = &b->bodies[i];
    if (p->x[0] != q->x[0] || p->x[1] != q->x[1] || p->theta != q->theta || p->inertia != q->inertia)
      return 0;
  }
  return 1;
}

static void test_determinism(void)
{
  char msg[1024] = "";
  struct world *a = NULL, *b = NULL, *c = NULL, *d = NULL;
  gsl_rng *r1 = gsl_rng_alloc(gsl_rng_mt19937), *r2 = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(r1, 42);
  gsl_rng_set(r2, 42);
  int rc = scene_create_from_spec("polygon_box:n=20:seed=0", r1, &a, msg, sizeof msg) ||
           scene_create_from_spec("polygon_box:n=20:seed=0", r2, &b, msg, sizeof msg);
  CHECK(rc == 0 && same_world(a, b), "polygon_box seed 0: equal streams give the same world");
  gsl_rng_set(r2, 43);
  rc = scene_create_from_spec("polygon_box:n=20:seed=0", r2, &c, msg, sizeof msg);
  CHECK(rc == 0 && !same_world(a, c), "polygon_box seed 0: another stream gives another world");
  world_destroy(&c);
  rc = scene_create_from_spec("polygon_box:n=20:seed=11", r2, &c, msg, sizeof msg);
  d = scene_polygon_box(20, 0.25, 11, 0.2);
  CHECK(rc == 0 && same_world(c, d) && c->threshold == 0.05,
        "polygon_box seed 11 is scene_polygon_box(20, 0.25, 11, 0.2), whatever the stream");
  world_destroy(&a);
  world_destroy(&b);
  world_destroy(&c);
  world_destroy(&d);
  gsl_rng_free(r1);
  gsl_rng_free(r2);
}

/* The experiments' scenes (every driver builds its worlds through the registry): their instance options
 * reach the world, and the geometry is the papers'. */
static void test_experiment_scenes(void)
{
  char msg[1024] = "";
  struct world *w = NULL;
  int rc = scene_create_from_spec("disc_on_line:radius=1:y0=1:vx=-3:omega=3", NULL, &w, msg, sizeof msg);
  CHECK(rc == 0 && w && w->bodies[1].v[0] == -3.0 && w->bodies[1].v[1] == 0.0 && w->bodies[1].w[2] == 3.0,
        "disc_on_line's initial velocity (vx, vy, omega) %s", msg);
  world_destroy(&w);
  rc = scene_create_from_spec("superellipse_on_line:p=3", NULL, &w, msg, sizeof msg);
  CHECK(rc == 1 && !w && strstr(msg, "even"), "superellipse_on_line refuses an odd exponent: %s", msg);
  rc = scene_create_from_spec("superellipse_on_line:sides=2", NULL, &w, msg, sizeof msg);
  CHECK(rc == 1 && !w && strstr(msg, "sides 2"), "superellipse_on_line refuses a 2-gon: %s", msg);
  rc = scene_create_from_spec("superellipse_on_line:a=1.2:b=0.8:p=4", NULL, &w, msg, sizeof msg);
  CHECK(rc == 0 && w && w->shapes[w->bodies[1].shape_begin].kind == SHAPE_SUPERELLIPSE &&
            w->bodies[1].x[1] == 0.8 && w->bodies[1].v[0] == -2.4 && w->bodies[1].w[2] == 3.0,
        "superellipse_on_line: the smooth shape on its flank, rolling without slip (v_x = -omega b) %s", msg);
  world_destroy(&w);
  rc = scene_create_from_spec("superellipse_on_line:sides=7", NULL, &w, msg, sizeof msg);
  CHECK(rc == 0 && w && w->shapes[w->bodies[1].shape_begin].kind == SHAPE_POLYGON,
        "superellipse_on_line:sides=7 is the inscribed heptagon %s", msg);
  world_destroy(&w);
  rc = scene_create_from_spec("sphere_roll3d:radius=2:gap=0.5:v0=0", NULL, &w, msg, sizeof msg);
  CHECK(rc == 0 && w && w->bodies[1].x[2] == 2.5 && w->bodies[1].v[0] == 0.0,
        "sphere_roll3d:gap=0.5 starts the radius-2 sphere's centre at 2.5 %s", msg);
  world_destroy(&w);
  rc = scene_create_from_spec("sphere_two_spheres", NULL, &w, msg, sizeof msg);
  for (int k = 0; rc == 0 && w && k < 2; k++) { /* the unit sphere touches both fixed spheres */
    const struct shape *big = &w->shapes[w->bodies[k].shape_begin];
    double d = 0.0;
    for (int i = 0; i < 3; i++)
      d += (w->bodies[2].x[i] - big->c[i]) * (w->bodies[2].x[i] - big->c[i]);
    CHECK_CLOSE(sqrt(d) - big->radius - 1.0, 0.0, 1e-12, "sphere_two_spheres: contact %d's gap", k + 1);
  }
  CHECK(rc == 0 && w && w->mu == 0.2 && w->gravity[2] == 0.0 && w->bodies[2].f[2] == -9.81,
        "sphere_two_spheres: mu 0.2, the weight in the applied force (1, 2.6, -9.81) %s", msg);
  world_destroy(&w);
  rc = scene_create_from_spec("peg_box3d:threshold=0.05", NULL, &w, msg, sizeof msg);
  int statics = 0;
  for (int b = 0; rc == 0 && w && b < w->nb; b++)
    statics += w->bodies[b].is_static;
  CHECK(rc == 0 && w && w->nb == 5 && statics == 5 && w->threshold == 0.05,
        "peg_box3d is the five static blocks with the given threshold %s", msg);
  int ico = rc == 0 && w ? scene_peg_box3d_add_icosahedron(w) : -1;
  CHECK(ico == 5 && w->bodies[ico].mass == 0.5 && w->bodies[ico].v[0] == -5.0,
        "peg_box3d's icosahedron enters as body 5 at (3, 0, 2) with v = (-5, 0, 0)");
  world_destroy(&w);
  rc = scene_create_from_spec("robot_grasp:target=11", NULL, &w, msg, sizeof msg);
  CHECK(rc == 1 && !w && strstr(msg, "target"), "robot_grasp refuses target 11: %s", msg);
  if (!check_shared_data()) {
    check_skip("robot_grasp's targets: the shared data (peg/box2d_bodysets.txt) is absent");
    return;
  }
  rc = scene_create_from_spec("robot_grasp:target=3:mu=0.125", NULL, &w, msg, sizeof msg);
  CHECK(rc == 0 && w && w->nb == 7 && w->bodies[6].mass == 0.1 && w->mu == 0.125 && w->nj == 4,
        "robot_grasp:target=3: the arm's six bodies, four joints and the target %s", msg);
  world_destroy(&w);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  test_defaults();
  test_option_names_unique();
  test_bad_input();
  test_options();
  test_determinism();
  test_experiment_scenes();
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
