/* world_io.c — a world as text and back (world_io.h). One record per line, each opened by a tag:
 *   world 1 DIM NB NS NJ NDOF BROAD            (a world without motors, supports or the joints below)
 *   world 2 DIM NB NS NJ NDOF BROAD NM NSUP
 *   env   GX GY GZ MU THRESHOLD T
 *   body  STATIC DOF GROUP MASS INERTIA INERTIA3[9] X[3] THETA Q[4] V[3] W[3] F[3] TAU[3] SHAPE_BEGIN
 *         SHAPE_COUNT BOUND_RADIUS UNBOUNDED
 *   shape KIND BODY C[3] RADIUS N[3] D HAS_POLYGON HAS_POLYHEDRON
 *   poly  N AREA CENTROID[2] SECOND_MOMENT V[2N] EN[2N] ED[N]                       (after its shape)
 *   super P A B ANGLE AREA SECOND_MOMENT                   (after a superellipse's shape; texts written
 *                                                           before the superellipse existed hold none)
 *   sqd   P A[3] Q[4] VOLUME INERTIA[9]                   (after a superellipsoid's shape; likewise absent
 *                                                           from older texts)
 *   hedron NV NF NE VOLUME CENTROID[3] INERTIA[9] V[3NV] FACE_START[NF+1] FACE_VERT[..] FN[3NF] FD[NF]
 *         EDGE_VERT[2NE] EDGE_FACE[2NE]                                              (after its shape)
 *   joint KIND A B PA[3] PB[3]                                   (version 2: ... AXIS[3] ANGLE)
 *   motor BODY AXIS[3] SPEED MAX_FORCE                                                   (version 2)
 *   support BODY N DIRS P[2N] NORMAL[N] MU DAMPING                                        (version 2)
 *   end
 * Doubles as '#' and the 16 hex digits of their IEEE bits (the reader also takes decimal numbers); the reader
 * checks every count and index against the world it builds, so a damaged text is refused, never half-read
 * into memory out of bounds. */
#include "world_io.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WORLD_IO_VERSION 2        /* the newest this build writes and reads; version 1 is read too */
#define WORLD_IO_MAX     10000000 /* no count in a sane world is larger */

/* ---- writing ---- */

struct out {
  char *s;
  size_t n, cap;
  int bad;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct out *o, const char *fmt, ...)
{
  if (o->bad) return;
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(o->s + o->n, o->cap - o->n, fmt, ap);
    va_end(ap);
    if (k < 0) {
      o->bad = 1;
      return;
    }
    if ((size_t)k < o->cap - o->n) {
      o->n += (size_t)k;
      return;
    }
    size_t cap = 2 * o->cap + (size_t)k + 64;
    char *s = realloc(o->s, cap);
    if (!s) {
      o->bad = 1;
      return;
    }
    o->s = s;
    o->cap = cap;
  }
}

/* Doubles as ' #' and the 16 hex digits of their IEEE bits: exact (signed zeros, NaN payloads too) and
 * ~10x cheaper than %.17g, which dominated a capture's cost. */
static void put_d(struct out *o, const double *x, int n)
{
  static const char hex[] = "0123456789abcdef";
  if (o->bad) return;
  if (o->n + 18 * (size_t)n + 1 > o->cap) {
    size_t cap = 2 * o->cap + 18 * (size_t)n + 64;
    char *s = realloc(o->s, cap);
    if (!s) {
      o->bad = 1;
      return;
    }
    o->s = s;
    o->cap = cap;
  }
  char *p = o->s + o->n;
  for (int i = 0; i < n; i++) {
    uint64_t u;
    memcpy(&u, &x[i], sizeof u);
    *p++ = ' ';
    if (u == 0) { /* +0: most of a 2D body's 3D fields */
      *p++ = '0';
      continue;
    }
    *p++ = '#';
    for (int k = 15; k >= 0; k--)
      *p++ = hex[(u >> (4 * k)) & 15];
  }
  *p = '\0';
  o->n = (size_t)(p - o->s);
}

static void put_i(struct out *o, const int *x, int n)
{
  for (int i = 0; i < n; i++)
    put(o, " %d", x[i]);
}

