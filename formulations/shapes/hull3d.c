/* hull3d.c — convex polyhedra through qhull (reentrant libqhull_r, default options: coplanar facets
 * merged, so faces are true polygons) and their mass properties by the divergence theorem: each face is
 * fanned into triangles (a, b, c) that form tetrahedra with the origin, D = a . (b x c),
 *   volume += D/6,  first moment += D/24 (a + b + c),  C = int x x^T += D/120 (sum v v^T + s s^T), s = a+b+c,
 * and the inertia about the origin is tr(C) I - C (unit density). */
#include "hull3d.h"

#include "geom3d.h"

#include <gsl/gsl_randist.h>
#include <libqhull_r/qhull_ra.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct half_edge {
  int lo, hi, face, from;
};

static int half_edge_cmp(const void *pa, const void *pb)
{
  const struct half_edge *a = pa, *b = pb;
  if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
  if (a->hi != b->hi) return a->hi < b->hi ? -1 : 1;
  return 0;
}

/* Edges from the faces: every edge appears once in each of its two faces. Returns 0 on success. */
static int build_edges(struct polyhedron *p)
{
  int nh = p->face_start[p->nf];
  struct half_edge *he = malloc((size_t)nh * sizeof *he);
  if (!he) return 1;
  for (int f = 0; f < p->nf; f++) {
    int s = p->face_start[f], m = p->face_start[f + 1] - s;
    for (int k = 0; k < m; k++) {
      int i = p->face_vert[s + k], j = p->face_vert[s + (k + 1) % m];
      he[s + k] = (struct half_edge){i < j ? i : j, i < j ? j : i, f, i};
    }
  }
  qsort(he, (size_t)nh, sizeof *he, half_edge_cmp);
  p->ne = nh / 2;
  p->edge_vert = malloc((size_t)nh * sizeof *p->edge_vert);
  p->edge_face = malloc((size_t)nh * sizeof *p->edge_face);
  int rc = (!p->edge_vert || !p->edge_face || nh % 2) ? 1 : 0;
  for (int e = 0; !rc && e < p->ne; e++) {
    const struct half_edge *a = he + 2 * e, *b = he + 2 * e + 1;
    if (half_edge_cmp(a, b) || a->face == b->face) {
      rc = 1; /* not a closed 2-manifold: should not happen for a qhull hull */
      break;
    }
    /* edge_face[2e] is the face in which the edge runs from edge_vert[2e] to edge_vert[2e+1]. */
    p->edge_vert[2 * e] = a->from;
    p->edge_vert[2 * e + 1] = a->from == a->lo ? a->hi : a->lo;
    p->edge_face[2 * e] = a->face;
    p->edge_face[2 * e + 1] = b->face;
  }
  free(he);
  return rc;
}

/* Orders the vertices of face f counter-clockwise about its outward normal. */
static void order_face(struct polyhedron *p, int f, double *angle)
{
  int s = p->face_start[f], m = p->face_start[f + 1] - s;
  double c[3] = {0, 0, 0}, t1[3], t2[3];
  for (int k = 0; k < m; k++)
    vec3_axpy(1.0 / m, p->v + 3 * p->face_vert[s + k], c);
  vec3_basis(p->fn + 3 * f, t1, t2);
  for (int k = 0; k < m; k++) {
    double d[3];
    vec3_sub(p->v + 3 * p->face_vert[s + k], c, d);
    angle[k] = atan2(vec3_dot(d, t2), vec3_dot(d, t1));
  }
  for (int k = 1; k < m; k++) /* insertion sort: faces are small */
    for (int j = k; j > 0 && angle[j] < angle[j - 1]; j--) {
      double ta = angle[j];
      angle[j] = angle[j - 1];
      angle[j - 1] = ta;
      int tv = p->face_vert[s + j];
      p->face_vert[s + j] = p->face_vert[s + j - 1];
      p->face_vert[s + j - 1] = tv;
    }
}

/* Volume of the tetrahedron spanned by the four most spread points, relative to the spread cubed: a
 * cheap test that the points are not (nearly) coplanar, so qhull never sees a flat input. */
