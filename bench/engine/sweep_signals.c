/* sweep_signals.c — SIGINT and SIGTERM during a run's set-up: from program start (option files included)
 * until the task loop takes them over (sweep_run.c). Nothing of the run exists yet but, on rank 0, the run
 * folder it may have made, so a signal ends the set-up at once, whatever it is doing (a driver's reference
 * runs can take minutes): the handler removes the files set-up writes into the run folder that were not
 * there before (an earlier run's, continued with -resume, stay), and the folder when this run made it,
 * says so on stderr and ends the process with 128 + the signal, as a shell reports it. Only
 * async-signal-safe calls (write, unlink, rmdir, getpid, _exit) on text prepared beforehand. */
#include "sweep_impl.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define SETUP_FILES_MAX 8

static struct sigaction original[2]; /* SIGTERM, SIGINT as the process started */
static int saved;
static pid_t owner;       /* the process that set up: a forked child (a corpus check) only ends */
static int speak = 1;     /* rank 0 alone once the ranks are known */
static char head[2][192]; /* "[EXPERIMENT] interrupted by SIGINT during set-up, before any task ran" */
static char folder[SWEEP_PATH_MAX];
static char files[SETUP_FILES_MAX][SWEEP_PATH_MAX + 320];
static int n_files, fresh;
static char removed[SWEEP_PATH_MAX + 96], kept[SWEEP_PATH_MAX + 96];

static void say(const char *text) { (void)!write(STDERR_FILENO, text, strlen(text)); }

static void on_setup_signal(int sig)
{
  if (getpid() == owner && speak) {
    say(head[sig == SIGINT]);
    if (!folder[0]) {
      say(": nothing was made\n");
    } else {
      for (int i = 0; i < n_files; i++)
        unlink(files[i]);
      say(fresh && rmdir(folder) == 0 ? removed : kept);
    }
  }
  _exit(128 + sig);
}

void sweep_signals_setup(const char *experiment)
{
  if (!saved) {
    sigaction(SIGTERM, NULL, &original[0]);
    sigaction(SIGINT, NULL, &original[1]);
    saved = 1;
    owner = getpid();
    snprintf(head[0], sizeof head[0], "[%s] interrupted by SIGTERM during set-up, before any task ran",
             experiment);
    snprintf(head[1], sizeof head[1], "[%s] interrupted by SIGINT during set-up, before any task ran",
             experiment);
  }
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_setup_signal;
  sigemptyset(&sa.sa_mask);
  sigaddset(&sa.sa_mask, SIGINT);
  sigaddset(&sa.sa_mask, SIGTERM);
  sigaction(SIGTERM, &sa, NULL);
  /* a script's background job keeps ignoring Ctrl-C, as the shell meant */
  if (original[1].sa_handler != SIG_IGN) sigaction(SIGINT, &sa, NULL);
}

void sweep_signals_rank(int rank) { speak = rank == 0; }

void sweep_signals_folder(const struct sweep *s, int made)
{
  char all[SETUP_FILES_MAX][SWEEP_PATH_MAX + 320];
  int n = s ? sweep_setup_files(s, all, SETUP_FILES_MAX) : 0;
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  sigaddset(&block, SIGTERM);
  sigprocmask(SIG_BLOCK, &block, &old); /* the handler never sees a list half written */
  n_files = 0;
  folder[0] = '\0';
  fresh = made;
  for (int i = 0; i < n; i++)
    if (access(all[i], F_OK) != 0) memcpy(files[n_files++], all[i], sizeof all[i]);
  if (s) {
    snprintf(folder, sizeof folder, "%s", s->out);
    snprintf(removed, sizeof removed, "; the run folder %s it made is removed\n", s->out);
    snprintf(kept, sizeof kept, "; what it wrote in %s is removed, the files that were there are left\n",
             s->out);
  }
  sigprocmask(SIG_SETMASK, &old, NULL);
}

void sweep_signals_restore(void)
{
  if (!saved) return;
  sigaction(SIGTERM, &original[0], NULL);
  sigaction(SIGINT, &original[1], NULL);
}
