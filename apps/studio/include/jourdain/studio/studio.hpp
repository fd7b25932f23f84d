// Jourdain Studio's server (`jourdain studio`): the page that draws and edits netlists
// as schematics, and the requests it makes (apps/studio/README.md). It serves one user on
// this machine: it binds the loopback address unless told otherwise, every request must
// carry the access token printed with the address, files are read and written inside the
// workspace folder only, and runs are child processes (`jourdain run`) that cannot take
// the server down.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "jourdain/registry.hpp"
#include "jourdain/session/trust.hpp"

namespace jourdain::studio {

struct StudioOptions {
  std::filesystem::path workspace;  // the folder whose files the page may open and save
  std::filesystem::path initial;    // a netlist in it to open first, or empty
  std::string host = "127.0.0.1";   // another address exposes the workspace to the network
  unsigned short port = 8765;       // 0: any free port
  std::string token;                // empty: a random one
  // The program that runs netlists (this one: `jourdain run` and `jourdain linearize` as
  // child processes), and what it is given besides: the plugins the user loaded and the
  // trust flags, so that a run from the page loads what the command line would.
  std::filesystem::path program;
  std::vector<std::string> run_arguments;
  session::Trust trust;
  // Asked between requests: true stops the server (Ctrl-C). Its runs are then stopped as
  // a Ctrl-C stops them (what they wrote is kept) and waited for.
  std::function<bool()> stop_requested;
  // Told the address to open (with the token) once the server listens.
  std::function<void(const std::string& url)> listening;
};

// Serves until stop_requested; returns 0, or throws Error when the address cannot be bound.
int serve(Registry& registry, const StudioOptions& options);

}  // namespace jourdain::studio
