/* implicit_carry.h — the states the geometrically implicit formulations carry between steps (formulation.h
 * carry_get / carry_set; Chakraborty, Berard, Akella & Trinkle): the answers of implicit_answers.h in the
 * four layouts problem corpora were captured in, so they are fixed. Each _get writes into buf when the state
 * fits in cap and returns the length it needs; each _set replaces the answers (nothing changes unless the
 * whole state fits its layout) and returns 0, or 1 with msg. width: implicit_step_width of the formulation.
 *   gi2  geometric_implicit 2D  [np; per pair sa, sb, m2, its 8 + m2 values]
 *   gi3  geometric_implicit 3D  [np; per pair sa, sb, axis, its 13 values] with every body 2 one function,
 *                               else [-np; per pair sa, sb, axis, m2, its 12 + m2 values]
 *   tp3  tzitzouris_pang 3D     [np; per pair sa, sb, axis, its width values] (no multipliers: m2 = 0)
 *   qr2  quasi_rigid 2D         [np; per pair sc, sr, its 10 answers (12 with friction: p_t, sigma)], else,
 *                               with a polygon, [np; -1; width; per pair sc, sr, m2, its width answers, l2_2
 *                               .. l2_m2]
 *   qr3  quasi_rigid 3D         [-1 - (np + 2^20 with friction); per pair sc, sr, m2 - 1, its 11 + m2
 *                               answers (+ p_t, p_o, p_r, sigma and the frame's axis with friction)]
 * geometric_implicit puts 0 (2D) or 1 (3D) in front; quasi_rigid tells its two apart by the first value's
 * sign. */
#ifndef CB_IMPLICIT_CARRY_H
#define CB_IMPLICIT_CARRY_H

#include "implicit_answers.h"

int implicit_carry_gi2_get(const struct implicit_answers *s, double *buf, int cap);
int implicit_carry_gi2_set(struct implicit_answers *s, int width, const double *buf, int n, char *msg,
                           size_t len);
int implicit_carry_gi3_get(const struct implicit_answers *s, double *buf, int cap);
int implicit_carry_gi3_set(struct implicit_answers *s, int width, const double *buf, int n, char *msg,
                           size_t len);
int implicit_carry_tp3_get(const struct implicit_answers *s, double *buf, int cap);
int implicit_carry_tp3_set(struct implicit_answers *s, int width, const double *buf, int n, char *msg,
                           size_t len);
int implicit_carry_qr2_get(const struct implicit_answers *s, double *buf, int cap);
int implicit_carry_qr2_set(struct implicit_answers *s, int width, const double *buf, int n, char *msg,
                           size_t len);
int implicit_carry_qr3_get(const struct implicit_answers *s, double *buf, int cap);
int implicit_carry_qr3_set(struct implicit_answers *s, int width, const double *buf, int n, char *msg,
                           size_t len);

#endif