/* A shape's record and the records of its parts' data (poly, super, sqd, hedron). */
static void put_shape(struct out *o, const struct shape *s)
{
  put(o, "\nshape %d %d", (int)s->kind, s->body);
  put_d(o, s->c, 3);
  put_d(o, &s->radius, 1);
  put_d(o, s->n, 3);
  put_d(o, &s->d, 1);
  put(o, " %d %d", s->polygon != NULL, s->polyhedron != NULL);
  if (s->polygon) {
    const struct polygon *p = s->polygon;
    put(o, "\npoly %d", p->n);
    put_d(o, &p->area, 1);
    put_d(o, p->centroid, 2);
    put_d(o, &p->second_moment, 1);
    put_d(o, p->v, 2 * p->n);
    put_d(o, p->en, 2 * p->n);
    put_d(o, p->ed, p->n);
  }
  if (s->kind == SHAPE_SUPERELLIPSE) {
    put(o, "\nsuper %d", s->se.p);
    put_d(o, &s->se.a, 1);
    put_d(o, &s->se.b, 1);
    put_d(o, &s->se.angle, 1);
    put_d(o, &s->se.area, 1);
    put_d(o, &s->se.second_moment, 1);
  }
  if (s->kind == SHAPE_SUPERELLIPSOID) {
    put(o, "\nsqd %d", s->sq.p);
    put_d(o, s->sq.a, 3);
    put_d(o, s->sq.q, 4);
    put_d(o, &s->sq.volume, 1);
    put_d(o, s->sq.inertia, 9);
  }
  if (s->polyhedron) {
    const struct polyhedron *p = s->polyhedron;
    put(o, "\nhedron %d %d %d", p->nv, p->nf, p->ne);
    put_d(o, &p->volume, 1);
    put_d(o, p->centroid, 3);
    put_d(o, p->inertia, 9);
    put_d(o, p->v, 3 * p->nv);
    put_i(o, p->face_start, p->nf + 1);
    put_i(o, p->face_vert, p->face_start[p->nf]);
    put_d(o, p->fn, 3 * p->nf);
    put_d(o, p->fd, p->nf);
    put_i(o, p->edge_vert, 2 * p->ne);
    put_i(o, p->edge_face, 2 * p->ne);
  }
}

/* Version 2's motors and supports. */
static void put_drives(struct out *o, const struct world *w)
{
  for (int i = 0; i < w->nm; i++) {
    const struct motor *m = &w->motors[i];
    put(o, "\nmotor %d", m->body);
    put_d(o, m->axis, 3);
    put_d(o, &m->speed, 1);
    put_d(o, &m->max_force, 1);
  }
  for (int i = 0; i < w->nsup; i++) {
    const struct support_friction *sp = &w->supports[i];
    put(o, "\nsupport %d %d %d", sp->body, sp->n, sp->dirs);
    for (int k = 0; k < sp->n; k++)
      put_d(o, sp->p[k], 2);
    put_d(o, sp->normal, sp->n);
    put_d(o, &sp->mu, 1);
    put_d(o, &sp->damping, 1);
  }
}

