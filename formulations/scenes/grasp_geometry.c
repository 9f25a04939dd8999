/* grasp_geometry.c — the lock piece's shapes (Chakraborty et al., Sec. 6.4, eqs. (56)–(57)), the
 * fingertips (eqs. (58)–(61)), the support tripod's statics (the 2.5D model of Berard et al. 2007:
 * ../shared/notes/grasp-study.md), the per-trial draws and the classification of a final grasp.
 *
 * Distances use support functions: a finger is the quadrant {X >= s, Y <= 0} (right; mirrored for the
 * left), so for a convex component S the signed distance is max over the normals n of the quadrant's
 * polar cone (n_x >= 0, n_y <= 0 for the right finger) of n . V - h_S(n), V the fingertip vertex and h_S
 * the support function (the separating-axis theorem over all directions: positive = gap, negative = the
 * penetration depth). The disc's h is n . c + R; the superellipse |x/a|^4 + |y/b|^4 <= 1 has
 * h(m) = (|a m_x|^{4/3} + |b m_y|^{4/3})^{3/4} in its own frame (the dual norm). The maximiser over the
 * quarter circle of normals is found by golden-section search (the function is unimodal there: for the
 * disc it is a sinusoid, for the teeth a smooth convex perturbation of one). */
#include "grasp.h"

#include <math.h>
#include <string.h>

const double grasp_tooth_angle[GRASP_TEETH] = {4.103727, 4.253125, 4.402522, 5.022255, 5.171653, 5.321051};

/* A radius around a tooth's centre that contains it: sqrt(a^2 + b^2) bounds the superellipse. */
#define TOOTH_BOUND 2.56e-3

static void tooth_centre(int k, double c[2]) /* k = 1..6, part frame */
{
  c[0] = GRASP_DISC_RADIUS * cos(grasp_tooth_angle[k - 1]);
  c[1] = GRASP_DISC_RADIUS * sin(grasp_tooth_angle[k - 1]);
}

double grasp_support(const double q[3], int component, const double d[2], double p[2])
{
  const double c = cos(q[2]), s = sin(q[2]);
  if (component == 0) {
    p[0] = q[0] + GRASP_DISC_RADIUS * d[0];
    p[1] = q[1] + GRASP_DISC_RADIUS * d[1];
    return d[0] * p[0] + d[1] * p[1];
  }
  double m[2] = {c * d[0] + s * d[1], -s * d[0] + c * d[1]}; /* d in the part's frame */
  double ax = GRASP_TOOTH_A * fabs(m[0]), by = GRASP_TOOTH_B * fabs(m[1]);
  double fx = cbrt(ax), fy = cbrt(by);
  double sum = ax * fx + by * fy; /* |a m_x|^{4/3} + |b m_y|^{4/3} */
  double nrm = sqrt(sqrt(sum));   /* sum^{1/4} */
  double lx = copysign(GRASP_TOOTH_A * fx / nrm, m[0]), ly = copysign(GRASP_TOOTH_B * fy / nrm, m[1]);
  double tc[2];
  tooth_centre(component, tc);
  lx += tc[0];
  ly += tc[1];
  p[0] = q[0] + c * lx - s * ly;
  p[1] = q[1] + s * lx + c * ly;
  return d[0] * p[0] + d[1] * p[1];
}

/* n . V - h(n) at normal angle phi in [-pi/2, 0] for finger sigma. */
static double gap_at(const double q[4], int finger, int component, double phi, double n[2], double p[2])
{
  n[0] = finger * cos(phi);
  n[1] = sin(phi);
  return q[3] * cos(phi) - grasp_support(q, component, n, p);
}

