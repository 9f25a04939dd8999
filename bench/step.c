/* NAME    bench_step — per-step cost split into contact detection, assembly, solve and recovery.
 * PURPOSE issue 3 performance: the cannonball stacks of Anitescu-Hart Sec. 4B (21, 136, 210 discs: 6, 16,
 *         20 rows, h = 0.05, mu = 0.05, from rest, no walls) and n random convex polygons in a box
 *         (50/100/200, h = 0.01, after -warmup untimed steps so that they have piled up). Targets:
 *         detection + assembly <= 20 % of the step for stewart_trinkle + lemke on the 136-disc stack;
 *         detection about linear in the number of bodies.
 * USAGE   bench_step [-options_file bench/experiments/step.opts] [-scenes cannonball6,polygons50,...]
 *         [-formulation stewart_trinkle] [-cp_solver lemke] [-steps 5] [-warmup 40] [-cp_time_limit 30]
 *         [-output_dir results/step]
 * OUTPUT  a table on stdout and OUTPUT_DIR/step.csv (one row per scene; times are means per timed step).
 * Serial by design: timings of one process on one core. */
#include "scenes.h"
#include "simulation.h"

#include <petscsys.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define SCENES_MAX 16

static const char help[] =
    "bench_step: per-step time split into detection, assembly, solve and recovery.\n"
    "  -scenes a,b,...   cannonballR (R rows of discs) and polygonsN (N random polygons in a box)\n"
    "                    (default cannonball6,cannonball16,cannonball20,polygons50,polygons100,polygons200)\n"
    "  -formulation F    (default stewart_trinkle)   -cp_solver S (default lemke)\n"
    "  -steps N          timed steps per scene (default 5)\n"
    "  -warmup N         untimed steps before timing the polygon scenes (default 40)\n"
    "  -output_dir D     where step.csv goes (default results/step)\n";

struct stats {
  int bodies, steps, failed, warmup_failed;
  double contacts, rows, detect, assemble, solve, recover;
  char status[32];
};

static struct world *make_scene(const char *name, double *h)
{
  int n;
  if (sscanf(name, "cannonball%d", &n) == 1) {
    *h = 0.05;
    return scene_cannonball(n, 1.0, 0.05, 0);
  }
  if (sscanf(name, "polygons%d", &n) == 1) {
    *h = 0.01;
    return scene_polygon_box(n, 0.25, 7, 0.2);
  }
  return NULL;
}

static int run_scene(const char *name, const char *form, const char *solver_name, int steps, int warmup,
                     struct stats *out)
{
  double h = 0.0;
  struct simulation sim;
  int sim_bad = simulation_open(&sim, make_scene(name, &h), form, solver_name);
  struct world *w = sim.w;
  struct formulation *f = sim.f;
  struct solver *s = sim.s;
  struct stepper *st = sim.st;
  int rc = 1;
  memset(out, 0, sizeof *out);
  snprintf(out->status, sizeof out->status, "setup_error");
  if (!w) {
    fprintf(stderr, "error: unknown scene '%s' (cannonballR or polygonsN)\n", name);
    return 1;
  }
  if (sim_bad) goto cleanup;
  /* Polygons fall up to ~3 m (up to ~8 m/s): the threshold must cover a step's travel, or contacts are
   * found only after deep penetration (Anitescu-Hart: delta "dependent on the size of the velocity"). */
  w->threshold = strncmp(name, "polygons", 8) == 0 ? 0.05 : 0.01;
  out->bodies = w->nb;
  if (strncmp(name, "polygons", 8) == 0)
    for (int i = 0; i < warmup; i++) {
      struct step_record rec;
      if (stepper_step(st, w, f, s, h, &rec)) goto cleanup;
      out->warmup_failed += rec.failed;
    }
  for (int i = 0; i < steps; i++) {
    struct step_record rec;
    if (stepper_step(st, w, f, s, h, &rec)) goto cleanup;
    out->steps++;
    out->failed += rec.failed;
    out->contacts += rec.contacts;
    out->rows += rec.rows.total;
    out->detect += rec.seconds_detect;
    out->assemble += rec.seconds_assemble;
    out->solve += rec.seconds_solve;
    out->recover += rec.seconds_recover;
    if (rec.failed) snprintf(out->status, sizeof out->status, "%s", solve_status_name(rec.solve.status));
  }
  if (out->steps > 0) {
    double k = 1.0 / out->steps;
    out->contacts *= k, out->rows *= k, out->detect *= k, out->assemble *= k, out->solve *= k,
        out->recover *= k;
  }
  if (out->failed == 0) snprintf(out->status, sizeof out->status, "ok");
  rc = 0;
cleanup:
  simulation_close(&sim);
  return rc;
}