int world_to_text(const struct world *w, char **text, size_t *len)
{
  struct out o = {malloc(4096), 0, 4096, 0};
  *text = NULL;
  *len = 0;
  if (!o.s) return 1;
  o.s[0] = '\0';
  /* version 1 where it says everything, so that the texts of worlds without the newer features stay as
   * they were written before them */
  int version = w->nm > 0 || w->nsup > 0;
  for (int i = 0; i < w->nj; i++)
    version |= w->joints[i].kind == JOINT_PRISMATIC_2D || w->joints[i].kind == JOINT_MIRROR_2D;
  version += 1;
  put(&o, "world %d %d %d %d %d %d %d", version, w->dim, w->nb, w->ns, w->nj, w->ndof, (int)w->broad);
  if (version == 2) put(&o, " %d %d", w->nm, w->nsup);
  put(&o, "\nenv");
  put_d(&o, w->gravity, 3);
  put_d(&o, &w->mu, 1);
  put_d(&o, &w->threshold, 1);
  put_d(&o, &w->t, 1);
  for (int i = 0; i < w->nb; i++) {
    const struct body *b = &w->bodies[i];
    put(&o, "\nbody %d %d %d", b->is_static, b->dof, b->group);
    put_d(&o, &b->mass, 1);
    put_d(&o, &b->inertia, 1);
    put_d(&o, b->inertia3, 9);
    put_d(&o, b->x, 3);
    put_d(&o, &b->theta, 1);
    put_d(&o, b->q, 4);
    put_d(&o, b->v, 3);
    put_d(&o, b->w, 3);
    put_d(&o, b->f, 3);
    put_d(&o, b->tau, 3);
    put(&o, " %d %d", b->shape_begin, b->shape_count);
    put_d(&o, &b->bound_radius, 1);
    put(&o, " %d", b->unbounded);
  }
  for (int i = 0; i < w->ns; i++)
    put_shape(&o, &w->shapes[i]);
  for (int i = 0; i < w->nj; i++) {
    const struct joint *j = &w->joints[i];
    put(&o, "\njoint %d %d %d", (int)j->kind, j->a, j->b);
    put_d(&o, j->pa, 3);
    put_d(&o, j->pb, 3);
    if (version == 2) {
      put_d(&o, j->axis, 3);
      put_d(&o, &j->angle, 1);
    }
  }
  put_drives(&o, w);
  put(&o, "\nend\n");
  if (o.bad) {
    free(o.s);
    return 1;
  }
  *text = o.s;
  *len = o.n;
  return 0;
}

/* ---- reading ---- */

struct in {
  const char *p;
  int bad;
  char what[96]; /* the first thing that could not be read */
};

static void fail(struct in *r, const char *what)
{
  if (!r->bad) snprintf(r->what, sizeof r->what, "%s", what);
  r->bad = 1;
}

static void tag(struct in *r, const char *t)
{
  if (r->bad) return;
  while (*r->p == ' ' || *r->p == '\n')
    r->p++;
  size_t k = strlen(t);
  if (strncmp(r->p, t, k) != 0 || (r->p[k] != ' ' && r->p[k] != '\n' && r->p[k] != '\0')) {
    char m[96];
    snprintf(m, sizeof m, "expected the record '%s'", t);
    fail(r, m);
    return;
  }
  r->p += k;
}

static void get_d(struct in *r, double *x, int n, const char *what)
{
  for (int i = 0; i < n && !r->bad; i++) {
    char *end;
    errno = 0;
    while (*r->p == ' ')
      r->p++;
    if (*r->p == '#') { /* the IEEE bits in hex (what the writer puts) */
      uint64_t u = 0;
      int k = 0;
      const char *q = r->p + 1;
      for (; k < 16; k++, q++) {
        int d = *q >= '0' && *q <= '9' ? *q - '0' : *q >= 'a' && *q <= 'f' ? *q - 'a' + 10 : -1;
        if (d < 0) break;
        u = u << 4 | (uint64_t)d;
      }
      memcpy(&x[i], &u, sizeof u);
      end = (char *)q;
      if (k != 16) end = (char *)r->p; /* refused below */
    } else {
      x[i] = strtod(r->p, &end); /* a decimal number (a text written by hand) */
    }
    if (end == r->p || (*end != ' ' && *end != '\n' && *end != '\0')) fail(r, what);
    r->p = end;
  }
}

/* n integers, each in [lo, hi]. */
static void get_i(struct in *r, int *x, int n, long lo, long hi, const char *what)
{
  for (int i = 0; i < n && !r->bad; i++) {
    char *end;
    errno = 0;
    long v = strtol(r->p, &end, 10);
    if (end == r->p || errno || v < lo || v > hi || (*end != ' ' && *end != '\n' && *end != '\0'))
      fail(r, what);
    else
      x[i] = (int)v;
    r->p = end;
  }
}

static void *alloc(struct in *r, size_t n, size_t size)
{
  if (r->bad) return NULL;
  void *p = calloc(n ? n : 1, size);
  if (!p) fail(r, "out of memory");
  return p;
}

