/* nonconvex.h — the nonconvex family: Egan, Berard & Trinkle's formulations for contacts at nonconvex
 * corners, where the standard model's linearised gaps disagree (a phantom collision, Fig. 1).
 *   nonconvex_max  Sec. IV eqs. 13-22, generalised in Sec. VI eq. 29, matrix form (appendix) eqs. 32-33:
 *                  per nonconvex group the max of the sides' gaps
 *   nonconvex_sum  Sec. V eqs. 24-28, Sec. VI eq. 30, matrix form eqs. 34-35: per group the sum of maxima
 * Shared: which potential contacts form groups (Secs. III, V-VII; nonconvex_groups.c) and the LCP blocks both
 * assemble (side columns W_y, W_x, friction columns W_f; nonconvex_lcp.c), declared in nonconvex_groups.h. */
#ifndef CB_NONCONVEX_H
#define CB_NONCONVEX_H

#include "formulation.h"
#include "nonconvex_groups.h"

#endif
