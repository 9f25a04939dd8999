/* quasi_rigid_state.c — the carried state of the 2D quasi-rigid step (Chakraborty, Berard, Akella & Trinkle,
 * Sec. 5.1; quasi_rigid.c): the previous step's answers that shift the unknowns and give the damping's
 * delta^l. Layout: [nprev; per pair sc, sr, its QR_FREE + QR_COMP answers, and p_t, sigma when the run has
 * friction]. When a pair's R is a polygon (m2 > 1 multipliers) it is [nprev; -1; width; per pair sc, sr, m2,
 * its width answers, l2_2 .. l2_m2]: -1 is never a shape index, so the first layout (every state without
 * polygons, as captured before they were taken) still reads. */
#include "quasi_rigid_state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int qr_state_export(const struct qr_prev *p, int np, int fr, double *buf, int cap)
{
  int width = QR_FREE + QR_COMP + 2 * fr, poly = 0, need = 1 + np * (2 + width);
  for (int i = 0; i < np; i++)
    if (p[i].m2 > 1) poly = 1;
  if (poly) {
    need = 3;
    for (int i = 0; i < np; i++)
      need += 3 + width + p[i].m2 - 1;
  }
  if (need > cap) return need;
  int k = 0;
  buf[k++] = np;
  if (poly) buf[k++] = -1.0, buf[k++] = width;
  for (int i = 0; i < np; i++) {
    buf[k++] = p[i].sc;
    buf[k++] = p[i].sr;
    if (poly) buf[k++] = p[i].m2;
    memcpy(buf + k, p[i].blk, (size_t)width * sizeof(double));
    k += width;
    if (poly) {
      memcpy(buf + k, p[i].l2x, (size_t)(p[i].m2 - 1) * sizeof(double));
      k += p[i].m2 - 1;
    }
  }
  return need;
}

/* The layout with polygons; 0, or 1 with msg. */
static int parse_poly(struct qr_prev *p, int np, const double *buf, int n, char *msg, size_t len)
{
  int width = (int)buf[2], k = 3;
  if (width != QR_FREE + QR_COMP && width != QR_BLK) {
    snprintf(msg, len, "carried state: %g answers per pair (expected %d or %d)", buf[2], QR_FREE + QR_COMP,
             QR_BLK);
    return 1;
  }
  for (int i = 0; i < np; i++) {
    if (k + 3 > n || !(buf[k + 2] >= 1.0 && buf[k + 2] <= CONVEX_PART_MAX) ||
        k + 3 + width + buf[k + 2] - 1 > n) {
      snprintf(msg, len, "carried state: pair %d does not fit in the %d values", i, n);
      return 1;
    }
    p[i].sc = (int)buf[k];
    p[i].sr = (int)buf[k + 1];
    p[i].m2 = (int)buf[k + 2];
    k += 3;
    memset(p[i].blk, 0, sizeof p[i].blk);
    memcpy(p[i].blk, buf + k, (size_t)width * sizeof(double));
    k += width;
    memcpy(p[i].l2x, buf + k, (size_t)(p[i].m2 - 1) * sizeof(double));
    k += p[i].m2 - 1;
  }
  if (k != n) {
    snprintf(msg, len, "carried state: %d values, the %d pairs hold %d", n, np, k);
    return 1;
  }
  return 0;
}

int qr_state_import(struct qr_prev **pp, int *cap, int *np_out, const double *buf, int n, char *msg,
                    size_t len)
{
  int np = n > 0 ? (int)buf[0] : -1, width = QR_FREE + QR_COMP, poly = n >= 3 && buf[1] == -1.0;
  if (!poly && np > 0 && n == 1 + np * (2 + QR_BLK)) width = QR_BLK; /* with friction */
  if (np < 0 || (!poly && n != 1 + np * (2 + width))) {
    snprintf(msg, len, "carried state: %d values do not hold whole pairs", n);
    return 1;
  }
  struct qr_prev *p = realloc(*pp, (size_t)(np ? np : 1) * sizeof *p);
  if (!p) {
    snprintf(msg, len, "out of memory");
    return 1;
  }
  *pp = p;
  *cap = np ? np : 1;
  *np_out = 0;
  if (poly) {
    if (parse_poly(p, np, buf, n, msg, len)) return 1;
  } else
    for (int i = 0, k = 1; i < np; i++, k += 2 + width) {
      p[i].sc = (int)buf[k];
      p[i].sr = (int)buf[k + 1];
      p[i].m2 = 1;
      memset(p[i].blk, 0, sizeof p[i].blk);
      memcpy(p[i].blk, buf + k + 2, (size_t)width * sizeof(double));
    }
  *np_out = np;
  return 0;
}
