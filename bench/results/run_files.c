/* run_files.c — what the runner and the results tools both need of a run directory: bounded path
 * formatting, time stamps, experiment.txt look-ups, which statuses count as success, and which text a
 * run's files can hold (run_files.h). */
#define _GNU_SOURCE /* getline, strdup under -std=c11 */
#include "run_files.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int sweep_path(char *dst, size_t n, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int len = vsnprintf(dst, n, fmt, ap);
  va_end(ap);
  if (len < 0 || (size_t)len >= n) {
    fprintf(stderr, "error: path too long: %.60s...\n", dst);
    return 1;
  }
  return 0;
}

void sweep_iso_now(char *buf, size_t n)
{
  time_t t = time(NULL);
  struct tm tm;
  gmtime_r(&t, &tm);
  strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* "key value" line lookup in experiment.txt; returns a malloc'd value or NULL. */
char *sweep_experiment_value(const char *path, const char *key)
{
  FILE *fp = fopen(path, "r");
  if (!fp) return NULL;
  char *line = NULL, *out = NULL;
  size_t cap = 0, klen = strlen(key);
  ssize_t n;
  while (!out && (n = getline(&line, &cap, fp)) > 0) {
    if (line[n - 1] == '\n') line[--n] = '\0';
    if (strncmp(line, key, klen) == 0 && (line[klen] == ' ' || line[klen] == '\0'))
      out = strdup(line[klen] ? line + klen + 1 : "");
  }
  free(line);
  fclose(fp);
  return out;
}

int sweep_status_is_success(const char *status)
{
  return strcmp(status, "ok") == 0 || strcmp(status, "converged") == 0;
}

int sweep_status_is_failure(const char *status)
{
  return !sweep_status_is_success(status) && strcmp(status, "not_applicable") != 0 &&
         strcmp(status, "corrupt_input") != 0;
}

void run_text_shown(const char *text, char *out, size_t n)
{
  size_t k = 0;
  for (; text[k] && k + 4 < n; k++)
    out[k] = (unsigned char)text[k] < 0x20 || text[k] == 0x7f ? '?' : text[k];
  snprintf(out + k, n - k, "%s", text[k] ? "..." : "");
}

int run_text_check(const char *text, enum run_text kind, char *why, size_t n)
{
  for (size_t i = 0; text[i]; i++) {
    unsigned char c = (unsigned char)text[i];
    const char *what = NULL;
    char code[32];
    if (c == '\n')
      what = "a newline";
    else if (c == '\r')
      what = "a carriage return";
    else if (c < 0x20 || c == 0x7f)
      what = code, snprintf(code, sizeof code, "a control character (0x%02x)", c);
    else if (c == ',' && kind != RUN_TEXT_PATH)
      what = "a comma (the run's tables are comma-separated)";
    else if (c == '/' && kind == RUN_TEXT_NAME)
      what = "a '/' (a name is one folder)";
    if (what) {
      char shown[96];
      run_text_shown(text, shown, sizeof shown);
      snprintf(why, n, "%s at character %zu of '%s'", what, i + 1, shown);
      return 1;
    }
  }
  return 0;
}
