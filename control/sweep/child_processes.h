// Runs commands as child processes, at most `jobs` at a time, in order, each with its output
// (stdout and stderr) in a log file and in a process group of its own. SIGINT, SIGTERM or SIGHUP to
// this process (a terminal's Ctrl-C reaches it alone) stops the launching and sends SIGTERM to the
// children still running; it then waits for them. The signals (and
// SIGCHLD) are blocked and waited for, not handled: nothing runs in a signal handler.
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace fe::control {

struct ChildCommand {
  std::vector<std::string> argv;  // argv[0]: the program's path
  std::string log_path;           // created or truncated
};

struct ChildExit {
  bool started = false;
  std::string error;   // why it could not be started (its log could not be opened, fork failed)
  int exit_code = -1;  // when it exited
  int signal = 0;      // when a signal ended it
  double wall_s = 0;
};

// Called as each child ends, with the number of children still running.
using ChildDone = std::function<void(size_t index, const ChildExit& exit, size_t running)>;

// Runs `commands` and returns each one's end (not started: stopped before its turn, or `error`
// says why) and, through *stop_signal, the signal that stopped the launching (0: none; one that
// came after the last child ended counts too). A child whose program cannot be run exits 127,
// its log saying why.
std::vector<ChildExit> RunChildren(std::span<const ChildCommand> commands, size_t jobs,
                                   const ChildDone& done, int* stop_signal);

}  // namespace fe::control
