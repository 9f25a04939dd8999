/* scenes_peg.c — the scenes of the PEG experiments (Williams, Lu & Trinkle 2016; exact set-ups from the
 * authors' code in ../shared/notes/peg-experiments.md): the triangle drop (an experiment of the authors'
 * repository, not of the paper's text), the open box of polygons (the paper's Sec. 6), the loader of the
 * paper's ten stored polygon sets (../shared/data/peg/box2d_bodysets.txt), our seeded generator of the same
 * kind of polygons, and the spawning rule (declared in scenes.h). Body origins of the polygons are the mean
 * of their sample points, not the area centroid, and J is the fixed 0.003 of the authors, not the polygon's
 * own inertia. */
#include "geom2d.h"
#include "scenes.h"

#include <errno.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct world *finish(struct world *w, int ok)
{
  if (!ok || world_finalize(w) != 0) world_destroy(&w);
  return w;
}

struct world *scene_triangle_drop(void)
{
  const double small[6] = {0.0, 1.41421356, -1.22474487, -0.70710678, 1.22474487, -0.70710678};
  double big[6];
  for (int i = 0; i < 6; i++)
    big[i] = 2.0 * small[i];
  struct world *w = world_create(2);
  if (!w) return NULL;
  w->gravity[1] = -9.81;
  w->mu = 0.0;
  w->threshold = 0.07;
  int s = world_add_body(w, 1, 0.0, 0.0);
  int ok = s >= 0 && world_add_polygon(w, s, 3, big) >= 0;
  int b = ok ? world_add_body(w, 0, 1.0, 0.649519) : -1;
  ok = ok && b >= 0 && world_add_polygon(w, b, 3, small) >= 0;
  if (ok) {
    w->bodies[b].x[0] = 1.0;
    w->bodies[b].x[1] = 5.0;
    w->bodies[b].theta = M_PI / 3.0;
  }
  return finish(w, ok);
}

static int add_rect(struct world *w, int body, double x0, double x1, double y0, double y1)
{
  const double xy[8] = {x0, y0, x1, y0, x1, y1, x0, y1};
  return world_add_polygon(w, body, 4, xy) >= 0;
}

struct world *scene_peg_box(double mu)
{
  struct world *w = world_create(2);
  if (!w) return NULL;
  w->gravity[1] = -9.8;
  w->mu = mu;
  w->threshold = 0.07;
  int s = world_add_body(w, 1, 0.0, 0.0);
  int ok = s >= 0 && add_rect(w, s, -1.0, 1.0, -0.4, 0.0) && add_rect(w, s, -1.2, -0.8, -0.4, 1.6) &&
           add_rect(w, s, 0.8, 1.2, -0.4, 1.6);
  return finish(w, ok);
}

int scene_peg_add_body(struct world *w, const struct peg_body_spec *s)
{
  int b = world_add_body(w, 0, s->mass, s->inertia);
  if (b < 0 || world_add_polygon(w, b, s->n, s->xy) < 0) return -1;
  struct body *bd = &w->bodies[b];
  bd->x[0] = s->x[0];
  bd->x[1] = s->x[1];
  bd->theta = s->theta;
  bd->v[0] = s->v[0];
  bd->v[1] = s->v[1];
  bd->w[2] = s->w;
  return world_finalize(w) == 0 ? b : -1;
}