void grasp_finger_gap(const double q[4], int finger, int component, struct grasp_contact *ct)
{
  const double g = 0.5 * (sqrt(5.0) - 1.0);
  double a = -M_PI / 2, b = 0.0, n[2], p[2];
  double x1 = b - g * (b - a), x2 = a + g * (b - a);
  double f1 = gap_at(q, finger, component, x1, n, p), f2 = gap_at(q, finger, component, x2, n, p);
  for (int it = 0; it < 40; it++) { /* (0.618)^40 pi/2 ~ 6e-9 rad */
    if (f1 < f2) {
      a = x1;
      x1 = x2;
      f1 = f2;
      x2 = a + g * (b - a);
      f2 = gap_at(q, finger, component, x2, n, p);
    } else {
      b = x2;
      x2 = x1;
      f2 = f1;
      x1 = b - g * (b - a);
      f1 = gap_at(q, finger, component, x1, n, p);
    }
  }
  /* the ends of the interval: the inside edge (phi = 0) and the top edge (phi = -pi/2) */
  double phi = 0.5 * (a + b), best = gap_at(q, finger, component, phi, n, p);
  double e0 = gap_at(q, finger, component, 0.0, n, p), e1 = gap_at(q, finger, component, -M_PI / 2, n, p);
  if (e0 > best) best = e0, phi = 0.0;
  if (e1 > best) phi = -M_PI / 2;
  ct->gap = gap_at(q, finger, component, phi, n, p);
  ct->finger = finger;
  ct->component = component;
  ct->n[0] = n[0];
  ct->n[1] = n[1];
  ct->r[0] = p[0] - q[0];
  ct->r[1] = p[1] - q[1];
  ct->impulse = 0.0;
}

/* Distance from point c to finger's quadrant: a cheap cull before the search. */
static double quadrant_distance(double s, int finger, const double c[2])
{
  double dx = s - finger * c[0], dy = c[1];
  dx = dx > 0 ? dx : 0;
  dy = dy > 0 ? dy : 0;
  return sqrt(dx * dx + dy * dy);
}

int grasp_detect(const double q[4], double margin, struct grasp_contact *out)
{
  struct grasp_contact all[2 * GRASP_COMPONENTS];
  int n = 0;
  const double c = cos(q[2]), s = sin(q[2]);
  for (int finger = 1; finger >= -1; finger -= 2)
    for (int k = 0; k < GRASP_COMPONENTS; k++) {
      double centre[2] = {q[0], q[1]}, bound = GRASP_DISC_RADIUS;
      if (k > 0) {
        double tc[2];
        tooth_centre(k, tc);
        centre[0] += c * tc[0] - s * tc[1];
        centre[1] += s * tc[0] + c * tc[1];
        bound = TOOTH_BOUND;
      }
      if (quadrant_distance(q[3], finger, centre) - bound > margin) continue;
      grasp_finger_gap(q, finger, k, &all[n]);
      if (all[n].gap < margin) n++;
    }
  /* nearest first, insertion sort (n <= 14) */
  for (int i = 1; i < n; i++) {
    struct grasp_contact t = all[i];
    int j = i - 1;
    for (; j >= 0 && all[j].gap > t.gap; j--)
      all[j + 1] = all[j];
    all[j + 1] = t;
  }
  if (n > GRASP_MAX_CONTACTS) n = GRASP_MAX_CONTACTS;
  memcpy(out, all, (size_t)n * sizeof *out);
  return n;
}

double grasp_part_extent(const double q[3])
{
  double e = 0.0, p[2];
  for (int k = 0; k < GRASP_COMPONENTS; k++) {
    const double dp[2] = {1.0, 0.0}, dm[2] = {-1.0, 0.0};
    double a = grasp_support(q, k, dp, p), b = grasp_support(q, k, dm, p);
    if (a > e) e = a;
    if (b > e) e = b;
  }
  return e;
}