static struct polygon *read_polygon(struct in *r)
{
  int n = 0;
  tag(r, "poly");
  get_i(r, &n, 1, 3, WORLD_IO_MAX, "polygon vertex count");
  struct polygon *p = alloc(r, 1, sizeof *p);
  if (!p) return NULL;
  p->n = n;
  p->v = alloc(r, 2 * (size_t)n, sizeof *p->v);
  p->en = alloc(r, 2 * (size_t)n, sizeof *p->en);
  p->ed = alloc(r, (size_t)n, sizeof *p->ed);
  get_d(r, &p->area, 1, "polygon area");
  get_d(r, p->centroid, 2, "polygon centroid");
  get_d(r, &p->second_moment, 1, "polygon second moment");
  get_d(r, p->v, 2 * n, "polygon vertices");
  get_d(r, p->en, 2 * n, "polygon edge normals");
  get_d(r, p->ed, n, "polygon edge offsets");
  return p;
}

static struct polyhedron *read_polyhedron(struct in *r)
{
  int c[3] = {0, 0, 0};
  tag(r, "hedron");
  get_i(r, c, 3, 1, WORLD_IO_MAX, "polyhedron counts");
  struct polyhedron *p = alloc(r, 1, sizeof *p);
  if (!p) return NULL;
  p->nv = c[0], p->nf = c[1], p->ne = c[2];
  get_d(r, &p->volume, 1, "polyhedron volume");
  get_d(r, p->centroid, 3, "polyhedron centroid");
  get_d(r, p->inertia, 9, "polyhedron inertia");
  p->v = alloc(r, 3 * (size_t)p->nv, sizeof *p->v);
  get_d(r, p->v, 3 * p->nv, "polyhedron vertices");
  p->face_start = alloc(r, (size_t)p->nf + 1, sizeof *p->face_start);
  get_i(r, p->face_start, p->nf + 1, 0, WORLD_IO_MAX, "polyhedron face starts");
  for (int f = 0; f < p->nf && !r->bad; f++)
    if (p->face_start[f + 1] < p->face_start[f] || p->face_start[0] != 0) fail(r, "polyhedron face starts");
  int nfv = r->bad ? 0 : p->face_start[p->nf];
  p->face_vert = alloc(r, (size_t)nfv, sizeof *p->face_vert);
  get_i(r, p->face_vert, nfv, 0, p->nv - 1, "polyhedron face vertices");
  p->fn = alloc(r, 3 * (size_t)p->nf, sizeof *p->fn);
  p->fd = alloc(r, (size_t)p->nf, sizeof *p->fd);
  get_d(r, p->fn, 3 * p->nf, "polyhedron face normals");
  get_d(r, p->fd, p->nf, "polyhedron face offsets");
  p->edge_vert = alloc(r, 2 * (size_t)p->ne, sizeof *p->edge_vert);
  p->edge_face = alloc(r, 2 * (size_t)p->ne, sizeof *p->edge_face);
  get_i(r, p->edge_vert, 2 * p->ne, 0, p->nv - 1, "polyhedron edge vertices");
  get_i(r, p->edge_face, 2 * p->ne, 0, p->nf - 1, "polyhedron edge faces");
  return p;
}

static void read_body(struct in *r, struct world *w, struct body *b)
{
  tag(r, "body");
  get_i(r, &b->is_static, 1, 0, 1, "body static flag");
  get_i(r, &b->dof, 1, -1, w->ndof - 1, "body dof offset");
  get_i(r, &b->group, 1, -WORLD_IO_MAX, WORLD_IO_MAX, "body group");
  get_d(r, &b->mass, 1, "body mass");
  get_d(r, &b->inertia, 1, "body inertia");
  get_d(r, b->inertia3, 9, "body inertia tensor");
  get_d(r, b->x, 3, "body position");
  get_d(r, &b->theta, 1, "body angle");
  get_d(r, b->q, 4, "body quaternion");
  get_d(r, b->v, 3, "body velocity");
  get_d(r, b->w, 3, "body angular velocity");
  get_d(r, b->f, 3, "body force");
  get_d(r, b->tau, 3, "body torque");
  get_i(r, &b->shape_begin, 1, 0, w->ns, "body first shape");
  get_i(r, &b->shape_count, 1, 0, w->ns, "body shape count");
  if (!r->bad && b->shape_begin + b->shape_count > w->ns) fail(r, "body shapes past the last shape");
  get_d(r, &b->bound_radius, 1, "body bounding radius");
  get_i(r, &b->unbounded, 1, 0, 1, "body unbounded flag");
  if (!r->bad && (b->dof < 0) != (b->is_static != 0)) fail(r, "body dof offset (static iff -1)");
  if (!r->bad && b->dof >= 0 && b->dof + (w->dim == 2 ? 3 : 6) > w->ndof) fail(r, "body dof offset");
}

