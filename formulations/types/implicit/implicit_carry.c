/* implicit_carry.c — the carried layouts of the geometrically implicit formulations (implicit_carry.h):
 * each maps a pair's carried values to the slots of implicit_answers.h (the step's own order, friction slots
 * always present). geometric_implicit's and tzitzouris_pang's layouts are that order; quasi_rigid's were
 * captured with the friction answers last (and, in 2D, body 2's other multipliers after them). */
#include "implicit_carry.h"

#include "shape.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The slot (implicit_answers.h) of a pair's carried value k when body 2 has m2 inequalities; -1: the friction
 * frame's axis. */
typedef int (*carry_slot)(int k, int m2);

/* geometric_implicit: [a1, a2, friction | l1, l2_1 .. l2_m2, p_n, sigma] as carried */
static int slot_same(int k, int m2)
{
  (void)m2;
  return k;
}

/* quasi_rigid 2D, carried [aC, aR, delta_bar, delta, l1, l2_1, p_ns, p_nr, p_t, sigma] (l2_2 .. after them);
 * the slots [aC, aR, delta_bar, delta, p_t | l1, l2_1 .. l2_m2, p_ns, p_nr, sigma] */
static int slot_qr2(int k, int m2)
{
  static const int head[8] = {0, 1, 2, 3, 4, 5, 7, 8};
  if (k < 8) return head[k];
  return k == 8 ? 8 + m2 : k == 9 ? 9 + m2 : k == 10 ? 6 : 10 + m2;
}

/* quasi_rigid 3D, carried [aC, aR, delta_bar, delta, l1, l2_1 .. l2_m2, p_ns, p_nr, p_t, p_o, p_r, sigma,
 * axis]; the slots [aC, aR, delta_bar, delta, p_t, p_o, p_r | l1, l2 .., p_ns, p_nr, sigma] */
static int slot_qr3(int k, int m2)
{
  if (k < 8) return k;
  if (k < 11 + m2) return k + 3;
  int j = k - 11 - m2;
  return j < 3 ? 8 + j : j == 3 ? 14 + m2 : -1;
}

static void put(const struct implicit_answers *s, const struct implicit_answer *p, carry_slot slot, int count,
                double *out)
{
  const double *v = s->val + p->at;
  for (int k = 0; k < count; k++) {
    int j = slot(k, p->m2);
    out[k] = j < 0 ? p->axis : v[j];
  }
}

/* The answers replaced by np pairs of total values in the layout (dim, fr, width); 0, or 1 with msg. */
static int begin(struct implicit_answers *s, int dim, int fr, int width, int np, int total, char *msg,
                 size_t len)
{
  if (implicit_answers_reserve(s, np ? np : 1, total ? total : 1)) {
    snprintf(msg, len, "out of memory");
    return 1;
  }
  implicit_answers_layout(s, dim, fr, width);
  return 0;
}

/* Appends a pair from its count carried values in (zeros in the slots the layout does not carry). */
static void take(struct implicit_answers *s, int sa, int sb, int m2, carry_slot slot, int count,
                 const double *in)
{
  double *v = implicit_answers_add(s, sa, sb, m2, 0);
  memset(v, 0, (size_t)(s->width + m2) * sizeof *v);
  for (int k = 0; k < count; k++) {
    int j = slot(k, m2);
    if (j < 0)
      s->a[s->n - 1].axis = (int)in[k];
    else
      v[j] = in[k];
  }
}

/* ---- [np; per pair sa, sb, m2 - shift, base + m2 - shift values]: gi2 and qr3 ---- */

struct counted {
  int base;   /* values per pair besides its carried m2 */
  int shift;  /* m2 is carried as m2 - shift */
  int m2_min; /* the least carried m2 */
  carry_slot slot;
};

static int counted_get(const struct implicit_answers *s, const struct counted *L, double *buf, int cap)
{
  int need = 1;
  for (int i = 0; i < s->n; i++)
    need += 3 + L->base + s->a[i].m2 - L->shift;
  if (need > cap) return need;
  int k = 0;
  buf[k++] = s->n;
  for (int i = 0; i < s->n; i++) {
    const struct implicit_answer *p = &s->a[i];
    int count = L->base + p->m2 - L->shift;
    buf[k++] = p->sa;
    buf[k++] = p->sb;
    buf[k++] = p->m2 - L->shift;
    put(s, p, L->slot, count, buf + k);
    k += count;
  }
  return need;
}