int hull3d_points_degenerate(int n, const double *x)
{
  if (n < 4) return 1;
  int i1 = 0, i2 = 0, i3 = 0;
  double best = 0.0, d[3], e[3], c[3];
  for (int i = 1; i < n; i++) {
    vec3_sub(x + 3 * i, x, d);
    if (vec3_dot(d, d) > best) best = vec3_dot(d, d), i1 = i;
  }
  double scale = sqrt(best);
  if (!(scale > 0.0)) return 1;
  vec3_sub(x + 3 * i1, x, d);
  best = 0.0;
  for (int i = 1; i < n; i++) {
    vec3_sub(x + 3 * i, x, e);
    vec3_cross(d, e, c);
    if (vec3_dot(c, c) > best) best = vec3_dot(c, c), i2 = i;
  }
  if (!(sqrt(best) > 1e-9 * scale * scale)) return 1;
  vec3_sub(x + 3 * i2, x, e);
  vec3_cross(d, e, c);
  best = 0.0;
  for (int i = 1; i < n; i++) {
    vec3_sub(x + 3 * i, x, e);
    if (fabs(vec3_dot(c, e)) > best) best = fabs(vec3_dot(c, e)), i3 = i;
  }
  (void)i3;
  return !(best > 1e-9 * scale * scale * scale);
}

static struct polyhedron *from_qhull(qhT *qh, int n, const double *xyz)
{
  struct polyhedron *p = calloc(1, sizeof *p);
  int *map = malloc((size_t)n * sizeof *map);
  double *angle = NULL;
  if (!p || !map) goto fail;
  for (int i = 0; i < n; i++)
    map[i] = -1;
  vertexT *vertex, **vertexp;
  facetT *facet;
  int nv = 0, nf = 0, nfv = 0, maxm = 0;
  FORALLvertices map[qh_pointid(qh, vertex->point)] = nv++;
  FORALLfacets
  {
    int m = qh_setsize(qh, facet->vertices);
    nf++, nfv += m;
    if (m > maxm) maxm = m;
  }
  p->nv = nv, p->nf = nf;
  p->v = malloc(3 * (size_t)nv * sizeof *p->v);
  p->face_start = malloc((size_t)(nf + 1) * sizeof *p->face_start);
  p->face_vert = malloc((size_t)nfv * sizeof *p->face_vert);
  p->fn = malloc(3 * (size_t)nf * sizeof *p->fn);
  p->fd = malloc((size_t)nf * sizeof *p->fd);
  angle = malloc((size_t)maxm * sizeof *angle);
  if (!p->v || !p->face_start || !p->face_vert || !p->fn || !p->fd || !angle) goto fail;
  for (int i = 0; i < n; i++)
    if (map[i] >= 0) memcpy(p->v + 3 * map[i], xyz + 3 * i, 3 * sizeof *xyz);
  int f = 0, k = 0;
  FORALLfacets
  {
    p->face_start[f] = k;
    FOREACHvertex_(facet->vertices) p->face_vert[k++] = map[qh_pointid(qh, vertex->point)];
    /* qhull's hyperplane: normal . x + offset = 0 with an outward normal. */
    for (int j = 0; j < 3; j++)
      p->fn[3 * f + j] = facet->normal[j];
    p->fd[f] = -facet->offset;
    f++;
  }
  p->face_start[nf] = k;
  for (f = 0; f < nf; f++)
    order_face(p, f, angle);
  if (build_edges(p)) goto fail;
  hull3d_mass_properties(p);
  free(map);
  free(angle);
  return p;
fail:
  free(map);
  free(angle);
  polyhedron_free(p);
  return NULL;
}

/* One qhull run with the options cmd; NULL when qhull reports an error. errors: where its messages go. */
static struct polyhedron *hull_run(int n, const double *xyz, const char *options, FILE *errors)
{
  coordT *pts = malloc(3 * (size_t)n * sizeof *pts);
  if (!pts) return NULL;
  memcpy(pts, xyz, 3 * (size_t)n * sizeof *pts);
  qhT qh_qh;
  qhT *qh = &qh_qh;
  qh_zero(qh, errors);
  char cmd[32];
  snprintf(cmd, sizeof cmd, "%s", options);
  struct polyhedron *p = NULL;
  if (!qh_new_qhull(qh, 3, n, pts, False, cmd, NULL, errors)) p = from_qhull(qh, n, xyz);
  qh_freeqhull(qh, !qh_ALL);
  int curlong, totlong;
  qh_memfreeshort(qh, &curlong, &totlong);
  free(pts);
  return p;
}