static int fail(char *err, size_t len, const char *path, long line, const char *fmt, ...)
{
  char msg[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (err && len) snprintf(err, len, "%s:%ld: %s", path, line, msg);
  return 1;
}

enum { BODYSET_HEAD = 11, BODYSET_MAX_FIELDS = BODYSET_HEAD + 2 * PEG_BODY_MAX_VERTS };

/* Parses the numbers of one line (up to '#'); returns the count, or -1 with *bad at the offending token. */
static int parse_numbers(char *line, double *v, int max, char **bad)
{
  char *hash = strchr(line, '#');
  if (hash) *hash = '\0';
  int n = 0;
  char *p = line;
  for (;;) {
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
      p++;
    if (!*p) return n;
    char *end;
    errno = 0;
    double x = strtod(p, &end);
    if (end == p || errno == ERANGE || !isfinite(x) ||
        (*end && *end != ' ' && *end != '\t' && *end != '\r' && *end != '\n')) {
      *bad = p;
      return -1;
    }
    if (n == max) return max + 1;
    v[n++] = x;
    p = end;
  }
}

static int is_int(double x, double lo, double hi) { return x == floor(x) && x >= lo && x <= hi; }

void scene_peg_bodyset_default_path(char *path, size_t len)
{
  const char *env = getenv("CB_SHARED_DATA");
  snprintf(path, len, "%s/peg/box2d_bodysets.txt", env ? env : "../shared/data");
}

int scene_peg_bodyset_load(const char *path, int set, struct peg_body_spec *specs, int max, int *n, char *err,
                           size_t errlen)
{
  *n = 0;
  if (set < 1 || set > 10) return fail(err, errlen, path, 0, "set %d is not 1..10 (a..j)", set);
  FILE *fp = fopen(path, "r");
  if (!fp) return fail(err, errlen, path, 0, "cannot open: %s", strerror(errno));
  char *line = NULL;
  size_t cap = 0;
  long lineno = 0;
  int rc = 0, count[11] = {0};
  double v[BODYSET_MAX_FIELDS + 1];
  while (!rc && getline(&line, &cap, fp) != -1) {
    lineno++;
    char *bad = NULL;
    int k = parse_numbers(line, v, BODYSET_MAX_FIELDS, &bad);
    if (k == 0) continue;
    if (k < 0) {
      size_t t = strcspn(bad, " \t\r\n");
      rc = fail(err, errlen, path, lineno, "'%.*s' is not a number", (int)(t < 40 ? t : 40), bad);
    } else if (k > BODYSET_MAX_FIELDS) {
      rc = fail(err, errlen, path, lineno, "more than %d fields (at most %d vertices)", BODYSET_MAX_FIELDS,
                PEG_BODY_MAX_VERTS);
    } else if (k < BODYSET_HEAD) {
      rc = fail(err, errlen, path, lineno, "%d fields; a polygon needs at least %d", k, BODYSET_HEAD);
    } else if (!is_int(v[0], 1, 10)) {
      rc = fail(err, errlen, path, lineno, "set %g is not an integer in 1..10", v[0]);
    } else if (!is_int(v[1], 1, 1e6) || (int)v[1] != count[(int)v[0]] + 1) {
      rc = fail(err, errlen, path, lineno, "index %g: expected %d (polygons in spawn order)", v[1],
                count[(int)v[0]] + 1);
    } else if (!is_int(v[10], 3, PEG_BODY_MAX_VERTS)) {
      rc = fail(err, errlen, path, lineno, "vertex count %g is not an integer in 3..%d", v[10],
                PEG_BODY_MAX_VERTS);
    } else if (k != BODYSET_HEAD + 2 * (int)v[10]) {
      rc = fail(err, errlen, path, lineno, "%d fields; %d vertices need %d", k, (int)v[10],
                BODYSET_HEAD + 2 * (int)v[10]);
    } else if (!(v[8] > 0.0) || !(v[9] > 0.0)) {
      rc = fail(err, errlen, path, lineno, "mass %g and J %g must be positive", v[8], v[9]);
    } else if (!(geom2d_area((int)v[10], v + BODYSET_HEAD) > 0.0)) {
      rc = fail(err, errlen, path, lineno, "vertices are not counter-clockwise (or degenerate)");
    } else {
      int s = (int)v[0];
      count[s]++;
      if (s != set) continue;
      if (*n == max) {
        rc = fail(err, errlen, path, lineno, "more than %d polygons in set %d", max, set);
        break;
      }
      struct peg_body_spec *b = &specs[(*n)++];
      memset(b, 0, sizeof *b);
      b->x[0] = v[2], b->x[1] = v[3], b->theta = v[4];
      b->v[0] = v[5], b->v[1] = v[6], b->w = v[7];
      b->mass = v[8], b->inertia = v[9];
      b->n = (int)v[10];
      memcpy(b->xy, v + BODYSET_HEAD, 2 * (size_t)b->n * sizeof *b->xy);
    }
  }
  if (!rc && ferror(fp)) rc = fail(err, errlen, path, lineno, "read error");
  if (!rc && *n == 0) rc = fail(err, errlen, path, lineno, "no polygons of set %d (%c)", set, 'a' + set - 1);
  free(line);
  fclose(fp);
  if (rc) *n = 0;
  return rc;
}

int scene_peg_bodyset_generate(unsigned long seed, int n, struct peg_body_spec *specs)
{
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  if (!rng) return 1;
  gsl_rng_set(rng, seed);
  int rc = 0;
  for (int k = 0; k < n && !rc; k++) {
    double pts[20], mx = 0.0, my = 0.0;
    for (int i = 0; i < 10; i++) {
      pts[2 * i] = gsl_rng_uniform(rng);
      pts[2 * i + 1] = gsl_rng_uniform(rng);
      mx += pts[2 * i] / 10.0;
      my += pts[2 * i + 1] / 10.0;
    }
    for (int i = 0; i < 10; i++) {
      pts[2 * i] = 0.25 * (pts[2 * i] - mx);
      pts[2 * i + 1] = 0.25 * (pts[2 * i + 1] - my);
    }
    struct peg_body_spec *b = &specs[k];
    memset(b, 0, sizeof *b);
    b->n = geom2d_hull(10, pts, b->xy);
    if (b->n < 3) rc = 1;
    b->theta = 2.0 * M_PI * gsl_rng_uniform(rng);
    int left = k % 2 == 0; /* k is 0-based here: body 1 starts on the left */
    b->x[0] = left ? -0.5 : 0.5;
    b->x[1] = 0.8;
    b->v[0] = left ? 0.7 : -0.7;
    b->mass = 0.25;
    b->inertia = 0.003;
  }
  gsl_rng_free(rng);
  return rc;
}

void scene_spawner_init(struct scene_spawner *sp, const struct peg_body_spec *specs, int n, double interval,
                        double h)
{
  sp->specs = specs;
  sp->n = n;
  sp->added = 0;
  sp->every = lround(interval / h);
  if (sp->every < 1) sp->every = 1;
}

long scene_spawner_step_of(const struct scene_spawner *sp, int k) { return 1 + (long)(k - 1) * sp->every; }

int scene_spawner_before_step(struct scene_spawner *sp, struct world *w, long step)
{
  int added = 0;
  while (sp->added < sp->n && scene_spawner_step_of(sp, sp->added + 1) <= step) {
    if (scene_peg_add_body(w, &sp->specs[sp->added]) < 0) return -1;
    sp->added++;
    added++;
  }
  return added;
}