/* count: the pair count (buf[0] without a layout's tag) */
static int counted_set(struct implicit_answers *s, const struct counted *L, int dim, int fr, int width,
                       double count, const double *buf, int n, char *msg, size_t len)
{
  int np = n > 0 ? (int)count : -1, k = 1, total = 0;
  if (n < 1 || np < 0 || np > n) {
    snprintf(msg, len, "carried state: bad pair count");
    return 1;
  }
  for (int i = 0; i < np; i++) { /* sizes first: nothing changes unless the whole state fits */
    int m = k + 2 < n ? (int)buf[k + 2] : -1;
    if (m < L->m2_min || m < 0 || m > n || k + 3 + L->base + m > n) {
      snprintf(msg, len, "carried state: truncated");
      return 1;
    }
    total += width + m + L->shift;
    k += 3 + L->base + m;
  }
  if (k != n) {
    snprintf(msg, len, "carried state: %d values, %d expected", n, k);
    return 1;
  }
  if (begin(s, dim, fr, width, np, total, msg, len)) return 1;
  k = 1;
  for (int i = 0; i < np; i++) {
    int m = (int)buf[k + 2];
    take(s, (int)buf[k], (int)buf[k + 1], m + L->shift, L->slot, L->base + m, buf + k + 3);
    k += 3 + L->base + m;
  }
  return 0;
}

static const struct counted gi2_layout = {.base = 8, .shift = 0, .m2_min = 1, .slot = slot_same};

int implicit_carry_gi2_get(const struct implicit_answers *s, double *buf, int cap)
{
  return counted_get(s, &gi2_layout, buf, cap);
}

int implicit_carry_gi2_set(struct implicit_answers *s, int width, const double *buf, int n, char *msg,
                           size_t len)
{
  return counted_set(s, &gi2_layout, 2, 1, width, n > 0 ? buf[0] : 0.0, buf, n, msg, len);
}

/* a carried state with friction counts its pairs from here (a frictionless one reads as before) */
#define QR3_FRICTION_STATE 1048576.0

static struct counted qr3_layout(int fr)
{
  return (struct counted){.base = 12 + 5 * fr, .shift = 1, .m2_min = 0, .slot = slot_qr3};
}

int implicit_carry_qr3_get(const struct implicit_answers *s, double *buf, int cap)
{
  const struct counted L = qr3_layout(s->fr);
  int need = counted_get(s, &L, buf, cap);
  if (need <= cap && s->fr) buf[0] += QR3_FRICTION_STATE;
  if (need <= cap) buf[0] = -1.0 - buf[0];
  return need;
}

int implicit_carry_qr3_set(struct implicit_answers *s, int width, const double *buf, int n, char *msg,
                           size_t len)
{
  const double count = n > 0 ? -1.0 - buf[0] : 0.0;
  const int fr = count >= QR3_FRICTION_STATE;
  const struct counted L = qr3_layout(fr);
  return counted_set(s, &L, 3, fr, width, fr ? count - QR3_FRICTION_STATE : count, buf, n, msg, len);
}

/* ---- gi3: [+-np; per pair sa, sb, axis, (m2), 12 + m2 values] ---- */

int implicit_carry_gi3_get(const struct implicit_answers *s, double *buf, int cap)
{
  int np = s->n, need = 1, general = 0;
  for (int i = 0; i < np; i++) {
    general |= s->a[i].m2 != 1;
    need += 3 + s->width + s->a[i].m2;
  }
  if (general) need += np;
  if (need > cap) return need;
  buf[0] = general ? -np : np;
  for (int i = 0, k = 1; i < np; i++) {
    const struct implicit_answer *p = &s->a[i];
    buf[k++] = p->sa;
    buf[k++] = p->sb;
    buf[k++] = p->axis;
    if (general) buf[k++] = p->m2;
    put(s, p, slot_same, s->width + p->m2, buf + k);
    k += s->width + p->m2;
  }
  return need;
}

/* The gi3 layout's sizes (the answers untouched): 0 with *total, or 1 when the pairs do not fit n values. */
static int gi3_check(const double *buf, int n, int np, int general, int width, int *total)
{
  int k = 1, i = 0;
  for (; i < np && k < n; i++) {
    int m2 = 1;
    if (general) {
      if (k + 3 >= n) return 1;
      m2 = (int)buf[k + 3];
      if (m2 < 1 || m2 > CONVEX_PART_MAX) return 1;
    }
    *total += width + m2;
    k += 3 + general + width + m2;
  }
  return np < 0 || i < np || k != n;
}

int implicit_carry_gi3_set(struct implicit_answers *s, int width, const double *buf, int n, char *msg,
                           size_t len)
{
  int np = n > 0 ? (int)fabs(buf[0]) : -1, general = n > 0 && buf[0] < 0, total = 0;
  if (gi3_check(buf, n, np, general, width, &total)) { /* nothing changes unless every pair fits */
    snprintf(msg, len, "carried state: %d values do not hold whole pairs", n);
    return 1;
  }
  if (begin(s, 3, 1, width, np, total, msg, len)) return 1;
  for (int i = 0, k = 1; i < np; i++) {
    int m2 = general ? (int)buf[k + 3] : 1, at = k + 3 + general;
    take(s, (int)buf[k], (int)buf[k + 1], m2, slot_same, width + m2, buf + at);
    s->a[i].axis = (int)buf[k + 2];
    k = at + width + m2;
  }
  return 0;
}

/* ---- tp3: [np; per pair sa, sb, axis, width values] (closed-form contacts: m2 = 0) ---- */

