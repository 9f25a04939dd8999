/* lemke_crash.h — what a crash-started pivoting method (path_crash.c) needs from Lemke (lemke.c) beyond the
 * solver table: the covering vector of the warm start. Lemke's warm start (-cp_warm_start) makes the support
 * of z on entry the starting basis B_0 and, by default, takes d = B_0 e (every basic value raised alike).
 * With the point cover, d = B_0 (x~ - B_0^-1 q) instead, x~ the basic values of the point z on entry (z_i on
 * the basic z's, max(0, (M z + q)_i) on the basic w's, each at least 1e-2 max(1, max x~) so that the start is
 * not degenerate): at z0 = 1 the starting basis reproduces that point (up to the floor), so the path q + z0 d
 * runs from the crash point to the solution (Dirkse & Ferris 1995, PATH's restart). */
#ifndef CB_LEMKE_CRASH_H
#define CB_LEMKE_CRASH_H

struct solver;

/* s must be a "lemke" solver; on = 1 selects the point cover for its warm starts, 0 the default d = B_0 e. */
void lemke_set_point_cover(struct solver *s, int on);
/* on = 1: a warm start that ends on a secondary ray returns ray_termination with z the basic z's of that
 * almost-complementary basis (no_answer set) instead of restarting cold, so that the caller can restart from
 * there (PATH restarts its path search from the point reached); 0: the cold restart (default). */
void lemke_set_ray_no_cold(struct solver *s, int on);

#endif