struct polyhedron *hull3d_create(int n, const double *xyz)
{
  if (!xyz || hull3d_points_degenerate(n, xyz)) return NULL;
  /* Pp: no precision warnings (slivers of overlap3d are expected). A precision error of the exact hull
   * (a "wide merge" on a near-degenerate intersection's dual, seen in the box of icosahedra; qhull reports
   * it on stderr) gets a second, silent run with joggled input (QJ: points moved by ~1e-11 of their
   * extent, so a volume changes by round-off only). */
  struct polyhedron *p = hull_run(n, xyz, "qhull Pp", stderr);
  if (!p) {
    FILE *null = fopen("/dev/null", "w");
    if (null) {
      p = hull_run(n, xyz, "qhull QJ Pp", null);
      fclose(null);
    }
  }
  return p;
}

struct polyhedron *hull3d_triangulate(const struct polyhedron *src)
{
  struct polyhedron *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  int nt = src->face_start[src->nf] - 2 * src->nf; /* a face of m vertices fans into m - 2 triangles */
  p->nv = src->nv, p->nf = nt;
  p->v = malloc(3 * (size_t)src->nv * sizeof *p->v);
  p->face_start = malloc((size_t)(nt + 1) * sizeof *p->face_start);
  p->face_vert = malloc(3 * (size_t)nt * sizeof *p->face_vert);
  p->fn = malloc(3 * (size_t)nt * sizeof *p->fn);
  p->fd = malloc((size_t)nt * sizeof *p->fd);
  if (!p->v || !p->face_start || !p->face_vert || !p->fn || !p->fd) goto fail;
  memcpy(p->v, src->v, 3 * (size_t)src->nv * sizeof *p->v);
  int t = 0;
  for (int f = 0; f < src->nf; f++) {
    int s = src->face_start[f], m = src->face_start[f + 1] - s;
    for (int k = 1; k + 1 < m; k++, t++) {
      p->face_start[t] = 3 * t;
      p->face_vert[3 * t] = src->face_vert[s];
      p->face_vert[3 * t + 1] = src->face_vert[s + k];
      p->face_vert[3 * t + 2] = src->face_vert[s + k + 1];
      memcpy(p->fn + 3 * t, src->fn + 3 * f, 3 * sizeof *p->fn);
      p->fd[t] = src->fd[f];
    }
  }
  p->face_start[nt] = 3 * nt;
  if (build_edges(p)) goto fail;
  hull3d_mass_properties(p);
  return p;
fail:
  polyhedron_free(p);
  return NULL;
}

struct polyhedron *hull3d_box(double hx, double hy, double hz)
{
  double x[24];
  for (int i = 0; i < 8; i++) {
    x[3 * i] = (i & 1) ? hx : -hx;
    x[3 * i + 1] = (i & 2) ? hy : -hy;
    x[3 * i + 2] = (i & 4) ? hz : -hz;
  }
  return hull3d_create(8, x);
}

struct polyhedron *hull3d_icosahedron(double circumradius)
{
  const double phi = 0.5 * (1.0 + sqrt(5.0));
  double s = circumradius / sqrt(1.0 + phi * phi), x[36];
  for (int i = 0; i < 4; i++) {
    double a = (i & 1) ? s : -s, b = (i & 2) ? s * phi : -s * phi;
    double *p = x + 9 * i; /* (0, a, b), (a, b, 0), (b, 0, a) */
    p[0] = 0, p[1] = a, p[2] = b;
    p[3] = a, p[4] = b, p[5] = 0;
    p[6] = b, p[7] = 0, p[8] = a;
  }
  return hull3d_create(12, x);
}

struct polyhedron *hull3d_random(gsl_rng *rng, int n, double radius)
{
  if (!rng || n < 4) return NULL;
  double *x = malloc(3 * (size_t)n * sizeof *x);
  if (!x) return NULL;
  for (int i = 0; i < n; i++) {
    gsl_ran_dir_3d(rng, x + 3 * i, x + 3 * i + 1, x + 3 * i + 2);
    vec3_scale(x + 3 * i, radius * cbrt(gsl_rng_uniform(rng)), x + 3 * i);
  }
  struct polyhedron *p = hull3d_create(n, x);
  free(x);
  if (p) hull3d_centre(p);
  return p;
}