static void read_shape(struct in *r, struct world *w, struct shape *s)
{
  int k = 0, has[2] = {0, 0};
  tag(r, "shape");
  get_i(r, &k, 1, SHAPE_DISC, SHAPE_SUPERELLIPSOID, "shape kind");
  s->kind = (enum shape_kind)k;
  if (!r->bad && k != SHAPE_DISC && k != SHAPE_POLYGON && k != SHAPE_HALFPLANE && k != SHAPE_SPHERE &&
      k != SHAPE_POLYHEDRON && k != SHAPE_PLANE && k != SHAPE_SUPERELLIPSE && k != SHAPE_SUPERELLIPSOID)
    fail(r, "shape kind");
  get_i(r, &s->body, 1, 0, w->nb - 1, "shape body");
  get_d(r, s->c, 3, "shape centre");
  get_d(r, &s->radius, 1, "shape radius");
  get_d(r, s->n, 3, "shape normal");
  get_d(r, &s->d, 1, "shape offset");
  get_i(r, has, 2, 0, 1, "shape polygon / polyhedron flags");
  if (!r->bad && (has[0] != (k == SHAPE_POLYGON) || has[1] != (k == SHAPE_POLYHEDRON)))
    fail(r, "shape polygon / polyhedron flags");
  if (has[0]) s->polygon = read_polygon(r);
  if (has[1]) s->polyhedron = read_polyhedron(r);
  if (k == SHAPE_SUPERELLIPSE) {
    tag(r, "super");
    get_i(r, &s->se.p, 1, 2, 1000000, "superellipse exponent");
    if (!r->bad && s->se.p % 2) fail(r, "superellipse exponent (even)");
    get_d(r, &s->se.a, 1, "superellipse semi-axis a");
    get_d(r, &s->se.b, 1, "superellipse semi-axis b");
    if (!r->bad && !(s->se.a > 0.0 && s->se.b > 0.0)) fail(r, "superellipse semi-axes (positive)");
    get_d(r, &s->se.angle, 1, "superellipse angle");
    get_d(r, &s->se.area, 1, "superellipse area");
    get_d(r, &s->se.second_moment, 1, "superellipse second moment");
  }
  if (k == SHAPE_SUPERELLIPSOID) {
    tag(r, "sqd");
    get_i(r, &s->sq.p, 1, 2, 1000000, "superellipsoid exponent");
    if (!r->bad && s->sq.p % 2) fail(r, "superellipsoid exponent (even)");
    get_d(r, s->sq.a, 3, "superellipsoid semi-axes");
    if (!r->bad && !(s->sq.a[0] > 0.0 && s->sq.a[1] > 0.0 && s->sq.a[2] > 0.0))
      fail(r, "superellipsoid semi-axes (positive)");
    get_d(r, s->sq.q, 4, "superellipsoid quaternion");
    get_d(r, &s->sq.volume, 1, "superellipsoid volume");
    get_d(r, s->sq.inertia, 9, "superellipsoid inertia");
  }
}

static void read_joint(struct in *r, const struct world *w, int version, struct joint *j)
{
  int k[3] = {0, 0, 0};
  tag(r, "joint");
  get_i(r, k, 1, JOINT_REVOLUTE_2D, version == 1 ? JOINT_BALL_3D : JOINT_MIRROR_2D, "joint kind");
  get_i(r, k + 1, 1, 0, w->nb - 1, "joint body a");
  get_i(r, k + 2, 1, -1, w->nb - 1, "joint body b");
  j->kind = (enum joint_kind)k[0], j->a = k[1], j->b = k[2];
  get_d(r, j->pa, 3, "joint point a");
  get_d(r, j->pb, 3, "joint point b");
  if (version == 2) {
    get_d(r, j->axis, 3, "joint axis");
    get_d(r, &j->angle, 1, "joint angle");
  }
  if (!r->bad && j->kind == JOINT_MIRROR_2D && j->b < 0) fail(r, "a mirror joint without its body b");
}