static void print_row(FILE *fp, int csv, const char *scene, const char *form, const char *solver,
                      const struct stats *r)
{
  double total = r->detect + r->assemble + r->solve + r->recover;
  double frac = total > 0.0 ? (r->detect + r->assemble) / total : 0.0;
  if (csv)
    fprintf(fp, "%s,%d,%s,%s,%d,%d,%s,%.1f,%.1f,%.6e,%.6e,%.6e,%.6e,%.6e,%.4f\n", scene, r->bodies, form,
            solver, r->steps, r->failed, r->status, r->contacts, r->rows, r->detect, r->assemble, r->solve,
            r->recover, total, frac);
  else
    fprintf(fp,
            "%-14s %6d %8.1f %8.1f %11.3e %11.3e %11.3e %11.3e %11.3e %6.3f  %d/%d %s (warm-up: %d failed)\n",
            scene, r->bodies, r->contacts, r->rows, r->detect, r->assemble, r->solve, r->recover, total, frac,
            r->failed, r->steps, r->status, r->warmup_failed);
}

int main(int argc, char **argv)
{
  char *scenes[SCENES_MAX], form[64] = "stewart_trinkle", solver_name[64] = "lemke",
                            dir[PETSC_MAX_PATH_LEN] = "results/step";
  PetscInt n_scenes = SCENES_MAX, steps = 5, warmup = 40;
  PetscBool set;
  int rc = 0;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-scenes", scenes, &n_scenes, &set));
  if (!set) {
    const char *def[] = {"cannonball6", "cannonball16", "cannonball20",
                         "polygons50",  "polygons100",  "polygons200"};
    n_scenes = 6;
    for (int i = 0; i < 6; i++)
      PetscCall(PetscStrallocpy(def[i], &scenes[i]));
  }
  PetscCall(PetscOptionsGetString(NULL, NULL, "-formulation", form, sizeof form, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-cp_solver", solver_name, sizeof solver_name, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-output_dir", dir, sizeof dir, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-steps", &steps, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-warmup", &warmup, NULL));
  if (!formulation_find(form) || !solver_find(solver_name) || steps < 1 || warmup < 0) {
    fprintf(stderr, "error: bad -formulation, -cp_solver, -steps or -warmup\n%s", help);
    rc = 2;
    goto done;
  }
  mkdir("results", 0777);
  mkdir(dir, 0777);
  char path[PETSC_MAX_PATH_LEN + 16];
  snprintf(path, sizeof path, "%s/step.csv", dir);
  FILE *csv = fopen(path, "w");
  if (!csv) {
    fprintf(stderr, "error: cannot write %s\n", path);
    rc = 2;
    goto done;
  }
  fprintf(csv, "scene,bodies,formulation,solver,steps,failed_steps,status,contacts,rows,detect_seconds,"
               "assemble_seconds,solve_seconds,recover_seconds,step_seconds,detect_assemble_fraction\n");
  printf("# %s + %s, times are means per step (s)\n", form, solver_name);
  printf("%-14s %6s %8s %8s %11s %11s %11s %11s %11s %6s  %s\n", "scene", "bodies", "contacts", "rows",
         "detect", "assemble", "solve", "recover", "step", "d+a", "failed");
  for (int i = 0; i < n_scenes; i++) {
    struct stats r;
    if (run_scene(scenes[i], form, solver_name, (int)steps, (int)warmup, &r)) rc = 2;
    print_row(stdout, 0, scenes[i], form, solver_name, &r);
    print_row(csv, 1, scenes[i], form, solver_name, &r);
    fflush(stdout);
    fflush(csv);
  }
  fclose(csv);
  printf("# wrote %s\n", path);
done:
  for (int i = 0; i < n_scenes; i++)
    PetscFree(scenes[i]);
  PetscCall(PetscFinalize());
  return rc;
}