void hull3d_mass_properties(struct polyhedron *p)
{
  double vol = 0.0, m1[3] = {0, 0, 0}, C[9] = {0};
  for (int f = 0; f < p->nf; f++) {
    int s = p->face_start[f], m = p->face_start[f + 1] - s;
    const double *a = p->v + 3 * p->face_vert[s];
    for (int k = 1; k + 1 < m; k++) {
      const double *b = p->v + 3 * p->face_vert[s + k], *c = p->v + 3 * p->face_vert[s + k + 1];
      double bc[3], sum[3];
      vec3_cross(b, c, bc);
      double D = vec3_dot(a, bc);
      vol += D / 6.0;
      for (int j = 0; j < 3; j++)
        sum[j] = a[j] + b[j] + c[j];
      vec3_axpy(D / 24.0, sum, m1);
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
          C[3 * i + j] += D / 120.0 * (a[i] * a[j] + b[i] * b[j] + c[i] * c[j] + sum[i] * sum[j]);
    }
  }
  p->volume = vol;
  for (int j = 0; j < 3; j++)
    p->centroid[j] = vol != 0.0 ? m1[j] / vol : 0.0;
  double tr = C[0] + C[4] + C[8];
  for (int i = 0; i < 9; i++)
    p->inertia[i] = (i % 4 == 0 ? tr : 0.0) - C[i];
}

void hull3d_translate(struct polyhedron *p, const double d[3])
{
  for (int i = 0; i < p->nv; i++)
    vec3_add(p->v + 3 * i, d, p->v + 3 * i);
  for (int f = 0; f < p->nf; f++)
    p->fd[f] += vec3_dot(p->fn + 3 * f, d);
  hull3d_mass_properties(p);
}

void hull3d_centre(struct polyhedron *p)
{
  double d[3];
  vec3_scale(p->centroid, -1.0, d);
  hull3d_translate(p, d);
}

void hull3d_central_inertia(const struct polyhedron *p, double mass, double out[9])
{
  /* Unit-density inertia about the origin minus the parallel-axis term, then scaled to the mass. */
  const double *c = p->centroid;
  double c2 = vec3_dot(c, c), rho = p->volume > 0.0 ? mass / p->volume : 0.0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      double shift = p->volume * ((i == j ? c2 : 0.0) - c[i] * c[j]);
      out[3 * i + j] = rho * (p->inertia[3 * i + j] - shift);
    }
}

int hull3d_contains(const struct polyhedron *p, const double x[3], double tol)
{
  for (int f = 0; f < p->nf; f++)
    if (vec3_dot(p->fn + 3 * f, x) > p->fd[f] + tol) return 0;
  return 1;
}

double hull3d_bound_radius(const struct polyhedron *p)
{
  double r = 0.0;
  for (int i = 0; i < p->nv; i++)
    r = fmax(r, vec3_norm(p->v + 3 * i));
  return r;
}

int hull3d_place(const struct polyhedron *ph, const double R[9], const double t[3], struct hull3d_placed *out)
{
  out->ph = ph;
  out->v = malloc((3 * (size_t)ph->nv + 4 * (size_t)ph->nf) * sizeof *out->v);
  if (!out->v) return 1;
  out->fn = out->v + 3 * ph->nv;
  out->fd = out->fn + 3 * ph->nf;
  double r = 0.0;
  for (int i = 0; i < ph->nv; i++) {
    mat3_vec(R, ph->v + 3 * i, out->v + 3 * i);
    vec3_add(out->v + 3 * i, t, out->v + 3 * i);
    r = fmax(r, vec3_norm(ph->v + 3 * i));
  }
  for (int f = 0; f < ph->nf; f++) {
    mat3_vec(R, ph->fn + 3 * f, out->fn + 3 * f);
    out->fd[f] = ph->fd[f] + vec3_dot(out->fn + 3 * f, t);
  }
  memcpy(out->centre, t, 3 * sizeof *t);
  out->radius = r;
  return 0;
}

void hull3d_placed_free(struct hull3d_placed *p)
{
  if (!p) return;
  free(p->v);
  p->v = p->fn = p->fd = NULL;
}

int hull3d_placed_contains(const struct hull3d_placed *p, const double x[3], double tol)
{
  for (int f = 0; f < p->ph->nf; f++)
    if (vec3_dot(p->fn + 3 * f, x) > p->fd[f] + tol) return 0;
  return 1;
}