static void read_motor(struct in *r, const struct world *w, struct motor *m)
{
  tag(r, "motor");
  get_i(r, &m->body, 1, 0, w->nb - 1, "motor body");
  get_d(r, m->axis, 3, "motor axis");
  get_d(r, &m->speed, 1, "motor speed");
  get_d(r, &m->max_force, 1, "motor force");
}

static void read_support(struct in *r, const struct world *w, struct support_friction *sp)
{
  tag(r, "support");
  get_i(r, &sp->body, 1, 0, w->nb - 1, "support body");
  get_i(r, &sp->n, 1, 1, WORLD_SUPPORT_POINTS, "support point count");
  get_i(r, &sp->dirs, 1, 3, 64, "support directions");
  for (int k = 0; k < sp->n && !r->bad; k++)
    get_d(r, sp->p[k], 2, "support point");
  if (!r->bad) get_d(r, sp->normal, sp->n, "support normal forces");
  get_d(r, &sp->mu, 1, "support friction coefficient");
  get_d(r, &sp->damping, 1, "support damping");
}

int world_from_text(const char *text, size_t len, struct world **out, char *err, size_t elen)
{
  *out = NULL;
  char *copy = malloc(len + 1);
  if (!copy) {
    if (err && elen) snprintf(err, elen, "world text: out of memory");
    return 1;
  }
  memcpy(copy, text, len);
  copy[len] = '\0';
  struct in r = {copy, 0, ""};
  int head[9] = {0};
  tag(&r, "world");
  get_i(&r, head, 1, 1, WORLD_IO_VERSION, "version (this build reads 1 and 2)");
  get_i(&r, head + 1, 1, 2, 3, "dimension");
  get_i(&r, head + 2, 4, 0, WORLD_IO_MAX, "counts");
  get_i(&r, head + 6, 1, BROAD_SWEEP, BROAD_ALL_PAIRS, "broad phase");
  if (head[0] == 2) get_i(&r, head + 7, 2, 0, WORLD_IO_MAX, "motor and support counts");
  struct world *w = r.bad ? NULL : world_create(head[1]);
  if (!r.bad && !w) fail(&r, "out of memory");
  if (w) {
    w->nb = w->cap_b = head[2];
    w->ns = w->cap_s = head[3];
    w->nj = w->cap_j = head[4];
    w->ndof = head[5];
    w->broad = (enum broad_phase)head[6];
    w->bodies = alloc(&r, (size_t)w->nb, sizeof *w->bodies);
    w->shapes = alloc(&r, (size_t)w->ns, sizeof *w->shapes);
    w->joints = alloc(&r, (size_t)w->nj, sizeof *w->joints);
    w->nm = w->cap_m = head[7];
    w->nsup = w->cap_sup = head[8];
    w->motors = alloc(&r, (size_t)w->nm, sizeof *w->motors);
    w->supports = alloc(&r, (size_t)w->nsup, sizeof *w->supports);
    if (r.bad) w->ns = 0; /* nothing to free in the shapes */
  }
  tag(&r, "env");
  if (w) {
    get_d(&r, w->gravity, 3, "gravity");
    get_d(&r, &w->mu, 1, "mu");
    get_d(&r, &w->threshold, 1, "threshold");
    get_d(&r, &w->t, 1, "time");
  }
  for (int i = 0; w && i < w->nb && !r.bad; i++)
    read_body(&r, w, &w->bodies[i]);
  for (int i = 0; w && i < w->ns && !r.bad; i++)
    read_shape(&r, w, &w->shapes[i]);
  for (int i = 0; w && i < w->nj && !r.bad; i++)
    read_joint(&r, w, head[0], &w->joints[i]);
  for (int i = 0; w && i < w->nm && !r.bad; i++)
    read_motor(&r, w, &w->motors[i]);
  for (int i = 0; w && i < w->nsup && !r.bad; i++)
    read_support(&r, w, &w->supports[i]);
  tag(&r, "end");
  free(copy);
  if (r.bad) {
    if (err && elen) snprintf(err, elen, "world text: bad or truncated (%s)", r.what);
    world_destroy(&w);
    return 1;
  }
  *out = w;
  return 0;
}
