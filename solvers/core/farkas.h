/* farkas.h — certificates of an empty feasible set for the harness's judgement of an "infeasible" claim
 * (farkas.c: the Farkas alternative, found by GLPK and proved in exact rational arithmetic, GMP). */
#ifndef CB_FARKAS_H
#define CB_FARKAS_H

#include "cp.h"

/* 1 when a vector y with y >= 0 on the complementary rows, M'y <= 0 on complementary and = 0 on free
 * columns and q'y < 0 was found and proved exactly (*qty its q'y), so that no z is even feasible; 0 when
 * none was (the problem may still be infeasible: no certificate of this form, or past the exact check's
 * bounds), with *why saying so in words. Only linear problems whose components are complementary [0, inf)
 * or free have such a certificate. */
int cp_farkas_certificate(const struct cp_problem *p, double *qty, const char **why);

#endif
