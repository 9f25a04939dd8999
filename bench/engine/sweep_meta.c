/* sweep_meta.c — meta.json: the build's git sha and dirty flag (and the run directory's checkout's), host,
 * ranks, PETSc/GSL/MPI versions, options, start/end, wall time, parallel efficiency Σ(task seconds)/(ranks ×
 * wall) and the schedule ratio wall / max(Σ/ranks, longest task), and what the timings depend on: the CPU
 * model, the BLAS threads and kernel set in use (blas_core, and blas_core_detected: OpenBLAS's own pick, see
 * blas_core.c) and the environment that sets them (OPENBLAS_NUM_THREADS, OMP_NUM_THREADS, OPENBLAS_CORETYPE),
 * and the SLURM job (SLURM_JOB_ID, SLURM_ARRAY_JOB_ID, SLURM_ARRAY_TASK_ID; null when absent). A run writes
 * it at its start (finished false) and end; a job-array slice writes meta.K-of-N.json, and bench_merge writes
 * the run's meta.json from the merged table (without the machine fields: the merge may run elsewhere; the
 * slices' files keep them). */
#include "blas_core.h"
#include "build_info.h"
#include "sweep_impl.h"
#include "table.h"

#include <cblas.h>
#include <glob.h>
#include <gsl/gsl_version.h>
#include <math.h>
#include <petscsys.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void json_string(FILE *fp, const char *s)
{
  fputc('"', fp);
  for (; s && *s; s++) {
    if (*s == '"' || *s == '\\')
      fputc('\\', fp), fputc(*s, fp);
    else if ((unsigned char)*s < 0x20)
      fprintf(fp, "\\u%04x", (unsigned char)*s);
    else
      fputc(*s, fp);
  }
  fputc('"', fp);
}

/* First line of a command's output, or "" (git may be absent or this not a checkout). */
static void command_line_out(const char *cmd, char *buf, size_t n)
{
  buf[0] = '\0';
  FILE *p = popen(cmd, "r");
  if (!p) return;
  if (fgets(buf, (int)n, p)) buf[strcspn(buf, "\n")] = '\0';
  pclose(p);
}

/* The checkout of the run's working directory: its commit ("" when it is none) and whether tracked files
 * other than results/ (baselines being rewritten by make baseline) differ from it. */
static void checkout_head(char *sha, size_t n, int *dirty)
{
  char count[8];
  command_line_out("git rev-parse HEAD 2>/dev/null", sha, n);
  command_line_out("git status --porcelain --untracked-files=no -- ':(top)' ':(top,exclude)results' "
                   "2>/dev/null | head -n 1 | wc -l",
                   count, sizeof count);
  *dirty = atoi(count) > 0;
}

int sweep_build_differs(FILE *say)
{
  char sha[64];
  int dirty = 0;
  checkout_head(sha, sizeof sha, &dirty);
  /* another commit, or a build from changes the checkout no longer has (a patch taken out again); a checkout
   * edited since a clean build is the everyday edit-and-rebuild, and meta.json says clean rightly */
  int differs = sha[0] && (strcmp(sha, build_git_sha) != 0 || (build_git_dirty && !dirty));
  if (differs && say)
    fprintf(say,
            "warning: the programs were built from %s%s, the checkout here is %s%s: meta.json's git_sha is "
            "the build's, checkout_git_sha this checkout's\n",
            build_git_sha[0] ? build_git_sha : "an unknown tree", build_git_dirty ? " (dirty)" : "", sha,
            dirty ? " (dirty)" : "");
  return differs;
}

/* The fields every meta.json starts with: what ran, from which code (the build's commit; the run
 * directory's checkout beside it, which may differ), on what. */
