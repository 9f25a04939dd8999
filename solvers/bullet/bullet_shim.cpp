// bullet_shim.cpp — the one C++ file: Bullet's MLCP solver objects behind bullet.h's C interface. No
// exception leaves it (an allocation failure is a status).
#include <BulletDynamics/MLCPSolvers/btDantzigSolver.h>
#include <BulletDynamics/MLCPSolvers/btLemkeSolver.h>
#include <BulletDynamics/MLCPSolvers/btSolveProjectedGaussSeidel.h>
#include <cmath>
#include <new>

extern "C" {
#include "bullet.h"
}

struct bullet_ws {
  btMatrixXu A;
  btVectorXu b, x, lo, hi;
  btAlignedObjectArray<int> findex;
  btDantzigSolver dantzig;
  btLemkeSolver lemke;
  btSolveProjectedGaussSeidel pgs;
  int n = 0;
};

extern "C" struct bullet_ws *bullet_ws_create(void) { return new (std::nothrow) bullet_ws; }

extern "C" void bullet_ws_destroy(struct bullet_ws **ws)
{
  delete *ws;
  *ws = nullptr;
}

static double bullet_clip(double v, double clip) { return v > clip ? clip : (v < -clip ? -clip : v); }

extern "C" int bullet_ws_load(struct bullet_ws *ws, int n, const double *M, const double *q, const double *lo,
                              const double *hi, const int *findex, double clip)
{
  try {
    ws->n = n;
    ws->A.resize(n, n);
    ws->b.resize(n);
    ws->x.resize(n);
    ws->lo.resize(n);
    ws->hi.resize(n);
    ws->findex.resize(n);
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++)
        ws->A.setElem(i, j, M[static_cast<size_t>(i) * n + j]);
      ws->b[i] = -q[i];
      ws->x[i] = 0.0;
      ws->lo[i] = bullet_clip(lo[i], clip);
      ws->hi[i] = bullet_clip(hi[i], clip);
      ws->findex[i] = findex ? findex[i] : -1;
    }
  } catch (const std::bad_alloc &) {
    return 1;
  }
  return 0;
}

extern "C" int bullet_ws_solve(struct bullet_ws *ws, enum bullet_method method, int iterations, int plain_lcp,
                               double *z)
{
  bool ok = false;
  try {
    switch (method) {
    case BULLET_DANTZIG:
      ok = ws->dantzig.solveMLCP(ws->A, ws->b, ws->x, ws->lo, ws->hi, ws->findex, iterations);
      break;
    case BULLET_LEMKE:
      ws->lemke.m_maxLoops = iterations;
      ws->lemke.m_useLoHighBounds = !plain_lcp;
      ok = ws->lemke.solveMLCP(ws->A, ws->b, ws->x, ws->lo, ws->hi, ws->findex, iterations);
      break;
    case BULLET_PGS:
      ok = ws->pgs.solveMLCP(ws->A, ws->b, ws->x, ws->lo, ws->hi, ws->findex, iterations);
      break;
    }
  } catch (const std::bad_alloc &) {
    return 0;
  }
  for (int i = 0; i < ws->n; i++)
    z[i] = ws->x[i];
  return ok ? 1 : 0;
}
