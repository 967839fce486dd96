#include "control/sweep/child_processes.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

namespace fe::control {
namespace {

using Clock = std::chrono::steady_clock;

constexpr timespec kPoll{0, 100'000'000};  // 100 ms

struct Running {
  size_t index;
  pid_t pid;
  Clock::time_point start;
};

// Forks and execs; returns the child's pid, or -1 with *error saying why.
pid_t Launch(const ChildCommand& command, pid_t parent, std::string* error) {
  const int log = ::open(command.log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (log < 0) {
    *error = "cannot open " + command.log_path + ": " + std::strerror(errno);
    return -1;
  }
  const int null_in = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  // Built before fork: the child only calls async-signal-safe functions.
  std::vector<char*> argv;
  for (const std::string& a : command.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    // A sweep killed outright (SIGKILL) takes its runs with it rather than leaving them orphaned.
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (::getppid() != parent) ::_exit(128 + SIGTERM);
    // A process group of its own: a terminal's Ctrl-C reaches the sweep alone, which sends each
    // child one SIGTERM. Had the child its own SIGINT too, that second signal would end it at
    // once, without the outputs a stopped run writes.
    ::setpgid(0, 0);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    ::signal(SIGINT, SIG_DFL);
    ::signal(SIGTERM, SIG_DFL);
    ::signal(SIGHUP, SIG_DFL);
    ::dup2(log, STDOUT_FILENO);
    ::dup2(log, STDERR_FILENO);
    if (null_in >= 0) ::dup2(null_in, STDIN_FILENO);
    ::execv(argv[0], argv.data());
    const char* why = std::strerror(errno);
    const char prefix[] = "cannot run ";
    (void)!::write(STDERR_FILENO, prefix, sizeof(prefix) - 1);
    (void)!::write(STDERR_FILENO, argv[0], std::strlen(argv[0]));
    (void)!::write(STDERR_FILENO, ": ", 2);
    (void)!::write(STDERR_FILENO, why, std::strlen(why));
    (void)!::write(STDERR_FILENO, "\n", 1);
    ::_exit(127);
  }
  if (pid < 0) *error = std::string("cannot fork: ") + std::strerror(errno);
  ::close(log);
  if (null_in >= 0) ::close(null_in);
  return pid;
}

}  // namespace

std::vector<ChildExit> RunChildren(std::span<const ChildCommand> commands, size_t jobs,
                                   const ChildDone& done, int* stop_signal) {
  *stop_signal = 0;
  std::vector<ChildExit> exits(commands.size());
  sigset_t waited;
  sigemptyset(&waited);
  sigaddset(&waited, SIGINT);
  sigaddset(&waited, SIGTERM);
  sigaddset(&waited, SIGHUP);
  sigaddset(&waited, SIGCHLD);
  sigset_t previous;
  ::sigprocmask(SIG_BLOCK, &waited, &previous);
  const pid_t self = ::getpid();
  std::vector<Running> running;
  size_t next = 0;
  while (true) {
    while (*stop_signal == 0 && running.size() < std::max<size_t>(jobs, 1) &&
           next < commands.size()) {
      const size_t i = next++;
      const pid_t pid = Launch(commands[i], self, &exits[i].error);
      if (pid < 0) {
        done(i, exits[i], running.size());
        continue;
      }
      exits[i].started = true;
      running.push_back(Running{i, pid, Clock::now()});
    }
    if (running.empty()) break;
    // A thread of this process that does not block SIGCHLD (none here, but a library may start
    // one) would take it and drop it: the wait also ends every kPoll (100 ms), and the children are
    // asked whatever woke it.
    const int sig = ::sigtimedwait(&waited, nullptr, &kPoll);
    if ((sig == SIGINT || sig == SIGTERM || sig == SIGHUP) && *stop_signal == 0) {
      *stop_signal = sig;
      for (const Running& r : running) ::kill(r.pid, SIGTERM);
    }
    // SIGCHLDs coalesce: one may stand for several children, so every one is asked.
    for (auto it = running.begin(); it != running.end();) {
      int status = 0;
      if (::waitpid(it->pid, &status, WNOHANG) != it->pid) {
        ++it;
        continue;
      }
      ChildExit& e = exits[it->index];
      e.wall_s = std::chrono::duration<double>(Clock::now() - it->start).count();
      if (WIFEXITED(status)) e.exit_code = WEXITSTATUS(status);
      if (WIFSIGNALED(status)) e.signal = WTERMSIG(status);
      const size_t index = it->index;
      it = running.erase(it);
      done(index, e, running.size());
    }
  }
  // A signal that came after the last child ended would, unblocked, end this process before its
  // caller writes what finished: it is taken here instead, as a stop.
  const timespec now{0, 0};
  for (int sig; (sig = ::sigtimedwait(&waited, nullptr, &now)) > 0;) {
    if (sig != SIGCHLD && *stop_signal == 0) *stop_signal = sig;
  }
  ::sigprocmask(SIG_SETMASK, &previous, nullptr);
  return exits;
}

}  // namespace fe::control