static void meta_head(FILE *fp, const char *experiment, const char *title, const char *host)
{
  char sha[64], petsc[128], mpi[MPI_MAX_LIBRARY_VERSION_STRING];
  int len, dirty = 0;
  checkout_head(sha, sizeof sha, &dirty);
  PetscGetVersion(petsc, sizeof petsc);
  MPI_Get_library_version(mpi, &len); /* allowed before MPI_Init (bench_merge never starts MPI) */
  mpi[strcspn(mpi, "\n,")] = '\0';
  fprintf(fp, "{\n  \"experiment\": ");
  json_string(fp, experiment);
  fprintf(fp, ",\n  \"title\": ");
  json_string(fp, title);
  fprintf(fp, ",\n  \"git_sha\": ");
  json_string(fp, build_git_sha);
  fprintf(fp, ",\n  \"git_dirty\": %s,\n  \"checkout_git_sha\": ", build_git_dirty ? "true" : "false");
  json_string(fp, sha);
  fprintf(fp, ",\n  \"checkout_git_dirty\": %s,\n  \"host\": ", dirty ? "true" : "false");
  json_string(fp, host);
  fprintf(fp, ",\n  \"petsc_version\": ");
  json_string(fp, petsc);
  fprintf(fp, ",\n  \"gsl_version\": ");
  json_string(fp, GSL_VERSION);
  fprintf(fp, ",\n  \"mpi_version\": ");
  json_string(fp, mpi);
}

/* ,"key": the environment variable's value, or null when it is not set */
static void json_env(FILE *fp, const char *key, const char *var)
{
  const char *v = getenv(var);
  fprintf(fp, ",\n  \"%s\": ", key);
  if (v)
    json_string(fp, v);
  else
    fprintf(fp, "null");
}

/* The first "model name" of /proc/cpuinfo, or "" (another OS, or an architecture that does not say). */
static void cpu_model(char *buf, size_t n)
{
  char line[512];
  buf[0] = '\0';
  FILE *fp = fopen("/proc/cpuinfo", "r");
  if (!fp) return;
  while (fgets(line, sizeof line, fp))
    if (strncmp(line, "model name", 10) == 0) {
      const char *v = strchr(line, ':');
      if (v) {
        v += 1 + strspn(v + 1, " \t");
        snprintf(buf, n, "%.*s", (int)strcspn(v, "\n"), v);
      }
      break;
    }
  fclose(fp);
}

/* What the timings of this rank depend on besides the code: the machine, the BLAS threads, the job. */
static void meta_machine(FILE *fp)
{
  char model[256];
  cpu_model(model, sizeof model);
  fprintf(fp, ",\n  \"cpu_model\": ");
  json_string(fp, model);
  fprintf(fp, ",\n  \"blas_threads\": %d", openblas_get_num_threads());
  fprintf(fp, ",\n  \"blas_core\": ");
  json_string(fp, blas_core_in_use());
  fprintf(fp, ",\n  \"blas_core_detected\": ");
  json_string(fp, blas_core_detected());
  json_env(fp, "openblas_num_threads", "OPENBLAS_NUM_THREADS");
  json_env(fp, "omp_num_threads", "OMP_NUM_THREADS");
  json_env(fp, "openblas_coretype", "OPENBLAS_CORETYPE");
  json_env(fp, "slurm_job_id", "SLURM_JOB_ID");
  json_env(fp, "slurm_array_job_id", "SLURM_ARRAY_JOB_ID");
  json_env(fp, "slurm_array_task_id", "SLURM_ARRAY_TASK_ID");
}

int sweep_write_meta(struct sweep *s, int finished)
{
  char path[SWEEP_PATH_MAX + 64], tmp[SWEEP_PATH_MAX + 80];
  if (s->slice_tag[0])
    sweep_path(path, sizeof path, "%s/meta.%s.json", s->out, s->slice_tag);
  else
    sweep_path(path, sizeof path, "%s/meta.json", s->out);
  sweep_path(tmp, sizeof tmp, "%s.tmp", path);
  double wall = (finished ? s->t_end : MPI_Wtime()) - s->t_start;
  double eff = wall > 0.0 ? s->task_seconds_sum / (s->size * wall) : 0.0;
  double bound = s->task_seconds_sum / s->size;
  if (s->task_seconds_max > bound) bound = s->task_seconds_max;
  FILE *fp = fopen(tmp, "w");
  if (!fp) return 1;
  meta_head(fp, s->d->experiment, sweep_title(s), s->host);
  meta_machine(fp);
  fprintf(fp, ",\n  \"ranks\": %d", s->size);
  fprintf(fp, ",\n  \"options\": ");
  json_string(fp, s->fingerprint);
  fprintf(fp, ",\n  \"command\": ");
  json_string(fp, s->argv_line);
  fprintf(fp, ",\n  \"slice\": ");
  json_string(fp, s->slice_tag);
  fprintf(fp, ",\n  \"start\": ");
  json_string(fp, s->start_iso);
  fprintf(fp, ",\n  \"end\": ");
  if (finished)
    json_string(fp, s->end_iso);
  else
    fprintf(fp, "null");
  fprintf(
      fp,
      ",\n  \"finished\": %s,\n  \"tasks_total\": %ld,\n  \"tasks_selected\": %ld,\n  \"tasks_run\": %ld,\n"
      "  \"tasks_failed\": %ld,\n  \"wall_seconds\": %.6g,\n  \"task_seconds_sum\": %.6g,\n"
      "  \"task_seconds_max\": %.6g,\n  \"parallel_efficiency\": %.4f,\n  \"schedule_ratio\": %.4f\n}\n",
      finished ? "true" : "false", s->total, s->n_selected, s->n_done, s->n_failed, wall, s->task_seconds_sum,
      s->task_seconds_max, eff, bound > 0.0 ? wall / bound : 0.0);
  int bad = ferror(fp) != 0;
  bad |= fclose(fp) != 0;
  return bad || rename(tmp, path);
}