int grasp_tripod_statics(double p[3][2], double m, double g, double N[3])
{
  /* [1 1 1; x1 x2 x3; y1 y2 y3] N = [m g; 0; 0] by Cramer's rule: N_i is m g times the area of the
   * triangle of the other two points and the centre, over the tripod's area (barycentric coordinates) */
  double det = (p[1][0] - p[0][0]) * (p[2][1] - p[0][1]) - (p[2][0] - p[0][0]) * (p[1][1] - p[0][1]);
  if (fabs(det) < 1e-14) return 1;
  for (int i = 0; i < 3; i++) {
    const double *a = p[(i + 1) % 3], *b = p[(i + 2) % 3];
    N[i] = m * g * (a[0] * b[1] - b[0] * a[1]) / det;
  }
  return N[0] < 0 || N[1] < 0 || N[2] < 0;
}

void grasp_draw(gsl_rng *rng, const double support[2], const double grip[2], struct grasp_params *p)
{
  const double min_share = 0.1 * p->mass * p->g / 3.0;
  for (;;) {
    double phi0 = 2.0 * M_PI * gsl_rng_uniform(rng);
    for (int i = 0; i < 3; i++) {
      double phi = phi0 + 2.0 * M_PI * i / 3.0 + (gsl_rng_uniform(rng) - 0.5) * M_PI / 3.0;
      double rad = GRASP_DISC_RADIUS * (0.3 + 0.6 * gsl_rng_uniform(rng));
      p->tripod[i][0] = rad * cos(phi);
      p->tripod[i][1] = rad * sin(phi);
    }
    if (!grasp_tripod_statics(p->tripod, p->mass, p->g, p->normal) && p->normal[0] >= min_share &&
        p->normal[1] >= min_share && p->normal[2] >= min_share)
      break;
  }
  /* (lo, hi]: 1 - U[0,1) lies in (0, 1] */
  p->mu_support = support[0] + (support[1] - support[0]) * (1.0 - gsl_rng_uniform(rng));
  p->mu_grip = grip[0] + (grip[1] - grip[0]) * (1.0 - gsl_rng_uniform(rng));
}

const char *grasp_outcome_name(enum grasp_outcome o)
{
  static const char *const names[GRASP_OUTCOMES] = {"outer_teeth", "other_teeth", "round",
                                                    "diametric",   "lost",        "solver_failure"};
  return o >= 0 && o < GRASP_OUTCOMES ? names[o] : "?";
}

/* Diametric: both fingers on the disc within this angle of its horizontal diameter (normals nearly
 * opposite and horizontal: the grasp of nearly diametrically opposite points the paper names). */
#define DIAMETRIC_SIN 0.2588190451 /* sin 15 degrees */
/* An outer-edge contact on a tooth: the normal within 60 degrees of horizontal (the tooth's side). */
#define SIDE_COS 0.5

enum grasp_outcome grasp_classify(const struct grasp_contact *c, int nc, double load_min, double s_min,
                                  double s)
{
  if (s <= s_min) return GRASP_LOST;
  int loaded[2] = {0, 0}, on_tooth[2] = {0, 0}, outer[2] = {0, 0}, disc_steep[2] = {0, 0};
  int outer_tooth_of[2] = {0, 0};
  for (int i = 0; i < nc; i++) {
    if (c[i].impulse <= load_min) continue;
    int f = c[i].finger > 0 ? 0 : 1;
    loaded[f] = 1;
    if (c[i].component == 0) {
      if (fabs(c[i].n[1]) > DIAMETRIC_SIN) disc_steep[f] = 1;
    } else {
      on_tooth[f] = 1;
      if ((c[i].component == 1 || c[i].component == GRASP_TEETH) && fabs(c[i].n[0]) >= SIDE_COS) {
        outer[f] = 1;
        outer_tooth_of[f] = c[i].component;
      }
    }
  }
  if (!loaded[0] || !loaded[1]) return GRASP_LOST;
  if (outer[0] && outer[1] && outer_tooth_of[0] != outer_tooth_of[1]) return GRASP_OUTER_TEETH;
  if (on_tooth[0] || on_tooth[1]) return GRASP_OTHER_TEETH;
  return disc_steep[0] || disc_steep[1] ? GRASP_ROUND : GRASP_DIAMETRIC;
}