int implicit_carry_tp3_get(const struct implicit_answers *s, double *buf, int cap)
{
  int np = s->n, need = 1 + np * (3 + s->width);
  if (need > cap) return need;
  buf[0] = np;
  for (int i = 0, k = 1; i < np; i++, k += 3 + s->width) {
    const struct implicit_answer *p = &s->a[i];
    buf[k] = p->sa;
    buf[k + 1] = p->sb;
    buf[k + 2] = p->axis;
    put(s, p, slot_same, s->width, buf + k + 3);
  }
  return need;
}

int implicit_carry_tp3_set(struct implicit_answers *s, int width, const double *buf, int n, char *msg,
                           size_t len)
{
  int np = n > 0 && buf[0] >= 0.0 && buf[0] <= n ? (int)buf[0] : -1;
  if (np < 0 || n != 1 + np * (3 + width)) { /* nothing changes unless every pair fits */
    snprintf(msg, len, "carried state: %d values do not hold whole pairs", n);
    return 1;
  }
  if (begin(s, 3, 1, width, np, np * width, msg, len)) return 1;
  for (int i = 0, k = 1; i < np; i++, k += 3 + width) {
    take(s, (int)buf[k], (int)buf[k + 1], 0, slot_same, width, buf + k + 3);
    s->a[i].axis = (int)buf[k + 2];
  }
  return 0;
}

/* ---- qr2: [np; per pair sc, sr, 10 or 12 answers] or [np; -1; width; per pair sc, sr, m2, width answers,
 * l2_2 .. l2_m2] ---- */

int implicit_carry_qr2_get(const struct implicit_answers *s, double *buf, int cap)
{
  int width = 10 + 2 * s->fr, poly = 0, np = s->n, need = 1 + np * (2 + width);
  for (int i = 0; i < np; i++)
    if (s->a[i].m2 > 1) poly = 1;
  if (poly) {
    need = 3;
    for (int i = 0; i < np; i++)
      need += 3 + width + s->a[i].m2 - 1;
  }
  if (need > cap) return need;
  int k = 0;
  buf[k++] = np;
  if (poly) buf[k++] = -1.0, buf[k++] = width;
  for (int i = 0; i < np; i++) {
    const struct implicit_answer *p = &s->a[i];
    buf[k++] = p->sa;
    buf[k++] = p->sb;
    if (poly) buf[k++] = p->m2;
    put(s, p, slot_qr2, width, buf + k);
    k += width;
    for (int q = 1; poly && q < p->m2; q++) /* l2_2 .. l2_m2 */
      buf[k++] = s->val[p->at + 8 + q];
  }
  return need;
}

/* The polygon layout's sizes (the answers untouched): 0 with *total, or 1 with msg. */
static int qr2_poly_check(int width, int np, const double *buf, int n, int *total, char *msg, size_t len)
{
  int k = 3;
  if (width != 10 && width != 12) {
    snprintf(msg, len, "carried state: %g answers per pair (expected %d or %d)", buf[2], 10, 12);
    return 1;
  }
  for (int i = 0; i < np; i++) {
    if (k + 3 > n || !(buf[k + 2] >= 1.0 && buf[k + 2] <= CONVEX_PART_MAX) ||
        k + 3 + width + buf[k + 2] - 1 > n) {
      snprintf(msg, len, "carried state: pair %d does not fit in the %d values", i, n);
      return 1;
    }
    *total += (int)buf[k + 2];
    k += 3 + width + (int)buf[k + 2] - 1;
  }
  if (k != n) {
    snprintf(msg, len, "carried state: %d values, the %d pairs hold %d", n, np, k);
    return 1;
  }
  return 0;
}

int implicit_carry_qr2_set(struct implicit_answers *s, int width, const double *buf, int n, char *msg,
                           size_t len)
{
  int np = n > 0 ? (int)buf[0] : -1, w = 10, poly = n >= 3 && buf[1] == -1.0, m2s = np;
  if (!poly && np > 0 && n == 1 + np * (2 + 12)) w = 12; /* with friction */
  if (np < 0 || (!poly && n != 1 + np * (2 + w))) {
    snprintf(msg, len, "carried state: %d values do not hold whole pairs", n);
    return 1;
  }
  if (poly) {
    w = (int)buf[2];
    m2s = 0;
    if (qr2_poly_check(w, np, buf, n, &m2s, msg, len)) return 1;
  }
  if (begin(s, 2, w == 12, width, np, np * width + m2s, msg, len)) return 1;
  for (int i = 0, k = poly ? 3 : 1; i < np; i++) {
    int m2 = poly ? (int)buf[k + 2] : 1, at = k + 2 + poly;
    take(s, (int)buf[k], (int)buf[k + 1], m2, slot_qr2, w, buf + at);
    for (int q = 1; q < m2; q++)
      s->val[s->a[i].at + 8 + q] = buf[at + w + q - 1];
    k = at + w + m2 - 1;
  }
  return 0;
}