int sweep_write_merged_meta(const char *run_dir)
{
  char path[SWEEP_PATH_MAX + 64], tmp[SWEEP_PATH_MAX + 80], host[256] = "";
  struct table_stream t;
  glob_t g = {0};
  char *exp = NULL, *title = NULL, *opts = NULL, *tasks = NULL;
  int rc = 1, got = 0;
  if (sweep_path(path, sizeof path, "%s/tasks.csv", run_dir) || table_stream_open(&t, path, TABLE_STRICT)) {
    table_stream_close(&t);
    return 1;
  }
  int cst = table_stream_column(&t, "status"), csec = table_stream_column(&t, "task_seconds");
  long failed = 0, nrow = 0;
  double sum = 0.0, max = 0.0;
  while ((got = table_stream_next(&t)) == 1) { /* a row at a time: a million-task run is not held */
    nrow++;
    if (cst >= 0 && sweep_status_is_failure(t.field[cst])) failed++;
    char *end = NULL;
    double x = csec >= 0 && t.field[csec][0] ? strtod(t.field[csec], &end) : NAN;
    if (end && !*end && isfinite(x)) sum += x, max = x > max ? x : max;
  }
  if (got) goto cleanup;
  sweep_path(path, sizeof path, "%s/experiment.txt", run_dir);
  exp = sweep_experiment_value(path, "experiment"), title = sweep_experiment_value(path, "title");
  opts = sweep_experiment_value(path, "options"), tasks = sweep_experiment_value(path, "tasks");
  long total = tasks ? strtol(tasks, NULL, 10) : nrow;
  char now[32];
  sweep_iso_now(now, sizeof now);
  gethostname(host, sizeof host - 1);
  sweep_path(path, sizeof path, "%s/meta.json", run_dir);
  sweep_path(tmp, sizeof tmp, "%s.tmp", path);
  FILE *fp = fopen(tmp, "w");
  if (!fp) goto cleanup;
  meta_head(fp, exp ? exp : "", title ? title : "", host);
  fprintf(fp, ",\n  \"options\": ");
  json_string(fp, opts ? opts : "");
  fprintf(fp, ",\n  \"merged\": ");
  json_string(fp, now);
  fprintf(
      fp,
      ",\n  \"finished\": %s,\n  \"tasks_total\": %ld,\n  \"tasks_run\": %ld,\n  \"tasks_missing\": %ld,\n"
      "  \"tasks_failed\": %ld,\n  \"task_seconds_sum\": %.6g,\n  \"task_seconds_max\": %.6g,\n  "
      "\"slices\": [",
      total > nrow ? "false" : "true", total, nrow, total > nrow ? total - nrow : 0L, failed, sum, max);
  sweep_path(path, sizeof path, "%s/meta.*-of-*.json", run_dir);
  if (glob(path, 0, NULL, &g) == 0)
    for (size_t i = 0; i < g.gl_pathc; i++) {
      const char *base = strrchr(g.gl_pathv[i], '/');
      fprintf(fp, "%s", i ? ", " : "");
      json_string(fp, base ? base + 1 : g.gl_pathv[i]);
    }
  fprintf(fp, "]\n}\n");
  int bad = ferror(fp) != 0;
  bad |= fclose(fp) != 0;
  sweep_path(path, sizeof path, "%s/meta.json", run_dir);
  rc = bad || rename(tmp, path);
cleanup:
  globfree(&g);
  free(exp);
  free(title);
  free(opts);
  free(tasks);
  table_stream_close(&t);
  return rc;
}
